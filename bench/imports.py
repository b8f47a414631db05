"""Cold import time and memory of one generated revision package vs the official SDK's generated
mcp_types._v2026_07_28, and the latency of the first parse after the import. Every sample is a
fresh interpreter; the contenders alternate, round by round.

    .venv/bin/python bench/imports.py [--rounds 15]

pydantic (with its dependencies and the internals it loads for a first model) is imported before
the clock starts on both sides: any SDK imports it anyway. So is the `mcp_types` package itself for the peer, whose
__init__ loads the SDK's hand-written models, so that its generated module is timed alone. Memory is the peak RSS of the process after the first
parse, less that of a process that imported pydantic only.

Reported per contender:
- import: `import <package>`;
- names: `from <package> import CallToolRequest, ...` right after (the models themselves);
- first parse: the first typed parse of a tools/call request (ours: parse_message; the SDK's
  generated package: a TypeAdapter over its ClientRequest union, its own way to parse a request);
- total: all three, i.e. what a program pays before it has its first typed message.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable

from _common import REPO, spec_source

EXAMPLE = "2026-07-28/examples/CallToolRequest/call-tool-request.json"

PROBE = r"""
import json, resource, sys, time
sys.path.insert(0, {generated!r})
import pydantic, pydantic_core
from pydantic import BaseModel, TypeAdapter
import annotated_types, typing_extensions  # pydantic's own dependencies, loaded alike on both sides
from pydantic import StrictStr
class _Warm(BaseModel):  # pydantic's lazily imported internals, loaded alike on both sides
    x: StrictStr
{preload}
raw = open({example!r}, "rb").read()
baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter()
{import_}
t1 = time.perf_counter()
{names}
t2 = time.perf_counter()
{parse}
t3 = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"import": t1 - t0, "names": t2 - t1, "first_parse": t3 - t2, "kib": peak - baseline, "parsed": type(parsed).__name__}}))
"""

CONTENDERS = {
    "ours (mcp_models.v2026_07_28)": {
        "preload": "",
        "import_": "import mcp_models.v2026_07_28 as package",
        "names": "from mcp_models.v2026_07_28 import CallToolRequest, ListToolsResult, Tool, parse_message",
        "parse": "parsed = parse_message(raw)",
    },
    "sdk generated (mcp_types._v2026_07_28)": {
        "preload": "import mcp_types",
        "import_": "import mcp_types._v2026_07_28 as package",
        "names": "from mcp_types._v2026_07_28 import CallToolRequest, ClientRequest, ListToolsResult, Tool",
        "parse": "parsed = TypeAdapter(ClientRequest).validate_json(raw)",
    },
}


_BYTECODE = os.path.join(tempfile.gettempdir(), f"mcp-codegen-bench-bytecode-{os.getuid()}")


def sample(parts: dict[str, str]) -> dict[str, float]:
    code = PROBE.format(example=str(spec_source() / EXAMPLE), **{"generated": str(REPO / "generated"), **parts})
    # bytecode caches on, as in any installed package (a shell may have turned them off), kept in
    # one folder of their own: __pycache__ folders in generated/ would be drift to `mcp-codegen check`
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = _BYTECODE
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env)
    result = json.loads(done.stdout)
    if result["parsed"] != "CallToolRequest":
        sys.exit(f"parsed as {result['parsed']}, not CallToolRequest")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--before", metavar="CHECKOUT", help="also time ours from another checkout's generated/ (a before/after in one run)")
    args = parser.parse_args()
    contenders = dict(CONTENDERS)
    if args.before:
        before = {**CONTENDERS["ours (mcp_models.v2026_07_28)"], "generated": os.path.join(args.before, "generated")}
        contenders["before (the same, from --before)"] = before
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in contenders}
    names = list(contenders)
    for name in names:  # writes the bytecode caches; not timed
        sample(contenders[name])
    for index in range(args.rounds):
        for name in names if index % 2 == 0 else reversed(names):
            runs[name].append(sample(contenders[name]))

    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1e3:7.1f} ms [{min(values) * 1e3:.1f} .. {max(values) * 1e3:.1f}]"

    print(f"{args.rounds} fresh interpreters per contender, alternating; medians [min .. max]; load average {os.getloadavg()[0]:.1f}")
    for name in names:
        rows = runs[name]
        print(f"\n{name}")
        for key in ("import", "names", "first_parse"):
            print(f"  {key:12} {ms([r[key] for r in rows])}")
        print(f"  {'total':12} {ms([r['import'] + r['names'] + r['first_parse'] for r in rows])}")
        print(f"  {'memory':12} {statistics.median(r['kib'] for r in rows) / 1024:7.1f} MiB more than pydantic alone")
    ours, peer = names[:2]
    print_ratios(runs, ours, peer, "ours / sdk generated")
    if args.before:
        print_ratios(runs, names[2], peer, "before / sdk generated")
    print("target: import + names <= 0.5x, memory <= 1.0x; first-parse latency reported")


def print_ratios(runs: dict[str, list[dict[str, float]]], a: str, b: str, label: str) -> None:
    """Medians of the per-round ratios a / b (each round times both)."""

    def ratio(value: Callable[[dict[str, float]], float]) -> float:
        return statistics.median(value(x) / value(y) for x, y in zip(runs[a], runs[b], strict=True))

    imported = ratio(lambda r: r["import"])
    named = ratio(lambda r: r["import"] + r["names"])
    total = ratio(lambda r: r["import"] + r["names"] + r["first_parse"])
    print(f"\nratios {label} (median of per-round ratios):")
    print(f"  import {imported:.2f}x   import + names {named:.2f}x   total to first typed message {total:.2f}x")
    print(f"  memory {ratio(lambda r: r['kib']):.2f}x")

if __name__ == "__main__":
    main()
