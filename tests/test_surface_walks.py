"""What the surface's send and receive walks leave out (issue 37): they must change nothing.

- Receive walks the revision's object beside the surface's only where, by the class pair's declared
  keys and field types, an unknown key the surface declares can be kept; the notes it leaves are
  those a walk of every field finds, for every example message of every revision at every revision
  that reads it, for those messages with another revision's keys put into every object, and for
  both with every key and string escaped.
- Receive's common case (one method: the revision's parse, the surface class's validator, the
  walk only where it can note) reads every example as the general path does, errors included.
- The notes receive does not make (an unknown key where the revision's definition is open, which
  sending keeps as dumped anyway) change nothing sent: the same bytes and the same changes as from
  an object noted everywhere.
- Send stops at a field the revision types `Any`: what is there is JSON the schema does not
  constrain, so a model object put there goes out as its own JSON, not fitted to the revision.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

from pydantic import BaseModel

from . import surface_support as support
from .surface_support import SPANNED, surface

FIELDS: Any = importlib.import_module("mcp_models._runtime.fields")  # the walks keyed by class


def _full_walk_notes(exact: object, received: object, revision: str) -> dict[str, frozenset[str]]:
    """Path -> foreign keys (as the engine's rule at revision counts them), found by walking every
    field both objects declare (no pruning, whatever the text spells)."""
    rule = surface().wire._surface._foreign(revision)
    notes: dict[str, frozenset[str]] = {}
    pending: list[tuple[object, object, str]] = [(exact, received, "")]
    while pending:
        mine, theirs, path = pending.pop()
        if isinstance(mine, BaseModel) and isinstance(theirs, BaseModel):
            declared = FIELDS.wire_names(type(theirs))
            kept = rule(type(mine), type(theirs))
            foreign = frozenset(key for key in (mine.__pydantic_extra__ or {}) if key in kept)
            if foreign:
                notes[path] = foreign
            for attribute, key in FIELDS.attribute_wire(type(mine)).items():
                if key in declared:
                    pending.append(
                        (
                            vars(mine).get(attribute),
                            getattr(theirs, declared[key]),
                            f"{path}/{key}",
                        )
                    )
        elif isinstance(mine, list | tuple) and isinstance(theirs, list | tuple):
            pending.extend(
                (a, b, f"{path}/{i}") for i, (a, b) in enumerate(zip(mine, theirs, strict=False))
            )
        elif isinstance(mine, dict) and isinstance(theirs, dict):
            pending.extend((a, theirs[k], f"{path}/{k}") for k, a in mine.items() if k in theirs)
    return notes


def _recorded_notes(received: object, revision: str) -> dict[str, frozenset[str]]:
    """Path -> the keys receive noted on the surface object there."""
    notes: dict[str, frozenset[str]] = {}
    pending: list[tuple[object, str]] = [(received, "")]
    while pending:
        value, path = pending.pop()
        if isinstance(value, BaseModel):
            keys = FIELDS.arrived(value, revision)
            if keys:
                notes[path] = keys
            wire = FIELDS.attribute_wire(type(value))
            pending.extend(
                (getattr(value, attribute), f"{path}/{key}") for attribute, key in wire.items()
            )
        elif isinstance(value, list | tuple):
            pending.extend((item, f"{path}/{i}") for i, item in enumerate(value))
        elif isinstance(value, dict):
            pending.extend((item, f"{path}/{key}") for key, item in value.items())
    return notes


def _escaped(value: Any) -> str:
    """value's JSON text with the first character of every object key and string escaped
    (`"\\u0074asks"`): the same JSON, spelling no key or string plainly."""

    def string(text: str) -> str:
        return f'"\\u{ord(text[0]):04x}{json.dumps(text[1:])[1:-1]}"' if text else '""'

    if isinstance(value, dict):
        members = (f"{string(key)}:{_escaped(item)}" for key, item in value.items())
        return "{" + ",".join(members) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_escaped(item) for item in value) + "]"
    if isinstance(value, str):
        return string(value)
    return json.dumps(value)


def _with_every_key(value: Any, keys: dict[str, Any]) -> Any:
    """value with keys added to every object in it that lacks them."""
    if isinstance(value, dict):
        return {k: _with_every_key(v, keys) for k, v in value.items()} | {
            k: v for k, v in keys.items() if k not in value
        }
    if isinstance(value, list):
        return [_with_every_key(item, keys) for item in value]
    return value


def test_the_pruned_receive_walk_leaves_the_notes_a_full_walk_finds() -> None:
    s = surface()
    # keys some revisions define and others do not, with values their surface types take
    foreign = {
        "tasks": {},
        "execution": {"taskSupport": "forbidden"},
        "title": "t",
        "icons": [],
    }
    checked = 0
    noted = 0
    for sample in support.samples():
        if sample.target != "message" or not isinstance(sample.value, dict):
            continue
        message = sample.value
        for value in (
            message,
            {**message, **_with_every_key({k: v for k, v in message.items()}, foreign)},
        ):
            for raw, revision in (
                (text, revision)
                for text in (json.dumps(value), _escaped(value))
                for revision in SPANNED
            ):
                package = s.wire._surface._package(revision)
                try:
                    exact = package.parse_message(raw)
                    received = s.parse_message(raw, protocol_version=revision)
                except ValueError:
                    continue  # not this revision's message, or a value the surface cannot hold
                expected = _full_walk_notes(exact, received, revision)
                assert _recorded_notes(received, revision) == expected, (
                    sample.origin,
                    revision,
                )
                checked += 1
                noted += bool(expected)
    assert checked > 100 and noted > 20, (checked, noted)


def test_escaped_spells_the_same_json() -> None:
    value = {"tasks": {"list": {}}, "a": [{"b": 1, "": 2}], "\u00e9t\u00e9": "text", "c": ""}
    text = _escaped(value)
    assert '"tasks"' not in text and '"b"' not in text and '"text"' not in text
    assert json.loads(text) == value


def test_the_notes_receive_leaves_out_change_nothing_sent() -> None:
    s = surface()
    extra = {"properties": {"a": {"type": "string"}}, "required": ["a"], "execution": {}}
    compared = 0
    left_out = 0
    for sample in support.samples():
        if sample.target != "message" or not isinstance(sample.value, dict):
            continue
        message = sample.value
        for value in (message, {**message, **_with_every_key(dict(message), extra)}):
            raw = json.dumps(value)
            for revision in SPANNED:
                package = s.wire._surface._package(revision)
                try:
                    exact = package.parse_message(raw)
                    received = s.parse_message(raw, protocol_version=revision)
                except ValueError:
                    continue
                everywhere = s.parse_message(raw, protocol_version=revision)
                FIELDS.remember(exact, everywhere, revision)  # every foreign key noted
                full = _recorded_notes(everywhere, revision)
                left_out += full != _recorded_notes(received, revision)
                for mode in ("fallback", "refuse"):
                    ours: list[Any] = []
                    theirs: list[Any] = []
                    try:
                        sent = s.send(received, revision, changes=ours, downgrade=mode)
                    except ValueError as exc:
                        sent = f"refused: {exc}"
                    try:
                        noted = s.send(everywhere, revision, changes=theirs, downgrade=mode)
                    except ValueError as exc:
                        noted = f"refused: {exc}"
                    assert (sent, ours) == (noted, theirs), (sample.origin, revision, mode)
                    compared += 1
    assert compared > 200 and left_out > 4, (compared, left_out)


def test_receive_walks_no_open_schema_of_a_tools_list() -> None:
    """A 2026-07-28 tool's inputSchema is open: its unknown keys need no note (sending keeps them
    as dumped), so receive walks a tool but not its schemas; a tool's `execution` (2025-11-25's)
    is still noted."""
    s = surface()
    engine = s.wire._surface
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {}, "required": []}}
    raw = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "resultType": "complete",
                "ttlMs": 0,
                "cacheScope": "private",
                "tools": [tool],
            },
        }
    )
    pending = {1: "tools/list"}
    exact = engine._package("2026-07-28").parse_message(raw, pending)
    received = s.parse_message(raw, protocol_version="2026-07-28", pending=pending)
    rule = engine._foreign("2026-07-28")
    mine, theirs = type(exact.result.tools[0]), type(received.result.tools[0])
    schemas = (
        type(exact.result.tools[0].input_schema),
        type(received.result.tools[0].input_schema),
    )
    assert rule(*schemas) == frozenset() and FIELDS.declared_foreign(*schemas) >= {"properties"}
    assert rule(mine, theirs) == {"execution"}
    walked = dict(FIELDS._remembered(mine, theirs, rule))
    assert "input_schema" not in walked and "input_schema" in dict(
        FIELDS._remembered(mine, theirs, FIELDS.declared_foreign)
    )
    assert _recorded_notes(received, "2026-07-28") == {}
    with_execution = json.loads(raw)
    with_execution["result"]["tools"][0]["execution"] = {"taskSupport": "optional"}
    again = s.parse_message(
        json.dumps(with_execution), protocol_version="2026-07-28", pending=pending
    )
    assert _recorded_notes(again, "2026-07-28") == {"/result/tools/0": frozenset({"execution"})}


def test_a_value_two_unions_read_as_different_arms_keeps_its_notes() -> None:
    """2026-07-28 reads a result with content and an unknown resultType as CallToolResult (its
    rules test content first), the surface as InputRequiredResult (resultType first): the keys the
    revision kept as unknown, which the surface's arm declares, are noted."""
    s = surface()
    requests = {
        "ask": {
            "method": "elicitation/create",
            "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {}}},
        }
    }
    for result in (
        {"resultType": "later", "content": [], "inputRequests": requests},
        {"resultType": "later", "content": [], "requestState": "s"},
    ):
        raw = json.dumps({"jsonrpc": "2.0", "id": 1, "result": result})
        pending = {1: "tools/call"}
        exact = s.wire._surface._package("2026-07-28").parse_message(raw, pending)
        received = s.parse_message(raw, protocol_version="2026-07-28", pending=pending)
        assert type(exact.result).__name__ == "CallToolResult"
        assert type(received.result).__name__ == "InputRequiredResult"
        notes = _recorded_notes(received, "2026-07-28")
        assert notes and notes == _full_walk_notes(exact, received, "2026-07-28"), notes
        assert json.loads(s.send(received, "2026-07-28")) == json.loads(raw)


def test_a_model_object_in_an_any_field_goes_out_as_its_own_json_unfitted() -> None:
    s = surface()
    tool = s.Tool(
        name="t",
        input_schema=s.ToolInputSchema(),
        icons=[s.Icon(src="https://example.com/i.png")],
    )
    alone = json.loads(s.send(tool, "2024-11-05"))
    assert "icons" not in alone  # a Tool of its own is fitted: 2024-11-05 has no icons
    reply = s.CallToolResult(
        content=[], meta={"tool": tool}
    )  # `_meta` is JSON the schema leaves open
    sent = json.loads(s.send(reply, "2024-11-05"))
    assert sent["_meta"]["tool"] == json.loads(tool.model_dump_json())  # its own JSON, icons kept
    assert "icons" in sent["_meta"]["tool"]


def test_receive_s_common_case_reads_as_the_general_path() -> None:
    """parse_message's common case (the revision's parse, then the validator of the surface class
    `_as_surface` picks, then `remember`) gives what the general path gives: the same object, the
    same notes, and for a message refused on either side the same error."""
    s = surface()
    engine = s.wire._surface
    foreign = {"tasks": {}, "execution": {"taskSupport": "forbidden"}, "icons": None}
    outcomes = 0
    fast = 0
    for sample in support.samples():
        if sample.target != "message" or not isinstance(sample.value, dict):
            continue
        message = sample.value
        for value in (message, {**message, **_with_every_key(dict(message), foreign)}):
            raw = json.dumps(value)
            for revision in SPANNED:
                seen = []
                for attempt in ("general", "common"):
                    if attempt == "general":
                        engine._receiving.clear()
                    armed = bool(engine._receiving.get(revision, (None, {}))[1])
                    fast += attempt == "common" and armed
                    try:
                        received = s.parse_message(raw, protocol_version=revision)
                    except ValueError as exc:
                        seen.append(("error", type(exc).__name__, str(exc)))
                        continue
                    seen.append(
                        (
                            type(received).__name__,
                            received.model_dump_json(),
                            _recorded_notes(received, revision),
                            received,
                        )
                    )
                assert seen[0] == seen[1], (sample.origin, revision)
                outcomes += 1
    assert outcomes > 150 and fast > 100, (outcomes, fast)


def test_a_typed_response_reads_alike_on_both_paths() -> None:
    """A response to a pending request comes back typed by its method; where the surface has no
    class of the revision's typed response (2025-11-25's task-augmented tools/call answered with
    CreateTaskResult), the common case hands the revision's object to the surface's dispatch
    without parsing it again: the same object, notes or error as the general path. Every example
    result, as the response to each method whose result it may be, at every revision."""
    s = surface()
    engine = s.wire._surface
    answering: dict[str, set[str]] = {}  # a result's class name -> the methods it answers
    for method, row in s.wire.METHODS.items():
        for name in (*row.result.values(), row.surface[2]):
            if name:
                answering.setdefault(name, set()).add(method)
    compared = 0
    for sample in support.samples():
        target = sample.target or ""
        methods = {target.removeprefix("result of ")} if target.startswith("result of ") else set()
        methods |= answering.get(target, set())
        if not methods or not isinstance(sample.value, dict):
            continue
        raw = json.dumps({"jsonrpc": "2.0", "id": 7, "result": sample.value})
        for revision in SPANNED:
            for method in sorted(methods):
                seen = []
                for attempt in ("general", "common"):
                    if attempt == "general":
                        engine._receiving.clear()
                    try:
                        received = s.parse_message(
                            raw, protocol_version=revision, pending={7: method}
                        )
                    except ValueError as exc:
                        seen.append(("error", type(exc).__name__, str(exc)))
                        continue
                    seen.append(
                        (type(received).__name__, received, _recorded_notes(received, revision))
                    )
                assert seen[0] == seen[1], (sample.origin, revision, method)
                compared += seen[0][0] != "error"
    assert compared > 50, compared
