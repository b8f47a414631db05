"""The official `mcp` client accepts a server written with nothing but the generated models
(issue 26: what an SDK author builds on day two still speaks to the SDK everyone uses)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

SERVER = Path(__file__).parent / "data" / "models_only_server.py"


async def _session() -> dict[str, Any]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    parameters = StdioServerParameters(command=sys.executable, args=[str(SERVER)])
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            listed = await session.list_tools()
            called = await session.call_tool("add", {"a": 2, "b": 40})
            pinged = await session.send_ping()
    return {
        "version": initialized.protocol_version,
        "server": initialized.server_info.name,
        "tools": [(tool.name, tool.input_schema.get("required")) for tool in listed.tools],
        "structured": called.structured_content,
        "text": [block.model_dump().get("text") for block in called.content],
        "error": called.is_error,
        "ping": type(pinged).__name__,
    }


def test_the_official_client_accepts_a_models_only_server() -> None:
    seen = asyncio.run(_session())
    assert seen["server"] == "models-only" and seen["version"] == "2025-11-25", seen
    assert seen["tools"] == [("add", ["a", "b"])], seen
    assert seen["structured"] == {"sum": 42} and seen["text"] == ["42"] and not seen["error"], seen
    assert seen["ping"] in ("EmptyResult", "Result"), seen
