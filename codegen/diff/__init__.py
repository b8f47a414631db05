"""`mcp-codegen diff A B`: what changed between two MCP spec revisions, and whom it breaks.

A and B are pinned revisions (read as the generator reads them, errata applied) or schema.json
paths. The report has two axes:

- the wire: methods added, removed and changed (who sends them, whether they are messages of their
  own, their results), capabilities, definitions added, removed and renamed (by shape), and inside
  each definition its properties, required keys, openness, union arms, `const`/`enum` values,
  types and bounds (descriptions only with `descriptions=True`). Each change is classified by who
  sends the definition (direction.py) and how the accepted values moved (relation.py): the rules
  are in classify.py and summary.py;
- the generated Python API (pyapi.py): classes and attributes added, removed, renamed or retyped
  between the models modules the generator emits for A and B.

Modules: source (loading), direction (who sends what), relation (how two schemas' values relate),
structure (changes inside a definition), renames, classify, summary (methods, capabilities),
pyapi, report (the data and its JSON), render (text, Markdown, HTML).
"""

from __future__ import annotations

from pathlib import Path

from codegen.schema import budget, pointers, tsdoc
from codegen.schema.schemas import count_subschemas
from codegen.diff.classify import methods_carrying, wire_change
from codegen.diff.direction import directions, enveloped_messages
from codegen.diff.renames import find_renames
from codegen.diff.report import INFORMATIONAL, Change, Report, RevisionInfo
from codegen.diff.source import Side, load_side
from codegen.diff.structure import Found, Walker
from codegen.diff.summary import capability_entries, method_entries
__all__ = ["Change", "Report", "diff", "diff_sides"]


def diff(
    old: str,
    new: str,
    *,
    spec_source: str | None = None,
    descriptions: bool = False,
    python_api: bool = True,
    errata_files: tuple[Path, ...] = (),
    disabled_errata: frozenset[str] = frozenset(),
) -> Report:
    """Compare two revisions (pinned names or schema.json paths), each read as `generate` reads it
    (the errata of the revision it is, then errata_files; disabled_errata switched off)."""
    before, after = (
        load_side(which, spec_source, python_api=python_api, errata_files=errata_files, disabled_errata=disabled_errata)
        for which in (old, new)
    )
    return diff_sides(before, after, descriptions=descriptions, python_api=python_api)


def diff_sides(old: Side, new: Side, *, descriptions: bool = False, python_api: bool = True) -> Report:
    nodes = count_subschemas(old.doc.document) + count_subschemas(new.doc.document)
    with budget.scope(nodes, f"{old.label} -> {new.label}"):
        return _compare(old, new, descriptions=descriptions, python_api=python_api)


def _compare(old: Side, new: Side, *, descriptions: bool, python_api: bool) -> Report:
    renames = find_renames(old.defs, new.defs, old_label=old.label, new_label=new.label)
    old_dir, new_dir = directions(old), directions(new)
    walker = Walker(
        old, new, renames, descriptions=descriptions, envelopes=(enveloped_messages(old), enveloped_messages(new))
    )
    report = Report(
        old=RevisionInfo(old.label, old.sha256, len(old.defs), len(old_dir.methods)),
        new=RevisionInfo(new.label, new.sha256, len(new.defs), len(new_dir.methods)),
        python_api_compared=python_api,
        descriptions=descriptions,
    )
    renamed_to = set(renames.values())
    report.definitions_added = sorted(set(new.defs) - set(old.defs) - renamed_to)
    report.definitions_removed = sorted(set(old.defs) - set(new.defs) - set(renames))
    report.definitions_renamed = [{"from": a, "to": b} for a, b in sorted(renames.items())]

    changes: list[Change] = []

    def record(found: Found, old_name: str | None, new_name: str | None) -> None:
        senders = old_dir.sides(old_name or "") | new_dir.sides(new_name or "")
        methods = (methods_carrying(old_name, old_dir) if old_name else frozenset[str]()) | (
            methods_carrying(new_name, new_dir) if new_name else frozenset[str]()
        )
        changes.append(wire_change(found, new_name or old_name or "", senders, methods, carried=bool(senders)))

    for name in report.definitions_added:
        record(Found("definition-added", (), "definition added", None), None, name)
    for name in report.definitions_removed:
        record(Found("definition-removed", (), "definition removed", None), name, None)
    for before, after in sorted(renames.items()):
        record(Found("definition-renamed", (), f"renamed from {before}", None, before, after), before, after)
    pairs = [(n, n) for n in sorted(set(old.defs) & set(new.defs))] + sorted(renames.items())
    for before, after in pairs:
        for found in walker.definition(before, after):
            record(found, before, after)
    for found, name in deprecation_changes(old, new, renames):
        record(found, name, name)
    report.changes = sorted(changes, key=Change.sort_key)
    report.methods = method_entries(old_dir, new_dir, report.changes, renames)
    report.capabilities = capability_entries(walker)
    if python_api:
        from . import pyapi

        report.python_api = pyapi.compare(old, new, renames, old_dir, new_dir)
    return report


def deprecation_changes(old: Side, new: Side, renames: dict[str, str]) -> list[tuple[Found, str]]:
    """What the new side's schema.ts deprecates that the old one did not (also in definitions it
    adds: a key may arrive deprecated), and what it no longer deprecates: informational, with the
    spec's words. Only where both sides have a schema.ts: a side without one says nothing."""
    if old.deprecations is None or new.deprecations is None:
        return []

    def tagged(deprecations: tsdoc.Deprecations) -> dict[tuple[str, tuple[str, ...]], str]:
        found: dict[tuple[str, tuple[str, ...]], str] = {}
        for pointer, text in deprecations.at.items():
            tokens = pointers.split(pointer)  # $defs, name, (properties, key)*
            found[(tokens[1], tuple(tokens[3::2]))] = text
        for owner, key, text in deprecations.loose:
            found[(pointers.split(owner)[1], tuple(key.split(".")))] = text
        return found

    before = {(renames.get(name, name), path): text for (name, path), text in tagged(old.deprecations).items()}
    after = tagged(new.deprecations)
    changes: list[tuple[Found, str]] = []
    for (name, path), text in sorted(after.items()):
        if (name, path) not in before:
            summary = text if text.lower().startswith("deprecated") else f"deprecated: {text}"
            changes.append((Found("deprecated", path, summary, None, None, text), name))
    for (name, path), text in sorted(before.items()):
        if name in new.defs and (name, path) not in after:
            changes.append((Found("undeprecated", path, "no longer deprecated", None, text, None), name))
    return changes


def visible(changes: list[Change], *, informational: bool = True) -> list[Change]:
    """The changes a human report lists (informational ones only when asked)."""
    return [c for c in changes if informational or c.severity != INFORMATIONAL]


