"""Building messages wrongly: every line marked expect-error must fail under mypy --strict and pyright strict.

No other line may fail (tests/test_building_typing.py). Each misuse sits on one line so both checkers report it there.
"""
# Building is what is checked here, deprecated classes included (2026-07-28 deprecates sampling,
# logging and roots): their deprecation is tests/typing/deprecated_*.py's.
# pyright: reportDeprecated=false

from __future__ import annotations

from pydantic import BaseModel

from mcp_models import draft, v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28


def wire_names_where_attribute_names_are_expected() -> None:
    v2025_11_25.CallToolResult(content=[], isError=True)  # expect-error
    v2025_11_25.CallToolResult(content=[], structuredContent={"a": 1})  # expect-error
    v2024_11_05.PingRequestParamsMeta(progressToken="t")  # expect-error
    v2025_06_18.EnumSchema(enum=["a"], enumNames=["A"])  # expect-error
    v2025_03_26.ImageContent(data="aW1n", mimeType="image/png")  # expect-error
    v2026_07_28.ToolResultContent(toolUseId="u", content=[])  # expect-error
    capabilities = draft.ClientCapabilities()
    draft.RequestMetaObject(protocolVersion="draft", clientCapabilities=capabilities)  # expect-error


def unknown_keywords() -> None:
    v2025_11_25.TextContent(text="x", colour="red")  # expect-error
    v2024_11_05.CallToolRequestParams(name="t", argument={})  # expect-error


def wrong_value_types() -> None:
    v2024_11_05.TextContent(text=3)  # expect-error
    v2025_06_18.ProgressNotificationParams(progress_token=1.5, progress=1)  # expect-error
    v2025_11_25.ToolUseContent(id="u", name="n", input=["not", "an", "object"])  # expect-error
    v2026_07_28.Error(code="-32602", message="m")  # expect-error
    roots = draft.ListRootsResult(roots=[])
    draft.ResultResponse(id=None, result=roots)  # expect-error
    v2024_11_05.CallToolRequestMessage(id=1.5, params=v2024_11_05.CallToolRequestParams(name="t"))  # expect-error


def wrong_constants() -> None:
    v2025_11_25.TextContent(type="image", text="x")  # expect-error
    v2026_07_28.InvalidParamsError(code=-32600, message="m")  # expect-error
    params = v2025_11_25.CallToolRequestParams(name="t")
    v2025_11_25.CallToolRequest(id=1, method="tools/list", params=params)  # expect-error
    error = v2024_11_05.JSONRPCErrorError(code=1, message="m")
    v2024_11_05.JSONRPCError(jsonrpc="1.0", id=1, error=error)  # expect-error
    v2025_03_26.ToolListChangedNotificationMessage(jsonrpc="1.0")  # expect-error


def missing_required_fields() -> None:
    v2025_06_18.PingRequestMessage()  # expect-error
    capabilities = v2026_07_28.ClientCapabilities()
    v2026_07_28.RequestMetaObject(io_modelcontextprotocol_client_capabilities=capabilities)  # expect-error
    v2025_06_18.NumberSchema(minimum=1)  # expect-error


def result_of_the_wrong_type() -> list[BaseModel]:
    tools = v2025_11_25.ListToolsResult(tools=[])
    call: v2025_11_25.ResultResponse[v2025_11_25.CallToolResult]
    call = v2025_11_25.ResultResponse(id=1, result=tools)  # expect-error
    empty = v2026_07_28.ElicitResult(action="decline")
    typed: v2026_07_28.ResultResponse[v2026_07_28.ElicitResult] = v2026_07_28.ResultResponse(id=2, result=empty)
    wrong: v2026_07_28.ResultResponse[v2026_07_28.CallToolResult] = typed  # expect-error
    return [call, typed, wrong]


def error_of_the_wrong_type() -> list[BaseModel]:
    generic = v2026_07_28.Error(code=-32000, message="m")
    typed: v2026_07_28.ErrorResponse[v2026_07_28.InvalidParamsError]
    typed = v2026_07_28.ErrorResponse(id=1, error=generic)  # expect-error
    v2026_07_28.ErrorResponse(id=1, error=v2026_07_28.TextContent(text="x"))  # expect-error
    return [typed]
