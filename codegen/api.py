"""The library API: everything the CLI does, as functions returning values."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any
from pathlib import Path

from codegen.output import cache, tree as output
from codegen.schema import budget, errata, load, schemas, spec
from codegen.analysis import ir, naming
from codegen.errors import CodegenError, fail
from codegen.limits import DEFAULT_LIMITS, Limits
from codegen.emit import STAGES as EMIT_STAGES
from codegen.emit.runtime import FOLDER as RUNTIME_FOLDER
from codegen.schema.jsontypes import is_object

# The stages that generate are imported when a run generates: a run that finds its output up to
# date (the run cache) needs none of them.
if TYPE_CHECKING:
    from codegen.diff.tools import ToolSchemas, ToolsReport
    from codegen.emit.pipeline import Analysed, BuiltRevision
    from codegen.impact import Impact
    from codegen.output import workers
DEFAULT_OUT = Path("generated") / "mcp_models"


@dataclass(frozen=True)
class RevisionSummary:
    revision: str
    package: str
    definitions: int
    classes: int  # models, including hoisted inline objects
    aliases: int  # unions and other type aliases
    tagged_unions: tuple[tuple[str, str], ...]  # (union name, tag property)
    structural_unions: tuple[str, ...]  # told apart by shape (callable discriminator)
    smart_unions: tuple[tuple[str, str], ...]  # (union name, why it cannot be discriminated)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RevisionSummary:
        fields: dict[str, Any] = {
            **data,
            "tagged_unions": tuple(tuple(pair) for pair in data["tagged_unions"]),
            "structural_unions": tuple(data["structural_unions"]),
            "smart_unions": tuple(tuple(pair) for pair in data["smart_unions"]),
        }
        return cls(**fields)

    @classmethod
    def of(cls, revision: ir.Revision) -> RevisionSummary:
        unions = [e for e in revision.entities if e.kind is ir.Kind.UNION]
        return cls(
            revision=revision.revision,
            package=revision.package,
            definitions=len(revision.definitions),
            classes=sum(1 for e in revision.entities if e.kind is ir.Kind.MODEL),
            aliases=sum(1 for e in revision.entities if e.kind is not ir.Kind.MODEL),
            tagged_unions=tuple((u.export_name, u.tag.property) for u in unions if u.tag is not None),
            structural_unions=tuple(u.export_name for u in unions if u.dispatch is not None),
            smart_unions=tuple((u.export_name, u.smart_reason or "") for u in unions if u.smart_reason),
        )


@dataclass(frozen=True)
class GenerateResult:
    fileset: output.FileSet
    summaries: tuple[RevisionSummary, ...]
    written: output.WriteReport | None = None
    drift: tuple[str, ...] = field(default=())  # unified diff lines; empty when in sync (check mode)
    drifted: tuple[str, ...] = field(default=())  # the paths (relative to the root) that differ (check mode)
    cached: bool = False  # nothing was generated: the output already was this run's result
    warnings: tuple[str, ...] = ()  # lines to show beside the result (`tools`: keywords the models do not enforce)
    tools: ToolsReport | None = None  # `tools --check` with drift: what changed per tool

    @property
    def in_sync(self) -> bool:
        return not self.drift

    def as_json(self) -> dict[str, object]:
        """The documented machine-readable form of a generate/check run (stable key order)."""
        report: dict[str, object] = {
            "out": str(self.fileset.root),
            "files": len(self.fileset.files),  # 0 when cached: nothing was generated
            "cached": self.cached,
            "revisions": [
                {
                    "revision": s.revision,
                    "package": s.package,
                    "definitions": s.definitions,
                    "classes": s.classes,
                    "aliases": s.aliases,
                    "tagged_unions": [{"union": u, "tag": t} for u, t in s.tagged_unions],
                    "structural_unions": list(s.structural_unions),
                    "not_discriminated": [{"union": u, "reason": r} for u, r in s.smart_unions],
                }
                for s in self.summaries
            ],
        }
        if self.written is not None:
            report["written"] = list(self.written.changed)
            report["removed"] = list(self.written.removed)
        else:
            report["in_sync"] = self.in_sync
            report["diff"] = "".join(self.drift)
            if self.tools is not None:
                report["tools"] = self.tools.as_json()
        return report


def generate(
    revisions: Sequence[str] | None = None,
    *,
    spec_source: str | None = None,
    out: Path = DEFAULT_OUT,
    check: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    options: ir.Options | None = None,
    progress: Callable[[str, str], None] | None = None,
    use_cache: bool = True,
    jobs_count: int | None = None,
    errata_files: Sequence[Path] = (),
    disabled_errata: Sequence[str] = (),
    prune: bool = False,
    surface: bool = True,
    ignore_bytecode: bool = False,
) -> GenerateResult:
    """Generate the packages of pinned revisions (all by default) into out; or, with check, compare.

    progress(revision, stage) is called as each stage of a revision starts (emit.pipeline.STAGES) and
    with "done" when it is built. jobs_count: revisions built
    at once, in worker processes (default: one per core; 1 builds them all in this process).
    errata_files: the user's errata, applied to every chosen revision on top of the built-in ones;
    disabled_errata: ids of built-in errata not to apply.
    prune: remove the packages of revisions out holds that this run does not generate (without it,
    such a run is refused).
    surface: with two revisions or more, also the version-spanning `surface` package over them.
    ignore_bytecode: check leaves __pycache__ out of its verdict (a working tree; see output.unified_diff).
    """
    chosen = spec.select(revisions)
    output.guard_root(out, checking=check)  # before any work: a link, a file, a foreign folder
    if options is not None and options.base_class:
        _check_base_class(options.base_class, out)
    source = spec.resolve_source(spec_source)
    options = options or ir.Options()
    _check_disabled(disabled_errata, [pin.revision for pin in chosen])
    selections = {
        pin.revision: errata.Selection(pin.revision, tuple(errata_files), frozenset(disabled_errata)) for pin in chosen
    }
    known = frozenset(pin.revision for pin in spec.load_manifest())
    errata.check_scopes(errata_files, known, chosen[0].revision if chosen else "errata")
    fingerprint = "".join(s.fingerprint() for s in selections.values()) if errata_files or disabled_errata else ""
    with_surface = surface and len(chosen) >= 2
    fingerprint += "+surface" if with_surface else ""
    # every revision's history.py is derived from all pinned schemas, not only the chosen ones
    fingerprint += "+history:" + ",".join(f"{pin.revision}={pin.sha256}" for pin in spec.load_manifest())
    key = cache.run_key(chosen, options, limits, source, fingerprint) if use_cache else None
    record = cache.lookup(key, out) if key and not check else None  # check always generates
    if record is not None:  # the output already is what this run would produce
        summaries = tuple(RevisionSummary.from_json(s) for s in record["summaries"])
        fileset = output.FileSet(out, {})
        if check:
            return GenerateResult(fileset, summaries, cached=True)
        return GenerateResult(fileset, summaries, output.WriteReport(out, unchanged=len(record["files"])), cached=True)
    from codegen.emit.pipeline import ExampleSources, root_files
    from codegen.output import workers
    from codegen.surface import build as surface_build

    jobs: list[workers.Job] = []
    fetched_data = {pin.revision: spec.fetch(pin, source).data for pin in chosen}
    fetched_ts = {pin.revision: spec.fetch_ts(pin, source) for pin in chosen}
    analysed = _analysed(chosen, fetched_data, selections, limits, options, progress, fetched_ts)
    # before the builds, where every revision was analysed (one that was not reports its own error)
    early = len(analysed) == len(chosen)
    notes = _check_open_definitions(options, [a.model for a in analysed.values()]) if early else ()
    newest = max((pin.revision for pin in chosen if pin.released), default=None)
    for pin in chosen:
        pages = spec.example_pages(pin.revision)
        examples = (
            ExampleSources(
                tree=pin.examples,
                pages=pages,
                contradictions=_contradictions(pin),
                pinned=os.path.relpath(os.path.abspath(pin.home), os.path.abspath(out / pin.package))
                if pin.home is not None and pin.examples
                else None,
            )
            if pin.examples or pages
            else None
        )
        jobs.append(
            workers.Job(
                pin.revision,
                pin.package,
                fetched_data[pin.revision],
                pin.sha256,
                limits,
                examples,
                options,
                selections[pin.revision],
                None,  # history.py's tables: made while the surface starts (below)
                None if check else workers.ImportCheck(out, latest=pin.revision == newest),
                analysed.get(pin.revision),
                fetched_ts[pin.revision],
            )
        )
    if not check:  # the inputs are read; before generating: other revisions out holds need prune
        kept = {pin.package for pin in chosen} | ({surface_build.PACKAGE} if with_surface else set[str]())
        kept.add(RUNTIME_FOLDER)
        output.guard_pruning(out, kept, prune=prune)
    # the surface is built beside the revisions, from the same inputs
    beside = (
        functools.partial(_surface, chosen, fetched_data, selections, limits, options, analysed, None if check else out)
        if with_surface
        else None
    )

    def with_history(jobs: Sequence[workers.Job]) -> list[workers.Job]:
        tables = _elsewhere(fetched_data, selections, source, limits, {} if options.absolute_links else analysed)
        return [replace(job, elsewhere=tables.get(job.revision)) for job in jobs]

    built, spanned = workers.build_all(jobs, workers=jobs_count, progress=progress, beside=beside, complete=with_history)
    if not early:
        notes = _check_open_definitions(options, [b.revision for b in built])
    released = [b for b, pin in zip(built, chosen, strict=True) if pin.released]
    latest = max(released, key=lambda b: b.revision.revision) if released else None
    drafts = [b.revision.revision for b, pin in zip(built, chosen, strict=True) if not pin.released]
    files: dict[str, str] = dict(root_files([b.revision for b in built], latest, drafts=drafts, surface=with_surface))
    for item in built:
        files.update({f"{item.revision.package}/{name}": text for name, text in item.files.items()})
    summarised = [b.revision for b in built]
    if spanned is not None:
        files.update({f"{surface_build.PACKAGE}/{name}": text for name, text in spanned.files.items()})
        summarised.append(spanned.revision)
    # every package and latest.py were import-checked by the workers that built them
    unchecked = {name: text for name, text in files.items() if "/" not in name and name not in (latest.root if latest else {})}
    result = _finish(
        output.FileSet(out, files), summarised, check, prune=prune, ignore_bytecode=ignore_bytecode, import_check=unchecked
    )
    if key and result.in_sync:
        cache.save(key, files, [asdict(s) for s in result.summaries])
    return replace(result, warnings=notes) if notes else result


def _analysed(
    chosen: Sequence[spec.Pin],
    data: Mapping[str, bytes],
    selections: Mapping[str, errata.Selection],
    limits: Limits,
    options: ir.Options,
    progress: Callable[[str, str], None] | None,
    ts: Mapping[str, bytes | None],
) -> dict[str, Analysed]:
    """The chosen revisions read and analysed, once: their builds, the surface and history.py's
    tables start from these. One that fails is left out: its own build, in the workers, reports
    it as before (errors come in the revisions' order)."""
    from codegen.emit.pipeline import analyse

    found: dict[str, Analysed] = {}
    for pin in chosen:
        stage = functools.partial(progress, pin.revision) if progress is not None else None
        try:
            found[pin.revision] = analyse(
                pin.revision, pin.package, data[pin.revision], pin.sha256,
                limits=limits, errata_selection=selections[pin.revision], options=options, stage=stage,
                ts=ts[pin.revision],
            )  # fmt: skip
        except CodegenError:
            continue
    return found


def _elsewhere(
    chosen: Mapping[str, bytes],
    selections: Mapping[str, errata.Selection],
    source: str | None,
    limits: Limits,
    analysed: Mapping[str, Analysed],
) -> dict[str, ir.Elsewhere]:
    """What every pinned revision defines, per revision: the tables of each package's history.py.
    The chosen revisions are read as their models are (their errata selection: the documents
    analysed already, when links stay as the spec writes them); the others with their built-in
    errata, from the spec source or the shipped copies, never downloaded: one that cannot be read
    so is left out of the tables, as is one that does not load."""
    from codegen.emit.pipeline import prepared
    from codegen.surface import history

    documents: list[tuple[str, Mapping[str, Any]]] = []
    for pin in spec.load_manifest():
        if pin.revision in analysed:
            documents.append((pin.revision, analysed[pin.revision].doc.document))
            continue
        try:
            if pin.revision in chosen:
                raw = prepared(pin.revision, chosen[pin.revision], limits, errata_selection=selections[pin.revision])
            elif source is not None or spec.bundled(pin) is not None or spec.cached(pin) is not None:
                raw = prepared(pin.revision, spec.fetch(pin, source).data, limits)
            else:
                continue
            with budget.scope(schemas.count_subschemas(raw), pin.revision):
                documents.append((pin.revision, load.to_schema_doc(raw, pin.revision, limits).document))
        except CodegenError:
            continue  # a chosen revision's own build reports it, with its stage
    nodes = sum(schemas.count_subschemas(document) for _, document in documents)
    with budget.scope(nodes, "pinned revisions"):
        return history.elsewhere(documents)


def _surface(
    chosen: Sequence[spec.Pin],
    data: Mapping[str, bytes],
    selections: Mapping[str, errata.Selection],
    limits: Limits,
    options: ir.Options,
    analysed: Mapping[str, Analysed],
    out: Path | None,
) -> BuiltRevision:
    """The surface package over the chosen revisions, oldest first (the pins' own order), from the
    schemas their models are generated from (as analysed for their builds, or read and analysed
    here as their builds do); import-checked when out is given (a worker's task, beside the
    revisions' builds)."""
    from codegen.emit import runtime, smoke
    from codegen.emit.pipeline import analyse
    from codegen.emit.stamp import header
    from codegen.surface import build as surface_build, tables as surface_tables

    order = [pin.revision for pin in spec.load_manifest()]
    revised: list[surface_tables.Revised] = []
    for pin in sorted(chosen, key=lambda pin: order.index(pin.revision)):
        done = analysed.get(pin.revision) or analyse(
            pin.revision, pin.package, data[pin.revision], pin.sha256,
            limits=limits, errata_selection=selections[pin.revision], options=options,
        )  # fmt: skip
        revised.append(surface_tables.Revised(pin.revision, pin.package, done.doc.document, done.model))
    spanned = surface_build.build_surface(revised, limits=limits, options=options)
    if out is not None:
        files = {f"{surface_build.PACKAGE}/{name}": text for name, text in spanned.files.items()}
        files.update(runtime.runtime_files(header()))  # the root's, which the package imports
        smoke.check({**files, **smoke.standin_bases(files, [spanned.revision], out)}, revision=spanned.revision.revision)
    return spanned


def generate_schema(
    schema: Path,
    *,
    out: Path,
    name: str | None = None,
    errata_file: Path | None = None,
    check: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    options: ir.Options | None = None,
    errata_files: Sequence[Path] = (),
    disabled_errata: Sequence[str] = (),
    prune: bool = False,
    ignore_bytecode: bool = False,
) -> GenerateResult:
    """Generate one package (out itself) from any schema.json on disk, with the same pipeline.

    A schema byte-identical to a pinned revision gets that revision's built-in errata (but those in
    disabled_errata); then errata_file and errata_files (the format of spec/errata/<rev>.json) apply.
    """
    output.guard_root(out, checking=check)
    if options is not None and options.base_class:
        _check_base_class(options.base_class, out)
    # Errors name the schema's folder (as given, made absolute, `..` folded, no link followed): that
    # tells the user which file. The generated files never do: two clones of one repository in
    # folders of other names must generate the same bytes, so they are labelled by what the schema
    # is (a pinned revision), by --name, or by the package they become.
    shown = _safe_label(name or Path(os.path.abspath(schema)).parent.name or "custom")
    data = load.read_input(schema, revision=shown, limit=limits.max_schema_bytes)
    sha256 = spec.sha256_hex(data)
    pinned = next((pin.revision for pin in spec.load_manifest() if pin.sha256 == sha256), None)
    label = _safe_label(name or pinned or out.name)
    _check_disabled(disabled_errata, [pinned] if pinned else [])
    files = ((errata_file,) if errata_file else ()) + tuple(errata_files)
    selection = errata.Selection(pinned, files, frozenset(disabled_errata))
    try:
        errata.check_scopes(files, frozenset(pin.revision for pin in spec.load_manifest()) | {label}, label)
        from codegen.emit.pipeline import build_revision, runtime_files

        item = build_revision(
            label,
            out.name,
            data,
            sha256,
            limits=limits,
            errata_selection=selection,
            options=options,
            standalone=True,
        )
        notes = _check_open_definitions(options or ir.Options(), [item.revision])
        fileset = output.FileSet(out, {**item.files, **runtime_files(item.revision.options), "py.typed": ""})
        result = _finish(fileset, [item.revision], check, label, prune=prune, ignore_bytecode=ignore_bytecode)
        return replace(result, warnings=notes) if notes else result
    except CodegenError as exc:
        raise exc.relabelled(label, shown) from exc


def _check_base_class(base: str, out: Path) -> None:
    from codegen.emit import smoke

    smoke.check_base_class(base, out)


def _check_open_definitions(options: ir.Options, revisions: Sequence[ir.Revision]) -> tuple[str, ...]:
    """Each `open-definitions` entry names a definition of at least one revision generated (a name
    or a JSON pointer), and the setting is only given with extra-keys = "sieve", the one mode that
    reads it: a typo would otherwise make the sieve drop those keys, silently. An entry naming a
    definition that generates no model (an alias of a map: open already) is said, not refused:
    the warnings returned."""
    if not options.open_definitions:
        return ()
    if options.extra_keys != "sieve":
        raise fail(
            "MCG010",
            f"open-definitions is set but extra-keys is {options.extra_keys!r}: it only applies to the sieve",
            hint='set extra-keys = "sieve", or remove open-definitions',
        )
    models: set[str] = set()
    others: dict[str, ir.Entity] = {}
    for revision in revisions:
        for entity in revision.entities:
            names = {entity.pointer, entity.export_name, entity.pointer.removeprefix("#")}
            if entity.kind is ir.Kind.MODEL:
                models |= names
            else:
                others.update(dict.fromkeys(names, entity))
    warnings: list[str] = []
    for entry in options.open_definitions:
        if entry in models:
            continue
        if entry in others:
            entity = others[entry]
            target = next((o for o in others.values() if o.pointer == entity.same_as), None) or next(
                (e for r in revisions for e in r.entities if e.pointer == entity.same_as), None
            )
            if target is not None:
                said = f"another name for {target.export_name}: list {target.export_name!r} to keep its unknown keys"
            elif entity.kind is ir.Kind.UNION:
                said = "a union: its arms' own definitions are what to list"
            else:
                said = "a type alias, open already: the sieve drops no key of it"
            warnings.append(f"note: open-definitions entry {entry!r} generates no model class ({said})")
            continue
        import difflib

        close = difflib.get_close_matches(entry, sorted(models | others.keys()), n=1, cutoff=0.6)
        raise fail(
            "MCG010",
            f"open-definitions entry {entry!r} names no definition of the revisions generated",
            hint=f"did you mean {close[0]!r}?" if close else "give a definition name (Tool) or a JSON pointer (#/$defs/Tool/properties/inputSchema)",
        )
    return tuple(warnings)


def _check_disabled(disabled: Sequence[str], revisions: Sequence[str]) -> None:
    """A built-in erratum switched off must exist in one of the revisions built (a typo would
    otherwise switch off nothing, silently)."""
    known: frozenset[str] = frozenset[str]().union(*(errata.builtin_ids(r) for r in revisions))
    unknown = sorted(set(disabled) - known)
    if unknown:
        raise fail(
            "MCG201",
            f"disabled erratum {unknown[0]!r} is not a built-in erratum of {', '.join(revisions) or 'this schema'}",
            hint="known: " + (", ".join(sorted(known)) or "none"),
        )


def _finish(
    fileset: output.FileSet,
    revisions: list[ir.Revision],
    check: bool,
    label: str | None = None,
    optional: tuple[str, ...] = (),
    *,
    prune: bool,
    standins: Mapping[str, str] | None = None,
    ignore_bytecode: bool = False,
    import_check: Mapping[str, str] | None = None,
) -> GenerateResult:
    """import_check: the files to import-check before writing, when not all of them (the others
    were checked where they were built)."""
    summaries = tuple(RevisionSummary.of(r) for r in revisions)
    if check:
        lines, differing = output.drift_report(fileset, ignore_bytecode=ignore_bytecode)
        return GenerateResult(fileset, summaries, drift=tuple(lines), drifted=tuple(differing))
    from codegen.emit import smoke

    # before anything is written
    checked = fileset.files if import_check is None else import_check
    smoke.check(
        {**checked, **smoke.standin_bases(checked, revisions if import_check is None else [], fileset.root)},
        revision=label,
        optional=optional,
        standins=standins,
    )
    return GenerateResult(fileset, summaries, written=output.write(fileset, prune=prune))


DEFAULT_TOOLS_MODELS = "mcp_models.v2026_07_28"


def generate_tools(
    *,
    out: Path,
    tools_file: Path | None = None,
    server: Sequence[str] | None = None,
    models_package: str | None = None,
    models_root: str | None = None,
    revisions: Sequence[str] | None = None,
    check: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    prune: bool = False,
    ignore_bytecode: bool = False,
    style: ir.Options | None = None,
) -> GenerateResult:
    """A package typing one server's tools (from a tools/list JSON file or a live stdio server).
    style: the formatting the project's settings ask for (formatter, line length, first-party
    packages); the rest of ir.Options does not apply to tools.

    The spec models it imports: models_package, else <root>.<the revision the server negotiated, or
    the newest released one generated>, where root is models_root (the configured `package` of the
    generated models), else the one package generated by mcp-codegen beside out (so that
    `--out src/acme/tools` next to `src/acme/_mcp` imports `acme._mcp`), else mcp_models."""
    from codegen.emit import smoke
    from codegen.tools import package as tools

    if (tools_file is None) == (server is None):
        raise fail("MCG008", "give exactly one of a tools/list file or a server command")
    output.guard_root(out, checking=check)  # before a server is started
    negotiated = None
    if tools_file is not None:
        data = load.read_input(tools_file, revision=tools.LABEL, limit=limits.max_schema_bytes)
        listed = tools.read_tools(data, limits)
    else:
        assert server is not None
        listed, negotiated = tools.list_from_server(server, limits=limits)
    if models_package is not None and not naming.is_import_path(models_package):
        raise fail(
            "MCG010",
            f"--models: {models_package!r} is not an import path",
            hint="a dotted Python module path such as mcp_models.v2026_07_28",
        )
    if models_package is None:
        beside = _generated_beside(out) if models_root is None else None
        root = models_root or (beside[0] if beside else "mcp_models")
        present = beside[1] if beside else None
        package = f"{root}.{_tools_revision(negotiated, revisions, present).package}"
    else:
        package = models_package
    files = tools.generate_tools_package(listed, models_package=package, limits=limits, style=style)
    warnings = tuple(loose.warning() for loose in tools.loose_keywords(listed))
    # the spec models may not be importable here (generated later, or in the user's source tree):
    # a stand-in lets the import check run the tools package all the same
    root = package.split(".")[0]
    standins = None if smoke.importable(package) else smoke.models_standin(package)
    optional = (root,) if standins is not None and smoke.importable(root) else ()
    finished = _finish(
        output.FileSet(out, files),
        [],
        check,
        tools.LABEL,
        optional=optional,
        prune=prune,
        standins=standins,
        ignore_bytecode=ignore_bytecode,
    )
    report = _tools_report(out, listed, package, limits) if check and finished.drift else None
    return replace(finished, warnings=warnings, tools=report)


def _tools_report(out: Path, listed: Sequence[Mapping[str, Any]], package: str, limits: Limits) -> ToolsReport:
    """What changed per tool between the tools the package in out was generated from (its record)
    and the tools listed now; why that cannot be told when the record is missing or unreadable."""
    from codegen import safeio
    from codegen.diff import tools as tool_changes
    from codegen.tools import package as tools

    path = out / tools.RECORD
    if not os.path.lexists(out):
        return tool_changes.ToolsReport(unknown=f"{out.as_posix()} does not exist")
    try:
        data = safeio.read_regular(path, limits.max_schema_bytes)
    except FileNotFoundError:
        return tool_changes.ToolsReport(unknown=f"the package has no {tools.RECORD} (generated by an older mcp-codegen)")
    except safeio.TooLarge:
        return tool_changes.ToolsReport(unknown=f"its {tools.RECORD} is over the limit of {limits.max_schema_bytes:,} bytes")
    except safeio.NotRegular as exc:
        return tool_changes.ToolsReport(unknown=f"its {tools.RECORD} is not a regular file, it is {exc.what}")
    except OSError as exc:
        return tool_changes.ToolsReport(unknown=f"cannot read its {tools.RECORD}: {safeio.reason(exc)}")
    try:
        models, recorded = tools.read_record(data, limits)
        changes = tool_changes.compare(_tool_schemas(recorded), _tool_schemas(listed), limits)
    except CodegenError as exc:
        first = exc.diagnostics[0]
        return tool_changes.ToolsReport(unknown=f"its {tools.RECORD} is not a tools list this run can read: {first.message}")
    moved = (models, package) if models is not None and models != package else None
    return tool_changes.ToolsReport(tuple(changes), moved)


def _tool_schemas(listed: Sequence[Mapping[str, Any]]) -> ToolSchemas:
    from codegen.diff.tools import ToolSchemas
    from codegen.tools import package as tools

    document, types = tools.tools_document(listed)
    by_name = {tool["name"]: tool for tool in listed}
    return ToolSchemas(
        document=document,
        inputs={t.name: t.input for t in types},
        outputs={t.name: t.output for t in types if t.output is not None},
        listed={name: (tool["inputSchema"], tool.get("outputSchema")) for name, tool in by_name.items()},
        described={name: (tool.get("title"), tool.get("description")) for name, tool in by_name.items()},
    )


def _tools_revision(
    negotiated: str | None, revisions: Sequence[str] | None, present: frozenset[str] | None = None
) -> spec.Pin:
    """The revision whose models a tools package imports; present: the revision packages on disk."""
    if negotiated:
        return spec.find_pin(negotiated)
    chosen = [pin for pin in spec.select(revisions) if present is None or pin.package in present]
    if not chosen:
        raise fail("MCG008", "the generated models beside the output hold no pinned revision", hint="pass --models")
    released = [pin for pin in chosen if pin.released] or chosen
    return max(released, key=lambda pin: pin.revision)


def _generated_beside(out: Path) -> tuple[str, frozenset[str]] | None:
    """(import path, revision packages) of the one models package mcp-codegen generated next to out."""
    from codegen.emit.stamp import MARKER

    parent = out.resolve().parent
    if not parent.is_dir():
        return None
    found: list[Path] = []
    for candidate in sorted(p for p in parent.iterdir() if p.is_dir() and p != out.resolve()):
        init, latest = candidate / "__init__.py", candidate / "latest.py"
        try:
            marked = init.is_file() and latest.is_file() and MARKER in init.read_text(encoding="utf-8")[:200]
        except (OSError, UnicodeDecodeError):
            marked = False
        if marked:
            found.append(candidate)
    if len(found) != 1:
        return None  # none, or several: only --models or the configured package can say which
    parts = [found[0].name]
    folder = found[0].parent
    root = _source_root(found[0])
    # up to the folder that is on sys.path: a source root (namespace packages below it need no
    # __init__.py), else as far as regular packages go
    while (folder != root and root is not None) or (root is None and (folder / "__init__.py").is_file()):
        parts.insert(0, folder.name)
        folder = folder.parent
    if not all(naming.is_import_path(part) for part in parts):
        return None
    revisions = frozenset(p.name for p in found[0].iterdir() if (p / "models.py").is_file())
    return ".".join(parts), revisions


_PROJECT_FILES = ("pyproject.toml", "setup.cfg", "setup.py")


def _source_root(package: Path) -> Path | None:
    """The nearest folder above package that is a source root: one named `src`, or a project's own
    folder (it holds pyproject.toml, setup.cfg or setup.py)."""
    for folder in package.parents:
        if folder.name == "src" or any((folder / name).is_file() for name in _PROJECT_FILES):
            return folder
    return None


def _contradictions(pin: spec.Pin) -> tuple[str, ...]:
    """The examples of pin that its schema rejects, as documented with the shipped pin; a project's
    pin keeps those whose file is still the shipped one byte for byte (another commit may have
    mended the example, or the schema)."""
    known = tuple("examples/" + c.example for c in errata.load_contradictions(pin.revision))
    if pin.home is None:
        return known
    shipped, pinned = spec.bundled_spec_source() / pin.revision, Path(pin.home) / pin.revision
    kept: list[str] = []
    for origin in known:
        try:
            same = (shipped / origin).read_bytes() == (pinned / origin).read_bytes()
        except OSError:
            same = False
        if same:
            kept.append(origin)
    return tuple(kept)


def _safe_label(label: str) -> str:
    """A revision label that is safe in a generated comment or string: [A-Za-z0-9._-] only."""
    cleaned = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "-" for c in label)
    return cleaned.strip("-") or "custom"


# -- The rest of what the CLI runs: pins, examples, diff. The CLI imports no stage module itself. --

Options = ir.Options  # how to shape the output (the CLI builds one from flags and config)
STAGES = EMIT_STAGES  # the stages of one revision, as a progress display reports them
Interrupted = output.Interrupted
stop_on_signals = output.stop_on_signals


def use_project_pins(pins_file: Path | None) -> None:
    """Overlay a project's pins file on the shipped pins for the rest of this process."""
    spec.use_project_pins(pins_file)


def pinned_revision_count(revisions: Sequence[str] | None = None) -> int:
    """How many pinned revisions a run of these (all by default) generates."""
    return len(spec.select(revisions))


def pin_rows() -> list[dict[str, object]]:
    """The pinned revisions, one row each (what `spec list` prints)."""
    return [
        {
            "revision": pin.revision,
            "package": pin.package,
            "repository": pin.repository,
            "commit": pin.commit,
            "path": pin.path,
            "sha256": pin.sha256,
            "released": pin.released,
            "cached": spec.cached(pin) is not None,
            # the copy generate reads with no spec source and no network: shipped with mcp-codegen,
            # or beside the project's pins file
            "bundled": spec.bundled(pin) is not None,
            "pinned-by": "project" if pin.home else "mcp-codegen",
        }
        for pin in spec.load_manifest()
    ]


def fetch_pinned(revisions: Sequence[str] | None, spec_source: str | None, *, keep: bool) -> list[tuple[str, str]]:
    """Fetch and verify each pinned schema ((revision, where it was read or stored)); with keep, also
    store it in the cache."""
    verified: list[tuple[str, str]] = []
    for pin in spec.select(revisions):
        fetched = spec.fetch(pin, spec.resolve_source(spec_source))
        verified.append((pin.revision, str(spec.store(pin, fetched.data)) if keep else fetched.location))
    return verified


@dataclass(frozen=True)
class Bump:
    old: spec.Pin
    new: spec.Pin
    location: str  # where the new schema was read
    compared: bool  # whether the previous schema was at hand to compare definitions
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    examples: int = 0  # example files kept beside the schema (the generated round-trip tests read them)


def bump_pin(revision: str, commit: str, *, spec_source: str | None, pins_file: Path) -> Bump:
    """Re-pin a revision to another commit in the project's pins file, and what changed in its definitions."""
    previous = spec.find_pin(revision)
    old_path = spec.bundled(previous) or spec.cached(previous)
    # the project's pins folder is the user's tree: read as untrusted input, as spec.fetch reads it
    old_data = load.read_input(old_path, revision=revision) if old_path is not None else None
    source = spec.resolve_source(spec_source)
    location, data = spec.read_unpinned(revision, source, previous, commit)
    # the TypeScript source of the same commit (its deprecations), and its examples, where the source has them
    ts = spec.read_unpinned_ts(revision, source, previous, commit)
    examples = spec.read_unpinned_examples(revision, source, DEFAULT_LIMITS.max_schema_bytes)
    old, new = spec.bump(revision, commit, data, pins_file, ts, examples)
    if old_data is None:
        return Bump(old, new, location, compared=False, examples=len(examples or {}))
    before, after = _definitions(old_data), _definitions(data)
    return Bump(
        old,
        new,
        location,
        compared=True,
        added=tuple(sorted(after.keys() - before.keys())),
        removed=tuple(sorted(before.keys() - after.keys())),
        changed=tuple(sorted(k for k in before.keys() & after.keys() if before[k] != after[k])),
        examples=len(examples or {}),
    )


def _definitions(data: bytes) -> dict[str, object]:
    import json

    document: object = json.loads(data)
    if not is_object(document):
        return {}
    defs: object = document.get("$defs", document.get("definitions"))
    return dict(defs) if is_object(defs) else {}


def examples(out: Path, revisions: Sequence[str] | None, spec_source: str | None, docs: str | None, *, as_json: bool) -> list[str]:
    """The `examples` report's lines (as_json: one JSON text)."""
    from codegen.checks import examples as report

    reports = report.report(out, list(revisions) if revisions else None, spec_source, docs)
    return [report.as_json(reports)] if as_json else list(report.as_text(reports))


def diff_formats() -> tuple[str, ...]:
    from codegen.diff import render as diff_render

    return tuple(diff_render.FORMATS)


@dataclass(frozen=True)
class DiffOutcome:
    text: str
    breaking: bool
    empty: bool
    breaking_client: bool = False  # a change breaks existing client code
    breaking_server: bool = False


def diff(
    old: str,
    new: str,
    *,
    fmt: str,
    color: bool,
    spec_source: str | None,
    descriptions: bool,
    python_api: bool,
    errata_files: Sequence[Path] = (),
    disabled_errata: Sequence[str] = (),
) -> DiffOutcome:
    """The revision diff rendered in fmt, and whether it breaks someone (either side, or each) or is
    empty. Each side is read as `generate` reads it: its revision's errata (a schema path whose bytes
    are a pinned revision's is that revision), then errata_files; disabled_errata switched off."""
    from codegen import diff as revision_diff
    from codegen.diff import render as diff_render

    report = revision_diff.diff(
        old,
        new,
        spec_source=spec_source,
        descriptions=descriptions,
        python_api=python_api,
        errata_files=tuple(errata_files),
        disabled_errata=frozenset(disabled_errata),
    )
    return DiffOutcome(
        diff_render.render(report, fmt, color=color),
        report.breaking,
        report.empty,
        breaking_client=report.breaking_for("client"),
        breaking_server=report.breaking_for("server"),
    )


def impact(
    revision: str,
    *,
    pyproject: Path,
    vendored: Sequence[str] | None,
    out: Path,
    against: str | None = None,
    checker: str | None = None,
    paths: Sequence[Path] = (),
    options: ir.Options | None = None,
    limits: Limits = DEFAULT_LIMITS,
    spec_source: str | None = None,
    errata_files: Sequence[Path] = (),
    disabled_errata: Sequence[str] = (),
) -> Impact:
    """The errors the project's own type checker reports for its code at revision (a pinned label,
    `latest` or a schema path) that it does not report at the vendored revision it replaces
    (`against`, else the one the project vendors: vendored is its `revisions`, None for all
    pinned), each with the diff changes it names. out: the vendored package's folder, relative to
    pyproject's folder; options: the project's settings, which both revisions are generated with.
    Nothing is written but a scratch folder, removed afterwards; nothing is downloaded."""
    from codegen import impact as assessment
    from codegen.impact import project as projects, revisions as read

    options = options or ir.Options()
    current = projects.current_revision(list(vendored or [pin.revision for pin in spec.load_manifest()]), against)
    pin = spec.find_pin(current)
    project = projects.locate(pyproject, out, options.package, pin.revision, pin.package)
    target = read.target(revision, spec_source, limits)  # before the current one: a typo fails first

    def build(schema: Path, folder: Path, label: str) -> None:
        generate_schema(
            schema, out=folder, name=label, limits=limits, options=options,
            errata_files=errata_files, disabled_errata=disabled_errata,
        )  # fmt: skip

    return assessment.assess(
        project,
        read.pinned(current, spec_source),
        target,
        build=build,
        checker=checker,
        paths=paths,
        spec_source=spec_source,
        errata_files=tuple(errata_files),
        disabled_errata=frozenset(disabled_errata),
    )
