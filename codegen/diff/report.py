"""The diff report: plain dataclasses, and their JSON form (documented in README, "Diffing revisions").

Every list is sorted and every object's keys are sorted, so the same two schemas always give the
same bytes.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import printable_json

FORMAT = "mcp-codegen-diff/1"
BREAKING = "breaking"
COMPATIBLE = "compatible"
INFORMATIONAL = "informational"
SEVERITIES = (BREAKING, COMPATIBLE, INFORMATIONAL)
WIRE = "wire"
PYTHON = "python"


@dataclass(frozen=True)
class Change:
    """One change, on the wire (a definition of the schema) or in the generated Python API (a class)."""

    axis: str  # "wire" | "python"
    kind: str  # e.g. "property-added", "arm-removed", "attribute-retyped" (see README)
    subject: str  # the definition (wire) or class (python) it is in
    path: tuple[str, ...]  # wire keys (wire) or the attribute (python) below the subject; () for itself
    summary: str  # one human sentence
    severity: str  # "breaking" | "compatible" | "informational"
    relation: str | None = None  # "equivalent" | "compatible" | "widened" | "narrowed" | "changed"
    old: str | None = None  # short descriptions of the two sides, where there are two
    new: str | None = None
    breaks: tuple[str, ...] = ()  # sides whose existing code this breaks: "client", "server"
    senders: tuple[str, ...] = ()  # who sends the subject (either revision)
    receivers: tuple[str, ...] = ()
    methods: tuple[str, ...] = ()  # methods whose messages or results carry the subject
    details: tuple[str, ...] = ()  # nested differences, for a retyped inline schema

    @property
    def where(self) -> str:
        return ".".join((self.subject, *self.path))

    def sort_key(self) -> tuple[Any, ...]:
        return (self.axis, self.subject, self.path, self.kind, self.summary)


@dataclass(frozen=True)
class MethodEntry:
    method: str
    kind: str  # "request" | "notification"
    status: str  # "added" | "removed" | "changed"
    severity: str
    breaks: tuple[str, ...]
    old_senders: tuple[str, ...]
    new_senders: tuple[str, ...]
    notes: tuple[str, ...] = ()  # method-level changes: senders, transport, results
    changes: int = 0  # wire changes in the definitions its messages carry


@dataclass(frozen=True)
class CapabilityEntry:
    side: str  # whose capabilities: "client" | "server"
    capability: str  # dotted path: "tasks.requests.elicitation.create"
    status: str  # "added" | "removed" | "changed"
    relation: str | None = None


@dataclass(frozen=True)
class RevisionInfo:
    label: str
    sha256: str
    definitions: int
    methods: int


@dataclass
class Report:
    old: RevisionInfo
    new: RevisionInfo
    methods: list[MethodEntry] = field(default_factory=list[MethodEntry])
    capabilities: list[CapabilityEntry] = field(default_factory=list[CapabilityEntry])
    definitions_added: list[str] = field(default_factory=list[str])
    definitions_removed: list[str] = field(default_factory=list[str])
    definitions_renamed: list[dict[str, str]] = field(default_factory=list[dict[str, str]])  # {"from", "to"}
    changes: list[Change] = field(default_factory=list[Change])  # wire
    python_api: list[Change] = field(default_factory=list[Change])
    python_api_compared: bool = True
    descriptions: bool = False

    @property
    def empty(self) -> bool:
        return not (self.methods or self.capabilities or self.changes or self.python_api
                    or self.definitions_added or self.definitions_removed or self.definitions_renamed)  # fmt: skip

    @property
    def breaking(self) -> bool:
        return any(c.severity == BREAKING for c in (*self.changes, *self.python_api)) or any(
            m.severity == BREAKING for m in self.methods
        )

    def breaking_for(self, side: str) -> bool:
        """Whether a change breaks existing code of side ("client" or "server")."""
        return any(c.severity == BREAKING and side in c.breaks for c in (*self.changes, *self.python_api)) or any(
            m.severity == BREAKING and side in m.breaks for m in self.methods
        )

    def counts(self, changes: list[Change]) -> dict[str, Any]:
        by_severity = {s: sum(1 for c in changes if c.severity == s) for s in SEVERITIES}
        breaking_for = {
            side: sum(1 for c in changes if c.severity == BREAKING and side in c.breaks) for side in ("client", "server")
        }
        return {**by_severity, "breaking_for": breaking_for}

    def summary(self) -> dict[str, Any]:
        by_status = {s: sorted(m.method for m in self.methods if m.status == s) for s in ("added", "removed", "changed")}
        return {
            "methods": by_status,
            "methods_breaking": sorted(m.method for m in self.methods if m.severity == BREAKING),
            "capabilities": {
                s: sorted(f"{c.side}:{c.capability}" for c in self.capabilities if c.status == s)
                for s in ("added", "removed", "changed")
            },
            "definitions": {
                "added": len(self.definitions_added),
                "removed": len(self.definitions_removed),
                "renamed": len(self.definitions_renamed),
            },
            "wire": self.counts(self.changes),
            "python": self.counts(self.python_api),
        }

    def as_dict(self) -> dict[str, Any]:
        def change(c: Change) -> dict[str, Any]:
            data = asdict(c)
            data["path"] = list(c.path)
            return data

        return {
            "format": FORMAT,
            "old": asdict(self.old),
            "new": asdict(self.new),
            "options": {"descriptions": self.descriptions, "python_api": self.python_api_compared},
            "summary": self.summary(),
            "methods": [asdict(m) for m in self.methods],
            "capabilities": [asdict(c) for c in self.capabilities],
            "definitions": {
                "added": self.definitions_added,
                "removed": self.definitions_removed,
                "renamed": self.definitions_renamed,
            },
            "changes": [change(c) for c in self.changes],
            "python_api": [change(c) for c in self.python_api],
        }

    def as_json(self) -> str:
        return printable_json(json.dumps(self.as_dict(), indent=2, sort_keys=True, ensure_ascii=False)) + "\n"
