"""One bad item does not sink a list (issue 25, point 1): `tolerant=True` on parse_result and
parse_message, in every revision package and on the surface.

- Which results are list results is derived from each schema here too (a `*/list` method whose
  result holds one required array of objects) and must be what the package's LIST_RESULTS says.
- Per list method and revision, at the revision's package and at the surface: lists whose valid
  items are built from the item's JSON Schema, with one item made invalid in each of five ways
  found in that schema (a wrong JSON type, a required key removed, a value no union arm takes, a
  bad value deep inside `inputSchema` or the item's deepest value, a content `type` no arm has or
  else another deep value). Exactly that item is reported (index, JSON pointer, the raw item, a
  one-line reason naming where it is wrong); the rest is typed and dumps back to the input; the
  strict parse still raises for the same input.
- What is not a list item still fails as strict does (the same errors); NaN and infinity stay refused.
- Real traffic: the reference server's list responses (captured in tests/data/tolerant, and afresh
  where the server is installed) read tolerantly give exactly the strict parse, or its error.
- Typing, both ways: tests/data/tolerant/typing_ok.py type-checks; every marked line of
  typing_misuse.py fails under mypy --strict and pyright strict.
"""

from __future__ import annotations

import copy
import importlib
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from codegen.schema import pointers

from . import surface_support as support
from .conftest import REPO, REVISIONS

DATA = Path(__file__).parent / "data" / "tolerant"
CAPTURED = DATA / "everything.jsonl"
SERVER = REPO / ".cache/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
REQUEST_ID = 7


def package(revision: str) -> ModuleType:
    return support.revision_package(revision)


def surface() -> ModuleType:
    return support.surface()


# -- the schema's list results, derived here from the raw schema ----------------------------------------


def _resolved(doc: dict[str, Any], schema: Any) -> Any:
    while isinstance(schema, dict) and "$ref" in schema:
        schema = pointers.resolve(doc, schema["$ref"])
    return schema


def schema_list_results(revision: str) -> dict[str, tuple[str, str, str]]:
    """method -> (result definition, list key, item definition), from the schema: each `*/list`
    request definition's `<Stem>Result` with exactly one required array of `$ref` items."""
    doc = support.document(revision)
    defs: dict[str, Any] = doc["$defs"]
    found: dict[str, tuple[str, str, str]] = {}
    for name, schema in defs.items():
        method = (schema.get("properties") or {}).get("method", {}).get("const")
        if not (name.endswith("Request") and isinstance(method, str) and method.endswith("/list")):
            continue
        result_name = name[: -len("Request")] + "Result"
        result = defs.get(result_name, {})
        arrays = [
            (key, prop["items"]["$ref"].rpartition("/")[2])
            for key, prop in (result.get("properties") or {}).items()
            if key in result.get("required", ()) and prop.get("type") == "array" and "$ref" in prop.get("items", {})
        ]
        if len(arrays) == 1:
            found[method] = (result_name, *arrays[0])
    return found


CASES = [(revision, method) for revision in REVISIONS for method in sorted(schema_list_results(revision))]


@pytest.mark.parametrize("revision", list(REVISIONS))
def test_list_results_are_the_schema_s_list_methods(revision: str) -> None:
    derived = schema_list_results(revision)
    listed = package(revision).LIST_RESULTS
    assert {method: (key, item.__name__) for method, (key, item) in listed.items()} == {
        method: (key, item) for method, (_, key, item) in derived.items()
    }
    assert {"tools/list", "prompts/list", "resources/list", "resources/templates/list", "roots/list"} <= set(listed)
    assert ("tasks/list" in listed) == ("ListTasksRequest" in support.document(revision)["$defs"])
    # results whose arrays are one answer in parts are never list results
    assert not {"tools/call", "prompts/get", "resources/read"} & set(listed)


def test_the_surface_lists_every_revision_s_list_methods() -> None:
    merged = set().union(*(schema_list_results(revision) for revision in REVISIONS))
    assert set(importlib.import_module("mcp_models.surface.messages").LIST_RESULTS) == merged


# -- valid items, built from the item's JSON Schema ----------------------------------------------------


def instance(doc: dict[str, Any], schema: Any, seed: str, depth: int = 0) -> Any:
    """A valid instance of schema with every property it declares (required ones only from depth 4):
    strings from the seed, the first allowed value of a constant, enum or union."""
    schema = _resolved(doc, schema)
    if not isinstance(schema, dict):
        return seed
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            arms = [arm for arm in schema[key] if _resolved(doc, arm).get("type") != "null"]
            return instance(doc, arms[0], seed, depth)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next(k for k in kind if k != "null")
    if kind == "object" or "properties" in schema:
        properties: dict[str, Any] = schema.get("properties") or {}
        keys = list(properties) if depth < 4 else [k for k in schema.get("required", ()) if k in properties]
        return {key: instance(doc, properties[key], f"{seed}-{key}", depth + 1) for key in keys}
    if kind == "array":
        count = max(1, schema.get("minItems", 1))
        return [instance(doc, schema.get("items", {}), f"{seed}-{index}", depth + 1) for index in range(count)]
    if kind == "string":
        return {"uri": f"https://example.com/{seed}", "uri-template": "https://example.com/{id}",
                "date-time": "2025-01-01T00:00:00Z"}.get(schema.get("format", ""), seed)  # fmt: skip
    if kind == "integer":
        return schema.get("minimum", 1)
    if kind == "number":
        low, high = schema.get("minimum"), schema.get("maximum")
        return (low + high) / 2 if low is not None and high is not None else 0.5
    if kind == "boolean":
        return True
    return {}  # any JSON


# -- five invalid items, each found in the item's JSON Schema -----------------------------------------


@dataclass(frozen=True)
class Site:
    path: tuple[str | int, ...]
    schema: dict[str, Any]


def sites(doc: dict[str, Any], schema: Any, value: Any, path: tuple[str | int, ...] = ()) -> Iterator[Site]:
    """Every place of value with the schema that holds there (a union's place, then its chosen arm's)."""
    schema = _resolved(doc, schema)
    if not isinstance(schema, dict):
        return
    yield Site(path, schema)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            arm = next(a for a in schema[key] if _resolved(doc, a).get("type") != "null")
            yield from sites(doc, arm, value, path)
            return
    if isinstance(value, dict):
        properties = schema.get("properties") or {}
        for key, member in value.items():
            if key in properties:
                yield from sites(doc, properties[key], member, (*path, key))
    elif isinstance(value, list):
        for index, member in enumerate(value):
            yield from sites(doc, schema.get("items", {}), member, (*path, index))


def pointer(path: tuple[str | int, ...]) -> str:
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def _alternatives(schema: dict[str, Any]) -> bool:
    """Whether a schema offers arms to choose from: anyOf/oneOf, several types, an enum."""
    kinds = schema.get("type")
    return (
        "anyOf" in schema
        or "oneOf" in schema
        or (isinstance(kinds, list) and len(kinds) > 1)
        or len(schema.get("enum", ())) > 1
    )


def _content_union(doc: dict[str, Any], schema: dict[str, Any]) -> bool:
    """A union whose arms are told apart by a constant `type` (content blocks)."""
    arms = [_resolved(doc, arm) for arm in schema.get("anyOf", schema.get("oneOf", ()))]
    return bool(arms) and all("const" in (arm.get("properties") or {}).get("type", {}) for arm in arms)


def _leaf(site: Site) -> bool:
    return site.schema.get("type") in ("string", "integer", "number", "boolean") or "const" in site.schema


OTHER_TYPES = ["none-of-these", 7, 0.25, True, None, ["x"], {"x": 1}]


@dataclass(frozen=True)
class Bad:
    way: str
    item: Any
    where: str  # JSON pointer into the item of what is wrong


def _set(item: Any, path: tuple[str | int, ...], value: Any) -> Any:
    changed = copy.deepcopy(item)
    target = changed
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return changed


def _refused(revision: str, item_def: str, item: Any, path: tuple[str | int, ...], candidates: list[Any]) -> Any:
    """item with the first candidate at path that the revision's JSON Schema refuses."""
    for candidate in candidates:
        changed = _set(item, path, candidate)
        if not support.accepts(revision, item_def, changed):
            return changed
    raise AssertionError(f"no candidate refused at {pointer(path)}")


def _out_of_range(site: Site) -> list[Any]:
    if "maximum" in site.schema:
        return [site.schema["maximum"] + 1]
    if "minimum" in site.schema:
        return [site.schema["minimum"] - 1]
    return []


def bad_items(revision: str, item_def: str, valid: Any) -> list[Bad]:
    """The five invalid variants of a valid item, each found in the item's schema."""
    doc = support.document(revision)
    schema = doc["$defs"][item_def]
    places = [s for s in sites(doc, schema, valid) if s.path]
    required = sorted(schema.get("required", ()))
    bad: list[Bad] = []
    # 1. a required property with a value of another JSON type
    scalar = next(
        k for k in required if _resolved(doc, schema["properties"][k]).get("type") in ("string", "integer", "boolean")
    )
    bad.append(Bad("wrong JSON type", _refused(revision, item_def, valid, (scalar,), OTHER_TYPES), f"/{scalar}"))
    # 2. a required key left out
    missing = {k: v for k, v in valid.items() if k != required[0]}
    bad.append(Bad("missing required key", missing, f"/{required[0]}"))
    used: set[tuple[str | int, ...]] = set()
    # 3. the deepest value with arms to choose from, given one no arm takes; else a deep leaf
    unions = [s for s in places if _alternatives(s.schema)]
    if unions:
        union = max(unions, key=lambda s: len(s.path))
        bad.append(
            Bad("no union arm", _refused(revision, item_def, valid, union.path, OTHER_TYPES), pointer(union.path))
        )
        used.add(union.path)
    # 4. deep inside inputSchema (a tool), else the item's deepest value: out of range, else another type
    under = [s for s in places if _leaf(s) and (s.path[0] == "inputSchema" or "inputSchema" not in valid)]
    deep = max(under, key=lambda s: (s.path not in used, len(s.path)))
    bad.append(
        Bad(
            "deep value",
            _refused(revision, item_def, valid, deep.path, _out_of_range(deep) + OTHER_TYPES),
            pointer(deep.path),
        )
    )
    used.add(deep.path)
    # 5. a content `type` no arm has, where the item holds content; else another deep value
    content = [s for s in places if _content_union(doc, s.schema)]
    if content:
        site = content[0]
        arm = _set(valid, (*site.path, "type"), "no-such-content")
        bad.append(Bad("unknown content type", arm, pointer((*site.path, "type"))))
    others = [s for s in places if _leaf(s) and s.path not in used and s.path[0] != "inputSchema"]
    while len(bad) < 5:  # no union (3) or no content (5) in this item: another deep value each
        site = max(others or [s for s in places if _leaf(s)], key=lambda s: len(s.path))
        bad.append(
            Bad("another deep value", _refused(revision, item_def, valid, site.path, OTHER_TYPES), pointer(site.path))
        )
        others = [s for s in others if s is not site]
    return bad


@dataclass(frozen=True)
class ListCase:
    revision: str
    method: str
    key: str
    result: dict[str, Any]  # a valid result, its list empty
    valid: list[Any]  # three valid items
    bad: list[Bad]


@cache
def list_case(revision: str, method: str) -> ListCase:
    doc = support.document(revision)
    result_def, key, item_def = schema_list_results(revision)[method]
    valid = [instance(doc, doc["$defs"][item_def], f"{item_def.lower()}{n}") for n in range(3)]
    for item in valid:
        assert support.accepts(revision, item_def, item), (item_def, item)
    result = instance(doc, doc["$defs"][result_def], "result")
    result[key] = []
    assert support.accepts(revision, result_def, result)
    bad = bad_items(revision, item_def, valid[0])
    for case in bad:
        assert not support.accepts(revision, item_def, case.item), case
    return ListCase(revision, method, key, result, valid, bad)


def _with_items(case: ListCase, items: list[Any]) -> dict[str, Any]:
    return {**case.result, case.key: items}


def _message(result: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": REQUEST_ID, "result": result}).encode()


def _one_line(reason: str) -> bool:
    return bool(reason) and len(reason) <= 300 and reason.isprintable()


# -- per list method and revision: the package, then the surface ---------------------------------------


Parse = Callable[..., Any]


def _parsers(target: str, revision: str, method: str) -> tuple[Parse, Parse]:
    """(parse a result, parse a response message), strict or tolerant by keyword, at the target."""
    pending = {REQUEST_ID: method}
    if target == "package":
        own = package(revision)
        return (
            lambda raw, **kw: own.parse_result(method, raw, **kw),
            lambda raw, **kw: own.parse_message(raw, pending, **kw),
        )
    wire = surface()
    return (
        lambda raw, **kw: wire.parse_result(method, raw, protocol_version=revision, **kw),
        lambda raw, **kw: wire.parse_message(raw, protocol_version=revision, pending=pending, **kw),
    )


def _dumped(target: str, revision: str, value: BaseModel) -> Any:
    """The wire JSON of a parsed value: its dump, or the surface's send at the revision."""
    if target == "package":
        return value.model_dump(mode="json")
    return json.loads(surface().send(value, revision))


@pytest.mark.parametrize("target", ["package", "surface"])
@pytest.mark.parametrize(("revision", "method"), CASES, ids=[f"{r}:{m}" for r, m in CASES])
def test_one_bad_item_is_dropped_and_reported_the_rest_kept(target: str, revision: str, method: str) -> None:
    case = list_case(revision, method)
    parse_result, parse_message = _parsers(target, revision, method)
    ways = {bad.way for bad in case.bad}
    assert len(case.bad) == 5 and {"wrong JSON type", "missing required key", "deep value"} <= ways
    for bad in case.bad:
        items = [case.valid[0], case.valid[1], bad.item, case.valid[2]]
        result, kept = _with_items(case, items), _with_items(case, [case.valid[0], case.valid[1], case.valid[2]])
        raw = json.dumps(result).encode()
        with pytest.raises(ValidationError):  # strict: unchanged, it still raises
            parse_result(raw)
        with pytest.raises(ValidationError):
            parse_message(_message(result))
        for form in (raw, raw.decode(), result):  # bytes, str, a dict
            tolerated = parse_result(form, tolerant=True)
            (dropped,) = tolerated.dropped
            assert (dropped.index, dropped.pointer) == (2, f"/{case.key}/2"), bad.way
            assert dropped.raw == bad.item and json.dumps(dropped.raw) == json.dumps(bad.item), bad.way
            assert dropped.reason.startswith(bad.where + ":") and _one_line(dropped.reason), (bad.way, dropped.reason)
            assert _dumped(target, revision, tolerated.value) == kept, bad.way
        message = parse_message(_message(result), tolerant=True)
        assert [(d.index, d.pointer, d.raw) for d in message.dropped] == [(2, f"/result/{case.key}/2", bad.item)]
        assert _dumped(target, revision, message.value)["result"] == kept
    # all five in one list, between valid items: exactly those five, in list order
    items = [
        case.valid[0],
        *(bad.item for bad in case.bad[:3]),
        case.valid[1],
        *(bad.item for bad in case.bad[3:]),
        case.valid[2],
    ]
    tolerated = parse_result(json.dumps(_with_items(case, items)), tolerant=True)
    assert [d.index for d in tolerated.dropped] == [1, 2, 3, 5, 6]
    assert [d.raw for d in tolerated.dropped] == [bad.item for bad in case.bad]
    assert _dumped(target, revision, tolerated.value) == _with_items(case, case.valid)


@pytest.mark.parametrize("target", ["package", "surface"])
@pytest.mark.parametrize("revision", list(REVISIONS))
def test_a_valid_list_gives_exactly_the_strict_value(target: str, revision: str) -> None:
    for method in schema_list_results(revision):
        case = list_case(revision, method)
        parse_result, parse_message = _parsers(target, revision, method)
        raw = json.dumps(_with_items(case, case.valid))
        tolerated = parse_result(raw, tolerant=True)
        assert tolerated.dropped == () and tolerated.value == parse_result(raw) == parse_result(raw, tolerant=False)
        message = parse_message(_message(_with_items(case, case.valid)), tolerant=True)
        assert message.dropped == () and message.value == parse_message(_message(_with_items(case, case.valid)))


# -- what is not a list item is never tolerated ----------------------------------------------------------


def _errors(exc: ValidationError) -> list[Any]:
    return exc.errors(include_url=False)


@pytest.mark.parametrize("revision", list(REVISIONS))
def test_a_bad_field_beside_the_list_fails_as_strict_does(revision: str) -> None:
    own = package(revision)
    for method in schema_list_results(revision):
        case = list_case(revision, method)
        items = [case.valid[0], case.bad[0].item]
        broken: list[dict[str, Any]] = [
            {**_with_items(case, items), case.key: {"0": case.valid[0]}},  # the list is no list
            {k: v for k, v in _with_items(case, items).items() if k != case.key},  # the list is missing
        ]
        for key in sorted(case.result):
            if key != case.key:  # a field beside the list, with a value of another type
                broken.append({**_with_items(case, items), key: [] if isinstance(case.result[key], str) else "x"})
        for result in broken:
            for parse in (
                partial(own.parse_result, method, result),
                partial(own.parse_message, _message(result), {REQUEST_ID: method}),
            ):
                with pytest.raises(ValidationError) as strict:
                    parse()
                with pytest.raises(ValidationError) as tolerant:
                    parse(tolerant=True)
                assert _errors(tolerant.value) == _errors(strict.value), (method, result)


def test_an_invalid_envelope_fails_as_strict_does() -> None:
    own = package("2025-11-25")
    case = list_case("2025-11-25", "tools/list")
    result = _with_items(case, [case.valid[0], case.bad[0].item])
    for message in (
        {"jsonrpc": "1.0", "id": REQUEST_ID, "result": result},
        {"jsonrpc": "2.0", "id": [1], "result": result},
    ):
        with pytest.raises(ValidationError) as strict:
            own.parse_message(json.dumps(message), {REQUEST_ID: "tools/list"})
        with pytest.raises(ValidationError) as tolerant:
            own.parse_message(json.dumps(message), {REQUEST_ID: "tools/list"}, tolerant=True)
        assert _errors(tolerant.value) == _errors(strict.value)
    # a response to no pending list request: nothing is a list item
    with pytest.raises(ValidationError):
        own.parse_message(_message(result), {REQUEST_ID: "tools/call"}, tolerant=True)
    assert type(own.parse_message(_message(result), tolerant=True).value) is own.JSONRPCResultResponse


def test_nan_and_infinity_stay_refused() -> None:
    own = package("2025-11-25")
    case = list_case("2025-11-25", "tools/list")
    bad = case.bad[0].item
    for text in ("NaN", "Infinity", "-Infinity", "1e400"):
        tool = json.dumps({**case.valid[0], "inputSchema": {"type": "object", "default": "@"}}).replace('"@"', text)
        raw = '{"tools": [' + tool + ", " + json.dumps(bad) + "]}"
        for tolerant in (False, True):
            with pytest.raises(own.MessageError):
                own.parse_result("tools/list", raw, tolerant=tolerant)
            with pytest.raises(own.MessageError):
                own.parse_message(_message_text(raw), {REQUEST_ID: "tools/list"}, tolerant=tolerant)
    # decoded input holding NaN: the strict refusal stands, nothing is dropped
    decoded = {"tools": [{**case.valid[0], "annotations": {"readOnlyHint": float("nan")}}, bad]}
    with pytest.raises(ValidationError) as strict:
        own.parse_result("tools/list", decoded)
    with pytest.raises(ValidationError) as tolerant:
        own.parse_result("tools/list", decoded, tolerant=True)
    assert _errors(tolerant.value)[0]["loc"] == _errors(strict.value)[0]["loc"]


def _message_text(result: str) -> str:
    return f'{{"jsonrpc": "2.0", "id": {REQUEST_ID}, "result": {result}}}'


def test_a_reason_is_one_escaped_bounded_line() -> None:
    own = package("2025-11-25")
    case = list_case("2025-11-25", "tools/list")
    key = "a\nb\x00" + "k" * 500
    tool = {**case.valid[0], "inputSchema": {"type": "object", "properties": {key: 5}}}
    tolerated = own.parse_result("tools/list", {"tools": [case.valid[0], tool]}, tolerant=True)
    (dropped,) = tolerated.dropped
    assert dropped.reason.startswith("/inputSchema/properties/a\\nb\\x00kkk") and len(dropped.reason) == 300
    assert _one_line(dropped.reason) and dropped.reason.endswith("…")
    assert str(dropped) == f"/tools/1 dropped: {dropped.reason}"
    slashed = {**case.valid[0], "inputSchema": {"type": "object", "properties": {"a/b~c": 5}}}
    (dropped,) = own.parse_result("tools/list", {"tools": [slashed]}, tolerant=True).dropped
    assert dropped.reason.startswith("/inputSchema/properties/a~1b~0c: ")


# -- items nested deeper than pydantic-core's JSON parser reads --------------------------------------


def _nested_schema_text(levels: int, leaf: str = '{"type": "object"}') -> str:
    """A JSON Schema nesting `levels` objects (two JSON levels each), written without json.dumps
    (which recurses)."""
    return '{"type": "object", "properties": {"a": ' * levels + leaf + "}}" * levels


def _nested_schema(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {"type": "object"}
    for _ in range(levels):
        value = {"type": "object", "properties": {"a": value}}
    return value


def _depth(value: Any) -> int:
    """How many schema objects nest in value (a loop: == on such values recurses)."""
    count = 0
    while isinstance(value, dict) and "properties" in value:
        value, count = value["properties"]["a"], count + 1
    return count


def _deep_forms(case: ListCase, name: Any, levels: int) -> tuple[str, dict[str, Any]]:
    """A list result of two tools, the first one's inputSchema nesting `levels` objects: as text and decoded."""
    tool = {**case.valid[0], "name": name}
    text = json.dumps(tool)[:-1] + ', "inputSchema": ' + _nested_schema_text(levels) + "}"
    result = _with_items(case, ["@0", case.valid[1]])
    decoded = {**result, case.key: [{**tool, "inputSchema": _nested_schema(levels)}, case.valid[1]]}
    return json.dumps(result).replace('"@0"', text), decoded


@pytest.mark.parametrize("target", ["package", "surface"])
@pytest.mark.parametrize("revision", ["2025-11-25", "2026-07-28"])
@pytest.mark.parametrize("levels", [120, 5_000])
def test_an_item_nested_past_the_json_parser_s_limit_reads_as_decoded(target: str, revision: str, levels: int) -> None:
    """Issue 36, finding 1: a tool whose inputSchema nests 120 objects (247 JSON levels) passed
    pydantic-core's parser limit, and a tolerant parse of the list as text failed with `recursion
    limit exceeded`, losing the good tool beside it. Text (bytes, str) now reads as the same list
    decoded does, at any depth: a valid deep tool is kept, an invalid one dropped with its reason."""
    case = list_case(revision, "tools/list")
    parse_result, parse_message = _parsers(target, revision, "tools/list")
    names = [case.valid[0]["name"], case.valid[1]["name"]]
    text, decoded = _deep_forms(case, names[0], levels)
    message = f'{{"jsonrpc": "2.0", "id": {REQUEST_ID}, "result": {text}}}'
    for form in (text.encode(), text, decoded):
        tolerated = parse_result(form, tolerant=True)
        assert tolerated.dropped == () and [tool.name for tool in tolerated.value.tools] == names
        assert _depth(tolerated.value.tools[0].input_schema.model_dump()) == levels
    read = parse_message(message.encode(), tolerant=True)
    assert read.dropped == () and [tool.name for tool in read.value.result.tools] == names
    text, decoded = _deep_forms(case, 7, levels)  # the deep tool is invalid: dropped, the other kept
    message = f'{{"jsonrpc": "2.0", "id": {REQUEST_ID}, "result": {text}}}'
    for form in (text.encode(), text, decoded):
        tolerated = parse_result(form, tolerant=True)
        (dropped,) = tolerated.dropped
        assert (dropped.index, dropped.pointer, dropped.reason.split(":")[0]) == (0, f"/{case.key}/0", "/name")
        assert dropped.raw["name"] == 7 and _depth(dropped.raw["inputSchema"]) == levels
        assert [tool.name for tool in tolerated.value.tools] == names[1:]
    read = parse_message(message, tolerant=True)
    assert [(d.index, d.pointer) for d in read.dropped] == [(0, f"/result/{case.key}/0")]
    assert [tool.name for tool in read.value.result.tools] == names[1:]


def test_deep_text_stays_strict_json() -> None:
    """The reader of deep text refuses what pydantic-core's parser refuses: NaN, Infinity, a number
    a double cannot hold, broken text; the strict parse of deep text still fails as it did."""
    own = package("2026-07-28")
    case = list_case("2026-07-28", "tools/list")
    text, _ = _deep_forms(case, "deep", 300)
    with pytest.raises(ValueError):
        own.parse_result("tools/list", text)
    for leaf in ("NaN", "-Infinity", "1e400", '{"type": "object"', '"\\ud800"', '{"a": 1,}'):
        broken = text.replace('{"type": "object"}}}', leaf + "}}", 1)
        assert broken != text
        with pytest.raises(own.MessageError):
            own.parse_result("tools/list", broken, tolerant=True)
        with pytest.raises(own.MessageError):
            own.parse_message(f'{{"jsonrpc": "2.0", "id": 7, "result": {broken}}}', {7: "tools/list"}, tolerant=True)


def test_a_dropped_item_holds_its_own_copy_of_decoded_input() -> None:
    """Issue 36, finding 3: a DroppedItem read from a decoded dict held the caller's own item, so
    a later change to the input changed the frozen record. It holds a deep copy of its own."""
    own, wire = package("2025-11-25"), surface()
    case = list_case("2025-11-25", "tools/list")
    pending = {REQUEST_ID: "tools/list"}
    parses: list[Callable[[dict[str, Any]], Any]] = [
        lambda result: own.parse_result("tools/list", result, tolerant=True),
        lambda result: own.parse_message({"jsonrpc": "2.0", "id": REQUEST_ID, "result": result}, pending, tolerant=True),
        lambda result: wire.parse_result("tools/list", result, protocol_version="2025-11-25", tolerant=True),
    ]
    for parse in parses:
        bad = {**copy.deepcopy(case.bad[0].item), "inputSchema": {"type": "object", "properties": {"a": {"b": [1]}}}}
        (dropped,) = parse(_with_items(case, [case.valid[0], bad])).dropped
        received = copy.deepcopy(bad)
        bad["name"] = "changed"
        bad["inputSchema"]["properties"]["a"]["b"].append(2)  # deep inside the caller's item
        del bad["inputSchema"]["type"]
        assert dropped.raw == received and json.dumps(dropped.raw) == json.dumps(received)


def test_a_method_without_a_list_result_parses_strictly() -> None:
    own = package("2025-11-25")
    assert own.parse_result("tools/call", {"content": []}, tolerant=True) == own.Tolerated(
        own.parse_result("tools/call", {"content": []})
    )
    with pytest.raises(ValidationError):
        own.parse_result("tools/call", {"content": [{"type": "nope"}, {"type": "text", "text": "x"}]}, tolerant=True)


def test_the_surface_drops_what_its_own_types_refuse() -> None:
    """At 2024-11-05 `icons` is no key of Tool, kept as an unknown one; the surface types it (a later
    revision's property) and refuses a bad value there: strict refuses the list, tolerant drops the item."""
    wire = surface()
    case = list_case("2024-11-05", "tools/list")
    iconic = {**case.valid[1], "icons": [{"src": "https://example.com/i.png", "theme": "purple"}]}
    result = _with_items(case, [case.valid[0], iconic, case.bad[0].item])
    with pytest.raises(wire.RevisionError):
        wire.parse_result("tools/list", _with_items(case, [case.valid[0], iconic]), protocol_version="2024-11-05")
    tolerated = wire.parse_result("tools/list", result, protocol_version="2024-11-05", tolerant=True)
    assert [(d.index, d.raw) for d in tolerated.dropped] == [(1, iconic), (2, case.bad[0].item)]
    assert tolerated.dropped[0].reason.startswith("/icons/0/theme: ")
    assert json.loads(wire.send(tolerated.value, "2024-11-05")) == _with_items(case, [case.valid[0]])
    message = wire.parse_message(
        _message(result), protocol_version="2024-11-05", pending={REQUEST_ID: "tools/list"}, tolerant=True
    )
    assert [d.pointer for d in message.dropped] == ["/result/tools/1", "/result/tools/2"]


# -- real traffic: the reference server's list responses -------------------------------------------------


def _captured() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CAPTURED.read_text().splitlines()]


def _same_outcome(parse: Callable[..., Any]) -> str:
    """'ok' when parse and parse(tolerant=True) both read the input (the same value, nothing
    dropped), else 'refused' when both raise the same errors."""
    try:
        expected = parse()
    except ValidationError as exc:
        with pytest.raises(ValidationError) as again:
            parse(tolerant=True)
        assert _errors(again.value) == _errors(exc)
        return "refused"
    got = parse(tolerant=True)
    assert got.dropped == () and got.value == expected
    assert got.value.model_dump(mode="json") == expected.model_dump(mode="json")
    return "ok"


def _read_both_ways(rows: list[dict[str, Any]], revisions: list[str]) -> dict[str, set[str]]:
    outcomes: dict[str, set[str]] = {}
    for row in rows:
        pending, method, raw = {row["id"]: row["method"]}, row["method"], row["raw"].encode()
        result = json.dumps(json.loads(raw)["result"]).encode()
        for revision in revisions:
            own, wire = package(revision), surface()
            seen = outcomes.setdefault(revision, set())
            seen.add(_same_outcome(partial(own.parse_message, raw, pending)))
            seen.add(_same_outcome(partial(own.parse_result, method, result)))
            try:
                expected = wire.parse_message(raw, protocol_version=revision, pending=pending)
            except ValidationError:
                continue
            got = wire.parse_message(raw, protocol_version=revision, pending=pending, tolerant=True)
            assert got.dropped == () and got.value == expected
            assert wire.send(got.value, revision) == wire.send(expected, revision)
            alone = wire.parse_result(method, result, protocol_version=revision, tolerant=True)
            assert alone.dropped == () and alone.value == wire.parse_result(method, result, protocol_version=revision)
    return outcomes


def test_captured_reference_traffic_reads_the_same_tolerant_or_strict() -> None:
    rows = _captured()
    assert {row["server"] for row in rows} == {
        "@modelcontextprotocol/server-everything@2026.8.31"
    }  # scripts/setup.sh's
    assert {row["method"] for row in rows} == {
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
    }
    assert {row["negotiated"] for row in rows} == {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}
    assert sum(len(json.loads(row["raw"])["result"]["tools"]) for row in rows if row["method"] == "tools/list") >= 40
    outcomes = _read_both_ways(rows, list(REVISIONS))
    for revision in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"):
        assert outcomes[revision] == {"ok"}, revision
    # 2026-07-28 requires cacheScope / ttlMs beside the list: refused alike, nothing tolerated
    assert outcomes["2026-07-28"] == outcomes["draft"] == {"refused"}


@pytest.mark.slow
def test_live_reference_server_reads_the_same_tolerant_or_strict() -> None:
    assert SERVER.is_file(), "scripts/setup.sh installs @modelcontextprotocol/server-everything"
    sys.path.insert(0, str(DATA))
    try:
        capture = importlib.import_module("capture")
    finally:
        sys.path.remove(str(DATA))
    rows = list(capture.capture("2025-11-25", SERVER))
    assert len(rows) >= 4
    assert _read_both_ways(rows, [rows[0]["negotiated"]]) == {rows[0]["negotiated"]: {"ok"}}


# -- typing, both ways --------------------------------------------------------------------------------------


_MARK = re.compile(r"#\s*expect-error\b")
TYPING_FILES = [DATA / "typing_ok.py", DATA / "typing_misuse.py"]


def _expected_errors(path: Path) -> set[int]:
    return {n for n, line in enumerate(path.read_text().splitlines(), 1) if _MARK.search(line)}


@cache
def _mypy() -> dict[str, set[int]]:
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *map(str, TYPING_FILES)],
        capture_output=True, text=True, cwd=REPO, check=False,
    )  # fmt: skip
    if run.returncode not in (0, 1) or f"{len(TYPING_FILES)} source files" not in run.stdout:
        raise RuntimeError(f"mypy did not check the files: {run.returncode}\n{run.stdout}\n{run.stderr}")
    errors: dict[str, set[int]] = {path.name: set() for path in TYPING_FILES}
    for found in re.finditer(r"^(?:.*[/\\])?([^/\\:]+\.py):(\d+): error", run.stdout, re.MULTILINE):
        errors[found.group(1)].add(int(found.group(2)))
    return errors


@cache
def _pyright() -> dict[str, set[int]]:
    run = subprocess.run(
        [str(Path(sys.executable).parent / "pyright"), "--outputjson", *map(str, TYPING_FILES)],
        capture_output=True, text=True, cwd=REPO, check=False,
    )  # fmt: skip
    report = json.loads(run.stdout)
    if report["summary"]["filesAnalyzed"] != len(TYPING_FILES):
        raise RuntimeError(f"pyright did not check the files: {report['summary']}")
    errors: dict[str, set[int]] = {path.name: set() for path in TYPING_FILES}
    for diagnostic in report["generalDiagnostics"]:
        if diagnostic["severity"] == "error":
            errors[Path(diagnostic["file"]).name].add(diagnostic["range"]["start"]["line"] + 1)
    return errors


@pytest.mark.parametrize("checker", [_mypy, _pyright], ids=["mypy", "pyright"])
def test_tolerant_parsing_type_checks(checker: Callable[[], dict[str, set[int]]]) -> None:
    assert checker()["typing_ok.py"] == set()


@pytest.mark.parametrize("checker", [_mypy, _pyright], ids=["mypy", "pyright"])
def test_tolerant_misuse_fails_on_exactly_the_marked_lines(checker: Callable[[], dict[str, set[int]]]) -> None:
    expected = _expected_errors(DATA / "typing_misuse.py")
    assert len(expected) >= 10
    assert checker()["typing_misuse.py"] == expected


def test_typing_files_carry_no_suppression() -> None:
    for path in TYPING_FILES:
        text = path.read_text()
        assert "type: ignore" not in text and "pyright: ignore" not in text and "cast(" not in text, path.name
