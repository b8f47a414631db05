"""A tiny stdio MCP server for tests: `python fake_mcp_server.py CONFIG.json`.

It answers `initialize` (protocol 2025-11-25) and `tools/list` with the tools listed in the config,
byte for byte as written there (so names may hold anything JSON can), and writes the config's
`stderr` text to its stderr first (hostile servers log too). Standard library only; newline-
delimited JSON-RPC, as the MCP stdio transport is.
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        config = json.load(handle)
    sys.stderr.write(config.get("stderr", ""))
    sys.stderr.flush()
    tools_text = json.dumps(config["tools"])  # ensure_ascii: every name travels escaped, arrives as given
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if "id" not in message:
            continue  # a notification (initialized)
        method = message.get("method")
        if method == "initialize":
            result = (
                '{"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, '
                '"serverInfo": {"name": "fake", "version": "1.0.0"}}'
            )
        elif method == "tools/list":
            result = '{"tools": ' + tools_text + "}"
        else:
            result = "{}"
        sys.stdout.write('{"jsonrpc": "2.0", "id": ' + json.dumps(message["id"]) + ', "result": ' + result + "}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
