"""The surface package: the merged schema through the same pipeline as every revision, plus the
tables and the wire module that send and receive at one revision."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from codegen.analysis import absence, ir
from codegen.emit import render
from codegen.emit.format import format_files
from codegen.emit.pipeline import BuiltRevision, build_revision
from codegen.emit.runtime import IN_ROOT
from codegen.emit.stamp import header
from codegen.errors import CodegenError
from codegen.limits import Limits
from codegen.surface import tables
from codegen.surface.merge import merge
from codegen.schema import schemas
from codegen.schema.jsontypes import JSON, is_object

PACKAGE = "surface"
LABEL = "surface"
# What send and receive add to the package's API (wire.py); the models' and messages' names stay.
WIRE_API = (
    "METHODS",
    "Change",
    "ChangeKind",
    "DowngradeMode",
    "MethodAcross",
    "RevisionError",
    "parse_as",
    "parse_message",
    "parse_result",
    "revision_classes",
    "revision_of",
    "send",
    "to_revision",
)
# Names of messages.py exported at the package's top: its parse functions read any revision's
# wire and stay in `surface.messages`; the package's parse_message is the exact one of wire.py.
MESSAGES_TYPES = (
    "AnyError", "AnyListResult", "AnyResult", "DroppedItem", "Envelope", "ErrorResponse", "ListMethod", "Message",
    "MessageError", "NotJSONError", "Pending", "ResultResponse", "Tolerated", "union_arms",
)  # fmt: skip
# Required properties whose absence the spec gives a meaning to (analysis/absence.py), applied when
# sending to a revision that requires them. Each is checked against the schema's own words first.
SPEC_STATED = absence.SPEC_STATED


def build_surface(revisions: Sequence[tables.Revised], *, limits: Limits, options: ir.Options) -> BuiltRevision:
    """The surface package's files over revisions (oldest first; at least two)."""
    merged = merge([(r.revision, r.document) for r in revisions])
    data = json.dumps(merged.document, indent=1, sort_keys=False).encode()
    sha256 = hashlib.sha256(data).hexdigest()
    built = build_revision(
        LABEL,
        PACKAGE,
        data,
        sha256,
        limits=limits,
        use_errata=False,
        options=_without_links(options),
    )
    surface = built.revision
    shaped = tables.with_envelope_params(tables.shapes(surface, merged, revisions), surface, merged, revisions)
    stamp = header(origin=f"The version-spanning surface of MCP schema revisions {', '.join(merged.revisions)}.")
    extra = {
        "__init__.py": render.package_init(
            surface,
            stamp,
            _order(built),
            has_messages=True,
            aliases=sorted((old, new) for old, new in tables.renamed(merged).items()),
            messages_api=MESSAGES_TYPES,
            wire_api=WIRE_API,
        ),
        "_tables.py": render.render(
            "surface_tables.py.jinja2",
            header=stamp,
            runtime=IN_ROOT,
            revisions=merged.revisions,
            packages=[(r.revision, r.package) for r in revisions],
            renamed=sorted(tables.renamed(merged).items()),
            absent_means=_absent_means(merged.document),
            shapes=_rows(shaped),
            wire_shapes=_rows(tables.wire_shapes(shaped, revisions)),
            widened=[(name, sorted(keys.items())) for name, keys in sorted(tables.widened(shaped).items())],
            methods=tables.methods_across(surface, merged, revisions),
        ),
        "wire.py": render.render(
            "surface_wire.py.jinja2", header=stamp, runtime=IN_ROOT, list_results=_list_results(surface)
        ),
    }
    try:
        formatted = format_files(extra, options=surface.options, where=PACKAGE, revision=LABEL)
    except CodegenError as exc:
        raise exc.with_revision(LABEL) from exc
    files = {name: text for name, text in built.files.items() if name != "history.py"}
    return BuiltRevision(surface, {**files, **formatted}, built.exports)


def _list_results(surface: ir.Revision) -> list[tuple[str, str]]:
    """(method, the surface's result class) of each list result (ir.Method.list_key), by method."""
    found = {m.method: m.result for m in surface.methods.methods if m.list_key and m.result}
    return sorted(found.items())


def _rows(shaped: dict[str, dict[str, tables.Shape]]) -> list[tuple[str, list[tuple[str, tables.Shape]]]]:
    """A shapes table as the template walks it: by class name, then by revision."""
    return [(name, sorted(per_revision.items())) for name, per_revision in sorted(shaped.items())]


def _order(built: BuiltRevision) -> list[str]:
    """The models module's names in definition order (the exports, back to class names)."""
    by_export = {e.export_name: e.name for e in built.revision.entities}
    return [by_export[name] for name in built.exports if name in by_export]


def _without_links(options: ir.Options) -> ir.Options:
    from dataclasses import replace

    return replace(options, absolute_links=False)  # the revisions' documents have them already


def _absent_means(document: JSON) -> list[tuple[str, str]]:
    """The SPEC_STATED mappings the schema itself states (a description of that property saying
    what its absence means); a later spec that stops saying so stops the mapping."""
    found: list[tuple[str, str]] = []
    for key, value, word in SPEC_STATED:
        if any(f'"{value}"' in text and word in text for text in _descriptions_of(document, key)):
            found.append((key, value))
    return found


def _descriptions_of(document: JSON, key: str) -> list[str]:
    """The descriptions of every property named key, anywhere in the document."""
    texts: list[str] = []
    for _, schema in schemas.all_subschemas(document):
        properties = schema.get("properties")
        prop = properties.get(key) if is_object(properties) else None
        if is_object(prop) and isinstance(prop.get("description"), str):
            texts.append(prop["description"])
    return texts
