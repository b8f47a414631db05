"""Between `mcp-codegen tools --server` and the server: `python relay.py LIMIT REPORT COMMAND...`.

The MCP client library reads a server's stdout a line (one JSON-RPC message) at a time and holds
the whole line before parsing it, however long it is. This relay starts the server, passes stdin
and stdout through unchanged, and ends both the moment one line from the server exceeds LIMIT
bytes, saying so in the REPORT file; so `--max-schema-bytes` bounds what a live server can make mcp-codegen
hold, parse and pay for, as it bounds a tools/list file (whose size is checked before reading).

Run as a script (standard library only, nothing of codegen imported): it costs a bare interpreter.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

OVER_LIMIT = "mcp-codegen-relay: a message from the server is over the limit of"
_CHUNK = 1 << 16


def _pass_stdin(server: subprocess.Popen[bytes]) -> None:
    assert server.stdin is not None
    try:
        while chunk := os.read(0, _CHUNK):
            server.stdin.write(chunk)
            server.stdin.flush()
    except OSError:  # the server went away: the client sees its stdout end
        pass
    finally:
        try:
            server.stdin.close()
        except OSError:
            pass


def main() -> int:
    limit, report, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    try:
        server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # noqa: S603
    except OSError as exc:
        sys.stderr.write(f"cannot start {command[0]!r}: {exc.strerror or exc}\n")
        return 127
    assert server.stdout is not None
    threading.Thread(target=_pass_stdin, args=(server,), daemon=True).start()
    line = 0  # bytes of the message being passed on, since its last newline
    while chunk := os.read(server.stdout.fileno(), _CHUNK):
        parts = chunk.split(b"\n")  # the first part continues the message before it
        longest = max([line + len(parts[0]), *(len(part) for part in parts[1:])])
        line = line + len(parts[0]) if len(parts) == 1 else len(parts[-1])
        if longest > limit:
            server.kill()
            with open(report, "w", encoding="utf-8") as handle:
                handle.write(f"{OVER_LIMIT} {limit}\n")
            return 3
        os.write(1, chunk)
    return server.wait()


if __name__ == "__main__":
    sys.exit(main())
