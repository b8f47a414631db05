"""The method-level summary: methods added, removed and changed, and capabilities.

A method is changed when who sends it changed, when it moved between being a JSON-RPC message of
its own and being carried inside other messages, when the results answering it changed, or when a
definition its messages or results carry changed on the wire.

- removed: breaks the side(s) that sent it (they can no longer call it);
- added: compatible (nobody's existing code sends it);
- a side no longer sending it: breaks that side; a side newly sending it: breaks the side that now
  receives it;
- moved into or out of other messages: breaks both;
- a new result arm (tools/call answered by an InputRequiredResult): breaks the caller, which
  receives it; a removed one breaks the side answering.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from codegen.diff.direction import OTHER, Directions, MethodInfo, receivers_of
from codegen.diff.relation import EQUIVALENT
from codegen.diff.report import BREAKING, COMPATIBLE, INFORMATIONAL, SEVERITIES, CapabilityEntry, Change, MethodEntry
from codegen.diff.structure import Walker
from codegen.schema.jsontypes import is_object
CAPABILITIES = {"client": "ClientCapabilities", "server": "ServerCapabilities"}


def method_entries(old: Directions, new: Directions, changes: list[Change], renames: Mapping[str, str]) -> list[MethodEntry]:
    entries: list[MethodEntry] = []
    for name in sorted(set(old.methods) | set(new.methods)):
        before, after = old.methods.get(name), new.methods.get(name)
        if before is None and after is not None:
            entries.append(_entry(after, "added", COMPATIBLE, (), (), after.senders, _added_notes(after)))
        elif after is None and before is not None:
            severity = BREAKING if before.senders else INFORMATIONAL
            entries.append(_entry(before, "removed", severity, before.senders, before.senders, (), ()))
        elif before is not None and after is not None:
            entry = _changed(before, after, changes, renames)
            if entry is not None:
                entries.append(entry)
    return entries


def _entry(
    info: MethodInfo, status: str, severity: str, breaks: frozenset[str] | tuple[str, ...],
    old_senders: frozenset[str] | tuple[str, ...], new_senders: frozenset[str] | tuple[str, ...],
    notes: tuple[str, ...], count: int = 0,
) -> MethodEntry:  # fmt: skip
    return MethodEntry(
        method=info.method,
        kind=info.kind,
        status=status,
        severity=severity,
        breaks=tuple(sorted(breaks)),
        old_senders=tuple(sorted(old_senders)),
        new_senders=tuple(sorted(new_senders)),
        notes=notes,
        changes=count,
    )


def _added_notes(info: MethodInfo) -> tuple[str, ...]:
    handlers = " and ".join(sorted(receivers_of(info.senders))) or "nobody"
    carried = "" if info.wire else " inside other messages"
    return (f"sent by {' and '.join(sorted(info.senders)) or 'nobody'}{carried}; handled by {handlers}",)


def _changed(before: MethodInfo, after: MethodInfo, changes: list[Change], renames: Mapping[str, str]) -> MethodEntry | None:
    notes: list[str] = []
    breaks: set[str] = set()
    for side in sorted(before.senders - after.senders):
        notes.append(f"{side} no longer sends it")
        breaks.add(side)
    for side in sorted(after.senders - before.senders):
        notes.append(f"{side} now sends it too; {OTHER[side]} must handle it")
        breaks.add(OTHER[side])
    if before.wire != after.wire:
        if after.wire:
            notes.append("now a JSON-RPC message of its own (was carried inside other messages)")
        else:
            notes.append("no longer a JSON-RPC message of its own: carried inside other messages")
        breaks |= before.senders | receivers_of(before.senders)
    old_results = {renames.get(r, r) for r in before.results}
    for result in sorted(after.results - old_results):
        notes.append(f"may now be answered with {result}")
        breaks |= after.senders
    for result in sorted(old_results - after.results):
        notes.append(f"no longer answered with {result}")
        breaks |= receivers_of(before.senders)
    carried = [c for c in changes if after.method in c.methods]
    for change in carried:
        if change.severity == BREAKING:
            breaks.update(change.breaks)
    if not notes and not [c for c in carried if c.severity != INFORMATIONAL]:
        return None
    worst = BREAKING if breaks else min(
        (c.severity for c in carried), key=SEVERITIES.index, default=COMPATIBLE if notes else INFORMATIONAL
    )
    count = sum(1 for c in carried if c.severity != INFORMATIONAL)
    return _entry(after, "changed", worst, frozenset(breaks), before.senders, after.senders, tuple(notes), count)


def capability_entries(walker: Walker) -> list[CapabilityEntry]:
    entries: list[CapabilityEntry] = []
    for side, name in sorted(CAPABILITIES.items()):
        if name not in walker.old.defs or name not in walker.new.defs:
            continue
        old = dict(_flatten(walker.old.defs[name]))
        new = dict(_flatten(walker.new.defs[name]))
        added = [p for p in new if p not in old and _parent(p) not in set(new) - set(old)]
        removed = [p for p in old if p not in new and _parent(p) not in set(old) - set(new)]
        entries += [CapabilityEntry(side, p, "added") for p in added]
        entries += [CapabilityEntry(side, p, "removed") for p in removed]
        touched = {*added, *removed}
        for path in sorted(set(old) & set(new), key=lambda p: -p.count(".")):
            if any(t.startswith(path + ".") for t in touched):
                continue  # reported through what changed below it
            with walker.at(name):
                rel = walker.relation(old[path], new[path])
            if rel != EQUIVALENT:
                entries.append(CapabilityEntry(side, path, "changed", rel))
                touched.add(path)
    return sorted(entries, key=lambda e: (e.side, e.capability, e.status))


def _flatten(schema: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Dotted paths of a capabilities object's members, through inline objects."""
    if not is_object(schema):
        return
    for key, sub in sorted((schema.get("properties") or dict[str, Any]()).items()):
        path = f"{prefix}{key}"
        yield path, sub
        yield from _flatten(sub, path + ".")


def _parent(path: str) -> str:
    return path.rsplit(".", 1)[0] if "." in path else ""
