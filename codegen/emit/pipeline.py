"""The stages wired together: schema bytes -> formatted files of one revision package."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from codegen.analysis import analyze, ir
from codegen.schema import budget, errata, links, load, schemas, tsdoc
from codegen.emit import dcg, lower, render, runtime
from codegen.errors import CodegenError
from codegen.emit.format import format_files
from codegen.limits import Limits
from codegen.emit.stamp import header, with_deprecations
from codegen.emit import STAGES as STAGES  # the stages of one revision, reported in order


@dataclass(frozen=True)
class ExampleSources:
    """What the generated spec-example tests of a revision read."""

    tree: bool  # the spec source has <revision>/examples/<TypeName>/*.json
    pages: tuple[str, ...] = ()  # documentation pages, relative to the docs source
    contradictions: tuple[str, ...] = ()  # examples the schema itself rejects (origins)
    # a project's pin: its pins folder (a spec source: <revision>/examples/...), relative to the
    # revision package, where `spec bump` kept the examples of the pinned commit
    pinned: str | None = None


@dataclass(frozen=True)
class BuiltRevision:
    revision: ir.Revision
    files: dict[str, str]  # relative to the revision package
    exports: tuple[str, ...] = ()  # the package's names in definition order (a safe import order)
    root: Mapping[str, str] = field(default_factory=dict[str, str])  # what it adds to the root package (latest.py)




@dataclass(frozen=True)
class Analysed:
    """A revision read and analysed: the first stages of build_revision, done once where the
    revision is also needed whole (the surface, history.py's tables) and handed to its build."""

    doc: load.SchemaDoc
    model: ir.Revision
    work: budget.Budget  # the revision's work budget, with what these stages spent (the build goes on)


def analyse(
    revision: str,
    package: str,
    data: bytes,
    sha256: str,
    *,
    limits: Limits,
    errata_file: Path | None = None,
    use_errata: bool = True,
    errata_selection: errata.Selection | None = None,
    options: ir.Options | None = None,
    stage: Callable[[str], None] | None = None,
    ts: bytes | None = None,
) -> Analysed:
    """The revision's schema prepared and loaded (`load`), and its IR (`analyze`), carrying the
    deprecations of its TypeScript source ts (schema.ts; None: there is none)."""
    enter: Callable[[str], None] = stage or _no_stage
    raw: dict[str, Any] = {}
    try:
        enter("load")
        raw = prepared(revision, data, limits, errata_file, use_errata, errata_selection, options)
        load.check_members(raw, revision, limits)  # first: what every later stage costs follows this count
        with budget.scope(schemas.count_subschemas(raw), revision):
            doc = load.to_schema_doc(raw, revision, limits)
            enter("analyze")
            deprecations = tsdoc.place(tsdoc.read(ts, revision), doc.defs, revision) if ts is not None else tsdoc.NONE
            model = analyze.analyze(doc, package=package, sha256=sha256, options=options, deprecations=deprecations)
            work = budget.current()
    except CodegenError as exc:
        raise load.as_written(exc, load.uses_legacy_definitions(raw)).with_revision(revision) from exc
    assert work is not None  # the scope's
    return Analysed(doc, model, work)


def build_revision(
    revision: str,
    package: str,
    data: bytes,
    sha256: str,
    *,
    limits: Limits,
    errata_file: Path | None = None,
    use_errata: bool = True,
    errata_selection: errata.Selection | None = None,
    examples: ExampleSources | None = None,
    options: ir.Options | None = None,
    stage: Callable[[str], None] | None = None,
    elsewhere: ir.Elsewhere | None = None,
    analysed: Analysed | None = None,
    ts: bytes | None = None,
    standalone: bool = False,
) -> BuiltRevision:
    """The formatted files of one revision package; stage(name) is called as each of STAGES starts.
    elsewhere: what the other pinned revisions define at its places (its history.py). analysed:
    its first stages, done already (by `analyse` with the same arguments, which reported them).
    standalone: the package is generated on its own and holds the shared runtime itself (with
    `runtime_files`), rather than importing its output root's."""
    enter: Callable[[str], None] = stage or _no_stage
    if analysed is None:
        analysed = analyse(
            revision, package, data, sha256,
            limits=limits, errata_file=errata_file, use_errata=use_errata, errata_selection=errata_selection,
            options=options, stage=enter, ts=ts,
        )  # fmt: skip
    doc, model = analysed.doc, analysed.model
    stamp = with_deprecations(header(revision, sha256), model)
    try:
        with budget.resume(analysed.work):
            enter("models")
            models, order = build_models(doc, model, stamp, limits)
        enter("package")
        shared = runtime.INSIDE if standalone else runtime.IN_ROOT
        sources = {"models.py": models, **render.revision_files(model, stamp, order, elsewhere, runtime=shared)}
        calls = render.tool_calls_module(model, stamp, models)
        if calls is not None:
            sources["tool_calls.py"] = calls
        if examples is not None:
            sources.update(
                render.example_files(
                    model,
                    stamp,
                    has_tree=examples.tree,
                    pages=examples.pages,
                    contradictions=examples.contradictions,
                    pinned=examples.pinned,
                    runtime=shared,
                )
            )
        enter("format")
        files = format_files(sources, options=model.options, where=package, revision=revision)
    except CodegenError as exc:
        raise load.as_written(exc, doc.dialect == "draft-07").with_revision(revision) from exc
    by_name = {e.name: e.export_name for e in model.entities}
    api_names = render.messages_api(model) if "messages.py" in files else ()
    return BuiltRevision(model, files, tuple(by_name[name] for name in order) + api_names)


def prepared(
    revision: str,
    data: bytes,
    limits: Limits,
    errata_file: Path | None = None,
    use_errata: bool = True,
    errata_selection: errata.Selection | None = None,
    options: ir.Options | None = None,
) -> dict[str, Any]:
    """A revision's schema as the models are generated from it: parsed, errata applied, links made
    absolute when asked."""
    raw = load.parse_json(data, revision, limits)
    if errata_selection is not None:
        raw = errata.apply_errata(raw, errata_selection.errata(revision), revision, limits)
    elif use_errata:
        raw = errata.apply_errata(raw, errata.load_errata(revision, errata_file), revision, limits)
    if options is not None and options.absolute_links:
        raw = links.absolute(raw)
    return cast("dict[str, Any]", links.readable(raw))


def build_models(doc: load.SchemaDoc, model: ir.Revision, stamp: str, limits: Limits) -> tuple[str, tuple[str, ...]]:
    """The engine's models module for an analysed schema, and its names in definition order; the
    schema's members are counted against limits first, as they are what generating costs."""
    load.check_members(doc.document, doc.revision, limits)
    module, order = dcg.generate_models(lower.lower(doc, model), model)
    return f"{stamp}\n\n{module}", order


def root_files(
    revisions: list[ir.Revision],
    latest: BuiltRevision | None = None,
    *,
    drafts: Sequence[str] = (),
    surface: bool = False,
) -> dict[str, str]:
    """The root package: the version registry, `latest`, py.typed, the shared runtime. drafts:
    revisions not released. A latest.py the newest release's worker made already
    (BuiltRevision.root) is taken as it is."""
    files = render.root_files(
        revisions,
        header(),
        latest.revision if latest else None,
        latest.exports if latest else (),
        drafts=drafts,
        surface=surface,
    )
    files.update(runtime.runtime_files(header()))
    made = dict(latest.root) if latest else {}
    options = revisions[0].options if revisions else None
    return {**format_files({k: v for k, v in files.items() if k not in made}, options=options), **made}


def latest_module(latest: BuiltRevision) -> str:
    """latest.py of the root package, formatted: the names of latest, the newest released revision."""
    text = render.latest_module(header(), latest.revision, latest.exports)
    return format_files({"latest.py": text}, options=latest.revision.options)["latest.py"]


def _no_stage(name: str) -> None:
    """No one follows the stages."""


def runtime_files(options: ir.Options | None = None) -> dict[str, str]:
    """The shared runtime as the output holds it (FOLDER/<module>.py), formatted as every generated
    file is: with the default settings, each is the repository's module behind the header."""
    return format_files(runtime.runtime_files(header()), options=options)
