"""Discriminated unions and typed message dispatch (parse_message / parse_result / parse_error)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from .conftest import REVISIONS, SPEC


def _package(revision: str) -> ModuleType:
    return importlib.import_module(f"mcp_models.{REVISIONS[revision]}")


def _top_schema(adapter: TypeAdapter[Any]) -> dict[str, Any]:
    """The core schema that validates the alias itself, past definitions and references."""
    schema: dict[str, Any] = dict(adapter.core_schema)
    definitions = {d["ref"]: d for d in schema.get("definitions", ())}
    while True:
        if schema["type"] == "definitions":
            definitions.update({d["ref"]: d for d in schema["definitions"]})
            schema = schema["schema"]
        elif schema["type"] == "definition-ref":
            schema = definitions[schema["schema_ref"]]
        elif schema["type"] == "function-before" and schema["function"]["function"].__name__ == "_as_is":
            schema = schema["schema"]  # a union of messages reads JSON as Python objects first (_structural.py)
        else:
            return schema


TAGGED = {
    # union -> the revisions that define it (each must validate through a tagged union at its top)
    "ClientRequest": list(REVISIONS),
    "ServerNotification": list(REVISIONS),
    "ServerRequest": ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"],
    "ClientNotification": ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"],
    "ContentBlock": ["2025-06-18", "2025-11-25", "2026-07-28", "draft"],
    "SamplingMessageContentBlock": ["2025-11-25", "2026-07-28", "draft"],
    "EnumSchema": ["2025-11-25", "2026-07-28", "draft"],
    "SingleSelectEnumSchema": ["2025-11-25", "2026-07-28", "draft"],
    "MultiSelectEnumSchema": ["2025-11-25", "2026-07-28", "draft"],
    "PrimitiveSchemaDefinition": ["2025-06-18", "2025-11-25", "2026-07-28", "draft"],
    "JSONRPCMessage": list(REVISIONS),  # 2025-03-26: batches told apart by their first item
    "JSONRPCResponse": ["2025-11-25", "2026-07-28", "draft"],
    "ElicitRequestParams": ["2025-11-25", "2026-07-28", "draft"],
    "InputRequest": ["2026-07-28", "draft"],
    "InputResponse": ["2026-07-28", "draft"],
    "EmbeddedResourceResource": list(REVISIONS),  # text vs blob resource contents
    "ReadResourceResultContentsItem": list(REVISIONS),
    "CallToolResultResponseResult": ["2026-07-28", "draft"],  # input_required vs the method's result
}


@pytest.mark.parametrize(
    ("revision", "union"), [(r, u) for u, revisions in TAGGED.items() for r in revisions], ids=lambda v: str(v)
)
def test_union_validates_through_a_tagged_union(revision: str, union: str) -> None:
    top = _top_schema(TypeAdapter(getattr(_package(revision), union)))
    assert top["type"] == "tagged-union", top["type"]


@pytest.mark.parametrize(
    ("revision", "union", "tag"),
    [
        ("2024-11-05", "ClientRequest", "method"),
        ("2025-11-25", "ServerNotification", "method"),
        ("2026-07-28", "ContentBlock", "type"),
        ("2026-07-28", "CompleteRequestParamsRef", "type"),
    ],
)
def test_const_tags_use_the_property(revision: str, union: str, tag: str) -> None:
    top = _top_schema(TypeAdapter(getattr(_package(revision), union)))
    assert top["discriminator"] == tag


def test_wrong_const_tag_is_one_short_error() -> None:
    adapter = TypeAdapter(_package("2025-11-25").ClientRequest)
    with pytest.raises(ValidationError) as caught:
        adapter.validate_python({"jsonrpc": "2.0", "id": 1, "method": "tools/cal"})
    errors = caught.value.errors()
    assert len(errors) == 1
    assert errors[0]["type"] == "union_tag_invalid"
    assert "'tools/call'" in errors[0]["msg"] and "'tools/cal'" in errors[0]["msg"]


def test_wrong_structural_tag_is_one_short_error_naming_the_values() -> None:
    adapter = TypeAdapter(_package("2026-07-28").ElicitRequestParams)
    with pytest.raises(ValidationError) as caught:
        adapter.validate_python({"mode": "popup", "message": "m", "url": "https://x"})
    errors = caught.value.errors()
    assert len(errors) == 1 and errors[0]["type"] == "union_variant"
    assert "'url'" in errors[0]["msg"] and "'form'" in errors[0]["msg"]


def test_structural_arm_errors_name_only_that_arm() -> None:
    adapter = TypeAdapter(_package("2026-07-28").ElicitRequestParams)
    with pytest.raises(ValidationError) as caught:
        adapter.validate_python({"mode": "url", "message": "m"})  # url missing
    assert [e["loc"] for e in caught.value.errors()] == [("ElicitRequestURLParams", "url")]


@pytest.mark.parametrize(
    ("data", "arm"),
    [
        ({"type": "string", "enum": ["a", "b"]}, "UntitledSingleSelectEnumSchema"),
        ({"type": "string", "enum": ["a"], "enumNames": ["A"]}, "LegacyTitledEnumSchema"),
        ({"type": "string", "oneOf": [{"const": "a", "title": "A"}]}, "TitledSingleSelectEnumSchema"),
        ({"type": "array", "items": {"type": "string", "enum": ["a"]}}, "UntitledMultiSelectEnumSchema"),
        ({"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}}, "TitledMultiSelectEnumSchema"),
        ({"type": "string"}, "StringSchema"),
        ({"type": "integer", "minimum": 1}, "NumberSchema"),
        ({"type": "boolean", "default": True}, "BooleanSchema"),
    ],
)
def test_sep1330_schemas_pick_their_variant(data: dict[str, Any], arm: str) -> None:
    package = _package("2026-07-28")
    parsed = TypeAdapter(package.PrimitiveSchemaDefinition).validate_python(data)
    assert type(parsed) is getattr(package, arm)
    assert parsed.model_dump(mode="json") == data


def test_sep1330_invalid_combinations_are_rejected() -> None:
    adapter = TypeAdapter(_package("2026-07-28").EnumSchema)
    for bad in (
        {"type": "object", "enum": ["a"]},  # wrong type tag
        {"type": "array", "items": {"type": "string"}},  # multi-select without enum or anyOf
        {"type": "string", "oneOf": [{"const": "a"}]},  # titled option without title
        {"type": "array", "items": {"anyOf": [{"const": 1, "title": "x"}]}},  # non-string value
    ):
        with pytest.raises(ValidationError):
            adapter.validate_python(bad)


def _examples(revision: str) -> list[Path]:
    root = SPEC / revision / "examples"
    return sorted(p for p in root.rglob("*.json") if p.parent.name.endswith(("Request", "Notification", "Response", "Error")))


ROUTED = [pytest.param(r, p, id=f"{r}/{p.parent.name}/{p.name}") for r in ("2026-07-28", "draft") for p in _examples(r)]


@pytest.mark.parametrize(("revision", "path"), ROUTED)
def test_examples_route_to_their_class(revision: str, path: Path) -> None:
    package = _package(revision)
    expected = getattr(package, path.parent.name)
    raw = path.read_bytes()
    data = json.loads(raw)
    pending = {method: cls for method, cls in package.messages.RESPONSES.items()}
    by_response = {cls: method for method, cls in pending.items()}
    if "jsonrpc" not in data and "code" in data:
        parsed = package.parse_error(raw)
    elif "result" in data and expected in by_response:
        if path.name == "read-resource-result-response.json":  # a documented contradiction: see errata
            with pytest.raises(ValidationError) as caught:
                package.parse_message(raw, pending={data["id"]: by_response[expected]})
            assert {e["loc"][-1] for e in caught.value.errors()} == {"cacheScope", "ttlMs"}
            assert all("InputRequiredResult" not in e["loc"] for e in caught.value.errors())
            return
        parsed = package.parse_message(raw, pending={data["id"]: by_response[expected]})
    else:
        parsed = package.parse_message(raw)
    assert type(parsed) is expected


def test_read_resource_result_is_not_read_as_input_required() -> None:
    package = _package("2026-07-28")
    raw = (SPEC / "2026-07-28/examples/ReadResourceResultResponse/read-resource-with-ttl-example.json")
    if not raw.exists():
        raw = next((SPEC / "2026-07-28/examples/ReadResourceResultResponse").glob("*ttl*.json"))
    parsed = package.parse_message(raw.read_bytes(), pending={"read-resource-with-ttl-example": "resources/read"})
    assert type(parsed.result) is package.ReadResourceResult
    result = package.parse_result("resources/read", json.loads(raw.read_bytes())["result"])
    assert type(result) is package.ReadResourceResult


def test_parse_result_tells_input_required_from_the_method_result() -> None:
    package = _package("2026-07-28")
    done = package.parse_result("tools/call", {"resultType": "complete", "content": []})
    assert type(done) is package.CallToolResult
    waiting = package.parse_result("tools/call", b'{"resultType": "input_required", "requestState": "s"}')
    assert type(waiting) is package.InputRequiredResult
    other = package.parse_result("vendor/custom", {"resultType": "complete", "x": 1})
    assert type(other) is package.Result


def test_task_augmented_requests_may_be_answered_by_a_task() -> None:
    """2025-11-25: a request whose params carry TaskAugmentedRequestParams' `task` may be answered
    by CreateTaskResult; the result table says so, derived from the schema, and tells them apart."""
    package = _package("2025-11-25")
    task = {"task": {"taskId": "t1", "status": "working", "createdAt": "2025-11-25T10:00:00Z", "lastUpdatedAt": "2025-11-25T10:00:00Z", "ttl": 60000}}
    created = package.parse_result("tools/call", json.dumps(task).encode())
    assert type(created) is package.CreateTaskResult
    assert created.model_dump(mode="json") == task
    done = package.parse_result("tools/call", {"content": [{"type": "text", "text": "hi"}]})
    assert type(done) is package.CallToolResult
    assert type(package.parse_result("sampling/createMessage", task)) is package.CreateTaskResult
    assert type(package.parse_result("elicitation/create", task)) is package.CreateTaskResult
    assert type(package.parse_result("elicitation/create", {"action": "decline"})) is package.ElicitResult
    # a request that cannot be task-augmented keeps its own result type only
    with pytest.raises(ValidationError):
        package.parse_result("resources/read", task)
    # neither shape: one short error naming both
    with pytest.raises(ValidationError) as caught:
        package.parse_result("tools/call", {"x": 1})
    assert caught.value.error_count() == 1
    assert "CallToolResult" in str(caught.value) and "CreateTaskResult" in str(caught.value)


def test_parse_message_dispatch_by_method_and_envelope() -> None:
    package = _package("2025-11-25")
    assert type(package.parse_message(b'{"jsonrpc":"2.0","id":1,"method":"ping"}')) is package.PingRequest
    assert type(package.parse_message('{"jsonrpc":"2.0","method":"notifications/initialized"}')) is (
        package.InitializedNotification
    )
    unknown = package.parse_message({"jsonrpc": "2.0", "id": 2, "method": "vendor/x", "params": {"a": 1}})
    assert type(unknown) is package.JSONRPCRequest
    response = package.parse_message({"jsonrpc": "2.0", "id": 2, "result": {}})
    assert type(response) is package.JSONRPCResultResponse
    with pytest.raises(package.MessageError):
        package.parse_message(b"[1, 2]")
    with pytest.raises(package.MessageError):
        package.parse_message(b'{"jsonrpc": "2.0"}')
    with pytest.raises(ValidationError) as caught:
        package.parse_message({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}})
    assert [e["loc"] for e in caught.value.errors()] == [("params", "name")]


def test_method_tables_are_derived_per_revision() -> None:
    old = _package("2024-11-05").messages
    assert old.RESULTS["ping"] is _package("2024-11-05").EmptyResult
    assert old.SENDERS["ping"] == ("client", "server")
    assert old.SENDERS["sampling/createMessage"] == ("server",)
    new = _package("2026-07-28").messages
    assert "initialize" not in new.REQUESTS and "server/discover" in new.REQUESTS
    assert new.SENDERS["notifications/cancelled"] == ("client", "server")
    assert "elicitation/create" in new.EMBEDDED_REQUESTS and "elicitation/create" not in new.REQUESTS
    assert new.ERROR_RESPONSES[-32020] is _package("2026-07-28").HeaderMismatchError


def test_fast_paths_decide_exactly() -> None:
    package = _package("2026-07-28")
    # a notification whose params mention "id": still a notification
    note = package.parse_envelope(b'{"jsonrpc":"2.0","method":"notifications/x","params":{"id":1}}')
    assert type(note) is package.JSONRPCNotification
    # an id that is not a string or integer marks no request: the schema reads a notification with
    # an extra key (issue 26, point 12), and so does every reader
    stray = package.parse_envelope(b'{"jsonrpc":"2.0","id":true,"method":"ping"}')
    assert type(stray) is package.JSONRPCNotification and stray.model_extra == {"id": True}
    # a response whose result holds a nested "id" first: typed by the top-level id
    raw = b'{"jsonrpc":"2.0","result":{"resultType":"complete","tools":[{"id":"t","name":"a","inputSchema":{"type":"object"}}],"ttlMs":0,"cacheScope":"public"},"id":"r\\"1"}'
    typed = package.parse_message(raw, pending={"t": "tools/call", 'r"1': "tools/list"})
    assert type(typed) is package.ListToolsResultResponse and typed.id == 'r"1'
    # the same response for an unknown id stays an envelope, even when the nested id is pending
    assert type(package.parse_message(raw, pending={"other": "tools/list"})) is package.JSONRPCResultResponse
    assert type(package.parse_message(raw, pending={"t": "tools/list"})) is package.JSONRPCResultResponse
    # an error whose data holds a "code" first: typed by the error's own code
    error = b'{"jsonrpc":"2.0","id":1,"error":{"data":{"code":7},"message":"m","code":-32020}}'
    assert type(package.parse_message(error)) is type(package.parse_message(json.loads(error)))
    assert type(package.parse_message(error)) is package.HeaderMismatchError
    # bytes, str and dict input agree
    for form in (raw, raw.decode(), json.loads(raw)):
        assert type(package.parse_message(form, pending={'r"1': "tools/list"})) is package.ListToolsResultResponse


@pytest.mark.parametrize(
    "message",
    [
        {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "t"}},  # a request's method, no id
        {"jsonrpc": "2.0", "id": 3, "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}},
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete"}},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32020, "message": "m"}},
    ],
)
def test_bytes_str_and_dict_input_give_the_same_class(message: dict[str, Any]) -> None:
    package = _package("2026-07-28")
    raw = json.dumps(message)
    outcomes = []
    for form in (raw.encode(), raw, message):
        try:
            outcomes.append(type(package.parse_message(form, pending={1: "tools/list"})).__name__)
        except (ValidationError, package.MessageError) as exc:
            outcomes.append(type(exc).__name__)
        try:
            outcomes.append(type(package.parse_envelope(form)).__name__)
        except (ValidationError, package.MessageError) as exc:
            outcomes.append(type(exc).__name__)
    assert outcomes[0:2] == outcomes[2:4] == outcomes[4:6], outcomes


def test_escaped_keys_do_not_fool_the_fast_paths() -> None:
    package = _package("2026-07-28")
    raw = b'{"jsonrpc":"2.0","id":1,"\\u006dethod":"ping","result":{"resultType":"complete"}}'
    assert type(package.parse_envelope(raw)) is type(package.parse_envelope(json.loads(raw)))
    assert type(package.parse_message(raw, pending={1: "tools/list"})) is type(package.parse_message(json.loads(raw)))
    with pytest.raises(package.MessageError):
        package.parse_message(b'{"jsonrpc": "2.0", "method": "ping", "id": ')  # truncated: not JSON
