"""An MCP server over stdio written with nothing but the generated 2025-11-25 models: each line is
read with parse_message, each answer built by keyword from the schema's own classes and dumped."""

from __future__ import annotations

import sys

from mcp_models.v2025_11_25 import (
    CallToolRequest,
    CallToolResult,
    EmptyResult,
    Implementation,
    InitializeRequest,
    InitializeResult,
    JSONRPCErrorResponse,
    JSONRPCNotification,
    JSONRPCResultResponse,
    ListToolsRequest,
    ListToolsResult,
    PingRequest,
    Result,
    ServerCapabilities,
    ServerCapabilitiesTools,
    TextContent,
    Tool,
    ToolInputSchema,
    parse_message,
)
from mcp_models.v2025_11_25.models import Error, ToolOutputSchema

ADD = Tool(
    name="add",
    description="Adds two integers.",
    input_schema=ToolInputSchema(
        properties={"a": {"type": "integer"}, "b": {"type": "integer"}}, required=["a", "b"]
    ),
    output_schema=ToolOutputSchema(properties={"sum": {"type": "integer"}}, required=["sum"]),
)


def answer(line: str) -> str | None:
    message = parse_message(line)
    if isinstance(message, JSONRPCNotification) or not hasattr(message, "id"):
        return None  # notifications/initialized and the like: nothing to answer
    result: Result
    if isinstance(message, InitializeRequest):
        result = InitializeResult(
            protocol_version=message.params.protocol_version,
            capabilities=ServerCapabilities(tools=ServerCapabilitiesTools(list_changed=False)),
            server_info=Implementation(name="models-only", version="1.0"),
        )
    elif isinstance(message, ListToolsRequest):
        result = ListToolsResult(tools=[ADD])
    elif isinstance(message, CallToolRequest) and message.params.name == "add":
        arguments = message.params.arguments or {}
        total = int(arguments["a"]) + int(arguments["b"])
        result = CallToolResult(content=[TextContent(text=str(total))], structured_content={"sum": total})
    elif isinstance(message, PingRequest):
        result = EmptyResult()
    else:
        error = Error(code=-32601, message="method not found")
        return JSONRPCErrorResponse(id=getattr(message, "id"), error=error).model_dump_json()
    request_id = getattr(message, "id")
    return JSONRPCResultResponse.model_validate(
        {"jsonrpc": "2.0", "id": request_id, "result": result.model_dump(mode="json", by_alias=True)}
    ).model_dump_json()


def main() -> None:
    for line in sys.stdin:
        if line.strip():
            reply = answer(line)
            if reply is not None:
                sys.stdout.write(reply + "\n")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
