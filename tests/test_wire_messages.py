"""Whole JSON-RPC messages in the revisions whose request and notification definitions leave
`jsonrpc` and `id` to the generic JSONRPCRequest / JSONRPCNotification (2024-11-05 to 2025-06-18).

- Each request and notification has a wire class, `<Definition>Message`: built by keyword it dumps
  the whole message; REQUESTS / NOTIFICATIONS and parse_message use it (with `id` typed), and
  parse_message still checks everything the schema checks (the envelope's `params` rules too).
- The definition's own class is unchanged (it is the schema's definition).
- The surface sends a request or notification at such a revision as the whole message, valid
  against that revision's JSON Schema (the envelope and the method's definition), and gives a
  received one back with its `id` and `jsonrpc` as they came.
"""

from __future__ import annotations

import importlib
import json
from functools import cache
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError

from .conftest import REVISIONS, SPEC

OLD = ["2024-11-05", "2025-03-26", "2025-06-18"]


def _package(revision: str) -> ModuleType:
    return importlib.import_module(f"mcp_models.{REVISIONS[revision]}")


def _surface() -> ModuleType:
    return importlib.import_module("mcp_models.surface")


@cache
def _schema(revision: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SPEC / revision / "schema.json").read_text(encoding="utf-8"))
    return loaded


def _valid(revision: str, definition: str, value: Any) -> bool:
    """Whether the revision's published schema.json accepts value as that definition."""
    document = _schema(revision)
    key = "$defs" if "$defs" in document else "definitions"
    schema = {**document, "$ref": f"#/{key}/{definition}"}
    return bool(jsonschema.validators.validator_for(document)(schema).is_valid(value))


@pytest.mark.parametrize("revision", OLD)
def test_a_request_and_a_notification_built_by_keyword_dump_the_whole_message(revision: str) -> None:
    r = _package(revision)
    call = r.CallToolRequestMessage(id=7, params=r.CallToolRequestParams(name="get_weather", arguments={"city": "Oslo"}))
    progress = r.ProgressNotificationMessage(params=r.ProgressNotificationParams(progress_token="t", progress=1))
    call_json = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "get_weather", "arguments": {"city": "Oslo"}},
    }
    progress_json = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 1}}
    assert call.model_dump(mode="json") == call_json and json.loads(call.model_dump_json()) == call_json
    assert progress.model_dump(mode="json") == progress_json
    assert _valid(revision, "JSONRPCRequest", call_json) and _valid(revision, "CallToolRequest", call_json)
    assert _valid(revision, "JSONRPCNotification", progress_json) and _valid(revision, "ProgressNotification", progress_json)
    # the schema's own classes stay its definitions: no envelope of their own
    assert "jsonrpc" not in r.CallToolRequest.model_fields and "id" not in r.CallToolRequest.model_fields
    assert "jsonrpc" not in r.ProgressNotification.model_fields
    # and the wire classes are theirs, with the envelope's fields added
    assert issubclass(r.CallToolRequestMessage, r.CallToolRequest)
    assert set(r.CallToolRequestMessage.model_fields) == set(r.CallToolRequest.model_fields) | {"id", "jsonrpc"}


@pytest.mark.parametrize("revision", OLD)
def test_the_method_tables_hold_the_wire_classes(revision: str) -> None:
    r = _package(revision)
    messages = r.messages
    assert messages.REQUESTS["tools/call"] is r.CallToolRequestMessage
    assert messages.NOTIFICATIONS["notifications/progress"] is r.ProgressNotificationMessage
    assert messages.EMBEDDED_REQUESTS == {}  # no request of these revisions travels inside another message
    for method, cls in {**messages.REQUESTS, **messages.NOTIFICATIONS}.items():
        base = cls.__mro__[1]
        assert cls.__name__ == base.__name__ + "Message" and cls.__module__.endswith(".messages"), method
        assert cls.__name__ in r.__all__ and getattr(r, cls.__name__) is cls  # exported by the package
    assert set(messages.REQUESTS) == {m for m, senders in messages.SENDERS.items() if m in messages.RESULTS}


@pytest.mark.parametrize("revision", OLD)
def test_parse_message_returns_the_wire_class_with_a_typed_id(revision: str) -> None:
    r = _package(revision)
    raw = {"jsonrpc": "2.0", "id": "c-1", "method": "tools/call", "params": {"name": "x"}}
    for form in (raw, json.dumps(raw), json.dumps(raw).encode()):
        parsed = r.parse_message(form)
        assert type(parsed) is r.CallToolRequestMessage
        assert parsed.id == "c-1" and parsed.jsonrpc == "2.0" and parsed.model_extra == {}
        assert parsed.model_dump(mode="json") == raw
    note = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 2}}
    assert type(r.parse_message(json.dumps(note).encode())) is r.ProgressNotificationMessage
    # a request's method without an id is a notification: the generic one, as in 2025-11-25
    stray = {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "x"}}
    assert type(r.parse_message(stray)) is r.JSONRPCNotification
    assert type(r.parse_message(json.dumps(stray).encode())) is r.JSONRPCNotification


BREAKERS = [
    {"jsonrpc": "1.0", "id": 5, "method": "ping"},
    {"id": 5, "method": "ping"},
    {"jsonrpc": "2.0", "method": "notifications/initialized", "params": {"_meta": []}},
    {"jsonrpc": "1.0", "method": "notifications/initialized"},
]

# Malformed requests the schema's JSONRPCMessage still accepts, as a notification holding an extra
# `id` (its anyOf takes any arm that holds): an id that is not a string or integer, and
# JSONRPCRequest's typed params._meta.progressToken broken (CallToolRequest's params do not declare
# `_meta`, the generic notification's params do not type it).
NOTIFICATIONS_BY_SCHEMA = [
    {"jsonrpc": "2.0", "id": None, "method": "ping"},
    {"jsonrpc": "2.0", "id": True, "method": "ping"},
    {"jsonrpc": "2.0", "id": 5.5, "method": "ping"},
    {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "x", "_meta": {"progressToken": True}}},
]


@pytest.mark.parametrize("revision", OLD)
@pytest.mark.parametrize("message", BREAKERS)
def test_parse_message_still_checks_everything_the_schema_checks(revision: str, message: dict[str, Any]) -> None:
    r = _package(revision)
    assert not _valid(revision, "JSONRPCMessage", message)
    for form in (message, json.dumps(message).encode()):
        with pytest.raises(ValidationError):
            r.parse_message(form)
    wire_class = (r.messages.REQUESTS if "id" in message else r.messages.NOTIFICATIONS)[message["method"]]
    if "_meta" not in message.get("params", {}):  # the envelope's own fields: the wire class checks them itself
        with pytest.raises(ValidationError):
            wire_class.model_validate(message)


@pytest.mark.parametrize("revision", OLD)
@pytest.mark.parametrize("message", NOTIFICATIONS_BY_SCHEMA)
def test_what_the_schema_reads_as_a_notification_parse_message_reads_so(revision: str, message: dict[str, Any]) -> None:
    r = _package(revision)
    assert _valid(revision, "JSONRPCMessage", message)
    assert not _valid(revision, "JSONRPCRequest", message)
    for form in (message, json.dumps(message).encode()):
        parsed = r.parse_message(form)
        assert type(parsed) is r.JSONRPCNotification
        assert parsed.model_dump(mode="json", exclude_unset=True) == message
    if "_meta" not in message.get("params", {}):  # the method's own request class refuses a bad id
        with pytest.raises(ValidationError):
            r.messages.REQUESTS[message["method"]].model_validate(message)


# -- the surface ---------------------------------------------------------------------------------


def test_a_request_received_at_an_old_revision_goes_back_with_its_id_and_jsonrpc() -> None:
    s = _surface()
    raw = {"jsonrpc": "2.0", "id": "req-1", "method": "tools/call", "params": {"name": "x", "arguments": {"a": 1}}}
    received = s.parse_message(json.dumps(raw), protocol_version="2025-06-18")
    assert type(received) is s.CallToolRequest and received.id == "req-1" and received.jsonrpc == "2.0"
    assert json.loads(s.send(received, "2025-06-18")) == raw
    note = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 3, "progress": 1}}
    got = s.parse_message(note, protocol_version="2024-11-05")
    assert type(got) is s.ProgressNotification and json.loads(s.send(got, "2024-11-05")) == note


@pytest.mark.parametrize("revision", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])
def test_a_request_built_on_the_surface_is_sent_as_a_valid_json_rpc_message(revision: str) -> None:
    s = _surface()
    request = s.CallToolRequest(id=3, params=s.CallToolRequestParams(name="x", arguments={"a": 1}))
    sent = json.loads(s.send(request, revision))
    assert sent == {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "x", "arguments": {"a": 1}}}
    assert _valid(revision, "JSONRPCRequest", sent) and _valid(revision, "CallToolRequest", sent)
    expected = "CallToolRequestMessage" if revision in OLD else "CallToolRequest"
    assert type(s.to_revision(request, revision)).__name__ == expected
    notification = s.ProgressNotification(params=s.ProgressNotificationParams(progress_token="t", progress=1))
    sent = json.loads(s.send(notification, revision))
    assert sent == {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 1}}
    assert _valid(revision, "JSONRPCNotification", sent) and _valid(revision, "ProgressNotification", sent)


# The schema leaves params `_meta` (its `progressToken`) to the envelope too: on the wire it is a key
# of every request's and notification's params at these revisions, whatever the definition says.
TOOLS_CALL_WITH_TOKEN = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x", "_meta": {"progressToken": "t"}}}


@pytest.mark.parametrize("revision", OLD)
def test_params_meta_received_at_an_old_revision_goes_back_as_it_came(revision: str) -> None:
    s = _surface()
    assert "_meta" not in _schema(revision)["definitions"]["CallToolRequest"]["properties"]["params"]["properties"]
    received = s.parse_message(json.dumps(TOOLS_CALL_WITH_TOKEN), protocol_version=revision)
    dropped: list[str] = []
    assert json.loads(s.send(received, revision, dropped=dropped)) == TOOLS_CALL_WITH_TOKEN and dropped == []
    # the same JSON as a fresh surface object (nothing remembered from receiving it): the same wire
    fresh = s.CallToolRequest.model_validate(TOOLS_CALL_WITH_TOKEN)
    assert json.loads(s.send(fresh, revision, dropped=dropped)) == TOOLS_CALL_WITH_TOKEN and dropped == []


def _requests_with_a_progress_token(s: ModuleType) -> list[Any]:
    """Requests whose params declare no `_meta` at the old revisions, one whose `_meta` class has a
    place of its own in none of them (SetLevelRequestParamsMeta: the envelope's `_meta` is its place)."""
    return [
        s.CallToolRequest(id=1, params=s.CallToolRequestParams(name="x", meta=s.RequestMetaObject(progress_token="t"))),
        s.SetLevelRequest(id=2, params=s.SetLevelRequestParams(level="info", meta=s.SetLevelRequestParamsMeta(progress_token=7))),
        s.ReadResourceRequest(id=3, params=s.ReadResourceRequestParams(uri="file:///a", meta=s.RequestMetaObject(progress_token="u"))),
    ]


@pytest.mark.parametrize("revision", OLD)
def test_a_progress_token_built_on_the_surface_is_sent_at_an_old_revision(revision: str) -> None:
    s = _surface()
    for request in _requests_with_a_progress_token(s):
        dropped: list[str] = []
        sent = json.loads(s.send(request, revision, dropped=dropped))
        assert dropped == [], (request.method, dropped)
        assert sent["params"]["_meta"] == {"progressToken": request.params.meta.progress_token}
        definition = type(request).__name__
        assert _valid(revision, "JSONRPCRequest", sent) and _valid(revision, definition, sent), (revision, sent)


@pytest.mark.parametrize("revision", OLD)
def test_a_notification_with_params_meta_is_sent_at_an_old_revision(revision: str) -> None:
    s = _surface()
    params = s.CancelledNotificationParams(request_id=4, reason="late", meta=s.NotificationMetaObject.model_validate({"k": 1}))
    dropped: list[str] = []
    sent = json.loads(s.send(s.CancelledNotification(params=params), revision, dropped=dropped))
    assert sent == {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 4, "reason": "late", "_meta": {"k": 1}}}
    assert dropped == []
    assert _valid(revision, "JSONRPCNotification", sent) and _valid(revision, "CancelledNotification", sent)


def test_the_envelope_adds_only_its_declared_params_keys_the_rest_of_the_sieve_holds() -> None:
    """What the revisions really lack is still dropped: a params key added later (`task`, 2025-11-25)
    and, where the envelope's `_meta` is not open (before 2025-06-18), a `_meta` key added later."""
    s = _surface()
    meta = s.RequestMetaObject.model_validate({"progressToken": "t", "io.modelcontextprotocol/protocolVersion": "2026-07-28"})
    request = s.CallToolRequest(id=1, params=s.CallToolRequestParams(name="x", meta=meta, task=s.TaskMetadata(ttl=5)))
    for revision in OLD:
        dropped: list[str] = []
        sent = json.loads(s.send(request, revision, dropped=dropped))
        assert "task" not in sent["params"] and "/params/task" in dropped
        assert sent["params"]["_meta"]["progressToken"] == "t"
        newer = "io.modelcontextprotocol/protocolVersion" in sent["params"]["_meta"]
        assert newer == (revision == "2025-06-18"), (revision, sent)
        assert ("/params/_meta/io.modelcontextprotocol~1protocolVersion" in dropped) == (not newer)
        assert _valid(revision, "JSONRPCRequest", sent) and _valid(revision, "CallToolRequest", sent)


@pytest.mark.parametrize("revision", ["2025-06-18", "2025-11-25"])
def test_a_request_without_an_id_is_not_a_message_one_can_send(revision: str) -> None:
    s = _surface()
    with pytest.raises(s.RevisionError, match=f"^/id: .*revision {revision} cannot carry"):
        s.to_revision(s.PingRequest(), revision)

