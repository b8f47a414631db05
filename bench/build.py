"""Build throughput: construct typical 2026-07-28 messages by keyword and dump them to JSON bytes.

mcp_models.v2026_07_28 vs the official SDK's generated mcp_types._v2026_07_28 and its hand-written
mcp_types, in the same process, interleaved.

    .venv/bin/python bench/build.py [--rounds 15] [--repeat 400]

Each side builds the same four wire messages the way its users would (ours: keywords by attribute
name, constants left out; the SDK's generated models need every constant spelled out; the
hand-written ones fill their constants but wrap results in an untyped JSON-RPC envelope) and dumps
them with its own lossless call. Before timing, every side's JSON is checked to be the same wire
message, so like is compared with like.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from types import ModuleType

from _common import interleaved, ratio, table

PROTOCOL = "2026-07-28"


# Each side's package is imported once, at the top of the module, as user code does.
import mcp_models.v2026_07_28 as o  # noqa: E402 - after _common puts generated/ on the path
import mcp_types as h  # noqa: E402
import mcp_types._v2026_07_28 as g  # noqa: E402
from mcp_types import jsonrpc  # noqa: E402


def ours_from(m: ModuleType) -> Callable[[], list[bytes]]:
    """The build of a package mcp-codegen generated (bench/promises.py times one generated with other
    settings): keywords by attribute name, constants left out, the default dump."""

    def build() -> list[bytes]:
        meta = m.RequestMetaObject(
            io_modelcontextprotocol_protocol_version=PROTOCOL,
            io_modelcontextprotocol_client_capabilities=m.ClientCapabilities(),
            io_modelcontextprotocol_client_info=m.Implementation(name="bench", version="1.0"),
        )
        request = m.CallToolRequest(
            id=7, params=m.CallToolRequestParams(name="forecast", arguments={"city": "Oslo", "days": 3}, meta=meta)
        )
        result = m.CallToolResult(
            content=[m.TextContent(text="Sunny, 21 C"), m.TextContent(text="Wind 3 m/s")],
            structured_content={"temperature": 21, "wind": 3},
            is_error=False,
            result_type="complete",
        )
        response = m.CallToolResultResponse(id=7, result=result)
        progress = m.ProgressNotification(params=m.ProgressNotificationParams(progress_token="t-1", progress=50, total=100))
        return [message.model_dump_json().encode() for message in (request, response, progress, result)]

    return build


ours = ours_from(o)


def sdk_generated() -> list[bytes]:
    meta = g.RequestMetaObject(
        io_modelcontextprotocol_protocol_version=PROTOCOL,
        io_modelcontextprotocol_client_capabilities=g.ClientCapabilities(),
        io_modelcontextprotocol_client_info=g.Implementation(name="bench", version="1.0"),
    )
    request = g.CallToolRequest(
        jsonrpc="2.0",
        id=7,
        method="tools/call",
        params=g.CallToolRequestParams(name="forecast", arguments={"city": "Oslo", "days": 3}, meta=meta),
    )
    result = g.CallToolResult(
        content=[g.TextContent(type="text", text="Sunny, 21 C"), g.TextContent(type="text", text="Wind 3 m/s")],
        structured_content={"temperature": 21, "wind": 3},
        is_error=False,
        result_type="complete",
    )
    response = g.CallToolResultResponse(jsonrpc="2.0", id=7, result=result)
    progress = g.ProgressNotification(
        jsonrpc="2.0",
        method="notifications/progress",
        params=g.ProgressNotificationParams(progress_token="t-1", progress=50, total=100),
    )
    return [m.model_dump_json(by_alias=True, exclude_none=True).encode() for m in (request, response, progress, result)]


def sdk_handwritten() -> list[bytes]:
    meta = {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1.0"},
    }
    request = h.CallToolRequest(
        params=h.CallToolRequestParams(name="forecast", arguments={"city": "Oslo", "days": 3}, meta=meta)
    )
    wire_request = jsonrpc.JSONRPCRequest(
        jsonrpc="2.0", id=7, method=request.method, params=request.params.model_dump(by_alias=True, exclude_none=True)
    )
    result = h.CallToolResult(
        content=[h.TextContent(text="Sunny, 21 C"), h.TextContent(text="Wind 3 m/s")],
        structured_content={"temperature": 21, "wind": 3},
        is_error=False,
        result_type="complete",
    )
    wire_result = result.model_dump(by_alias=True, exclude_none=True)
    response = jsonrpc.JSONRPCResponse(jsonrpc="2.0", id=7, result=wire_result)
    progress = h.ProgressNotification(params=h.ProgressNotificationParams(progress_token="t-1", progress=50, total=100))
    wire_progress = jsonrpc.JSONRPCNotification(
        jsonrpc="2.0", method=progress.method, params=progress.params.model_dump(by_alias=True, exclude_none=True)
    )
    return [
        wire_request.model_dump_json(by_alias=True, exclude_none=True).encode(),
        response.model_dump_json(by_alias=True, exclude_none=True).encode(),
        wire_progress.model_dump_json(by_alias=True, exclude_none=True).encode(),
        result.model_dump_json(by_alias=True, exclude_none=True).encode(),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=400, help="message sets built per round")
    args = parser.parse_args()

    contenders: dict[str, Callable[[], list[bytes]]] = {
        "ours": ours,
        "sdk-generated": sdk_generated,
        "sdk-handwritten": sdk_handwritten,
    }
    expected = [json.loads(raw) for raw in ours()]
    for label, build in contenders.items():
        got = [json.loads(raw) for raw in build()]
        if got != expected:
            sys.exit(f"{label} builds other wire JSON than ours:\n{got}\n{expected}")

    def batch(build: Callable[[], list[bytes]]) -> Callable[[], int]:
        def run() -> int:
            for _ in range(args.repeat):
                build()
            return args.repeat * 4

        return run

    results = interleaved({label: batch(build) for label, build in contenders.items()}, rounds=args.rounds)
    rows = [("contender", "median msg/s", "spread (min..max)", "ours / this")]
    for label, timing in results.items():
        mine = results["ours"]
        rows.append(
            (label, f"{timing.median:,.0f}", timing.spread(), "" if label == "ours" else f"{ratio(mine, timing):.2f}x")
        )
    print(f"build + dump of 4 messages (request with _meta, result response, notification, result); {args.rounds} rounds")
    print(table(rows))
    print()
    print("target: ours >= 1.0x sdk-generated")


if __name__ == "__main__":
    main()
