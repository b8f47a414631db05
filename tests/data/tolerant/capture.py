"""Capture the list responses of the reference server (@modelcontextprotocol/server-everything) as
they arrive on its stdio, one JSON line each, at each protocol version it accepts.

    .venv/bin/python tests/data/tolerant/capture.py > tests/data/tolerant/everything.jsonl

tests/test_tolerant_lists.py reads the file (and, where the server is installed, captures afresh).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

SERVER = (
    Path(__file__).resolve().parents[3]
    / ".cache/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
)
VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LISTS = ("tools/list", "prompts/list", "resources/list", "resources/templates/list")
# declared so that the server lists the tools that need them (it is never answered otherwise)
CAPABILITIES = {"roots": {"listChanged": True}, "sampling": {}, "elicitation": {}}
MAX_PAGES = 3  # per list: enough to see pagination, few enough to stay small


def capture(version: str, server: Path = SERVER) -> Iterator[dict[str, object]]:
    """{"server", "version", "negotiated", "method", "id", "raw"} per list response (raw: the line
    as received; server: the package and its version)."""
    package = json.loads((server.parent.parent / "package.json").read_text())
    release = f"{package['name']}@{package['version']}"
    process = subprocess.Popen(
        ["node", str(server), "stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert process.stdin is not None and process.stdout is not None
    stdin, stdout = process.stdin, process.stdout

    def send(message: dict[str, object]) -> None:
        stdin.write(json.dumps(message).encode() + b"\n")
        stdin.flush()

    def response(request_id: int) -> bytes:
        while True:
            line = stdout.readline()
            if not line:
                raise RuntimeError("the server closed its output")
            message = json.loads(line)
            if message.get("id") == request_id and "method" not in message:
                return line.rstrip(b"\n")
            if "id" in message and "method" in message:  # the server asks (roots, sampling): decline
                send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "not here"}})

    try:
        info = {"name": "mcp-codegen-capture", "version": "1"}
        send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": version, "capabilities": CAPABILITIES, "clientInfo": info}})  # fmt: skip
        negotiated = json.loads(response(0))["result"]["protocolVersion"]
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        request_id = 0
        for method in LISTS:
            cursor: str | None = None
            for _ in range(MAX_PAGES):
                request_id += 1
                send(
                    {
                        "jsonrpc": "2.0",
                        "id": request_id,
                        "method": method,
                        "params": {"cursor": cursor} if cursor else {},
                    }
                )
                raw = response(request_id)
                yield {
                    "server": release,
                    "version": version,
                    "negotiated": negotiated,
                    "method": method,
                    "id": request_id,
                    "raw": raw.decode(),
                }
                cursor = json.loads(raw).get("result", {}).get("nextCursor")
                if not cursor:
                    break
    finally:
        stdin.close()
        process.terminate()
        process.wait(timeout=10)


def main() -> None:
    for version in VERSIONS:
        for row in capture(version):
            sys.stdout.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
