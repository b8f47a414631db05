"""Hardening round three, names: valid schemas the engine used to rename its way out of, and names
that shadowed or were shadowed.

1. A subschema that bounds a value in place inside a type (an array's items, a map's or a pattern's
   values, a union's arms, nested arrays) is named by the IR from its path: the engine can write
   such bounds only on a name, and it used to invent one (MCG403 "generated without a pointer: Tag").
2. A definition named like something the models module imports or defines (`StrictStr`, `Field`,
   `MISSING`, `const`, ...) gets the documented `Model` suffix in models.py and keeps its spec name
   as the package's export; the reserved names are derived from the libraries' namespaces.
3. Numeric bounds reach the Field as the schema wrote them and are compared exactly: a bounded
   number is `JSONNumber` (int | float), so 10**29 < 100000000000000000000000000001 holds.
4. A definition spelt like a name the revision package binds itself (`lazy_names`, `TYPE_CHECKING`,
   a submodule, the messages API: `Message`, `ErrorResponse`, `parse_message`) is exported under its
   class name; the package's own name keeps working.

Each process-level case runs `mcp-codegen generate --schema` (tests/bad_input_support.py), then imports
the package it wrote and validates and dumps values through it.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from codegen import generate_schema
from codegen.analysis import naming

from . import bad_input_support as support
from .conftest import GENERATED


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return support.cli_env(tmp_path / "cache")


@contextmanager
def imported(out: Path) -> Iterator[ModuleType]:
    """The package at out, imported under its folder's name (and forgotten afterwards)."""
    sys.path.insert(0, str(out.parent))
    try:
        yield importlib.import_module(out.name)
    finally:
        sys.path.remove(str(out.parent))
        for name in [m for m in sys.modules if m == out.name or m.startswith(out.name + ".")]:
            del sys.modules[name]


def _generate(tmp_path: Path, env: dict[str, str], package: str, schema: dict[str, Any]) -> tuple[support.Run, Path]:
    path = tmp_path / f"{package}.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    out = tmp_path / "out" / package
    result = support.run(["generate", "-q", "--schema", str(path), "--out", str(out)], env=env)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    support.assert_bounded(result, support.GENERATION)
    return result, out


def _refused(model: Any, payload: Any) -> None:
    with pytest.raises(ValidationError):
        model.model_validate_json(json.dumps(payload))


def _kept(model: Any, payload: Any) -> None:
    """payload validates, and dumps back as the same JSON (integers stay integers)."""
    assert model.model_validate_json(json.dumps(payload)).model_dump(mode="json") == payload


# -- 1. bounded parts of types -------------------------------------------------------------------

STRING = {"type": "string", "minLength": 1}
COUNT = {"type": "integer", "minimum": 1}

SHAPES: dict[str, Any] = {
    "tags": {"type": "array", "items": STRING},
    "matrix": {"type": "array", "items": {"type": "array", "items": COUNT}},
    "labels": {"type": "object", "additionalProperties": STRING},
    "prefixed": {"type": "object", "patternProperties": {"^x-": STRING}},
    "either": {"anyOf": [STRING, {"type": "boolean"}]},
    "maybe": {"oneOf": [COUNT, {"type": "null"}]},
    "groups": {"type": "object", "additionalProperties": {"type": "array", "items": STRING}},
    "pairs": {"type": "array", "items": {"anyOf": [STRING, COUNT]}},
    "short": {"type": "array", "items": {"type": "array", "maxItems": 2}},
    "nullable": {"type": "array", "items": {"type": ["string", "null"], "minLength": 2}},
    "tuple": {"type": "array", "prefixItems": [STRING, COUNT]},
}


def test_the_red_team_array_of_bounded_strings_generates(tmp_path: Path, env: dict[str, str]) -> None:
    schema = {"$defs": {"Tags": {"type": "object", "properties": {"tags": {"type": "array", "items": STRING}}}}}
    result, out = _generate(tmp_path, env, "r3_tags", schema)
    with imported(out) as package:
        _kept(package.Tags, {"tags": ["a", "bc"]})
        _refused(package.Tags, {"tags": ["a", ""]})
        assert package.Tags(tags=["x"]).model_dump(mode="json") == {"tags": ["x"]}
        assert package.TagsTagsItem.__value__ is not None  # the bounded item, named from its path
    support.record("names: array items with minLength (was MCG403 Tag)", result, "valid: exit 0, models asserted")


def test_bounded_parts_of_types_generate_exact_models(tmp_path: Path, env: dict[str, str]) -> None:
    schema = {
        "$defs": {
            "Holder": {"type": "object", "properties": SHAPES},
            "Words": {"type": "array", "items": STRING},
            "Choice": {"anyOf": [STRING, COUNT]},
            "Scores": {"type": "object", "additionalProperties": {"type": "number", "maximum": 1}},
        }
    }
    result, out = _generate(tmp_path, env, "r3_shapes", schema)
    with imported(out) as package:
        holder = package.Holder
        good: dict[str, Any] = {
            "tags": ["a"], "matrix": [[1, 2]], "labels": {"k": "v"}, "prefixed": {"x-a": "v"}, "either": True,
            "maybe": None, "groups": {"g": ["a"]}, "pairs": ["a", 3], "short": [[1, 2]], "nullable": ["ab", None],
            "tuple": ["a", 1],
        }  # fmt: skip
        _kept(holder, good)
        _kept(holder, {"either": "s", "maybe": 7})
        for bad in (
            {"tags": [""]}, {"matrix": [[0]]}, {"labels": {"k": ""}}, {"prefixed": {"x-a": ""}}, {"either": ""},
            {"maybe": 0}, {"groups": {"g": [""]}}, {"pairs": [""]}, {"pairs": [0]}, {"short": [[1, 2, 3]]},
            {"nullable": ["a"]},
        ):  # fmt: skip
            _refused(holder, bad)
        words, choice, scores = (TypeAdapter(getattr(package, n)) for n in ("Words", "Choice", "Scores"))
        assert words.validate_json('["a"]') == ["a"]
        assert choice.validate_json("2") == 2 and choice.validate_json('"b"') == "b"
        assert scores.dump_python(scores.validate_json('{"a": 1, "b": 0.5}'), mode="json") == {"a": 1, "b": 0.5}
        for adapter, bad_json in ((words, '[""]'), (choice, '""'), (choice, "0"), (scores, '{"a": 2}')):
            with pytest.raises(ValidationError):
                adapter.validate_json(bad_json)
    support.record("names: bounded items, values, arms, nested arrays", result, "valid: exit 0, models asserted")


# Bounded scalars, a value each allows and one each refuses; and the places a type can hold them.
SCALARS: dict[str, tuple[dict[str, Any], Any, Any]] = {
    "string": ({"type": "string", "pattern": "^a+$", "maxLength": 3}, "aa", "aaaa"),
    "integer": ({"type": "integer", "exclusiveMinimum": -3, "multipleOf": 2}, -2, -4),
    "number": ({"type": "number", "minimum": 0.5, "maximum": 9007199254740993}, 9007199254740993, 0),
    "nullable_number": ({"type": ["number", "null"], "exclusiveMaximum": 10**20 + 1}, 10**20, 10**20 + 1),
    "array": ({"type": "array", "minItems": 1, "items": {"type": "boolean"}}, [True], []),
    "object": ({"type": "object", "minProperties": 1}, {"k": 1}, {}),
    "reference": ({"$ref": "#/$defs/Text", "maxLength": 2}, "ab", "abc"),
    "enum": ({"enum": ["a", "bb"], "maxLength": 5}, "bb", "c"),
    "types": ({"type": ["integer", "string"], "minimum": 3}, 3, 2),
}
PLACES: dict[str, tuple[Any, Any]] = {  # (schema around S, value around v) as functions of S and v
    "property": (lambda s: s, lambda v: v),
    "items": (lambda s: {"type": "array", "items": s}, lambda v: [v]),
    "map": (lambda s: {"type": "object", "additionalProperties": s}, lambda v: {"k": v}),
    "pattern": (lambda s: {"type": "object", "patternProperties": {"^k": s}}, lambda v: {"k1": v}),
    "arm": (lambda s: {"anyOf": [s, {"type": "boolean"}]}, lambda v: v),
    "nullable_arm": (lambda s: {"oneOf": [s, {"type": "null"}]}, lambda v: v),
    "nested": (lambda s: {"type": "array", "items": {"type": "array", "items": s}}, lambda v: [[v]]),
    "map_of_arrays": (lambda s: {"type": "object", "additionalProperties": {"type": "array", "items": s}}, lambda v: {"k": [v]}),
    "array_of_maps": (lambda s: {"type": "array", "items": {"type": "object", "additionalProperties": s}}, lambda v: [{"k": v}]),
    "items_arm": (lambda s: {"type": "array", "items": {"anyOf": [s, {"type": "null"}]}}, lambda v: [v]),
}  # fmt: skip


@pytest.mark.parametrize("scalar", sorted(SCALARS))
def test_every_place_of_a_bounded_schema_generates_and_keeps_its_bounds(scalar: str, tmp_path: Path) -> None:
    """A table: each bounded schema at every place a type can hold one, as a property of a model and
    as a definition of its own; all generate, and each keeps its bounds there."""
    schema, good, bad = SCALARS[scalar]
    properties = {place: wrap(schema) for place, (wrap, _) in PLACES.items()}
    definitions = {f"D{naming.pascal(place)}": wrap(schema) for place, (wrap, _) in PLACES.items()}
    document = {"$defs": {"Holder": {"type": "object", "properties": properties}, "Text": {"type": "string"}, **definitions}}
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = tmp_path / f"r3_table_{scalar}"
    generate_schema(path, out=out)
    with imported(out) as package:
        for place, (_, around) in PLACES.items():
            _kept(package.Holder, {place: around(good)})
            _refused(package.Holder, {place: around(bad)})
            adapter = TypeAdapter(getattr(package, f"D{naming.pascal(place)}"))
            assert adapter.dump_python(adapter.validate_json(json.dumps(around(good))), mode="json") == around(good)
            with pytest.raises(ValidationError):
                adapter.validate_json(json.dumps(around(bad)))


# -- 2. definitions named like the models module's own names --------------------------------------

IMPORTED_NAMES = ("StrictStr", "Field", "ConfigDict", "Annotated", "Literal", "BaseModel", "Any", "StrictInt",
                  "TypeAliasType", "Union", "Tag", "SerializeAsAny", "StringConstraints", "MCPModel", "JSONNumber")  # fmt: skip


def _user(names: list[str]) -> dict[str, Any]:
    """A model that makes the module import much: references to each name, a constant, bounds, a union."""
    return {
        "type": "object",
        "properties": {
            **{f"f{i}": {"$ref": f"#/$defs/{name}"} for i, name in enumerate(names)},
            "kind": {"const": "user"},
            "label": {"type": "string", "minLength": 1, "pattern": "^[a-z]+$"},
            "score": {"type": "number", "maximum": 1},
            "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        },
        "required": ["kind"],
    }


def test_definitions_named_like_the_models_imports_get_the_model_suffix(tmp_path: Path, env: dict[str, str]) -> None:
    names = [*IMPORTED_NAMES, "MISSING", "const", "structural", "most_specific"]
    definitions = {name: {"type": "object", "properties": {"v": {"type": "integer"}}} for name in names}
    result, out = _generate(tmp_path, env, "r3_imports", {"$defs": {**definitions, "User": _user(names)}})
    source = (out / "models.py").read_text(encoding="utf-8")
    with imported(out) as package:
        for name in IMPORTED_NAMES:
            cls = getattr(package, name)  # exported under its spec name
            assert cls.__name__ == name + "Model" and f"class {name}Model(" in source, name
            assert cls(v=1).model_dump(mode="json") == {"v": 1}
        assert package.MISSINGModel.__name__ == "MISSINGModel"  # the package never exports a MISSING
        assert package.const.__name__ == "Const" and package.const(v=1).v == 1  # the definition, not _base's helper
        assert package.most_specific.__name__ == "MostSpecific"  # likewise
        user = package.User.model_validate_json('{"kind": "user", "f0": {"v": 2}, "label": "ab", "score": 1}')
        assert isinstance(user.f0, package.StrictStr) and user.f0.v == 2
        assert package.User(label="ab").model_dump(mode="json") == {"kind": "user", "label": "ab"}
        _refused(package.User, {"kind": "user", "label": "A"})
    support.record("names: definitions named StrictStr, Field, MISSING, const, ...", result, "valid: exit 0, models asserted")


def test_every_public_library_name_as_a_definition(tmp_path: Path, env: dict[str, str]) -> None:
    """All of them at once (the derived set, not a few): each generates, is exported under its spec
    name where Python can spell it, and its class never shadows what the module imports."""
    candidates = sorted(n for n in naming.module_names() | {n for n in dir(builtins) if n[:1].isupper()} if n.isidentifier())
    by_class = {naming.class_name(naming.base_name(n)): n for n in reversed(candidates)}  # `final` and `Final`: one
    names = sorted(by_class.values())
    assert len(names) > 300
    definitions = {name: {"type": "object", "properties": {"v": {"type": "string"}}} for name in names}
    user = _user(["StrictStr", "Field", "Annotated"])
    result, out = _generate(tmp_path, env, "r3_every_name", {"$defs": {**definitions, "User": user}})
    with imported(out) as package:
        models = package.models
        for name in names:
            cls = getattr(models, naming.class_name(naming.base_name(name)))
            assert cls.__name__ != name or name not in naming.module_names(), name  # never the imported name
            exported = getattr(package, naming.export_name(name, cls.__name__, naming.PACKAGE_NAMES))
            assert exported is cls and cls(v="x").model_dump(mode="json") == {"v": "x"}, name
        _kept(package.User, {"kind": "user", "label": "ab", "f0": {"v": "s"}})
    support.record("names: every public library name as a definition", result, "valid: exit 0, models asserted")


def test_a_property_named_const_beside_a_constant(tmp_path: Path, env: dict[str, str]) -> None:
    schema = {
        "$defs": {
            "Option": {
                "type": "object",
                "properties": {"const": {"type": "string"}, "type": {"const": "option"}, "zeta": {"const": 1}},
                "required": ["type", "zeta"],
            }
        }
    }
    result, out = _generate(tmp_path, env, "r3_const_field", schema)
    with imported(out) as package:
        option = package.Option(const_="x")
        assert option.model_dump(mode="json") == {"const": "x", "type": "option", "zeta": 1}
        _kept(package.Option, {"const": "y", "type": "option", "zeta": 1})
    support.record("names: a property named const beside a constant (was MCG404)", result, "valid: exit 0")


# -- 3. exact numbers ----------------------------------------------------------------------------

BIG = 100000000000000000000000000001  # 10**29 + 1: no float holds it


def test_numeric_bounds_are_written_and_compared_exactly(tmp_path: Path, env: dict[str, str]) -> None:
    properties = {
        "i": {"type": "integer", "maximum": 9007199254740995, "minimum": -9007199254740995},
        "n": {"type": "number", "exclusiveMaximum": BIG},
        "m": {"type": "number", "multipleOf": 3},
        "e": {"type": "number", "maximum": 1e30},
        "h": {"type": ["number", "null"], "minimum": -BIG},
        "k": {"type": "integer", "multipleOf": 9007199254740993},
        "c": {"const": 9007199254740993},
        "v": {"enum": [9007199254740993, 1]},
        "s": {"type": "string", "maxLength": 9007199254740993},
        "a": {"type": "array", "items": {"type": "number", "maximum": BIG}},
        "u": {"anyOf": [{"type": "number", "exclusiveMinimum": BIG}, {"type": "string"}]},
    }
    result, out = _generate(tmp_path, env, "r3_numbers", {"$defs": {"N": {"type": "object", "properties": properties}}})
    source = (out / "models.py").read_text(encoding="utf-8")
    for written in (f"lt={BIG}", "le=9007199254740995", "multiple_of=3)", f"le={10**30}", f"ge=-{BIG}", f"gt={BIG}"):
        assert written in source, written
    assert "e+29" not in source and "3.0" not in source
    with imported(out) as package:
        model = package.N
        for good in (
            {"i": 9007199254740995}, {"n": 10**29}, {"n": 1e29}, {"m": 9007199254740993}, {"m": 6.0}, {"e": 10**30},
            {"h": None}, {"h": -BIG}, {"k": 2 * 9007199254740993}, {"c": 9007199254740993}, {"v": 9007199254740993},
            {"a": [BIG, 0.5]}, {"u": BIG + 1}, {"u": "x"}, {"n": 50},
        ):  # fmt: skip
            _kept(model, good)
        for bad in (
            {"i": 9007199254740996}, {"n": BIG}, {"n": 10**29 + 2}, {"m": 9007199254740994}, {"m": 4.5}, {"e": 10**30 + 1},
            {"h": -BIG - 1}, {"k": 9007199254740994}, {"c": 9007199254740992}, {"v": 9007199254740992},
            {"a": [BIG + 1]}, {"u": BIG}, {"n": "1"},
        ):  # fmt: skip
            _refused(model, bad)
        assert type(model.model_validate_json('{"n": 50}').n) is int  # an int stays an int
    support.record("names: numeric bounds exact (10**29 + 1, 2**53 + 1, 1e30)", result, "valid: exit 0, models asserted")


# -- 4. names the package binds itself -------------------------------------------------------------

ENVELOPE = {"jsonrpc": {"const": "2.0"}, "id": {"$ref": "#/$defs/RequestId"}}
RPC: dict[str, Any] = {
    "RequestId": {"type": ["string", "integer"]},
    "Result": {"type": "object", "properties": {"_meta": {"type": "object"}}},
    "JSONRPCRequest": {
        "type": "object",
        "properties": {**ENVELOPE, "method": {"type": "string"}, "params": {"type": "object"}},
        "required": ["jsonrpc", "id", "method"],
    },
    "JSONRPCNotification": {
        "type": "object",
        "properties": {"jsonrpc": {"const": "2.0"}, "method": {"type": "string"}, "params": {"type": "object"}},
        "required": ["jsonrpc", "method"],
    },
    "JSONRPCResultResponse": {
        "type": "object",
        "properties": {**ENVELOPE, "result": {"$ref": "#/$defs/Result"}},
        "required": ["jsonrpc", "id", "result"],
    },
    "JSONRPCErrorResponse": {
        "type": "object",
        "properties": {
            **ENVELOPE,
            "error": {
                "type": "object",
                "properties": {"code": {"type": "integer"}, "message": {"type": "string"}},
                "required": ["code", "message"],
            },
        },
        "required": ["jsonrpc", "id", "error"],
    },
    "JSONRPCMessage": {
        "anyOf": [
            {"$ref": f"#/$defs/{name}"}
            for name in ("JSONRPCRequest", "JSONRPCNotification", "JSONRPCResultResponse", "JSONRPCErrorResponse")
        ]
    },
    "PingRequest": {
        "type": "object",
        "properties": {**ENVELOPE, "method": {"const": "ping"}},
        "required": ["jsonrpc", "id", "method"],
    },
    "ClientRequest": {"anyOf": [{"$ref": "#/$defs/PingRequest"}]},
}
# spec name -> the name the package exports it under
PACKAGE_COLLISIONS = {
    "Message": "MessageModel",
    "ErrorResponse": "ErrorResponseModel",
    "ResultResponse": "ResultResponseModel",
    "parse_message": "ParseMessage",
    "union_arms": "UnionArms",
    "lazy_names": "LazyNames",
    "TYPE_CHECKING": "TYPECHECKING",
    "annotations": "Annotations",
    "models": "Models",
    "messages": "Messages",
    "MISSING": "MISSINGModel",
    "REQUESTS": "REQUESTS",  # messages.py's, not the package's: the class is REQUESTSModel
}


def test_definitions_named_like_the_package_s_own_names(tmp_path: Path, env: dict[str, str]) -> None:
    definitions = {name: {"type": "object", "properties": {"v": {"type": "integer"}}} for name in PACKAGE_COLLISIONS}
    result, out = _generate(tmp_path, env, "r3_package", {"$defs": {**RPC, **definitions}})
    assert (out / "messages.py").is_file()
    with imported(out) as package:
        for spec_name, exported in PACKAGE_COLLISIONS.items():
            cls = getattr(package, exported)
            assert cls.__module__ == f"{out.name}.models", spec_name
            assert cls(v=3).model_dump(mode="json") == {"v": 3}
            assert cls.model_validate_json('{"v": 4}').v == 4
        # the package's own names still work, and are what they were
        ping = package.parse_message('{"jsonrpc": "2.0", "id": 1, "method": "ping"}')
        assert isinstance(ping, package.PingRequest) and ping.id == 1
        assert package.ErrorResponse.__module__ == f"{out.name}.messages"
        assert package.union_arms.__module__ == f"{out.name}._runtime.base"  # the runtime's helper, re-exported
        assert callable(package.lazy_names) and package.TYPE_CHECKING is False
        assert isinstance(package.models, ModuleType) and isinstance(package.messages, ModuleType)
        assert package.REQUESTS.__name__ == "REQUESTSModel" and isinstance(package.messages.REQUESTS, dict)
        exports = set(package.__all__)
        assert len(exports) == len(package.__all__) and not exports & naming.PACKAGE_NAMES
    support.record("names: definitions named Message, parse_message, lazy_names, models, ...", result, "valid: exit 0")


# Names Python binds on every module, and those a revision package's __init__ binds itself.
MODULE_DUNDERS = (
    "__name__", "__doc__", "__file__", "__path__", "__spec__", "__loader__", "__package__", "__cached__",
    "__builtins__", "__dict__", "__all__", "__getattr__", "__dir__",
)  # fmt: skip
BOUND_NAMES = (*MODULE_DUNDERS, "lazy_names", "TYPE_CHECKING", "_base", "_runtime")


def test_every_export_is_the_definition_never_what_the_package_binds(tmp_path: Path, env: dict[str, str]) -> None:
    """Issue 36, finding 5: a definition spelt like a name the package's module binds (a dunder the
    interpreter or its __init__ binds, a helper, a submodule) is exported under its class name, and
    every name in __all__ is the definition's class or the messages API, never the module's own."""
    definitions = {name: {"type": "object", "properties": {"v": {"type": "integer"}}} for name in BOUND_NAMES}
    result, out = _generate(tmp_path, env, "r4_bound", {"$defs": {**RPC, **definitions}})
    with imported(out) as package:
        models = package.models
        classes = {id(value) for key, value in vars(models).items() if not key.startswith("__")}
        for export in package.__all__:
            value = getattr(package, export)
            owner = package.messages if export in naming.MESSAGES_API else models
            assert id(value) in classes or value is getattr(owner, export), export
        for name in BOUND_NAMES:
            cls = getattr(models, naming.class_name(naming.base_name(name)))
            exported = [export for export in package.__all__ if getattr(package, export) is cls]
            assert exported == [cls.__name__], name  # the class name: the spec name is the module's
            assert cls.model_validate_json('{"v": 4}').v == 4
        assert package.__name__ == out.name and callable(package.__getattr__) and callable(package.lazy_names)
    support.record("names: definitions named __getattr__, __all__, __name__, lazy_names, _base, _runtime, ...", result, "valid: exit 0")


def test_without_a_messages_module_the_api_names_stay_the_definitions(tmp_path: Path, env: dict[str, str]) -> None:
    definitions = {name: {"type": "object", "properties": {"v": {"type": "integer"}}} for name in ("Message", "ErrorResponse")}
    result, out = _generate(tmp_path, env, "r3_no_messages", {"$defs": definitions})
    assert not (out / "messages.py").exists()
    with imported(out) as package:
        assert package.Message.__name__ == "MessageModel"  # the class avoids messages.py's names ...
        assert package.Message(v=1).model_dump(mode="json") == {"v": 1}  # ... the export is the spec name
        assert package.ErrorResponse.model_validate_json('{"v": 2}').v == 2
    support.record("names: Message and ErrorResponse without a messages module", result, "valid: exit 0")


# -- the reserved names are complete --------------------------------------------------------------


def _bound_names(tree: ast.Module) -> set[str]:
    """Names a module binds at its top level (inside module-level if/try blocks too), but the model
    classes it imports from `.models`."""
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                found.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
            elif isinstance(node, ast.Import):
                found.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and not (node.level == 1 and node.module == "models"):
                found.update(alias.asname or alias.name for alias in node.names)
            elif isinstance(node, ast.If | ast.Try):
                visit(node.body)
                visit(node.orelse)

    visit(tree.body)
    return found


def _imports_models(tree: ast.Module) -> bool:
    return any(isinstance(n, ast.ImportFrom) and n.level == 1 and n.module == "models" for n in ast.walk(tree))


def test_reserved_names_cover_every_generated_module() -> None:
    """Every name a generated module binds that a class could be spelt as (helpers importing model
    classes), and every name a revision package's __init__ binds beside its exports, is reserved."""
    builtin = set(dir(builtins))
    packages = [p for p in sorted((GENERATED / "mcp_models").iterdir()) if (p / "models.py").is_file()]
    assert len(packages) >= 6
    for package in packages:
        submodules = {p.stem for p in package.iterdir() if p.suffix == ".py" or (p.is_dir() and p.name != "__pycache__")}
        assert submodules - {"__init__"} <= naming.PACKAGE_NAMES, package.name
        wire_classes: set[str] = set()
        for module in sorted(package.glob("*.py")):
            tree = ast.parse(module.read_text(encoding="utf-8"))
            if module.name == "__init__.py":
                exports = set(ast.literal_eval(next(
                    n.value for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "__all__"
                )))  # fmt: skip
                own = {n for n in _bound_names(tree) - exports if not (n.startswith("__") and n.endswith("__"))}
                assert own <= naming.PACKAGE_NAMES, (package.name, own - naming.PACKAGE_NAMES)
            elif module.name != "models.py" and _imports_models(tree):
                names = _bound_names(tree)
                wire_classes |= {n for n in names if n.endswith("Message") and n != "Message"}
                classy = {n for n in names - wire_classes if n[:1].isupper()}
                assert classy <= naming.module_names() | builtin, (module, classy - naming.module_names() - builtin)
