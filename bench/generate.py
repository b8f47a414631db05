"""Generation speed: `mcp-codegen generate` of every pinned revision vs the datamodel-code-generator
CLI run on each of the five released revisions with its default options, and a no-op regeneration.
Processes are started the same way for both (python -m …), interleaved round by round.

Besides the wall time, the CPU time each side's processes used (user + system, theirs and their
children's): on a shared machine other work stretches wall time, not CPU time. The load average
before and after says how shared the machine was.

    .venv/bin/python bench/generate.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, spec_source

RELEASED = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]



def timed(command: list[str], env: dict[str, str], cpu: list[float] | None = None) -> float:
    """Wall seconds of command; its CPU seconds (with its children's) appended to cpu."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, cwd=REPO, env=env, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    source = spec_source()
    work = Path(tempfile.mkdtemp(prefix="bench-generate-"))
    env = {**os.environ, "MCP_CODEGEN_SPEC_SOURCE": str(source), "MCP_CODEGEN_CACHE": str(work / "cache")}
    ours_full: list[float] = []
    ours_noop: list[float] = []
    peer: list[float] = []
    ours_cpu: list[float] = []
    peer_cpu: list[float] = []
    load_before = os.getloadavg()
    for index in range(args.rounds):
        out = work / f"ours{index}" / "mcp_models"
        ours_cmd = [sys.executable, "-m", "codegen", "generate", "-q", "--out", str(out)]
        peer_total, peer_cpu_total = 0.0, list[float]()
        order = ("ours", "peer") if index % 2 == 0 else ("peer", "ours")
        for who in order:
            if who == "ours":
                ours_full.append(timed([*ours_cmd, "--no-cache"], env, ours_cpu))
                timed(ours_cmd, env)  # records the run
                ours_noop.append(timed(ours_cmd, env))
            else:
                for revision in RELEASED:
                    peer_cmd = [
                        sys.executable, "-m", "datamodel_code_generator",
                        "--input", str(source / revision / "schema.json"), "--input-file-type", "jsonschema",
                        "--output", str(work / f"peer{index}-{revision}.py"),
                    ]  # fmt: skip
                    peer_total += timed(peer_cmd, env, peer_cpu_total)
                peer.append(peer_total)
                peer_cpu.append(sum(peer_cpu_total))

    def show(label: str, values: list[float]) -> str:
        return f"{label:58} median {statistics.median(values):6.2f} s  [{min(values):.2f} .. {max(values):.2f}]"

    load_after = os.getloadavg()
    print(f"{args.rounds} interleaved rounds on {os.cpu_count()} cores; load average (1, 5, 15 min) "
          f"{'/'.join(f'{v:.1f}' for v in load_before)} before, {'/'.join(f'{v:.1f}' for v in load_after)} after")
    print(show("(a) mcp-codegen generate, 6 revisions, everything", ours_full))
    print(show("    datamodel-code-generator CLI, 5 released revisions", peer))
    print(f"    ratio ours / datamodel-codegen: {statistics.median(o / p for o, p in zip(ours_full, peer)):.2f}x")
    print(show("    CPU time, mcp-codegen generate", ours_cpu))
    print(show("    CPU time, datamodel-code-generator CLI", peer_cpu))
    print(f"    CPU ratio ours / datamodel-codegen: {statistics.median(o / p for o, p in zip(ours_cpu, peer_cpu)):.2f}x")
    print(show("(b) mcp-codegen generate, nothing changed (no-op)", ours_noop))
    print(f"    ratio no-op / full: {statistics.median(n / f for n, f in zip(ours_noop, ours_full)):.3f}x")
    print(f"    ratio no-op / datamodel-codegen CLI: {statistics.median(n / p for n, p in zip(ours_noop, peer)):.3f}x")


if __name__ == "__main__":
    main()
