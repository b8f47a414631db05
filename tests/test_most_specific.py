"""A smart union of models (ServerResult, ...) picks exactly what pydantic's smart union picks.

Such a union is generated as a tagged union whose tag (`_base.most_specific`, which asks
`_specific.decide`) names the arm a value's keys single out, tried first, with the plain smart
union over every arm (the private `_<Union>AnyArm`) after it, or that smart union alone (tag `*`).
Both must give the same class and
the same dump, or both refuse, for every value: every object inside every spec example of every
revision, and objects drawn from them (keys removed, keys of other arms added, the keys of the
objects inside changed, values of other JSON types, model instances), read from Python and from
JSON text.
"""

from __future__ import annotations

import copy
import importlib
import json
from collections.abc import Callable
from types import ModuleType
from typing import Any, cast, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Discriminator, TypeAdapter, ValidationError

from . import suite
from .conftest import REVISIONS
from .test_structural_compiled import _examples

PACKAGES = [*REVISIONS.values(), "surface"]


def _specific(package: str) -> ModuleType:
    return importlib.import_module(f"mcp_models.{package}._specific")


def _unions(package: str) -> list[str]:
    return sorted(_specific(package)._ARMS)


def _adapters(package: str, union: str) -> tuple[TypeAdapter[Any], TypeAdapter[Any]]:
    models = importlib.import_module(f"mcp_models.{package}.models")
    return TypeAdapter(getattr(models, union)), TypeAdapter(getattr(models, f"_{union}AnyArm"))


def _picker(package: str, union: str) -> Callable[[object], str]:
    """The choice the union's alias asks (its discriminator's function)."""
    alias = getattr(importlib.import_module(f"mcp_models.{package}.models"), union)
    found = [m for m in get_args(alias.__value__)[1:] if isinstance(m, Discriminator)]
    assert len(found) == 1 and callable(found[0].discriminator)
    return cast("Callable[[object], str]", found[0].discriminator)


def _nested(package: str, union: str) -> list[str]:
    """The keys whose objects' keys the choice reads: those holding a model in some arm's shape."""
    return sorted({key for _, shape in _specific(package).decide.shapes(union) for key, (_, held) in shape.keys.items() if held})


def _outcome(validate: Any, value: object) -> tuple[str, object]:
    try:
        got = validate(value)
    except ValidationError:
        return ("ValidationError", None)
    return (type(got).__name__, got.model_dump(mode="json"))


class _Agreement:
    """Reads values with a union and with its plain smart union; counts the values a single arm took."""

    def __init__(self, package: str, union: str) -> None:
        self.union, self.plain = _adapters(package, union)
        self.pick = _picker(package, union)
        self.values = 0
        self.single_arm = 0

    def check(self, value: object) -> None:
        self.values += 1
        expected = _outcome(self.plain.validate_python, value)
        assert _outcome(self.union.validate_python, value) == expected, value
        if isinstance(value, dict):
            text = json.dumps(value)
            assert _outcome(self.union.validate_json, text) == _outcome(self.plain.validate_json, text), text
            if self.pick(value) != "*":
                self.single_arm += 1


def _objects() -> list[dict[str, Any]]:
    """Every object inside every spec example (of any revision: to an older one, values to read)."""
    return [v for revision in sorted(REVISIONS) for v in _examples(revision) if isinstance(v, dict)]


def test_every_revision_has_a_smart_union_of_models() -> None:
    # what this file tests exists: ServerResult in every revision (its arms include the generic Result)
    for package in PACKAGES:
        assert "ServerResult" in _unions(package), package


@pytest.mark.parametrize("package", PACKAGES)
def test_agrees_with_the_smart_union_on_every_example_object(package: str) -> None:
    objects = _objects() + [{}, {"resultType": "complete"}, {"_meta": {}}]
    for union in _unions(package):
        agreement = _Agreement(package, union)
        for value in objects:
            agreement.check(value)
        assert agreement.values > 50
    server = _Agreement(package, "ServerResult")
    for value in objects:
        server.check(value)
    # the examples' results are read by one arm, not by validating every arm
    assert server.single_arm > (10 if package in ("v2026_07_28", "draft", "surface") else 3), server.single_arm


@pytest.mark.parametrize("package", PACKAGES)
def test_model_instances_go_to_the_smart_union(package: str) -> None:
    for union in _unions(package):
        agreement = _Agreement(package, union)
        models = importlib.import_module(f"mcp_models.{package}.models")
        for tag, _shape in _specific(package)._ARMS[union]:
            arm = getattr(models, tag)
            instance = arm.model_construct()
            assert agreement.pick(instance) == "*"
            for key in _nested(package, union):  # held where the choice reads inside
                assert agreement.pick({key: instance}) == "*"
            assert _outcome(agreement.union.validate_python, instance) == _outcome(agreement.plain.validate_python, instance)


def _keys_and_values(package: str, union: str) -> tuple[list[str], dict[str, list[object]], list[str]]:
    """The keys the union's arms declare, values seen under each key in the examples (and values of
    every JSON type), and the keys the arms' held models declare."""
    arms = _specific(package).decide.shapes(union)
    keys = sorted({key for _, shape in arms for key in shape.keys})
    inner = sorted({k for _, shape in arms for _s, held in shape.keys.values() if held is not None for k in held.keys})
    seen: dict[str, list[object]] = {key: [] for key in [*keys, *inner]}
    for value in _objects():
        for key, item in value.items():
            if key in seen and len(seen[key]) < 12:
                seen[key].append(item)
    for pool in seen.values():
        pool += [None, True, 0, 1.5, "", "x", [], {}, [{}]]
    return keys, seen, inner


@st.composite
def _drawn(draw: st.DrawFn, seeds: list[dict[str, Any]], keys: list[str], values: dict[str, list[object]], inner: list[str]) -> dict[str, Any]:
    """A seed object with keys removed, keys of the arms added (values seen under them, values of
    every JSON type), and the same done to the objects it holds."""
    value = copy.deepcopy(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(0, 4))):
        action = draw(st.sampled_from(["remove", "add", "add", "inner"]))
        if action == "remove" and value:
            del value[draw(st.sampled_from(sorted(value)))]
        elif action == "add":
            key = draw(st.sampled_from(keys))
            value[key] = copy.deepcopy(draw(st.sampled_from(values[key])))
        elif action == "inner" and inner:
            holders = [k for k, v in value.items() if isinstance(v, dict)]
            if not holders:
                value[draw(st.sampled_from(keys))] = {}
                continue
            held = value[draw(st.sampled_from(holders))]
            key = draw(st.sampled_from(inner))
            if key in held and draw(st.booleans()):
                del held[key]
            else:
                held[key] = copy.deepcopy(draw(st.sampled_from(values[key])))
    return value


@pytest.mark.slow
@pytest.mark.parametrize("package", PACKAGES)
def test_agrees_with_the_smart_union_on_drawn_objects(package: str) -> None:
    for union in _unions(package):
        agreement = _Agreement(package, union)
        keys, values, inner = _keys_and_values(package, union)
        seeds = [v for v in _objects() if v.keys() & set(keys)] or [{}]

        @settings(max_examples=suite.examples(400))
        @given(value=_drawn(seeds, keys, values, inner))
        def check(value: dict[str, Any]) -> None:
            agreement.check(value)

        check()
        assert agreement.single_arm > 0, union  # some drawn objects took the one-arm path


def test_choices_kept_are_bounded() -> None:
    base = importlib.import_module("mcp_models._runtime.base")
    pick = _picker("v2026_07_28", "ServerResult")
    closure = {name: cell.cell_contents for name, cell in zip(pick.__code__.co_freevars, pick.__closure__ or (), strict=True)}
    kept: dict[object, str] = closure["kept"]
    for index in range(base._KEPT + 50):
        assert pick({"resultType": "complete", f"x-{index}": 1}) == "Result"
    assert len(kept) == base._KEPT
    assert pick({"resultType": "complete", "tools": [], "cacheScope": "public", "ttlMs": 1}) == "ListToolsResult"


def test_a_value_with_many_keys_is_decided_but_not_kept() -> None:
    """What is kept is bounded in size too: an answer keyed by thousands of keys is not kept."""
    base = importlib.import_module("mcp_models._runtime.base")
    pick = _picker("v2026_07_28", "ServerResult")
    closure = {name: cell.cell_contents for name, cell in zip(pick.__code__.co_freevars, pick.__closure__ or (), strict=True)}
    kept: dict[object, str] = closure["kept"]
    kept.clear()
    wide = {"resultType": "complete", **{f"x-{index}": index for index in range(base._KEPT_WIDTH)}}
    assert pick(wide) == "Result" and len(kept) == 0
    held = {"resultType": "complete", "_meta": {f"x-{index}": index for index in range(base._KEPT_WIDTH)}}
    assert pick(held) == "Result" and len(kept) == 0
    assert pick({"resultType": "complete", "_meta": {}}) == "Result" and len(kept) == 1
    plain = TypeAdapter(importlib.import_module("mcp_models.v2026_07_28.models")._ServerResultAnyArm)
    union = TypeAdapter(importlib.import_module("mcp_models.v2026_07_28.models").ServerResult)
    assert _outcome(union.validate_python, wide) == _outcome(plain.validate_python, wide)


def test_a_value_that_could_be_two_arms_goes_to_the_smart_union() -> None:
    pick = _picker("v2026_07_28", "ServerResult")
    # tools and content: ListToolsResult and CallToolResult each fill a key the other lacks
    assert pick({"resultType": "complete", "tools": [], "content": [], "cacheScope": "public", "ttlMs": 1}) == "*"
    # a subscription id in _meta: SubscriptionsListenResult's own meta object fills more
    meta = {"io.modelcontextprotocol/subscriptionId": "s-1"}
    assert pick({"resultType": "complete", "_meta": meta}) == "SubscriptionsListenResult"
    assert pick({"resultType": "complete", "_meta": {}}) == "Result"
    assert pick({"resultType": "complete", "_meta": "not an object"}) == "Result"
