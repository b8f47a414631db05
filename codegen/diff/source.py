"""One side of a diff: a pinned revision (errata applied, as the generator reads it) or a schema.json
path, loaded into the validated document and the generator's IR."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from codegen.analysis import analyze, ir
from codegen.errors import CodegenError
from codegen.schema import budget, errata, load, pointers, schemas, spec, tsdoc
from codegen.limits import DEFAULT_LIMITS, Limits
DEF_PREFIX = "#/$defs/"


@dataclass(frozen=True)
class Side:
    label: str  # the revision, or the file's name for a schema path
    sha256: str
    doc: load.SchemaDoc
    revision: ir.Revision
    # what the revision's schema.ts deprecates; None: the side has no schema.ts (a schema path, a
    # pin without one), so what it deprecates is not known
    deprecations: tsdoc.Deprecations | None = None

    @property
    def defs(self) -> Mapping[str, Any]:
        return self.doc.defs

    def resolve(self, ref: str) -> Any:
        """The node a local `$ref` names (None when it is not there)."""
        try:
            return pointers.resolve(self.doc.document, ref)
        except (KeyError, ValueError):
            return None

    @cached_property
    def flattened(self) -> schemas.Flattened:
        """Merged `allOf` targets of this side, by reference (schemas.flatten_all_of's memo)."""
        return {}

    def flat(self, schema: dict[str, Any]) -> dict[str, Any]:
        """schema with its `allOf` merged in."""
        return schemas.flatten_all_of(schema, self.resolve, self.flattened, revision=self.label)

    @cached_property
    def entities(self) -> dict[str, ir.Entity]:
        return {e.name: e for e in self.revision.entities}


def definition_of(ref: str) -> str | None:
    """The definition a local pointer is in: "#/$defs/Tool/properties/x" -> "Tool"."""
    if not ref.startswith(DEF_PREFIX):
        return None
    return pointers.unescape(ref[len(DEF_PREFIX) :].split("/", 1)[0])


def is_schema_path(which: str) -> bool:
    """Whether the argument names a file or folder rather than a pinned revision."""
    return which.endswith(".json") or "/" in which or "\\" in which or Path(which).is_dir()


def load_side(
    which: str,
    spec_source: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
    *,
    python_api: bool = False,
    errata_files: tuple[Path, ...] = (),
    disabled_errata: frozenset[str] = frozenset(),
) -> Side:
    """A pinned revision by its label, or a schema.json by its path: both read as `generate` reads
    them. A path whose bytes are a pinned revision's (the shipped pins or the project's) is that
    revision, label and built-in errata included, so naming a schema either way gives one report;
    the project's errata files (errata_files, each erratum scoped by its `revisions`) and the
    built-in ones switched off apply alike to both sides.

    python_api: the side's models will be built (its members are held to the default limit
    before anything else reads the schema, as `generate` holds them)."""
    if is_schema_path(which):
        path = Path(which)
        if path.is_dir():
            path = path / "schema.json"
        label = path.parent.name if path.stem == "schema" and path.parent.name else path.stem
        data = load.read_input(
            path,
            limit=limits.max_schema_bytes,
            hint="give a pinned revision (see `mcp-codegen spec list`) or a schema.json path",
        )
        digest = spec.sha256_hex(data)
        found = next((pin for pin in spec.load_manifest() if pin.sha256 == digest), None)
        pinned = found.revision if found is not None else None
        label = pinned or label
        # a pinned revision's bytes are that revision, its schema.ts included; another schema has none
        ts = spec.fetch_ts(found, spec.resolve_source(spec_source)) if found is not None else None
    else:
        pin = spec.find_revision(which)
        data = spec.fetch(pin, spec.resolve_source(spec_source)).data
        ts = spec.fetch_ts(pin, spec.resolve_source(spec_source))
        label = pinned = pin.revision
    selection = errata.Selection(pinned, errata_files, disabled_errata)
    raw = errata.apply_errata(load.parse_json(data, label, limits), selection.errata(label), label, limits)
    if python_api:
        try:
            load.check_members(raw, label, DEFAULT_LIMITS)
        except CodegenError as exc:
            raise hinted_for_diff(exc) from exc
    return side_from_document(raw, label, spec.sha256_hex(data), limits, ts=ts)


def hinted_for_diff(exc: CodegenError) -> CodegenError:
    """exc, where a schema is too large to build models from, with the way out diff has (it takes
    no limit flags): comparing the wire alone."""
    hint = "diff builds both sides' models to compare their Python API; --no-python-api compares the wire alone"
    return CodegenError(*(replace(d, hint=hint) if d.code == "MCG123" else d for d in exc.diagnostics))


def side_from_document(
    raw: dict[str, Any],
    label: str,
    sha256: str,
    limits: Limits = DEFAULT_LIMITS,
    *,
    classes: frozenset[str] = frozenset(),
    ts: bytes | None = None,
) -> Side:
    """classes: definitions (pointers) that stay classes without properties, as load.to_schema_doc says;
    ts: the revision's schema.ts, whose deprecations the side carries."""
    try:
        with budget.scope(schemas.count_subschemas(raw), label):
            doc = load.to_schema_doc(raw, label, limits, classes=classes)
            placed = tsdoc.place(tsdoc.read(ts, label), doc.defs, label) if ts is not None else None
            model = analyze.analyze(doc, package="diff", sha256=sha256, deprecations=placed or tsdoc.NONE)
            return Side(label, sha256, doc, model, placed)
    except CodegenError as exc:
        raise load.as_written(exc, load.uses_legacy_definitions(raw)) from exc
