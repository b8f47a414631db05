"""Each marked line must be an error under mypy --strict and pyright strict (see tests/test_narrowing.py)."""

from __future__ import annotations

from pydantic import BaseModel

from mcp_models.v2026_07_28 import CallToolResult, Tool, parse_result
from mcp_models.v2026_07_28.narrowing import narrow


class Forecast(BaseModel):
    hour: int


def misuse(result: CallToolResult, tool: Tool, raw: bytes) -> None:
    wrong: str = narrow(result, int)  # expect-error
    forecast = narrow(result, Forecast)
    forecast.temperature  # expect-error
    narrow(result, 3)  # expect-error
    tool.title.upper()  # expect-error
    parse_result("tools/call", raw).content  # expect-error
    print(wrong)
