"""Must type-check cleanly under mypy --strict and pyright strict (see tests/test_narrowing.py)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, TypeAdapter
from pydantic_core import MISSING
from typing_extensions import assert_type

from mcp_models.v2026_07_28 import CallToolResult, CallToolResultResponseResult, InputRequiredResult, Tool, parse_result
from mcp_models.v2026_07_28.narrowing import Structured, is_json_array, is_json_number, is_json_object, narrow, narrow_result


class Forecast(BaseModel):
    hour: int
    temperature: float


def use(result: CallToolResult, tool: Tool, raw: bytes) -> None:
    assert_type(narrow(result, Forecast), Forecast)
    assert_type(narrow(result, list[Forecast]), list[Forecast])
    assert_type(narrow(result, int), int)
    either: TypeAdapter[int | str] = TypeAdapter(int | str)
    assert_type(narrow(result, either), int | str)
    structured = narrow_result(result, Forecast)
    assert_type(structured, Structured[Forecast])
    assert_type(structured.value, Forecast)

    value: object = result.structured_content
    if is_json_object(value):
        assert_type(value, dict[str, Any])
    elif is_json_array(value):
        assert_type(value, list[Any])
    elif is_json_number(value):
        assert_type(value, int | float)

    assert_type(tool.title, str | MISSING)
    if tool.title is not MISSING:
        assert_type(tool.title.upper(), str)

    answered = parse_result("tools/call", raw)
    assert_type(answered, CallToolResultResponseResult)
    if isinstance(answered, InputRequiredResult):
        assert_type(answered.request_state, str | MISSING)
    else:
        assert_type(answered, CallToolResult)
