"""Send's text path (issue 37): where `_fit` would give an object's dump back as it is, the
revision's class validates the dump's JSON text itself, without decoding and walking it first.
It must change nothing: the same wire bytes, the same changes reported, and the same error for an
invalid or edited object, as the path through `_fit` (forced here by turning the text path off).

Also: the quoted names of a type alias (`"list[JSONValue]"`) are looked up, never evaluated.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from pydantic_core import MISSING

from . import surface_support as support
from .conftest import SPEC
from .surface_support import SPANNED, surface


def _outcome(send: Callable[[], str], dropped: list[str], changes: list[Any]) -> tuple[str, ...]:
    """What one send gives: its text and reports, or its error's class, text and path."""
    try:
        text = send()
    except Exception as exc:  # noqa: BLE001 - the error itself is what is compared
        return ("error", type(exc).__name__, str(exc), str(getattr(exc, "path", "")))
    return ("sent", text, repr(dropped), repr(changes))


def _both_ways(obj: BaseModel, revision: str, monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(send's outcome, the outcome through `_fit` with the text path off), for obj at revision."""
    s = surface()
    outcomes = []
    for text_path in (True, False):
        with monkeypatch.context() as patched:
            if not text_path:
                patched.setattr(s.wire._surface, "_left_as_dumped", lambda value, revision: False)
            dropped: list[str] = []
            changes: list[Any] = []

            def send(dropped: list[str] = dropped, changes: list[Any] = changes) -> str:
                return str(s.send(obj, revision, dropped=dropped, changes=changes))

            outcomes.append(_outcome(send, dropped, changes))
    return outcomes[0], outcomes[1]


def _received_messages() -> Iterator[tuple[str, BaseModel]]:
    """(revision, the surface's object) of every example message at every revision that reads it."""
    s = surface()
    for sample in support.samples():
        if sample.target != "message" or not isinstance(sample.value, dict):
            continue
        raw = json.dumps(sample.value)
        for revision in SPANNED:
            try:
                yield revision, s.parse_message(raw, protocol_version=revision)
            except ValueError:
                continue


def test_the_text_path_sends_what_the_fit_sends(monkeypatch: pytest.MonkeyPatch) -> None:
    s = surface()
    taken = checked = 0
    for revision, message in _received_messages():
        for target in SPANNED:  # sent back at its own revision and at every other one
            ours, through_fit = _both_ways(message, target, monkeypatch)
            assert ours == through_fit, (type(message).__name__, revision, target)
            taken += ours[0] == "sent" and s.wire._surface._left_as_dumped(message, target)
            checked += 1
    assert checked > 500 and taken > 100, (checked, taken)


def _edited(message: BaseModel) -> Iterator[tuple[str, BaseModel]]:
    """Copies of a message, each edited as a caller may edit an object (no validation on
    assignment): a wrong type, a missing required value, a wrong constant, another class in a
    list, a constant or spec-stated key left out, another revision's key set, an unknown key."""
    s = surface()
    yield "as is", message
    yield "unknown key", message.model_copy(update={"x-vendor": {"a": [1, 2.5, None]}})
    if isinstance(message, s.CallToolRequest):
        params = message.params
        yield "name not a string", message.model_copy(update={"params": params.model_copy(update={"name": 5})})
        yield "arguments not an object", message.model_copy(
            update={"params": params.model_copy(update={"arguments": [1]})}
        )
        yield "jsonrpc left out", message.model_copy(update={"jsonrpc": MISSING})
        yield "jsonrpc wrong", message.model_copy(update={"jsonrpc": "1.0"})
        yield "method wrong", message.model_copy(update={"method": "tools/list"})
        yield "task set", message.model_copy(
            update={"params": params.model_copy(update={"task": s.TaskMetadata(ttl=5)})}
        )
        yield "params built without its name", message.model_copy(
            update={"params": s.CallToolRequestParams.model_construct(arguments={})}
        )
    result = getattr(message, "result", None)
    if isinstance(result, s.CallToolResult):
        image = s.ImageContent(data="AAAA", mime_type="image/png")
        text = s.TextContent(text="t")
        yield "resultType left out", message.model_copy(update={"result": result.model_copy(update={"result_type": MISSING})})
        yield "resultType other", message.model_copy(update={"result": result.model_copy(update={"result_type": "incomplete"})})
        yield "content of another class", message.model_copy(
            update={"result": result.model_copy(update={"content": [image, text, s.Tool.model_construct(name="t")]})}
        )
        yield "content item not a model", message.model_copy(
            update={"result": result.model_copy(update={"content": [{"type": "text", "text": "t"}, 3]})}
        )
        yield "text content with a wrong tag", message.model_copy(
            update={"result": result.model_copy(update={"content": [text.model_copy(update={"type": "image"})]})}
        )
        yield "structuredContent an array", message.model_copy(
            update={"result": result.model_copy(update={"structured_content": [1, 2]})}
        )
    if isinstance(result, s.ListToolsResult) and result.tools:
        first, *rest = result.tools

        def tools(*listed: BaseModel) -> BaseModel:
            return message.model_copy(update={"result": result.model_copy(update={"tools": list(listed)})})

        array = s.ToolOutputSchema.model_validate({"type": "array", "items": {"type": "string"}})
        yield "outputSchema no object schema", tools(first.model_copy(update={"output_schema": array}), *rest)
        yield "outputSchema left out", tools(*(tool.model_copy(update={"output_schema": MISSING}) for tool in result.tools))
        yield "outputSchema not a model", tools(first.model_copy(update={"output_schema": {"type": "object"}}), *rest)
        yield "execution set", tools(
            first.model_copy(update={"execution": s.ToolExecution(task_support="optional")}), *rest
        )


def test_an_edited_or_invalid_object_fails_or_goes_out_as_through_the_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    s = surface()
    examples = SPEC / "2026-07-28" / "examples"
    request = s.parse_message(
        (examples / "CallToolRequest" / "call-tool-request.json").read_bytes(), protocol_version="2026-07-28"
    )
    response = s.parse_message(
        json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "content": []}}),
        protocol_version="2026-07-28",
        pending={1: "tools/call"},
    )
    tool = {"name": "t", "inputSchema": {"type": "object"}}
    listed = s.parse_message(
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 2,
                "result": {
                    "resultType": "complete",
                    "ttlMs": 0,
                    "cacheScope": "private",
                    "tools": [{**tool, "outputSchema": {"type": "object"}}, {**tool, "name": "u"}],
                },
            }
        ),
        protocol_version="2026-07-28",
        pending={2: "tools/list"},
    )
    assert isinstance(request, s.CallToolRequest) and isinstance(response.result, s.CallToolResult)
    assert isinstance(listed.result, s.ListToolsResult)
    kinds: set[str] = set()
    refused = 0
    for message in (request, response, listed):
        for what, edited in _edited(message):
            for revision in SPANNED:
                ours, through_fit = _both_ways(edited, revision, monkeypatch)
                assert ours == through_fit, (what, revision)
                refused += ours[0] == "error"
                if s.wire._surface._left_as_dumped(edited, revision):
                    kinds.add(what)
    # the text path was taken for edited objects that the revision then refused or took
    assert {"name not a string", "method wrong", "content of another class", "jsonrpc wrong"} <= kinds, kinds
    # a class SEP-2106 widened takes the text path where its instance leaves the widened key out
    assert "outputSchema left out" in kinds and "outputSchema no object schema" not in kinds, kinds
    assert refused > 20, refused


def test_quoted_names_are_looked_up_in_their_module_never_evaluated() -> None:
    s = surface()
    fields: Any = importlib.import_module("mcp_models._runtime.fields")  # the engine's walks
    engine = importlib.import_module("mcp_models._runtime.surface")
    for module in (s.wire, fields, engine):
        assert not re.search(r"\beval\(", Path(str(module.__file__)).read_text())
    module = s.models.__name__
    assert fields.quoted_names("list[JSONValue]", module) == [s.models.JSONValue]
    assert fields.quoted_names("dict[str, JSONValue] | None", module) == [s.models.JSONValue]
    assert fields.quoted_names("NoSuchName", module) is None
    assert fields.quoted_names("JSONValue", None) is None  # a module not known: not known
    for not_a_name in ("__import__('os').getcwd()", "Literal['x']", "JSONValue.__class__", "[JSONValue]", "1 +"):
        assert fields.quoted_names(not_a_name, module) is None, not_a_name
    # JSONValue names itself through a quoted name; it holds no model, so a field of it is not walked
    assert fields.model_classes_in(s.models.JSONValue) == frozenset()
    assert fields.model_classes_in(dict[str, s.models.JSONValue]) == frozenset()
    assert fields.model_classes_in(list[s.models.TextContent]) == frozenset({s.models.TextContent})
