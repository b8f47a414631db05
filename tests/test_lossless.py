"""What "lossless" means for the generated models, shown on the 2026-07-28 package."""

from __future__ import annotations

import json

import pytest
from pydantic import MISSING, TypeAdapter, ValidationError

from mcp_models import v2025_11_25 as v25
from mcp_models import v2026_07_28 as v26


def _roundtrip(model: type, data: dict[str, object]) -> dict[str, object]:
    parsed = model.model_validate(data)  # type: ignore[attr-defined]
    dumped: dict[str, object] = parsed.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return dumped


def test_integer_in_a_number_field_stays_an_integer() -> None:
    data = {"progressToken": "t", "progress": 50, "total": 100.5}
    dumped = _roundtrip(v26.ProgressNotificationParams, data)
    assert json.dumps(dumped, sort_keys=True) == json.dumps(data, sort_keys=True)
    assert type(dumped["progress"]) is int and type(dumped["total"]) is float


def test_unknown_keys_survive_in_open_models() -> None:
    data = {"type": "text", "text": "hi", "x-vendor": {"nested": [1, 2.5, None]}}
    assert _roundtrip(v26.TextContent, data) == data


def test_absent_and_explicit_null_stay_distinct() -> None:
    absent = v26.JSONRPCErrorResponse.model_validate({"jsonrpc": "2.0", "error": {"code": 1, "message": "m"}})
    assert absent.id is MISSING
    assert "id" not in absent.model_dump(mode="json")
    # `title` is optional but not nullable: an explicit null is invalid, not silently dropped
    with pytest.raises(ValidationError):
        v26.Tool.model_validate({"name": "t", "title": None, "inputSchema": {"type": "object"}})
    # `data` accepts any JSON value: an explicit null is kept as null
    with_null = {"code": 1, "message": "m", "data": None}
    assert _roundtrip(v26.Error, with_null) == with_null


def test_format_is_an_annotation_not_a_type() -> None:
    image = {"type": "image", "data": "base64-encoded-data", "mimeType": "image/png"}
    assert _roundtrip(v26.ImageContent, image) == image
    link = {"type": "resource_link", "uri": "not a uri at all", "name": "n"}
    assert _roundtrip(v26.ResourceLink, link) == link


def test_json_types_are_strict() -> None:
    with pytest.raises(ValidationError):
        v26.CompleteResultCompletion.model_validate({"values": [], "total": "7"})
    with pytest.raises(ValidationError):
        v26.CompleteResultCompletion.model_validate({"values": [], "hasMore": 1})


def test_unions_give_the_arm_itself_not_a_wrapper() -> None:
    block = TypeAdapter(v26.ContentBlock).validate_python({"type": "text", "text": "x"})
    assert isinstance(block, v26.TextContent)
    request = TypeAdapter(v25.ClientRequest).validate_python({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert isinstance(request, v25.PingRequest)


def test_json_value_accepts_any_json_value_per_erratum() -> None:
    adapter: TypeAdapter[object] = TypeAdapter(v26.JSONValue)
    for value in (18.5, None, 3, "s", True, [1, {"a": None}], {"k": [2.5]}):
        assert json.dumps(adapter.dump_python(adapter.validate_python(value), mode="json")) == json.dumps(value)


def test_snake_case_attributes_with_wire_aliases() -> None:
    tool = v26.Tool.model_validate({"name": "t", "inputSchema": {"type": "object"}, "_meta": {"k": 1}})
    assert tool.input_schema.type == "object"
    assert tool.meta is not MISSING
    built = v26.Tool(name="t", inputSchema=v26.ToolInputSchema(type="object"))
    assert built.model_dump(mode="json") == {"name": "t", "inputSchema": {"type": "object"}}


def test_input_is_read_by_wire_name_only() -> None:
    # a key spelled like an attribute is an unknown key, kept as such, never the field
    data = {"resultType": "complete", "content": [], "structured_content": {"x": 1}, "meta": "junk"}
    result = v26.CallToolResult.model_validate(data)
    assert result.structured_content is MISSING and result.meta is MISSING
    assert result.model_dump(mode="json") == data


def test_type_aliases_are_strict_too() -> None:
    request_id: TypeAdapter[object] = TypeAdapter(v26.RequestId)
    for bad in ("true", "1.0"):
        with pytest.raises(ValidationError):
            request_id.validate_json(bad)
    assert request_id.validate_json("1") == 1 and request_id.validate_json('"1"') == "1"
