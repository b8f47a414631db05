"""The compiled structural discriminators pick exactly the arm the general rule path picks.

Each package's `_structural.py` holds its unions' rules (`_UNIONS`, a runtime `structural.Unions`),
which the runtime reads twice: with a general rule interpreter (`Unions.general`, which also chooses
the arm whose error to report) and as one straight-line function per union (`Unions.compiled`) that
decides values of exact JSON types and hands anything else to the general path. Both must give the same tag, or both None, for every value: every value inside
every spec example of every revision, and values drawn or mutated to sit on the rules' edges (keys
present or absent, each JSON type, bools for integers, integral floats, dict / list / str / int /
float subclasses, model instances and instances of their subclasses), plus the messages
tests/test_dispatch_fast_paths.py draws.
"""

from __future__ import annotations

import copy
import importlib
import json
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Annotated, Any, Literal, get_args, get_origin

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Discriminator
from pydantic.fields import FieldInfo
from typing_extensions import TypeAliasType

from . import suite
from .conftest import REVISIONS, SPEC
from .test_dispatch_fast_paths import _message, _valid_messages, _variant

PACKAGES = [*REVISIONS.values(), "surface"]
# the revision whose examples a package's drawn values start from (the surface: the newest)
EXAMPLES_OF = {**{package: revision for revision, package in REVISIONS.items()}, "surface": "2026-07-28"}


def _structural(package: str) -> ModuleType:
    return importlib.import_module(f"mcp_models.{package}._structural")


def _unions(package: str) -> Any:
    """The package's unions and their rules, as the runtime reads them (runtime/structural.py)."""
    return _structural(package)._UNIONS


def _compiled(unions: Any) -> dict[str, Callable[[object], str | None]]:
    """Each union's straight-line function."""
    return {union: unions.compiled(union) for union in unions.rules}


def _arms(package: str, union: str) -> list[type[BaseModel]]:
    models = importlib.import_module(f"mcp_models.{package}.models")
    tags = dict.fromkeys(tag for tag, _ in _unions(package).rules[union])
    return [getattr(models, tag) for tag in tags if isinstance(getattr(models, tag, None), type)]


def _walk(value: object) -> Iterator[object]:
    """value and every value inside it."""
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def _examples(revision: str) -> list[object]:
    """Every value inside every spec example of the revision (each JSON file, whole or in part)."""
    found: list[object] = []
    for path in sorted((SPEC / revision / "examples").rglob("*.json")):
        found.extend(_walk(json.loads(path.read_bytes())))
    return found


class _Dict(dict[str, Any]):
    pass


class _List(list[Any]):
    pass


class _Str(str):
    __slots__ = ()


class _Int(int):
    pass


class _Float(float):
    pass


def _subclassed(value: object) -> object:
    """value as an instance of a subclass of its JSON type (which isinstance accepts, `type(v) is` not)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, dict):
        return _Dict(value)
    if isinstance(value, list):
        return _List(value)
    if isinstance(value, str):
        return _Str(value)
    if isinstance(value, int):
        return _Int(value)
    if isinstance(value, float):
        return _Float(value)
    return value


class _Agreement:
    """Runs both paths of every union of a package on values and counts what the compiled code decided."""

    def __init__(self, package: str, monkeypatch: pytest.MonkeyPatch) -> None:
        self.module = _unions(package)
        self.general: Callable[[str], Callable[[object], str | None]] = self.module.general
        self.fallbacks = 0
        self.values = 0
        self.decided = 0

        def counting(union: str) -> Callable[[object], str | None]:
            self.fallbacks += 1
            return self.general(union)

        monkeypatch.setattr(self.module, "general", counting)  # what the compiled code falls back to
        self.compiled = _compiled(self.module)
        self.arms = {union: _arms(package, union) for union in self.compiled}

    def check(self, value: object, *, plain_json: bool = False) -> None:
        """Both paths agree on value for every union; for plain_json (a value json.loads gives) that
        some rule takes, the compiled code decides alone."""
        for union, compiled in self.compiled.items():
            self.values += 1
            expected = self.general(union)(value)
            before = self.fallbacks
            assert compiled(value) == expected, (union, value)
            if plain_json and any(test(value) for _, test, _ in self.module.tests(union)):
                assert self.fallbacks == before, (union, value)
                self.decided += 1


@pytest.mark.parametrize("package", PACKAGES)
def test_every_union_is_compiled(package: str) -> None:
    unions = _unions(package)
    assert unions.rules
    assert all(pick is not unions.general(union) for union, pick in _compiled(unions).items())


@pytest.mark.parametrize("package", PACKAGES)
def test_compiled_and_general_agree_on_every_example_value(package: str, monkeypatch: pytest.MonkeyPatch) -> None:
    agreement = _Agreement(package, monkeypatch)
    values = [v for revision in sorted(REVISIONS) for v in _examples(revision)]
    values += [{}, [], [{}], "", 0, 1.0, True, None]
    for value in values:
        agreement.check(value, plain_json=True)
    for arms in agreement.arms.values():  # model instances: the class is the tag
        for arm in arms:
            agreement.check(arm.model_construct())
    assert agreement.values > 10_000
    assert agreement.decided > 100  # values some rule takes, decided by the straight-line code alone


def _rule_values(module: Any) -> tuple[list[str], list[object]]:
    """The keys the package's rules look at, and values on the edges of their tests."""
    keys: set[str] = set()
    values: list[object] = ["", "x", 0, -1, 1.0, 1.5, 2**70, True, False, None, [], {}, [{}], {"x": 1}]
    for rules in module.rules.values():
        for _, predicates in rules:
            for _op, path, pinned in predicates:
                keys.update(key for key in path if key != "0")
                values.extend(v for v in pinned if v not in ("object", "array", "string", "integer", "number", "boolean", "null"))
    return sorted(keys), values


@st.composite
def _edge_value(draw: st.DrawFn, keys: list[str], values: list[object], depth: int = 2) -> object:
    """An object of the rules' keys (nested a level or two), a list of such, or a scalar on a test's edge."""
    scalars = st.sampled_from(values)
    if depth == 0:
        return draw(scalars)
    inner = _edge_value(keys, values, depth - 1)
    kind = draw(st.sampled_from(["object", "object", "object", "list", "scalar"]))
    if kind == "scalar":
        return draw(scalars)
    if kind == "list":
        return draw(st.lists(inner, max_size=2))
    chosen = draw(st.lists(st.sampled_from(keys), max_size=6, unique=True))
    return {key: draw(st.one_of(scalars, inner)) for key in chosen}


# A value of each JSON type (integers also as an integral float and a bool), for a test to hold or fail on.
_OF_TYPE: dict[str, list[object]] = {
    "object": [{}, {"k": 1}],
    "array": [[], [{}]],
    "string": ["", "s"],
    "integer": [7, 7.0, 0.0, 2**70],
    "number": [1.5, 3],
    "boolean": [True, False],
    "null": [None],
}
_WRONG: list[object] = [None, True, 1, 1.0, 1.5, "", "2.0", [], {}]


def _put(value: object, path: tuple[str, ...], item: object) -> object:
    """value (a dict, a list for a "0" step, or anything: replaced) with item at path."""
    if not path:
        return item
    key, rest = path[0], path[1:]
    if key == "0" and isinstance(value, list):
        first = value[0] if value else {}
        return [_put(first, rest, item), *value[1:]]
    if key == "0":
        return [_put({}, rest, item)]
    container = value if isinstance(value, dict) else {}
    container[key] = _put(container.get(key, {}), rest, item)
    return container


@st.composite
def _from_rules(draw: st.DrawFn, module: Any) -> object:
    """A value that one rule of a union takes (or two rules, merged), then a few of its tested
    values made wrong, absent, of another JSON type or a subclass instance."""
    union = draw(st.sampled_from(sorted(module.rules)))
    rules = module.rules[union]
    value: object = {}
    for _ in range(draw(st.integers(1, 2))):
        _tag, predicates = draw(st.sampled_from(rules))
        ordered = sorted(predicates, key=lambda p: ("is", "has", "eq_or_absent", "eq").index(p[0]))
        for op, path, pinned in ordered:  # types first, values last: an `eq` wins over a `has`
            if op == "is":
                kind = pinned[0]
                if kind == "object" and not isinstance(value, dict):
                    value = {}
                elif kind == "array" and not isinstance(value, list):
                    value = [{}]
                elif kind not in ("object", "array"):
                    value = copy.deepcopy(draw(st.sampled_from(_OF_TYPE[kind])))
            elif op == "has":
                kinds = list(pinned) or ["string", "object"]
                value = _put(value, path, copy.deepcopy(draw(st.sampled_from(_OF_TYPE[draw(st.sampled_from(kinds))]))))
            elif op == "eq" or draw(st.booleans()):
                value = _put(value, path, draw(st.sampled_from(pinned)))
    for _ in range(draw(st.integers(0, 3))):
        parts: list[tuple[Any, Any]] = [(c, key) for c in _walk(value) if isinstance(c, dict) for key in c]
        parts += [(c, 0) for c in _walk(value) if isinstance(c, list) and c]
        if not parts:
            break
        container, key = draw(st.sampled_from(parts))
        action = draw(st.sampled_from(["drop", "wrong", "subclass", "subclass"]))
        if action == "drop" and isinstance(container, dict):
            del container[key]
        elif action == "wrong":
            container[key] = copy.deepcopy(draw(st.sampled_from(_WRONG)))
        else:
            container[key] = _subclassed(container[key])
    return _subclassed(value) if draw(st.integers(0, 7)) == 0 else value


@st.composite
def _mutated(draw: st.DrawFn, pool: list[object], keys: list[str], values: list[object]) -> object:
    """A value from the examples with a key dropped, replaced or added, or a part made a subclass instance."""
    value = json.loads(json.dumps(draw(st.sampled_from(pool))))
    targets = [v for v in _walk(value) if isinstance(v, dict)]
    for _ in range(draw(st.integers(0, 3))):
        if not targets:
            break
        target = draw(st.sampled_from(targets))
        action = draw(st.sampled_from(["drop", "set", "subclass", "add"]))
        if action == "drop" and target:
            del target[draw(st.sampled_from(sorted(target)))]
        elif action == "set" and target:
            target[draw(st.sampled_from(sorted(target)))] = copy.deepcopy(draw(st.sampled_from(values)))
        elif action == "subclass" and target:
            key = draw(st.sampled_from(sorted(target)))
            target[key] = _subclassed(target[key])
        else:
            target[draw(st.sampled_from(keys))] = copy.deepcopy(draw(st.sampled_from(values)))
    return _subclassed(value) if draw(st.integers(0, 9)) == 0 else value


@pytest.mark.slow
@pytest.mark.parametrize("package", PACKAGES)
def test_compiled_and_general_agree_on_drawn_values(package: str, monkeypatch: pytest.MonkeyPatch) -> None:
    agreement = _Agreement(package, monkeypatch)
    revision = EXAMPLES_OF[package]
    keys, values = _rule_values(agreement.module)
    # every revision's examples: the older revisions have none of their own
    pool: list[object] = [v for other in sorted(REVISIONS) for v in _examples(other) if isinstance(v, dict | list)]
    messages = importlib.import_module(f"mcp_models.{package}.messages")
    valid = _valid_messages(revision, messages) if package != "surface" else []
    instances: list[object] = [arm.model_construct() for arms in agreement.arms.values() for arm in arms]
    for arms in agreement.arms.values():  # an instance of a subclass of an arm: picked by its base
        subclasses: list[type[BaseModel]] = [type(f"My{arm.__name__}", (arm,), {}) for arm in arms[:1]]
        instances += [subclass.model_construct() for subclass in subclasses]
    messages_drawn = [_message(messages)] + ([_variant(messages, valid)] if valid else [])

    @settings(max_examples=suite.examples(150))
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        drawn = data.draw(
            st.lists(
                st.one_of(
                    *[_from_rules(agreement.module)] * 4,
                    _edge_value(keys, values),
                    _mutated(pool, keys, values),
                    st.sampled_from(instances),
                    *[strategy.map(lambda pair: pair[0]) for strategy in messages_drawn],
                ),
                min_size=5,
                max_size=25,
            )
        )
        for value in drawn:
            for part in _walk(value):
                agreement.check(part)

    check()
    assert agreement.values > 5_000


def _const_keys(arms: tuple[Any, ...]) -> list[str]:
    """The keys every arm (each a model) requires with one constant value, distinct across the arms."""
    pinned: list[dict[str, object]] = []
    for arm in arms:
        if not (isinstance(arm, type) and issubclass(arm, BaseModel)):
            return []
        fields = arm.model_fields.items()
        pinned.append(
            {
                (info.alias or name): get_args(info.annotation)[0]
                for name, info in fields
                if info.is_required() and get_origin(info.annotation) is Literal and len(get_args(info.annotation)) == 1
            }
        )
    shared = set.intersection(*(set(p) for p in pinned)) if pinned else set()
    return sorted(key for key in shared if len({repr(p[key]) for p in pinned}) == len(pinned))


@pytest.mark.parametrize("package", PACKAGES)
def test_unions_with_a_const_tag_are_tagged_unions_in_rust(package: str) -> None:
    """Where every arm pins one key to its own constant, pydantic-core reads that key (Field(discriminator=...)),
    and a structural discriminator (a Python call per value) is left for unions without such a key."""
    models = importlib.import_module(f"mcp_models.{package}.models")
    base = importlib.import_module(f"mcp_models.{package}._base")
    tagged = 0
    for name, alias in vars(models).items():
        if not isinstance(alias, TypeAliasType):
            continue
        try:
            arms = base.union_arms(alias)
        except TypeError:
            continue  # not a union
        keys = _const_keys(arms)
        value: Any = alias.__value__
        metadata = get_args(value)[1:] if get_origin(value) is Annotated else ()
        by_field = [m.discriminator for m in metadata if isinstance(m, FieldInfo) and m.discriminator]
        if keys:
            assert by_field and by_field[0] in keys, f"{name}: arms tagged by {keys}, union by {by_field or metadata}"
            tagged += 1
        assert not (keys and any(isinstance(m, Discriminator) for m in metadata)), name
    assert tagged >= 3  # ClientRequest, ServerNotification, ContentBlock, ...


def _outcome(adapter: Any, text: str, tag: str | None = None) -> tuple[object, ...]:
    """What reading text gives: the class and its wire dump, or the (type, location) of each error
    (a location without the arm's tag, which a union's errors start with)."""
    from pydantic import ValidationError

    try:
        value = adapter.validate_json(text)
    except ValidationError as exc:
        errors = []
        for error in exc.errors():
            loc = tuple(error["loc"])
            if tag is not None and loc[:1] == (tag,):
                loc = loc[1:]
            errors.append((error["type"], loc))
        return ("refused", tuple(errors))
    return (type(value).__name__, json.dumps(adapter.dump_python(value, mode="json"), sort_keys=True))


@pytest.mark.slow
@pytest.mark.parametrize("package", PACKAGES)
def test_a_structural_union_reads_json_text_as_its_picked_arm_does(package: str) -> None:
    """A structural union validates the arm it picks from the Python objects its rules looked at;
    reading the text with that arm's own JSON validator gives the same class, dump and errors."""
    from pydantic import TypeAdapter

    module = _unions(package)
    compiled = _compiled(module)
    models = importlib.import_module(f"mcp_models.{package}.models")
    # the unions the models module names (messages.py's dispatch of a task result reads its own way)
    unions = {union: TypeAdapter(getattr(models, union)) for union in compiled if hasattr(models, union)}
    assert unions
    arms: dict[str, TypeAdapter[Any]] = {}
    keys, values = _rule_values(module)
    pool: list[object] = [v for other in sorted(REVISIONS) for v in _examples(other) if isinstance(v, dict | list)]
    messages = importlib.import_module(f"mcp_models.{package}.messages")
    compared = {"read": 0, "refused": 0}

    def compare(value: object) -> None:
        text = json.dumps(value)
        plain = json.loads(text)
        for union, adapter in unions.items():
            tag = compiled[union](plain)
            got = _outcome(adapter, text, tag)
            if tag is None:
                assert got[0] == "refused" and [t for t, _ in got[1]] == ["union_variant"], (union, text, got)
                continue
            if tag not in arms:
                arms[tag] = TypeAdapter(getattr(models, tag))
            assert got == _outcome(arms[tag], text), (union, tag, text)
            compared["read" if got[0] != "refused" else "refused"] += 1

    for value in pool:
        compare(value)

    @settings(max_examples=suite.examples(60))
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        drawn = data.draw(
            st.lists(
                st.one_of(
                    _from_rules(module),
                    _edge_value(keys, values),
                    _mutated(pool, keys, values),
                    _message(messages).map(lambda pair: pair[0]),
                ),
                min_size=3,
                max_size=10,
            )
        )
        for value in drawn:
            compare(value)

    check()
    assert compared["read"] > 50 and compared["refused"] > 500, compared
