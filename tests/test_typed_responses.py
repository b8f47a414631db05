"""parse_message(raw, pending=...) types a success response by the pending method's result in every
revision (the schema's own response class, else ResultResponse[<result>]); parse_result takes a model."""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest

from .conftest import REVISIONS

WITH_MESSAGES = [package for package in REVISIONS.values()]
CALL = {"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "hi"}], "isError": False}}
LIST = {"jsonrpc": "2.0", "id": "a", "result": {"tools": [], "nextCursor": "c", "vendorKey": 1}}


def _new(package: str) -> bool:
    return not package.startswith(("v2024", "v2025"))


def _list(package: str) -> dict[str, Any]:
    """A tools/list response: 2026-07-28 results also carry resultType and their cache hints."""
    if not _new(package):
        return LIST
    return {**LIST, "result": {**LIST["result"], "resultType": "complete", "ttlMs": 0, "cacheScope": "public"}}


def _messages(package: str) -> Any:
    return importlib.import_module(f"mcp_models.{package}.messages")


@pytest.mark.parametrize("package", WITH_MESSAGES)
@pytest.mark.parametrize("as_text", [True, False], ids=["bytes", "dict"])
def test_a_response_to_a_pending_request_carries_its_typed_result(package: str, as_text: bool) -> None:
    messages = _messages(package)
    models = importlib.import_module(f"mcp_models.{package}")
    call = {**CALL, "result": {**CALL["result"], "resultType": "complete"}} if _new(package) else CALL
    raw: Any = json.dumps(call).encode() if as_text else call
    response = messages.parse_message(raw, pending={7: "tools/call"})
    assert isinstance(response.result, models.CallToolResult)
    assert response.result.content[0].text == "hi"
    assert response.model_dump(mode="json") == call  # nothing lost on the way
    raw_list = _list(package)
    listed = messages.parse_message(json.dumps(raw_list) if as_text else raw_list, pending={"a": "tools/list"})
    assert isinstance(listed.result, models.ListToolsResult)
    assert listed.model_dump(mode="json") == raw_list
    assert set(messages.RESPONSES) == set(messages.RESULTS)  # every request method has a typed response


@pytest.mark.parametrize("package", WITH_MESSAGES)
def test_parse_result_accepts_the_envelopes_generic_result_model(package: str) -> None:
    messages = _messages(package)
    models = importlib.import_module(f"mcp_models.{package}")
    raw_list = _list(package)
    envelope = messages.parse_message(json.dumps(raw_list))  # no pending request: the plain envelope
    assert type(envelope.result) is models.Result
    typed = messages.parse_result("tools/list", envelope.result)
    assert isinstance(typed, models.ListToolsResult)
    assert typed.model_dump(mode="json") == raw_list["result"]
    assert messages.parse_result("tools/list", typed).model_dump(mode="json") == raw_list["result"]


def test_a_response_of_an_unknown_pending_method_stays_the_envelope() -> None:
    messages = _messages("v2025_11_25")
    response = messages.parse_message(json.dumps(LIST), pending={"a": "vendor/method"})
    assert type(response).__name__ == "JSONRPCResultResponse"
