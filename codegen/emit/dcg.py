"""The only importer of datamodel-code-generator: one in-process call per revision.

The engine is steered by its own options, by the template data keyed by our names (a class's
constants, its wire names, ...) and by the schema lowered for it (lower.py: properties already
under their attribute names); its output is checked against the IR so that every pointer is known
to have become exactly the class the IR named.
"""

from __future__ import annotations

import ast
import hashlib
import json
import warnings
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from codegen.analysis import ir, specific
from codegen.analysis.naming import BASE_CLASS, CONSTANT_DEFAULT, NUMBER, STRUCTURAL
from codegen.errors import fail, flat
from codegen.resources import templates_dir

BASE_MODULE = "_base"
STRUCTURAL_MODULE = "_structural"
MOST_SPECIFIC = "most_specific"
WIRE_NAMES = "wire_names"
LEFT_TO_RIGHT = "LEFT_TO_RIGHT"
AS_ANY = "AS_ANY"
# MISSING from pydantic_core: pydantic re-exports it lazily, and pyright then sees an `object`, not
# the sentinel type (`str | MISSING` would read as `str | Unknown` in strict mode).
IMPORT_OVERRIDES = {BASE_CLASS: f".{BASE_MODULE}", NUMBER: f".{BASE_MODULE}", "MISSING": "pydantic_core"}


def constant_default(value: str | int | bool) -> str:
    """The source of a constant property's default: `const("2.0")`, filled in when built in Python."""
    literal = repr(value)  # a Python literal of the same value (a JSON one is not, past the BMP)
    return f"{CONSTANT_DEFAULT}({literal})"


def engine_version() -> str:
    from datamodel_code_generator import get_version

    return get_version()


def engine_options(revision: ir.Revision, header: str) -> dict[str, Any]:
    from datamodel_code_generator.enums import DataModelType, InputFileType, StrictTypes, TargetPydanticVersion
    from datamodel_code_generator.format import PythonVersion
    from datamodel_code_generator.parser import LiteralType

    template_data: dict[str, dict[str, Any]] = defaultdict(dict)
    additional_imports: list[str] = []
    import_overrides = dict(IMPORT_OVERRIDES)
    specific_unions = specific.in_use(revision)
    for entity in specific_unions:
        assert entity.specific is not None
        data = template_data[entity.pointer_in_engine_input]
        data["specific_arms"] = [revision.name_of(arm) for arm, _ in entity.specific.arms]
        data["any_arm"] = specific.any_arm_name(entity.name)
        data["any_arm_tag"] = specific.ANY_ARM_TAG
        # keys from the schema enter the source as Python literals (repr: a JSON literal escapes a
        # character past the BMP as two surrogates, which Python reads as two characters)
        data["specific_nested"] = "(" + "".join(f"{key!r}, " for key in specific.nested_keys(entity.specific)) + ")"
    by_pointer = revision.by_pointer()
    for entity in revision.entities:
        if entity.dispatch is not None:
            arms = [revision.name_of(arm) for arm in entity.arm_order]
            template_data[entity.pointer_in_engine_input]["structural_arms"] = arms
            if _is_message_union(entity, by_pointer):
                template_data[entity.pointer_in_engine_input]["read_as_python"] = True
        if entity.same_as is not None:  # the model itself under a second name: callable, isinstance-able
            template_data[entity.pointer_in_engine_input]["same_as"] = revision.name_of(entity.same_as)
        if revision.options.extra_keys == "sieve" and entity.open and not entity.closed:
            template_data[entity.pointer_in_engine_input]["keeps_extra"] = True
        renamed = entity.wire_names if entity.kind is ir.Kind.MODEL else {}
        if renamed:  # the class's wire names, in its config (lower.py gives the engine attribute names)
            pairs = ", ".join(_wire_pair(k, v, revision.options.width) for k, v in renamed.items())
            template_data[entity.pointer_in_engine_input]["wire_names"] = f"{WIRE_NAMES}({{{pairs}}})"
        if entity.deprecated is not None and entity.kind is ir.Kind.MODEL:
            # PEP 702 for the type checkers only (category=None): reading a message that holds
            # one must not warn; an alias cannot carry it (its docstring says it, lower.py)
            template_data[entity.pointer_in_engine_input]["deprecated"] = text_literal(entity.deprecated, revision.options.width)
        if entity.deprecated is not None and entity.kind is not ir.Kind.MODEL:
            template_data[entity.pointer_in_engine_input]["deprecated_note"] = docstring_text(
                entity.deprecated if entity.deprecated.lower().startswith("deprecated") else f"Deprecated: {entity.deprecated}",
                revision.options.width,
            )
        if any(f.deprecated is not None for f in entity.fields):
            # pydantic's: a DeprecationWarning when read as an attribute, `deprecated` in its JSON Schema
            template_data[entity.pointer_in_engine_input]["deprecated_fields"] = {
                f.python_name: text_literal(f.deprecated, revision.options.width)
                for f in entity.fields
                if f.deprecated is not None
            }
        constants = {f.python_name: constant_default(f.constant[0]) for f in entity.fields if f.constant}
        # what the spec says an absent property means: filled in when built, required when read
        absent = {f.wire_name: f.absent_means for f in entity.fields if f.absent_means is not None}
        constants |= {f.python_name: constant_default(f.absent_means) for f in entity.fields if f.absent_means is not None}
        if constants:
            template_data[entity.pointer_in_engine_input]["constants"] = constants
        if absent:
            # pairs, not a dict: an immutable class attribute (ruff's RUF012), read into a dict by _base
            pairs = ", ".join(f"({k!r}, {v!r})" for k, v in sorted(absent.items()))
            template_data[entity.pointer_in_engine_input]["absent_means"] = f"({pairs},)"
    structural = any(entity.dispatch is not None for entity in revision.entities)
    if structural or specific_unions:  # tagged unions whose values dump as their own class
        additional_imports += ["typing.Annotated", "typing.Union", "pydantic.Tag", f"{BASE_MODULE}.{AS_ANY}"]
        import_overrides[AS_ANY] = f".{BASE_MODULE}"
    if structural:
        additional_imports.append(f"{STRUCTURAL_MODULE}.{STRUCTURAL}")
        import_overrides[STRUCTURAL] = f".{STRUCTURAL_MODULE}"
    if specific_unions:
        additional_imports += [f"{BASE_MODULE}.{MOST_SPECIFIC}", f"{BASE_MODULE}.{LEFT_TO_RIGHT}"]
        import_overrides[MOST_SPECIFIC] = f".{BASE_MODULE}"
        import_overrides[LEFT_TO_RIGHT] = f".{BASE_MODULE}"
    if revision.options.extra_keys == "sieve" and any(e.open for e in revision.entities):
        additional_imports.append("pydantic.ConfigDict")
    if any(entity.kind is ir.Kind.MODEL and entity.wire_names for entity in revision.entities):
        additional_imports += ["pydantic.ConfigDict", f"{BASE_MODULE}.{WIRE_NAMES}"]
        import_overrides[WIRE_NAMES] = f".{BASE_MODULE}"
    if any(field.constant or field.absent_means for entity in revision.entities for field in entity.fields):
        additional_imports.append(f"{BASE_MODULE}.{CONSTANT_DEFAULT}")
        import_overrides[CONSTANT_DEFAULT] = f".{BASE_MODULE}"
    if any(e.deprecated is not None and e.kind is ir.Kind.MODEL for e in revision.entities):
        additional_imports.append("typing_extensions.deprecated")
    if any(f.deprecated is not None for e in revision.entities for f in e.fields):
        additional_imports.append("pydantic.Field")
    imports: dict[str, Any] = {}
    if additional_imports:
        imports = {"additional_imports": additional_imports, "import_overrides": import_overrides}
    return {
        "input_file_type": InputFileType.JsonSchema,
        "output_model_type": DataModelType.PydanticV2BaseModel,
        "target_python_version": PythonVersion.PY_311,
        "target_pydantic_version": TargetPydanticVersion.V2_14,
        # absent stays absent: optional fields default to pydantic.MISSING, not None
        "use_missing_sentinel": True,
        "use_annotated": True,
        "use_union_operator": True,
        "use_standard_collections": True,
        "enum_field_as_literal": LiteralType.All,
        # strict scalars also where no model config reaches: type aliases (RequestId, JSONValue)
        # (inbound = "lenient": plain types, lax like the model config)
        "strict_types": (
            [StrictTypes.str, StrictTypes.int, StrictTypes.float, StrictTypes.bool]
            if revision.options.inbound == "strict"
            else []
        ),
        "use_type_alias": True,
        "skip_root_model": True,
        "base_class": f"{BASE_MODULE}.{BASE_CLASS}",
        "import_overrides": IMPORT_OVERRIDES,
        "use_schema_description": True,
        "use_field_description": True,
        "custom_template_dir": templates_dir() / "dcg",
        "custom_file_header": header,
        "extra_template_data": template_data,
        **imports,
        "formatters": [],
        "disable_timestamp": True,
        # annotations evaluated when the class is created, not strings compiled one by one by
        # pydantic: the module imports about 40% faster (forward references stay quoted)
        "disable_future_imports": True,
        "allow_remote_refs": False,
    }


def _is_message_union(entity: ir.Entity, by_pointer: Mapping[str, ir.Entity]) -> bool:
    """A union of JSON-RPC messages (JSONRPCMessage, JSONRPCResponse): every arm a model whose
    `jsonrpc` is a constant. What its arms hold is generic (params, result, error), so reading a
    JSON text through the Python objects its rules look at gives the same values and the same errors
    (a union tagged by a constant deeper down would name a non-object otherwise: pydantic-core says
    `model_attributes_type` for a Python value where it says `dict_type` for JSON)."""
    arms = [by_pointer.get(arm) for arm in entity.arm_order]
    return bool(arms) and all(
        arm is not None
        and arm.kind is ir.Kind.MODEL
        and any(f.wire_name == "jsonrpc" and f.constant for f in arm.fields)
        for arm in arms
    )


def generate_models(lowered: Mapping[str, Any], revision: ir.Revision) -> tuple[str, tuple[str, ...]]:
    """Run the engine on the lowered schema: the models module source (from its `__all__` on: the
    caller puts its stamp above) and its names in definition order. Nothing in either depends on
    the revision's label, so two revisions of one schema can share them."""
    options = engine_options(revision, exports_header(revision))
    key = _run_key(lowered, options)
    if key not in _runs:
        _runs[key] = run_engine(lowered, revision, options)
        while len(_runs) > _RUNS_KEPT:
            del _runs[next(iter(_runs))]
    return _runs[key]


# The engine's last few results in this process, by what it was given (the lowered schema in its
# order, every option): the draft revision while it is the newest release's schema, say, is
# generated once. The engine is deterministic, so a result is as good as a second run.
_runs: dict[str, tuple[str, tuple[str, ...]]] = {}
_RUNS_KEPT = 4


def _run_key(lowered: Mapping[str, Any], options: Mapping[str, Any]) -> str:
    digest = hashlib.sha256(json.dumps(lowered, default=repr).encode())
    digest.update(json.dumps(options, sort_keys=True, default=repr).encode())
    return digest.hexdigest()


def docstring_text(text: str, width: int) -> str:
    """text as the body of a module-level docstring: wrapped to width, backslashes and quotes escaped."""
    import textwrap

    escaped = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return textwrap.fill(escaped, width, break_long_words=False, break_on_hyphens=False)


# where a deprecation's text lands once formatted: `deprecated=(` in a field's `Field(`, one level in
_TEXT_INDENT = 12


def text_literal(text: str, width: int) -> str:
    """A Python literal of text that keeps to the line length once formatted: where it is too long
    for one line, parenthesized pieces split between words (implicitly concatenated: the same str)."""
    single = repr(text)
    room = width - _TEXT_INDENT - 2  # the quotes
    if _TEXT_INDENT + len(single) <= width:
        return single
    pieces: list[str] = []
    for word in text.split(" "):
        if pieces and len(repr(pieces[-1] + " " + word)) - 2 <= room:
            pieces[-1] += " " + word
        else:
            pieces.append(word if not pieces else word)
    # each piece but the last keeps the space that followed it
    parts = [piece + " " for piece in pieces[:-1]] + pieces[-1:]
    return "(" + "\n".join(repr(part) for part in parts) + ")"


# where a class's wire names land once formatted: model_config = ConfigDict(alias_generator=wire_names({
_WIRE_PAIR_INDENT = 16


def _wire_pair(attribute: str, wire: str, width: int) -> str:
    """One `attribute: wire name` entry; the value in parentheses where the entry would pass the
    line length on one line, which lets the formatter put it on a line of its own."""
    entry = f"{attribute!r}: {wire!r}"
    return entry if _WIRE_PAIR_INDENT + len(entry) + 1 <= width else f"{attribute!r}: ({wire!r})"


def exports_header(revision: ir.Revision) -> str:
    """The module's __all__: it travels in the engine's own file-header option (it lands before the
    classes; names in __all__ may be defined further down)."""
    exports = ", ".join(f'"{name}"' for name in sorted(e.name for e in revision.entities))
    return f"__all__ = [{exports}]"


def run_engine(lowered: Mapping[str, Any], revision: ir.Revision, options: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    """The engine's module for lowered under options, checked against the IR, and its names in
    definition order."""
    import datamodel_code_generator as dcg

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            source = dcg.generate(dict(lowered), **options)
    except dcg.Error as exc:
        raise fail(
            "MCG401",
            f"datamodel-code-generator refused the schema: {flat(str(exc))}",
            revision=revision.revision,
        ) from exc
    except RecursionError as exc:  # wellformed.check_type_depth keeps the known shapes below this
        raise fail(
            "MCG103",
            "the schema nests too deeply for datamodel-code-generator, which recurses through it",
            revision=revision.revision,
            hint="no setting goes deeper; nest fewer levels",
        ) from exc
    if not isinstance(source, str):
        raise fail("MCG402", "datamodel-code-generator returned no single module", revision=revision.revision)
    return source, _check_names(source, revision)


def _check_names(source: str, revision: ir.Revision) -> tuple[str, ...]:
    """Every IR entity became a top-level name, and the engine invented none of its own.

    Returns the names in the order the module defines them: importing them in that order keeps
    pyright from evaluating a recursive alias (JSONValue) through another alias first.
    """
    tree = ast.parse(source)
    order: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            order.append(node.name)
        elif isinstance(node, ast.Assign):
            order.extend(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            order.append(node.target.id)
    order = [name for name in order if not (name.startswith("__") and name.endswith("__"))]
    helpers = {specific.any_arm_name(e.name) for e in specific.in_use(revision)}
    order = [name for name in order if name not in helpers]  # a union's private companion
    defined = set(order)
    expected = {entity.name for entity in revision.entities}
    missing = sorted(expected - defined)
    invented = sorted(defined - expected)
    if missing or invented:
        by_name = {e.name: e.pointer for e in revision.entities}
        detail: list[str] = []
        if missing:
            detail.append("not generated: " + ", ".join(f"{n} ({by_name[n]})" for n in missing))
        if invented:
            detail.append("generated without a pointer: " + ", ".join(invented))
        raise fail(
            "MCG403",
            "the engine's classes do not match the IR; " + "; ".join(detail),
            revision=revision.revision,
            hint="hoist or rename the schema part in analyze/lower rather than editing the output",
        )
    return tuple(order)
