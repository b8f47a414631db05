"""Sending to an older peer follows SEP-2106's interop rule (issue 25, point 2).

A non-object `structuredContent` sent at a revision that cannot carry it is left out and its JSON
kept in a TextContent (one already holding it is not repeated); a Tool's `outputSchema` that is no
object schema is left out; every change is reported (`changes`, and `dropped` as before);
`downgrade="refuse"` raises a one-line RevisionError instead. Which revision cannot carry what is
asked of each revision's own models, and checked here against each revision's JSON Schema
(jsonschema), with the test's own notion of "widened" (not the code's).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter

from mcp_models import surface as s
from mcp_models.surface import narrowing

from . import surface_support as support
from .surface_support import NEWEST_RELEASED, SPANNED, accepts, canonical, place
from .typing_checkers import TYPING, expected_errors, mypy_errors, pyright_errors

AS_IS: TypeAdapter[Any] = TypeAdapter(Any)  # a JSON value as it is
OLDER = SPANNED[: SPANNED.index(NEWEST_RELEASED)]  # every revision before the one SEP-2106 landed in
NEWER = SPANNED[SPANNED.index(NEWEST_RELEASED) :]


# -- the test's own oracle: where a value is one SEP-2106 widened -----------------------------------


def widened_values(value: Any, path: str = "") -> Iterator[tuple[str, str, Any]]:
    """(JSON pointer, key, value) of every non-object structuredContent and every outputSchema
    whose root is not `type: "object"`, anywhere in a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{path}/{key}"
            if key == "structuredContent" and not isinstance(item, dict):
                yield here, key, item
            elif key == "outputSchema" and isinstance(item, dict) and item.get("type") != "object":
                yield here, key, item
            else:
                yield from widened_values(item, here)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from widened_values(item, f"{path}/{index}")


def at(document: Any, pointer: str) -> Any:
    for token in pointer.strip("/").split("/") if pointer else ():
        document = document[int(token)] if isinstance(document, list) else document[token]
    return document


def parent(pointer: str) -> str:
    return pointer.rsplit("/", 1)[0]


def holds_json(block: Any, value: Any) -> bool:
    if not (isinstance(block, dict) and block.get("type") == "text"):
        return False
    try:
        return canonical(json.loads(block["text"])) == canonical(value)
    except ValueError:
        return False


# -- what a send at an older revision must give ------------------------------------------------------


def valid_at(revision: str, definition: str, sent: Any) -> bool:
    """The revision's JSON Schema accepts sent: as the definition, or, for a response, as its
    result envelope and a JSON-RPC message with the result at the result definition's place."""
    if definition.endswith("Response"):
        result = definition.removesuffix("Response")
        envelope = place(revision, "JSONRPCResultResponse")
        inner = place(revision, result)
        return bool(
            envelope and inner and accepts(revision, envelope, sent) and accepts(revision, inner, sent["result"])
            and accepts(revision, "JSONRPCMessage", sent)
        )  # fmt: skip
    where = place(revision, definition)
    return where is not None and accepts(revision, where, sent)


def check_downgraded(revision: str, definition: str, original: Any, sent: Any, changes: list[s.Change]) -> int:
    """Every widened value of original is gone from sent, a structuredContent's JSON is in a
    TextContent beside it, each is one "downgraded" change (with an "added" one for a new block),
    and nothing else was downgraded. Returns the number of text blocks added."""
    assert valid_at(revision, definition, sent), (revision, definition, sent)
    assert list(widened_values(sent)) == []
    downgraded = {c.path: c for c in changes if c.kind == "downgraded"}
    added = {c.path for c in changes if c.kind == "added"}
    expected = list(widened_values(original))
    assert set(downgraded) == {pointer for pointer, _, _ in expected}, (revision, changes)
    for pointer, key, value in expected:
        holder = at(sent, parent(pointer))
        assert key not in holder
        change = downgraded[pointer]
        assert change.reason and "\n" not in change.reason
        if key == "structuredContent":
            assert change.fallback is not None and change.fallback.startswith(parent(pointer) + "/content/")
            assert holds_json(at(sent, change.fallback), value), (change, sent)
            had = any(holds_json(block, value) for block in at(original, parent(pointer)).get("content", []))
            assert (change.fallback in added) is not had
            assert sum(holds_json(block, value) for block in holder["content"]) == max(1, sum(
                holds_json(block, value) for block in at(original, parent(pointer)).get("content", [])
            ))  # fmt: skip  # never a second copy
        else:
            assert change.fallback is None
    assert len(added) == sum(1 for c in downgraded.values() if c.fallback in added)
    return len(added)


def send_at(obj: BaseModel, revision: str, **options: Any) -> tuple[Any, list[s.Change], list[str]]:
    changes: list[s.Change] = []
    dropped: list[str] = []
    sent = json.loads(s.send(obj, revision, dropped=dropped, changes=changes, **options))
    assert dropped == [c.path for c in changes if c.kind in ("dropped", "downgraded")]  # `dropped` as before
    return sent, changes, dropped


def read_back(revision: str, sent_result: Any, value: Any) -> None:
    """An older peer reads what was sent; narrowing it finds the value again, in the text."""
    message = json.dumps({"jsonrpc": "2.0", "id": 9, "result": sent_result})
    received = s.parse_message(message, protocol_version=revision, pending={9: "tools/call"})
    result = getattr(received, "result", None)
    assert isinstance(result, s.CallToolResult)
    structured = narrowing.narrow_result(result, AS_IS)
    assert structured.source == "text" and canonical(structured.value) == canonical(value)


# -- the spec's own examples -------------------------------------------------------------------------


def newest_examples_with_widened_values() -> list[support.Sample]:
    return [
        sample
        for sample in support.samples()
        if sample.origin.startswith(f"{NEWEST_RELEASED}:") and list(widened_values(sample.value))
    ]


def wrapped(sample: support.Sample) -> list[tuple[str, Any]]:
    """The example as it is, and inside the messages that carry it: a tools/call response for a
    result; a tools/list result and its response for a tool."""
    name = support.surface_name(sample.target)
    forms: list[tuple[str, Any]] = [(name, sample.value)]
    if name == "CallToolResult":
        forms.append(("CallToolResultResponse", {"jsonrpc": "2.0", "id": 1, "result": sample.value}))
    if name == "Tool":
        listing = {"resultType": "complete", "tools": [sample.value], "ttlMs": 0, "cacheScope": "public"}
        forms.append(("ListToolsResult", listing))
        forms.append(("ListToolsResultResponse", {"jsonrpc": "2.0", "id": 1, "result": listing}))
    return forms


def test_every_newest_example_with_a_widened_value_is_sent_valid_at_every_older_revision() -> None:
    samples = newest_examples_with_widened_values()
    kinds = Counter(key for sample in samples for _, key, _ in widened_values(sample.value))
    assert kinds["structuredContent"] >= 1 and kinds["outputSchema"] >= 1, kinds
    counts: Counter[str] = Counter()
    for sample in samples:
        for definition, value in wrapped(sample):
            model = getattr(s, definition)
            obj = model.model_validate(value)
            assert valid_at(NEWEST_RELEASED, definition, value)
            for revision in OLDER:
                sent, changes, _ = send_at(obj, revision)
                counts["added"] += check_downgraded(revision, definition, value, sent, changes)
                counts["sends"] += 1
                counts["downgraded"] += sum(c.kind == "downgraded" for c in changes)
                for pointer, key, item in widened_values(value):
                    if key == "structuredContent":
                        read_back(revision, at(sent, parent(pointer)), item)
                        counts["read back"] += 1
            for revision in NEWER:  # the revisions that carry them: nothing downgraded
                sent, changes, _ = send_at(obj, revision)
                assert not [c for c in changes if c.kind in ("downgraded", "added")]
                assert canonical(sent) == canonical(value), (revision, definition)
    print(f"examples: {len(samples)} ({dict(kinds)}), {dict(counts)}")
    assert counts["sends"] == len(OLDER) * sum(len(wrapped(sample)) for sample in samples)
    assert counts["downgraded"] == counts["sends"]  # one widened value in each of these examples
    assert counts["read back"] >= len(OLDER) * 2


# -- constructed cases -----------------------------------------------------------------------------

STRUCTURED = {
    "empty array": [],
    "array": [1, "a", None, {"k": [True]}],
    "array of objects": [{"id": "1", "name": "Alice"}, {"id": "2", "name": "Bob"}],
    "nested array": [[1, 2], []],
    "string": "héllo\nworld",
    "empty string": "",
    "integer": 42,
    "zero": 0,
    "negative float": -2.5,
    "true": True,
    "false": False,
    "null": None,
}
OUTPUT_SCHEMAS = {
    "array": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}},
    "string": {"type": "string"},
    "number": {"type": "number", "minimum": 0},
    "null": {"type": "null"},
    "type list": {"type": ["object", "null"]},
    "anyOf, no type": {"anyOf": [{"type": "object"}, {"type": "array"}]},
    "$ref, no type": {"$ref": "#/$defs/user", "$defs": {"user": {"type": "object"}}},
    "empty schema": {},
}


def result_with(structured: Any, *texts: str) -> dict[str, Any]:
    return {
        "resultType": "complete",
        "content": [{"type": "text", "text": text} for text in texts],
        "structuredContent": structured,
    }


def tool_with(schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": "users", "inputSchema": {"type": "object"}, "outputSchema": schema}


@pytest.mark.parametrize("revision", OLDER)
def test_constructed_structured_content_is_downgraded_at_every_older_revision(revision: str) -> None:
    sends = added = 0
    for value in STRUCTURED.values():
        for texts in ((), ("Found them.",)):
            raw = result_with(value, *texts)
            sent, changes, _ = send_at(s.CallToolResult.model_validate(raw), revision)
            added += check_downgraded(revision, "CallToolResult", raw, sent, changes)
            read_back(revision, sent, value)
            response = {"jsonrpc": "2.0", "id": 3, "result": raw}
            sent, changes, _ = send_at(s.CallToolResultResponse.model_validate(response), revision)
            added += check_downgraded(revision, "CallToolResultResponse", response, sent, changes)
            sends += 2
    assert sends == 4 * len(STRUCTURED) and added == sends  # no example here had the JSON as text already


@pytest.mark.parametrize("revision", OLDER)
def test_constructed_output_schemas_are_left_out_at_every_older_revision(revision: str) -> None:
    for schema in OUTPUT_SCHEMAS.values():
        tool = tool_with(schema)
        listing = {"resultType": "complete", "tools": [tool, tool_with({"type": "object"})], "ttlMs": 0, "cacheScope": "public"}
        for definition, form in (
            ("Tool", tool),
            ("ListToolsResult", listing),
            ("ListToolsResultResponse", {"jsonrpc": "2.0", "id": "t", "result": listing}),
        ):
            sent, changes, _ = send_at(getattr(s, definition).model_validate(form), revision)
            assert check_downgraded(revision, definition, form, sent, changes) == 0


def test_a_sampling_tool_result_is_downgraded_like_a_tools_call_result() -> None:
    """ToolResultContent (sampling with tools, 2025-11-25 on) carries structuredContent too; the
    surface finds it from the schemas (any class with the key), not from a list of classes."""
    from mcp_models.surface._tables import WIDENED

    assert "ToolResultContent" in WIDENED
    revisions = [r for r in OLDER if place(r, "ToolResultContent") is not None]
    assert revisions == ["2025-11-25"]
    for revision in revisions:
        value = {"type": "tool_result", "toolUseId": "u1", "content": [], "structuredContent": [1, 2]}
        sent, changes, _ = send_at(s.ToolResultContent.model_validate(value), revision)
        check_downgraded(revision, "ToolResultContent", value, sent, changes)


def test_a_text_block_already_holding_the_json_is_not_repeated() -> None:
    value = [{"a": 1, "b": [2.5, None]}]
    kept = result_with(value, "Found one.", '[ {"b": [2.5, null],\n "a": 1} ]')  # other spacing, key order
    sent, changes, _ = send_at(s.CallToolResult.model_validate(kept), "2025-06-18")
    assert sent["content"] == kept["content"]
    assert [(c.kind, c.path, c.fallback) for c in changes if c.kind != "dropped"] == [
        ("downgraded", "/structuredContent", "/content/1")
    ]
    # JSON equal only by Python's ==: true is not 1, 1.0 is not 1; not JSON at all
    for structured, text in ((True, "1"), (1, "true"), (1, "1.0"), ([1], "[1"), ("x", "x")):
        sent, changes, _ = send_at(s.CallToolResult.model_validate(result_with(structured, text)), "2025-06-18")
        assert [c.kind for c in changes if c.kind != "dropped"] == ["downgraded", "added"], (structured, text)
        assert sent["content"][1] == {"type": "text", "text": json.dumps(structured, separators=(",", ":"))}


def test_what_older_revisions_carry_is_sent_as_before() -> None:
    """Objects are no SEP-2106 values: carried from 2025-06-18, dropped as an unknown key before it
    (no text added: its absence there is older than SEP-2106); an object outputSchema with 2020-12
    keywords is kept. The refuse mode changes none of this."""
    result = s.CallToolResult.model_validate(result_with({"n": 42}, "42"))
    schema = {"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b"]}], "$defs": {"x": {}}}
    tool = s.Tool.model_validate(tool_with(schema))
    for revision in OLDER:
        for mode in ("fallback", "refuse"):
            sent, changes, dropped = send_at(result, revision, downgrade=mode)
            assert sent["content"] == [{"type": "text", "text": "42"}]
            assert [c.kind for c in changes] == ["dropped"] * len(dropped)
            carried = _has(revision, "CallToolResult", "structuredContent")
            assert ("structuredContent" in sent) is carried and ("/structuredContent" in dropped) is not carried
            sent_tool, tool_changes, _ = send_at(tool, revision, downgrade=mode)
            assert "downgraded" not in {c.kind for c in tool_changes}
            if "outputSchema" in sent_tool:
                assert sent_tool["outputSchema"]["oneOf"] == schema["oneOf"]


# -- refusing ----------------------------------------------------------------------------------------


def refusal(obj: BaseModel, revision: str) -> s.RevisionError:
    with pytest.raises(s.RevisionError) as refused:
        s.send(obj, revision, downgrade="refuse")
    return refused.value


@pytest.mark.parametrize("revision", OLDER)
def test_refuse_raises_a_one_line_revision_error_naming_the_value(revision: str) -> None:
    cases: list[tuple[BaseModel, str]] = []
    for value in STRUCTURED.values():
        raw = result_with(value, "text")
        cases.append((s.CallToolResult.model_validate(raw), "/structuredContent"))
        cases.append((s.CallToolResultResponse.model_validate({"jsonrpc": "2.0", "id": 1, "result": raw}), "/result/structuredContent"))
    for schema in OUTPUT_SCHEMAS.values():
        listing = {"resultType": "complete", "tools": [tool_with({"type": "object"}), tool_with(schema)], "ttlMs": 0, "cacheScope": "public"}
        cases.append((s.ListToolsResult.model_validate(listing), "/tools/1/outputSchema"))
    for sample in newest_examples_with_widened_values():
        cases.append((getattr(s, support.surface_name(sample.target)).model_validate(sample.value), next(widened_values(sample.value))[0]))
    for obj, path in cases:
        error = refusal(obj, revision)
        message = str(error)
        assert "\n" not in message and len(message) <= 300, message
        assert error.path == path and error.revision == revision
        assert message.startswith(f"{path}: revision {revision} cannot carry ")
        assert 'downgrade="fallback" leaves it out' in message
        downgraded = json.loads(s.send(obj, revision))  # what the hint promises happens
        assert path.rsplit("/", 1)[-1] not in at(downgraded, parent(path))
        if path.endswith("structuredContent"):
            assert f"its JSON in a TextContent in {parent(path)}/content" in message
    assert len(cases) == 2 * len(STRUCTURED) + len(OUTPUT_SCHEMAS) + len(newest_examples_with_widened_values())


def test_revision_errors_stay_one_bounded_line_whatever_they_quote() -> None:
    error = s.RevisionError("a\nb\u2028" * 300 + " the hint", revision="r", path="/x\ry")
    message = str(error)
    assert "\n" not in message and "\r" not in message and "\u2028" not in message and len(message) == 300
    assert message.startswith("/x\\ry: a\\nb\\u2028") and message.endswith(" the hint")
    assert error.path == "/x\ry"  # the attribute keeps the real pointer
    result = s.CallToolResult(content=[])
    with pytest.raises(s.RevisionError) as unknown:
        s.send(result, "2025-06-18\n" * 100)
    assert "\n" not in str(unknown.value) and len(str(unknown.value)) <= 300
    assert str(unknown.value).endswith("draft)")  # the end that lists what is spanned survives
    with pytest.raises(ValueError, match="^downgrade must be one of 'fallback', 'refuse', not 'drop'$"):
        s.send(result, "2025-06-18", downgrade="drop")  # type: ignore[arg-type]  # checked at run time too


# -- derived from the schemas ---------------------------------------------------------------------


def test_which_revisions_downgrade_is_each_revisions_own_schema() -> None:
    """The revisions that downgrade each constructed value are exactly those whose JSON Schema
    refuses it at the property (or lacks the property, for a value even the first revision with it
    refuses): no list of revisions in the code or here."""
    from mcp_models.surface import _tables

    assert {name: sorted(keys) for name, keys in _tables.WIDENED.items()} == {
        "CallToolResult": ["structuredContent"], "Tool": ["outputSchema"], "ToolResultContent": ["structuredContent"],
    }  # fmt: skip
    for value in [*STRUCTURED.values(), {"a": 1}]:
        raw = result_with(value)
        expected = [r for r in SPANNED if not accepts(r, "CallToolResult", raw) or not _has(r, "CallToolResult", "structuredContent")]
        downgrading = [r for r in SPANNED if "downgraded" in {c.kind for c in send_at(s.CallToolResult.model_validate(raw), r)[1]}]
        first = next(r for r in SPANNED if _has(r, "CallToolResult", "structuredContent"))
        beyond_first = not accepts(first, "CallToolResult", raw)
        assert downgrading == [r for r in expected if beyond_first or _has(r, "CallToolResult", "structuredContent")], value
    for schema in [*OUTPUT_SCHEMAS.values(), {"type": "object"}]:
        tool = tool_with(schema)
        first = next(r for r in SPANNED if _has(r, "Tool", "outputSchema"))
        beyond_first = not accepts(first, "Tool", tool)
        expected = [r for r in SPANNED if (not _has(r, "Tool", "outputSchema") and beyond_first) or (_has(r, "Tool", "outputSchema") and not accepts(r, "Tool", tool))]
        downgrading = [r for r in SPANNED if "downgraded" in {c.kind for c in send_at(s.Tool.model_validate(tool), r)[1]}]
        assert downgrading == expected, schema


def _has(revision: str, definition: str, key: str) -> bool:
    where = place(revision, definition)
    if where is None:
        return False
    node = support.document(revision)["$defs"][where.rsplit("/", 1)[-1]]
    return key in node.get("properties", {})


# -- typing ----------------------------------------------------------------------------------------

CHECKERS: list[Callable[[Path], set[int]]] = [mypy_errors, pyright_errors]


@pytest.mark.parametrize("checker", CHECKERS, ids=["mypy", "pyright"])
def test_the_downgrade_options_type_check(checker: Callable[[Path], set[int]]) -> None:
    assert checker(TYPING / "downgrade_ok.py") == set()


@pytest.mark.parametrize("checker", CHECKERS, ids=["mypy", "pyright"])
def test_misused_downgrade_options_fail_on_exactly_the_marked_lines(checker: Callable[[Path], set[int]]) -> None:
    path = TYPING / "downgrade_misuse.py"
    expected = expected_errors(path)
    assert len(expected) == 11
    assert checker(path) == expected


def test_the_typing_files_carry_no_suppression() -> None:
    for name in ("downgrade_ok.py", "downgrade_misuse.py"):
        text = (TYPING / name).read_text()
        assert "type: ignore" not in text and "pyright: ignore" not in text, name
