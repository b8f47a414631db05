"""Shared by the benchmark scripts: the spec-example corpus and interleaved timing."""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "generated"))


def spec_source() -> Path:
    configured = os.environ.get("MCP_CODEGEN_SPEC_SOURCE")
    return Path(configured) if configured else REPO / "spec"


@dataclass(frozen=True)
class Sample:
    name: str  # <TypeName>/<file>
    kind: str  # request | notification | response | error
    raw: bytes
    method: str | None  # the request method (for a response: of the request it answers)


def message_corpus(revision: str = "2026-07-28") -> list[Sample]:
    """Every JSON-RPC message among a revision's spec examples (schema-invalid ones left out)."""
    import importlib

    package = importlib.import_module(f"mcp_models.{'v' + revision.replace('-', '_') if revision != 'draft' else 'draft'}")
    by_response = {cls.__name__: method for method, cls in package.messages.RESPONSES.items()}
    samples = []
    for path in sorted((spec_source() / revision / "examples").rglob("*.json")):
        data = json.loads(path.read_bytes())
        if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
            continue
        name = f"{path.parent.name}/{path.name}"
        if "method" in data:
            kind = "request" if "id" in data else "notification"
            method = data["method"]
        elif "result" in data:
            kind, method = "response", by_response.get(path.parent.name)
        else:
            kind, method = "error", None
        try:
            package.parse_message(path.read_bytes(), pending={data.get("id"): method} if method else None)
        except ValueError:
            continue  # an example its own schema rejects (documented in spec/errata)
        samples.append(Sample(name, kind, path.read_bytes(), method))
    return samples


@dataclass(frozen=True)
class Timing:
    label: str
    per_round: list[float]  # operations per second in each round

    @property
    def median(self) -> float:
        return statistics.median(self.per_round)

    def spread(self) -> str:
        ordered = sorted(self.per_round)
        return f"[{ordered[0]:,.0f} .. {ordered[-1]:,.0f}]"


def interleaved(
    contenders: dict[str, Callable[[], int]], rounds: int, warmup: int = 1
) -> dict[str, Timing]:
    """Each contender's callable does a batch of work and returns how many operations it did.
    Rounds alternate the contenders (in rotating order) so drift hits all of them alike."""
    names = list(contenders)
    for _ in range(warmup):
        for name in names:
            contenders[name]()
    results: dict[str, list[float]] = {name: [] for name in names}
    for index in range(rounds):
        order = names[index % len(names) :] + names[: index % len(names)]
        for name in order:
            start = time.perf_counter()
            count = contenders[name]()
            results[name].append(count / (time.perf_counter() - start))
    return {name: Timing(name, values) for name, values in results.items()}


def ratio(ours: Timing, peer: Timing) -> float:
    """Median of the per-round ratios (rounds are interleaved, so each ratio compares like with like)."""
    return statistics.median(a / b for a, b in zip(ours.per_round, peer.per_round, strict=True))


def table(rows: Sequence[tuple[str, ...]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)) for row in rows)
