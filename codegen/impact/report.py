"""The impact report: the errors new at the target revision, each with the changes that cause it,
as text lines and as JSON (`mcp-codegen-impact/1`: keys sorted, lists sorted, the same inputs
give the same bytes)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from codegen.diff.report import Change
from codegen.errors import printable_json
from codegen.impact.findings import Finding

FORMAT = "mcp-codegen-impact/1"


@dataclass(frozen=True)
class Side:
    label: str  # the revision (a pinned label, or a schema file's folder)
    sha256: str


@dataclass(frozen=True)
class NewError:
    finding: Finding  # its file relative to the project folder
    causes: tuple[Change, ...]  # empty: unexplained


@dataclass(frozen=True)
class Impact:
    project: str  # the project folder
    module: str  # the revision package replaced, `acme_platform.mcp.v2026_07_28`
    current: Side
    target: Side
    checker: str
    checker_version: str
    new: tuple[NewError, ...]
    gone: tuple[Finding, ...]  # errors of the current revision the target no longer has
    changes: int  # the diff's changes, both axes
    already: int = 0  # errors the project's code has at the current revision (neither new nor gone)
    runs: int = 2  # checker runs made (the current revision's and the target's)

    @property
    def explained(self) -> int:
        return sum(1 for e in self.new if e.causes)

    def lines(self, where: str = "") -> list[str]:
        """The text report; where: how to show the project's folder before each file (`` when the
        working folder is the project's)."""
        lines = [
            f"impact of {self.target.label} on {self.project} "
            f"(in place of {self.current.label} as {self.module}; {self.checker} {self.checker_version})".rstrip()
        ]
        for error in self.new:
            f = error.finding
            code = f"  [{f.code}]" if f.code else ""
            lines.append(f"{where}{f.file}:{f.line}: error: {f.headline}{code}")
            causes = [f"  caused by {text}" for text in _causes(error.causes)]
            lines += causes or ["  unexplained: no change of the diff is named in it"]
        files = len({e.finding.file for e in self.new})
        summary = (
            f"{len(self.new)} new error{'s' if len(self.new) != 1 else ''}"
            + (f" in {files} file{'s' if files != 1 else ''}" if self.new else "")
            + f" ({self.explained} tied to a change, {len(self.new) - self.explained} unexplained)"
            + f"; {len(self.gone)} gone; {self.already} already at {self.current.label}"
            + f"; {self.changes} change{'s' if self.changes != 1 else ''} between the revisions"
        )
        return [*lines, summary]

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "project": self.project,
            "module": self.module,
            "current": {"label": self.current.label, "sha256": self.current.sha256},
            "target": {"label": self.target.label, "sha256": self.target.sha256},
            "checker": {"name": self.checker, "version": self.checker_version},
            "new_errors": [{**_finding(e.finding), "causes": [_change(c) for c in e.causes]} for e in self.new],
            "gone": [_finding(f) for f in self.gone],
            "summary": {
                "new": len(self.new),
                "explained": self.explained,
                "unexplained": len(self.new) - self.explained,
                "gone": len(self.gone),
                "already": self.already,
                "changes": self.changes,
                "checker_runs": self.runs,
            },
        }

    def as_json(self) -> str:
        return printable_json(json.dumps(self.as_dict(), indent=2, sort_keys=True, ensure_ascii=False)) + "\n"


def compare(current: Iterable[Finding], target: Iterable[Finding]) -> tuple[list[Finding], list[Finding]]:
    """(new, gone): the target's errors the current run does not have, and the reverse, as
    multisets by Finding.key (an error twice on one line, once before, is one new error)."""
    before: Counter[tuple[str, int, str, str]] = Counter(f.key for f in current)
    after: Counter[tuple[str, int, str, str]] = Counter(f.key for f in target)
    new: list[Finding] = []
    for finding in sorted(target):
        if before[finding.key] > 0:
            before[finding.key] -= 1
        else:
            new.append(finding)
    gone: list[Finding] = []
    for finding in sorted(current):
        if after[finding.key] > 0:
            after[finding.key] -= 1
        else:
            gone.append(finding)
    return new, gone


def _causes(changes: Sequence[Change]) -> list[str]:
    """One line per place (definition.field): the wire change first, then the Python API's."""
    by_place: dict[str, list[Change]] = {}
    for change in sorted(changes, key=lambda c: (c.where, c.axis != "wire", c.kind)):
        by_place.setdefault(change.where, []).append(change)
    lines: list[str] = []
    for place, found in by_place.items():
        said = "; ".join(f"{c.summary}" + (" (Python API)" if c.axis == "python" else "") for c in found)
        breaks = sorted({side for c in found for side in c.breaks})
        lines.append(f"{place}: {said}" + (f" [breaks {', '.join(breaks)}]" if breaks else ""))
    return lines


def _finding(finding: Finding) -> dict[str, Any]:
    return {
        "file": finding.file,
        "line": finding.line,
        "column": finding.column,
        "code": finding.code,
        "message": finding.message,
    }


def _change(change: Change) -> dict[str, Any]:
    return {
        "axis": change.axis,
        "kind": change.kind,
        "subject": change.subject,
        "path": list(change.path),
        "summary": change.summary,
        "severity": change.severity,
        "breaks": list(change.breaks),
    }
