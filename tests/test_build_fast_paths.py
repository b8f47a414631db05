"""The fast paths of building and dumping agree with the general paths they shortcut.

- Each class gets its own `__init__` (its constants and absent-means values bound once) instead of
  the base class's general one: for every model inside every spec example of every revision, built
  again by keyword (constants left out, attribute names or wire names, extra keys, wrong values,
  both names), both give the same class, fields set, extra keys and dump, or the same error.
- Building validates with strict=True: a union tagged by a constant (ContentBlock, ...) then reads
  a model instance's tag without asking whether it is a Mapping. For every such union of every
  revision, instances of each arm (and of a subclass), the examples' dicts and broken dicts read
  the same with and without it.
- A structural discriminator takes an instance of an arm's own class as that arm without its
  general rule path.
- model_dump / model_dump_json hand the serializer only the options given: for every example
  they return what BaseModel's methods return, under each option set.

"The general path" here is what `__init__` did before the fast paths, written out below.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from types import MappingProxyType, ModuleType
from typing import Annotated, Any, Union, get_args, get_origin

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import MISSING, PydanticSerializationError
from typing_extensions import TypeAliasType

from .conftest import GENERATED, REVISIONS
from .test_building import _examples, _parse
from .test_dispatch_fast_paths import _valid_messages

PACKAGES = list(REVISIONS.values())


def _general_init(model: BaseModel, /, **data: Any) -> None:
    """The base class's __init__ as it was before each class got its own (no strict=True)."""
    cls = type(model)
    if cls.__mcp_constants__:  # type: ignore[attr-defined]
        data = cls.__mcp_constants__ | data  # type: ignore[attr-defined]
    for name, (wire, value) in cls.__mcp_absent__.items():  # type: ignore[attr-defined]
        if name not in data and wire not in data:
            data[wire] = value
    cls.__pydantic_validator__.validate_python(data, self_instance=model, by_name=True)
    twice = sorted((model.__pydantic_extra__ or {}).keys() & cls.model_fields.keys())
    if twice:
        raise TypeError(f"{cls.__name__}() got a field under both of its names: {', '.join(twice)}")


def _outcome(build: Any) -> tuple[Any, ...]:
    """What a build gives: the class, fields set, extra keys and wire JSON, or the error."""
    try:
        model = build()
    except ValidationError as error:
        return ("invalid", [(e["type"], e["loc"]) for e in error.errors()])
    except TypeError as error:
        return ("TypeError", str(error))
    try:
        wire = model.model_dump_json()
    except PydanticSerializationError:  # a value no JSON holds, accepted by an `Any` field
        wire = None
    return (type(model), model.model_fields_set, model.__pydantic_extra__, model.model_dump(), wire)


def _both(cls: type[BaseModel], keywords: dict[str, Any]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    def general() -> BaseModel:
        model = cls.__new__(cls)
        _general_init(model, **keywords)
        return model

    return _outcome(lambda: cls(**keywords)), _outcome(general)


def _models(value: object) -> Iterator[BaseModel]:
    """Every model instance inside value (itself included)."""
    if isinstance(value, BaseModel):
        yield value
        for name in type(value).model_fields:
            yield from _models(getattr(value, name))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _models(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _models(item)


def _messages(package: str) -> list[BaseModel]:
    """The revision's valid messages (its example folders, else a few minimal ones), read."""
    revision = importlib.import_module(f"mcp_models.{package}")
    spelled = {v: k for k, v in REVISIONS.items()}[package]
    read: list[BaseModel] = []
    for message, answers in _valid_messages(spelled, revision.messages):
        pending = {message["id"]: answers} if answers is not None and "id" in message else None
        try:
            read.append(revision.parse_message(message, pending))
        except ValueError:
            continue  # an example its own schema rejects (reported by tests/test_examples.py)
    return read


def _parsed(package: str) -> list[BaseModel]:
    """Every model inside the revision's valid messages and its spec and docs examples."""
    revision = importlib.import_module(f"mcp_models.{package}")
    found = [model for message in _messages(package) for model in _models(message)]
    for example in _examples(package):
        try:
            found.extend(_models(_parse(revision, example)))
        except ValueError:
            continue  # an example its own schema rejects (reported by tests/test_examples.py)
    return found


def _keywords(model: BaseModel, *, wire: bool) -> dict[str, Any]:
    """The keywords that build model again: its set fields (constants left out) and extra keys."""
    cls = type(model)
    constants = cls.__mcp_constants__  # type: ignore[attr-defined]
    keywords = {
        (info.alias if wire and isinstance(info.alias, str) else name): getattr(model, name)
        for name, info in cls.model_fields.items()
        if getattr(model, name) is not MISSING and (info.alias or name) not in constants
    }
    return keywords | dict(model.__pydantic_extra__ or {})


@pytest.mark.parametrize("package", PACKAGES)
def test_each_class_builds_as_the_general_init_does(package: str) -> None:
    models = _parsed(package)
    assert len(models) >= 10, len(models)
    classes: set[type[BaseModel]] = set()
    for model in models:
        cls = type(model)
        if cls in classes:
            continue
        classes.add(cls)
        keywords = _keywords(model, wire=False)
        variants = [
            keywords,
            _keywords(model, wire=True),
            keywords | {"x_unknown": 1},  # an extra key is kept
            {},  # required fields missing (constants are filled)
            {name: object() for name in keywords},  # every value wrong
            keywords | dict.fromkeys(cls.__mcp_constants__, "not the constant"),  # type: ignore[attr-defined]
        ]
        aliased = [(n, i.alias) for n, i in cls.model_fields.items() if isinstance(i.alias, str) and i.alias != n]
        if aliased:
            name, alias = aliased[0]
            variants.append(keywords | {name: 1, alias: 1})  # both names: a TypeError (or invalid)
        for variant in variants:
            fast, general = _both(cls, variant)
            assert fast == general, (cls.__name__, variant)
            # made on the first build: its own, not the base's
            assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__", cls.__init__.__qualname__


# Run in a fresh interpreter: it defines subclasses of generated classes and watches their
# __init__ change, which no other test may see.
SUBCLASSES = r"""
import sys
from typing import Any, Literal
sys.path.insert(0, {generated!r})
from mcp_models.v2026_07_28 import ImageContent, TextContent
from mcp_models._runtime.base import _first_init
from mcp_models.v2026_07_28._base import const

assert TextContent.__init__ is _first_init  # nothing is made for a class until it builds
TextContent(text="a")
fast = TextContent.__init__
assert fast is not _first_init and fast.__mcp_unchecked__  # its own, with no check: no subclass yet

class Plain(TextContent):
    kind: Literal["k"] = const("k")

assert Plain.__init__ is _first_init and TextContent.__init__ is fast
assert Plain(text="a").kind == "k"

class Tagged(TextContent):
    kind: Literal["k"] = const("k")

    def __init__(self, /, **data: Any) -> None:
        super().__init__(**data)

class Noted:
    def __init__(self, /, **data: Any) -> None:
        super().__init__(**data)

class Mixed(Noted, Plain):
    pass

assert TextContent.__init__ is not fast and not TextContent.__init__.__mcp_unchecked__  # now it checks
for cls in (Tagged, Mixed):
    built = cls(text="a")
    assert (built.kind, built.type, built.model_fields_set) == ("k", "text", {{"kind", "text", "type"}})
assert TextContent(text="a").model_dump_json() == '{{"text":"a","type":"text"}}'

# the other order: the subclass with an __init__ of its own is made before its parent first builds
class Early(ImageContent):
    kind: Literal["e"] = const("e")

    def __init__(self, /, **data: Any) -> None:
        super().__init__(**data)

assert Early(data="x", mime_type="image/png").kind == "e"  # through the parent's first __init__
assert ImageContent.__init__ is _first_init
assert ImageContent(data="x", mime_type="image/png").type == "image"
assert not ImageContent.__init__.__mcp_unchecked__  # it has a subclass: it checks the class
built = Early(data="x", mime_type="image/png")
assert (built.kind, built.type) == ("e", "image")
print("ok")
"""


def test_a_subclass_whose_own_init_calls_super_gets_its_own_constants() -> None:
    code = SUBCLASSES.format(generated=str(GENERATED))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def _tagged_unions(package: str) -> Iterator[tuple[str, Any]]:
    """Every union alias of the revision that pydantic tags by a constant property."""
    models = importlib.import_module(f"mcp_models.{package}.models")
    for name, alias in sorted(vars(models).items()):
        if not isinstance(alias, TypeAliasType) or get_origin(alias.__value__) is not Annotated:
            continue
        union, *metadata = get_args(alias.__value__)
        if get_origin(union) in (Union, type(int | str)) and any(
            isinstance(m, FieldInfo) and isinstance(m.discriminator, str) for m in metadata
        ):
            yield name, alias


def _read(adapter: TypeAdapter[Any], value: object, strict: bool | None) -> tuple[Any, ...]:
    try:
        read = adapter.validate_python(value, strict=strict, by_name=True)
    except ValidationError as error:
        return ("invalid", [(e["type"], e["loc"]) for e in error.errors()])
    return (type(read), read is value, adapter.dump_json(read))


@pytest.mark.parametrize("package", PACKAGES)
def test_tagged_unions_read_alike_with_strict_building(package: str) -> None:
    revision: ModuleType = importlib.import_module(f"mcp_models.{package}")
    parsed = _parsed(package)
    unions = list(_tagged_unions(package))
    assert unions, package
    for name, alias in unions:
        adapter: TypeAdapter[Any] = TypeAdapter(alias)
        arms = revision.union_arms(alias)
        values: list[object] = [5, None, {}, [], {"type": "no such"}, {"method": "no such"}]
        for arm in arms:
            instance = next((m for m in parsed if type(m) is arm), None) or arm.model_construct()
            subclass = type(f"Sub{arm.__name__}", (arm,), {})
            values += [instance, subclass.model_construct(), instance.model_dump(), instance.model_dump(mode="json")]
            broken = instance.model_dump()
            broken.pop(next(iter(broken), ""), None)
            values.append(broken)
        for value in values:
            assert _read(adapter, value, True) == _read(adapter, value, None), (name, value)


def test_a_mapping_that_is_not_a_dict_is_still_refused_for_a_tagged_union() -> None:
    from mcp_models.v2026_07_28 import CallToolResult, TextContent

    text = MappingProxyType({"type": "text", "text": "a"})
    with pytest.raises(ValidationError) as refused:
        CallToolResult(content=[text])
    assert [e["type"] for e in refused.value.errors()] == ["model_attributes_type"]
    block = TextContent(text="a")
    assert CallToolResult(content=[block]).content[0] is block


@pytest.mark.parametrize("package", [*PACKAGES, "surface"])
def test_structural_unions_take_an_instance_of_an_arm_as_its_class(package: str) -> None:
    unions = importlib.import_module(f"mcp_models.{package}._structural")._UNIONS
    models = importlib.import_module(f"mcp_models.{package}.models")
    checked = 0
    for union, rules in unions.rules.items():
        pick = unions.compiled(union)
        for tag, _ in rules:
            arm = getattr(models, tag, None)
            if not isinstance(arm, type):
                continue
            instance = arm.model_construct()
            sub = type(f"Sub{tag}", (arm,), {}).model_construct()
            assert pick(instance) == unions.general(union)(instance) == tag
            assert pick(sub) == unions.general(union)(sub) == tag
            checked += 1
    assert checked or not unions.rules


def test_an_arm_instance_in_a_structural_union_skips_the_general_rule_path(monkeypatch: pytest.MonkeyPatch) -> None:
    from mcp_models.v2026_07_28 import (
        CallToolResult,
        CallToolResultResponse,
        TextContent,
        _structural,
    )

    calls: list[str] = []
    general = _structural._UNIONS.general
    monkeypatch.setattr(_structural._UNIONS, "general", lambda union: calls.append(union) or general(union))
    result = CallToolResult(content=[TextContent(text="a")])
    assert CallToolResultResponse(id=1, result=result).result is result
    assert calls == []


DUMP_OPTIONS: list[dict[str, Any]] = [
    {},
    {"by_alias": True, "exclude_unset": True},
    {"by_alias": True, "exclude_none": True},
    {"by_alias": False},
    {"exclude_defaults": True, "round_trip": True},
    {"indent": 2, "exclude": {"jsonrpc"}},
    {"warnings": False, "serialize_as_any": True},
]


@pytest.mark.parametrize("package", PACKAGES)
def test_dumps_are_base_models_dumps(package: str) -> None:
    messages = _messages(package)
    assert len(messages) >= 3, len(messages)
    for message in messages:
        for options in DUMP_OPTIONS:
            assert message.model_dump_json(**options) == BaseModel.model_dump_json(message, **options)
            in_python = {k: v for k, v in options.items() if k != "indent"}
            assert message.model_dump(**in_python) == BaseModel.model_dump(message, **in_python)
            assert message.model_dump(mode="json", **in_python) == BaseModel.model_dump(message, mode="json", **in_python)
    for message in messages[:1]:
        with pytest.raises(TypeError):
            message.model_dump_json(no_such_option=True)
        with pytest.raises(TypeError):
            message.model_dump(no_such_option=True)
