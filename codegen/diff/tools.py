"""What changed in one server's tools, per tool, and whether it breaks existing client code:
`mcp-codegen tools --check` compares the tools a package was generated from with the tools now
listed, with the diff's own rules (structure.Walker finds the changes, classify.wire_change and
pyapi.compare say whom each breaks).

A tool's `inputSchema` is what the client sends (its calls), its `outputSchema` what the server
sends (structured content). From the client's side:

- input narrowed or changed (a new required argument, a value or type no longer accepted, an
  object closed): breaking, an existing call is now invalid; widened or compatible: compatible;
- output widened or changed (a property now optional, a looser type, an object opened): breaking,
  an existing reader may now fail; narrowed or compatible: compatible;
- the generated classes (`<Tool>Input`, `<Tool>Output`): an attribute removed or renamed, or one a
  reader uses now optional, breaks the client's code as `mcp-codegen diff`'s Python axis says;
- a tool removed breaks its calls; an `outputSchema` removed breaks its readers; anything added is
  compatible.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from codegen.diff import pyapi
from codegen.diff.classify import wire_change
from codegen.diff.direction import CLIENT, SERVER, Directions
from codegen.diff.report import BREAKING, COMPATIBLE, INFORMATIONAL, Change
from codegen.diff.source import Side, side_from_document
from codegen.diff.structure import Walker
from codegen.errors import printable_json
from codegen.limits import Limits
from codegen.schema import budget
from codegen.schema.schemas import count_subschemas

LINE_LIMIT = 300  # characters of one line of the report
NAME_LIMIT = 80  # characters of a tool's name quoted in a line
SHOWN_REASONS = 3  # changes named on a tool's line (--verbose lists them all)
METHOD = "tools/call"


@dataclass(frozen=True)
class ToolSchemas:
    """One side: a schema document holding each tool's schemas under `$defs` (as the tools package
    is generated from), where each tool's are, and the schemas as listed."""

    document: Mapping[str, Any]
    inputs: Mapping[str, str]  # tool name -> its inputSchema's `$defs` entry
    outputs: Mapping[str, str]  # tool name -> its outputSchema's `$defs` entry (tools declaring one)
    listed: Mapping[str, tuple[Any, Any]]  # tool name -> (inputSchema, outputSchema or None)
    # tool name -> (title, description), None where absent: what the model reads of a tool
    described: Mapping[str, tuple[Any, Any]] = field(default_factory=dict[str, tuple[Any, Any]])


@dataclass(frozen=True)
class ToolChange:
    tool: str
    status: str  # "added" | "removed" | "changed"
    parts: tuple[str, ...]  # for "changed": "input schema changed", "output schema added", ...
    breaks: tuple[str, ...]  # what of the client's breaks: "calls", "readers"
    changes: tuple[Change, ...] = ()  # wire and Python API changes, the ones its line names first
    shown: int = 0  # how many of changes its line names (at most SHOWN_REASONS); --verbose lists all
    words: tuple[str, ...] = ()  # what the model now reads of the tool, where it changed: `description now "…"`

    @property
    def breaking(self) -> bool:
        return bool(self.breaks)

    def line(self) -> str:
        """One line, escaped and at most LINE_LIMIT characters: the tool (quoted as JSON, so its
        name cannot pass for the text around it), what changed, the verdict and the first changes."""
        what = self.status if self.status != "changed" else ", ".join(self.parts)
        verdict = f"breaking: existing {' and '.join(self.breaks)} fail" if self.breaks else "compatible"
        head = f"tool {quoted(self.tool)}: {what} ({verdict})"
        named = self.changes[: min(self.shown, SHOWN_REASONS)] or self.changes[:SHOWN_REASONS]
        reasons = [reason(c) for c in named]
        more = max(self.shown, len(reasons)) - len(reasons)
        if not reasons:
            schemas = [part for part in self.parts if part.endswith("schema changed")]
            rewritten = self.status == "changed" and bool(schemas) and len(schemas) + len(self.words) == len(self.parts)
            said = [*self.words, *(["the same values, written differently"] if rewritten else [])]
            return clip(head + (f": {'; '.join(said)}" if said else ""))
        return clip(f"{head}: {'; '.join([*reasons, *self.words])}" + (f" (+{more} more: --verbose)" if more else ""))

    def details(self) -> list[str]:
        """Every change, one escaped line each (--verbose)."""
        return [clip(f"  {_for_client(c):<13} {c.axis:<6} {reason(c)}") for c in self.changes]

    def as_json(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "status": self.status,
            "parts": list(self.parts),
            "breaking": self.breaking,
            "breaks": list(self.breaks),
            "words": list(self.words),
            "changes": [
                {"axis": c.axis, "where": c.where, "summary": c.summary, "for_client": _for_client(c), "breaks": list(c.breaks)}
                for c in self.changes
            ],
        }


@dataclass(frozen=True)
class ToolsReport:
    """The tools a package was generated from against the tools listed now."""

    changes: tuple[ToolChange, ...] = ()
    models: tuple[str, str] | None = None  # (recorded, now) when the spec models imported differ
    unknown: str | None = None  # why the changes per tool cannot be told (the package has no readable record)

    @property
    def breaking(self) -> bool:
        return any(change.breaking for change in self.changes)

    def lines(self, *, details: bool = False) -> list[str]:
        """The report's lines: one per tool (breaking first, then by name; with details each change
        below it), then the spec models, then a total."""
        if self.unknown is not None:
            return [clip(f"tools: changes per tool unknown: {self.unknown}")]
        found = [line for change in self.changes for line in (change.line(), *(change.details() if details else ()))]
        if self.models is not None:
            recorded, now = self.models
            found.append(clip(f"spec models: {quoted(recorded)} -> {quoted(now)} (where the package imports the spec's classes from)"))
        breaking = sum(1 for change in self.changes if change.breaking)
        if self.changes:
            count = len(self.changes)
            found.append(f"{count} tool{'s' if count != 1 else ''} changed: {breaking} breaking, {count - breaking} compatible")
        else:
            found.append("no tool changed; the package differs otherwise (another mcp-codegen, other settings, or files of its own)")
        return found

    def as_json(self) -> dict[str, Any]:
        return {
            "changes": [change.as_json() for change in self.changes],
            "models": list(self.models) if self.models else None,
            "unknown": self.unknown,
            "breaking": self.breaking,
        }


def compare(old: ToolSchemas, new: ToolSchemas, limits: Limits) -> list[ToolChange]:
    """The tools added, removed and changed from old to new, breaking ones first, then by name."""
    found = [ToolChange(name, "removed", (), ("calls",)) for name in sorted(set(old.listed) - set(new.listed))]
    found += [ToolChange(name, "added", (), ()) for name in sorted(set(new.listed) - set(old.listed))]
    changed = sorted(name for name in set(old.listed) & set(new.listed) if _differs(name, old, new))
    if changed:
        found += _Comparison(old, new, limits).tools(changed)
    return sorted(found, key=lambda change: (not change.breaking, change.tool))


def _differs(name: str, old: ToolSchemas, new: ToolSchemas) -> bool:
    """The tool's schemas changed, its classes' names did, or what the model reads of it."""
    return old.listed[name] != new.listed[name] or _renamed(name, old, new) or _redescribed(name, old, new) != ()


def _redescribed(name: str, old: ToolSchemas, new: ToolSchemas) -> tuple[str, ...]:
    """What changed of the words the model reads of a tool: "title", "description"."""
    before, after = old.described.get(name, (None, None)), new.described.get(name, (None, None))
    return tuple(what for what, a, b in zip(("title", "description"), before, after, strict=True) if a != b)


def _renamed(name: str, old: ToolSchemas, new: ToolSchemas) -> bool:
    """The tool's classes have other names (a new tool named alike took its stem: `GetCount` beside
    `get-count` makes the latter `GetCountVariantA`)."""
    outputs = old.outputs.get(name), new.outputs.get(name)
    return old.inputs[name] != new.inputs[name] or (None not in outputs and outputs[0] != outputs[1])


class _Comparison:
    """Both sides loaded as the diff loads a revision, each tool's input sent by the client and its
    output by the server, and the Python API of both sides' models."""

    def __init__(self, old: ToolSchemas, new: ToolSchemas, limits: Limits) -> None:
        self.old, self.new = old, new
        self.limits = limits
        # a tool's entries are named from its name and its neighbours' (two colliding names get a
        # variant letter): the same tool under another entry name is a rename, not a new definition
        pairs = [(old.inputs, new.inputs), (old.outputs, new.outputs)]
        self.renames = {a[name]: b[name] for a, b in pairs for name in a if name in b and a[name] != b[name]}

    def tools(self, names: list[str]) -> list[ToolChange]:
        nodes = count_subschemas(dict(self.old.document)) + count_subschemas(dict(self.new.document))
        with budget.scope(nodes, "tools/list"):
            old_side = _side(self.old, "recorded tools/list", self.limits)
            new_side = _side(self.new, "tools/list", self.limits)
            walker = Walker(old_side, new_side, self.renames, descriptions=True)
            python = pyapi.compare(old_side, new_side, self.renames, _directions(self.old), _directions(self.new))
            by_tool = _python_by_tool(python, (old_side, self.old), (new_side, self.new))
            return [self._tool(name, walker, by_tool.get(name, [])) for name in names]

    def _tool(self, name: str, walker: Walker, python: list[Change]) -> ToolChange:
        old_input, old_output = self.old.listed[name]
        new_input, new_output = self.new.listed[name]
        parts: list[str] = []
        wire: list[Change] = []
        breaks: set[str] = set()
        if _renamed(name, self.old, self.new):
            parts.append("classes renamed")
        parts += [f"{what} changed" for what in _redescribed(name, self.old, self.new)]
        if old_input != new_input:
            parts.append("input schema changed")
            wire += self._wire(walker, self.old.inputs[name], self.new.inputs[name], CLIENT)
        if old_output is not None and new_output is None:
            parts.append("output schema removed")
            breaks.add("readers")
        elif old_output is None and new_output is not None:
            parts.append("output schema added")
        elif old_output != new_output:
            parts.append("output schema changed")
            wire += self._wire(walker, self.old.outputs[name], self.new.outputs[name], SERVER)
        if "output schema removed" in parts:  # said once, not again class by class
            python = [c for c in python if not _is_output(c, self.old, name)]

        def whose(change: Change) -> str:  # what of the client's code a change is about
            return "readers" if _is_output(change, self.old, name) or _is_output(change, self.new, name) else "calls"

        broken_on_wire = {whose(c) for c in wire if CLIENT in c.breaks}
        breaks |= broken_on_wire | {whose(c) for c in python if CLIENT in c.breaks}
        # the Python API mostly restates the wire (a required property is a required attribute):
        # its changes come first only where they alone break the client's code
        alone = [c for c in python if CLIENT in c.breaks and whose(c) not in broken_on_wire]
        rest = [c for c in python if c not in alone]
        ordered = sorted(alone, key=_client_first) + sorted(wire, key=_client_first) + sorted(rest, key=_client_first)
        now: dict[str, Any] = dict(zip(("title", "description"), self.new.described.get(name, (None, None)), strict=True))
        words = tuple(
            f"{what} now {quoted(now[what]) if isinstance(now[what], str) else 'absent' if now[what] is None else 'not text'}"
            for what in _redescribed(name, self.old, self.new)
        )
        shown = len(alone) + len(wire)
        return ToolChange(name, "changed", tuple(parts), tuple(sorted(breaks)), tuple(ordered), shown=shown, words=words)

    @staticmethod
    def _wire(walker: Walker, old_entry: str, new_entry: str, sender: str) -> list[Change]:
        found = walker.definition(old_entry, new_entry)
        return [wire_change(f, new_entry, frozenset({sender}), frozenset({METHOD})) for f in found]


def _side(tools: ToolSchemas, label: str, limits: Limits) -> Side:
    document = json.loads(json.dumps(tools.document))  # a copy the loader may normalise
    sha = hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()
    classes = frozenset(f"#/$defs/{entry}" for entry in tools.inputs.values())
    return side_from_document(document, label, sha, limits, classes=classes)


def _directions(tools: ToolSchemas) -> Directions:
    """Who sends each entry: a tool's input the client, its output the server."""
    senders = {entry: frozenset({CLIENT}) for entry in tools.inputs.values()}
    senders |= {entry: frozenset({SERVER}) for entry in tools.outputs.values()}
    return Directions(senders)


def _python_by_tool(changes: Iterable[Change], *sides: tuple[Side, ToolSchemas]) -> dict[str, list[Change]]:
    """The Python API changes of each tool: of the classes its schemas give (hoisted ones too)."""
    by_tool: dict[str, list[Change]] = {}
    for change in changes:
        for side, tools in reversed(sides):  # the new side first: a class added is only there
            entity = side.entities.get(change.subject)
            if entity is None:
                continue
            owners = {entry: name for name, entry in (*tools.inputs.items(), *tools.outputs.items())}
            owner = owners.get(entity.definition_name)
            if owner is not None:
                by_tool.setdefault(owner, []).append(change)
            break
    return by_tool


def _is_output(change: Change, tools: ToolSchemas, name: str) -> bool:
    entry = tools.outputs.get(name)
    return entry is not None and change.subject.startswith(entry)


def _for_client(change: Change) -> str:
    """A change's severity from the client's side: a change that breaks only the server (an input
    widened: the server changed it itself) is compatible for its clients."""
    if CLIENT in change.breaks:
        return BREAKING
    return INFORMATIONAL if change.severity == INFORMATIONAL else COMPATIBLE


def _client_first(change: Change) -> tuple[bool, bool, str]:
    return (CLIENT not in change.breaks, change.severity != BREAKING, change.where)


def reason(change: Change) -> str:
    """A change as `Class.member: what` (a wire change names the JSON key, a Python one the attribute)."""
    return f"{change.where}: {change.summary}"


def quoted(name: str) -> str:
    """A name from a server as a JSON string, at most NAME_LIMIT characters of it, nothing a terminal acts on."""
    shown = name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1] + "…"
    return printable_json(json.dumps(shown, ensure_ascii=False))


def clip(line: str, limit: int = LINE_LIMIT) -> str:
    """One line of at most limit characters, escaped (a newline in it is shown, never kept)."""
    one = printable_json(line.replace("\n", "\\n").replace("\r", "\\r"))
    return one if len(one) <= limit else one[: limit - 1] + "…"

