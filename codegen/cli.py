"""The `mcp-codegen` command: a thin typer shell over the library API.

Exit codes: 0 ok, 1 drift (check) or breaking change (diff), 2 error. Errors are printed one line
each on stderr; `--debug` adds the traceback.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from codegen.version import __version__
from codegen.api import GenerateResult
from codegen.errors import CodegenError, ExitCode, flat, printable
from codegen.limits import DEFAULT_LIMITS

if TYPE_CHECKING:
    from codegen.config import ToolsEntry

app = typer.Typer(
    name="mcp-codegen",
    help="Typed, lossless Pydantic v2 models for every Model Context Protocol spec revision.",
    no_args_is_help=True,
    rich_markup_mode=None,  # help texts are plain: "[tool.mcp-codegen]" must not read as markup
    pretty_exceptions_enable=False,
    add_completion=False,
)

RevisionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--revision", "-r", metavar="REVISION", help="Pinned revision to generate (repeatable). Default: all pinned revisions."
    ),
]
SpecSourceOpt = Annotated[
    str | None,
    typer.Option(
        "--spec-source",
        help="Local mirror folder or URL holding <revision>/schema.json. "
        "Default: $MCP_CODEGEN_SPEC_SOURCE, else the copies shipped with mcp-codegen, else the pinned upstream URL.",
    ),
]
OutOpt = Annotated[
    Path | None,
    typer.Option("--out", "-o", help="Output package folder. Default: generated/mcp_models."),
]
SchemaOpt = Annotated[
    Path | None,
    typer.Option("--schema", help="Generate from this schema.json instead of the pins (needs --out)."),
]
DebugOpt = Annotated[bool, typer.Option("--debug", help="Show tracebacks of internal errors.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success: errors only.")]
MaxBytesOpt = Annotated[int | None, typer.Option("--max-schema-bytes", help="Largest schema file accepted.")]
MaxDepthOpt = Annotated[int | None, typer.Option("--max-depth", help="Deepest JSON nesting accepted.")]
MaxDefsOpt = Annotated[int | None, typer.Option("--max-definitions", help="Most definitions accepted.")]
MaxSubOpt = Annotated[int | None, typer.Option("--max-subschemas", help="Most JSON objects in a schema accepted.")]
MaxMembersOpt = Annotated[
    int | None,
    typer.Option("--max-members", help="Most definitions, classes, properties, union arms and enum values accepted."),
]
JobsOpt = Annotated[
    int | None,
    typer.Option("--jobs", "-j", min=1, help="Revisions generated at once, in worker processes. Default: one per core."),
]
IgnoreBytecodeOpt = Annotated[
    bool,
    typer.Option(
        "--ignore-bytecode",
        help="Leave __pycache__ out of the verdict: for a working tree whose bytecode is never committed "
        "(the pre-commit hook). CI, which checks what a pull request commits, never passes it.",
    ),
]
NoCacheOpt = Annotated[
    bool, typer.Option("--no-cache", help="Generate even when nothing this run depends on changed since the last one.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print a machine-readable JSON report on stdout.")]
VerboseOpt = Annotated[
    bool,
    typer.Option("--verbose", "-v", help="Also report how unions are told apart, timings, and every file written or removed."),
]
ConfigOpt = Annotated[
    Path | None, typer.Option("--config", help="pyproject.toml holding [tool.mcp-codegen] (default: ./pyproject.toml).")
]
PackageOpt = Annotated[
    str | None, typer.Option("--package", help="Import path of the output package, when vendored (e.g. acme._mcp).")
]
FieldNamingOpt = Annotated[
    str | None, typer.Option("--field-naming", help="Attribute names: snake (default) or wire.")
]
ExtraKeysOpt = Annotated[
    str | None, typer.Option("--extra-keys", help="Unknown keys: lossless (kept, default), ignore (dropped) or sieve (dropped where the schema does not allow them).")
]
PruneOpt = Annotated[
    bool,
    typer.Option(
        "--prune",
        help="Remove packages (revisions) the output folder holds that this run does not generate. "
        "Without it (or prune = true in the config) such a run is refused.",
    ),
]
ErrataOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--errata", metavar="FILE", help="An errata file (JSON Patch) applied on top of the built-in errata; repeatable."
    ),
]
DisableErratumOpt = Annotated[
    list[str] | None,
    typer.Option("--disable-erratum", metavar="ID", help="Switch off a built-in erratum by id; repeatable."),
]
FormatterOpt = Annotated[
    str | None,
    typer.Option("--formatter", help="Format the generated files with black (default) or ruff (ruff format, its defaults)."),
]
AbsoluteLinksOpt = Annotated[
    bool,
    typer.Option("--absolute-links", help="Make the spec site's relative links in descriptions absolute."),
]
NoSurfaceOpt = Annotated[
    bool,
    typer.Option(
        "--no-surface",
        help="Do not generate the version-spanning `surface` package (generated when a run has two revisions or more).",
    ),
]
PinsOpt = Annotated[
    Path | None,
    typer.Option(
        "--pins",
        help="This project's pins file (TOML, the format of spec/manifest.toml): its revisions replace or "
        "extend the shipped pins, and `spec bump` writes it. Default: `pins` in [tool.mcp-codegen].",
    ),
]
BaseClassOpt = Annotated[
    str | None, typer.Option("--base-class", help="Import path of a pydantic BaseModel subclass to derive every model from.")
]


def _version(value: bool) -> None:
    if value:
        _say(f"mcp-codegen {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Generate, check and compare MCP models."""


@app.command()
def init(
    config: ConfigOpt = None,
) -> None:
    """Add a commented [tool.mcp-codegen] section to pyproject.toml."""

    def run() -> int:
        from codegen import config as settings
        target = config or Path("pyproject.toml")
        if settings.write_starter(target):
            _say(f"{target}: added a [tool.{settings.SECTION}] section")
        else:
            _say(f"{target}: already set up (it has a [tool.{settings.SECTION}] section; edit it to change settings)")
        return ExitCode.OK

    _run(run, debug=False)


@app.command()
def generate(
    revision: RevisionOpt = None,
    spec_source: SpecSourceOpt = None,
    out: OutOpt = None,
    package: PackageOpt = None,
    field_naming: FieldNamingOpt = None,
    extra_keys: ExtraKeysOpt = None,
    base_class: BaseClassOpt = None,
    config: ConfigOpt = None,
    schema: SchemaOpt = None,
    errata_file: ErrataOpt = None,
    disable_erratum: DisableErratumOpt = None,
    pins: PinsOpt = None,
    formatter: FormatterOpt = None,
    absolute_links: AbsoluteLinksOpt = False,
    no_surface: NoSurfaceOpt = False,
    check: Annotated[bool, typer.Option("--check", help="Do not write; exit 1 with a diff if out is stale.")] = False,
    ignore_bytecode: IgnoreBytecodeOpt = False,
    prune: PruneOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
    no_cache: NoCacheOpt = False,
    jobs: JobsOpt = None,
    debug: DebugOpt = False,
    max_schema_bytes: MaxBytesOpt = None,
    max_depth: MaxDepthOpt = None,
    max_definitions: MaxDefsOpt = None,
    max_subschemas: MaxSubOpt = None,
    max_members: MaxMembersOpt = None,
) -> None:
    """Generate the model packages (all pinned revisions by default)."""
    flags = {
        "revisions": tuple(revision) if revision else None,
        "out": out,
        "package": package,
        "field_naming": field_naming,
        "extra_keys": extra_keys,
        "base_class": base_class,
        "spec_source": spec_source,
        "max_schema_bytes": max_schema_bytes,
        "max_depth": max_depth,
        "max_definitions": max_definitions,
        "max_subschemas": max_subschemas,
        "max_members": max_members,
        "disable_errata": tuple(disable_erratum) if disable_erratum else None,
        "formatter": formatter,
        "absolute_links": True if absolute_links else None,
        "surface": False if no_surface else None,
        "prune": True if prune else None,  # not given: the config file decides
    }
    output = Output(as_json=as_json, quiet=quiet, verbose=verbose)
    _run(
        lambda: _generate(
            flags,
            config,
            schema,
            check,
            output,
            tuple(errata_file or ()),
            use_cache=not no_cache,
            jobs=jobs,
            pins=pins,
            ignore_bytecode=ignore_bytecode,
        ),
        debug=debug,
    )


@app.command()
def check(
    revision: RevisionOpt = None,
    spec_source: SpecSourceOpt = None,
    out: OutOpt = None,
    package: PackageOpt = None,
    field_naming: FieldNamingOpt = None,
    extra_keys: ExtraKeysOpt = None,
    base_class: BaseClassOpt = None,
    config: ConfigOpt = None,
    schema: SchemaOpt = None,
    errata_file: ErrataOpt = None,
    disable_erratum: DisableErratumOpt = None,
    pins: PinsOpt = None,
    formatter: FormatterOpt = None,
    absolute_links: AbsoluteLinksOpt = False,
    no_surface: NoSurfaceOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
    no_cache: NoCacheOpt = False,
    jobs: JobsOpt = None,
    debug: DebugOpt = False,
    max_schema_bytes: MaxBytesOpt = None,
    max_depth: MaxDepthOpt = None,
    max_definitions: MaxDefsOpt = None,
    max_subschemas: MaxSubOpt = None,
    max_members: MaxMembersOpt = None,
    ignore_bytecode: IgnoreBytecodeOpt = False,
) -> None:
    """Exit 1 with a unified diff when the output folder differs from a fresh generation with the same
    settings (every flag and [tool.mcp-codegen] key of `generate`)."""
    flags = {
        "revisions": tuple(revision) if revision else None,
        "out": out,
        "package": package,
        "field_naming": field_naming,
        "extra_keys": extra_keys,
        "base_class": base_class,
        "spec_source": spec_source,
        "max_schema_bytes": max_schema_bytes,
        "max_depth": max_depth,
        "max_definitions": max_definitions,
        "max_subschemas": max_subschemas,
        "max_members": max_members,
        "disable_errata": tuple(disable_erratum) if disable_erratum else None,
        "formatter": formatter,
        "absolute_links": True if absolute_links else None,
        "surface": False if no_surface else None,
    }
    output = Output(as_json=as_json, quiet=quiet, verbose=verbose)
    _run(
        lambda: _generate(
            flags,
            config,
            schema,
            True,
            output,
            tuple(errata_file or ()),
            use_cache=not no_cache,
            jobs=jobs,
            pins=pins,
            ignore_bytecode=ignore_bytecode,
        ),
        debug=debug,
    )


@app.command()
def examples(
    revision: RevisionOpt = None,
    spec_source: SpecSourceOpt = None,
    docs: Annotated[
        str | None,
        typer.Option("--docs", help="Docs folder holding the pages of spec/examples.toml (default: $MCP_CODEGEN_DOCS_SOURCE, else the shipped copies)."),
    ] = None,
    out: OutOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    debug: DebugOpt = False,
) -> None:
    """How the generated models fare on every example source: found, schema-valid, accepted, lossless."""

    def run() -> int:
        from codegen import api

        lines = api.examples(out or api.DEFAULT_OUT, revision, spec_source, docs, as_json=as_json)
        if as_json:
            _say_block(lines[0])
        else:
            for line in lines:
                _say(line)
        return ExitCode.OK

    _run(run, debug=debug)


@app.command()
def diff(
    old: Annotated[str, typer.Argument(help="A pinned revision (e.g. 2025-11-25), `latest`, or a schema.json path.")],
    new: Annotated[str, typer.Argument(help="A pinned revision, `latest` (the newest released one), or a schema.json path.")],
    spec_source: SpecSourceOpt = None,
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="text (coloured on a terminal), markdown, json or html.")
    ] = "text",
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the report to this file instead of stdout.")] = None,
    fail_on: Annotated[
        str | None,
        typer.Option(
            "--fail-on",
            help="breaking: exit 1 when a change breaks someone; breaking-server / breaking-client: when it breaks "
            "that side's existing code; any: when anything changed.",
        ),
    ] = None,
    descriptions: Annotated[
        bool, typer.Option("--descriptions", help="Also list description and title changes (informational).")
    ] = False,
    no_python_api: Annotated[
        bool, typer.Option("--no-python-api", help="Compare the wire only (skip building the generated models).")
    ] = False,
    pins: PinsOpt = None,
    config: ConfigOpt = None,
    debug: DebugOpt = False,
) -> None:
    """What changed between two spec revisions, and whom it breaks: methods, capabilities, definitions,
    the wire (classified by who sends what) and the generated Python API. Revisions are the
    project's (its pins, errata and spec source, from [tool.mcp-codegen]), as `generate` reads them."""

    def run() -> int:
        from codegen import api
        from codegen import config as settings_file
        from codegen.errors import fail

        chosen = "json" if as_json else fmt
        if chosen not in api.diff_formats():
            raise fail("MCG012", f"--format {chosen!r} is not supported", hint="use " + ", ".join(api.diff_formats()))
        if fail_on not in _FAIL_ON:
            raise fail("MCG012", f"--fail-on {fail_on!r} is not supported", hint="use --fail-on " + ", ".join(_FAIL_ON[1:]))
        settings = settings_file.load(config)
        project = (config or Path("pyproject.toml")).parent
        _use_pins(settings.pins, config, pins)
        color = chosen == "text" and out is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
        outcome = api.diff(
            old,
            new,
            fmt=chosen,
            color=color,
            spec_source=spec_source or _project_source(settings.spec_source, project, given=False),
            descriptions=descriptions,
            python_api=not no_python_api,
            errata_files=tuple(project / name for name in settings.errata),
            disabled_errata=settings.disable_errata,
        )
        text = outcome.text
        if out is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            try:
                out.write_text(text, encoding="utf-8")
            except OSError as exc:
                raise fail("MCG601", f"cannot write {out}: {exc.strerror or exc}") from exc
        failed = {
            None: False,
            "breaking": outcome.breaking,
            "breaking-server": outcome.breaking_server,
            "breaking-client": outcome.breaking_client,
            "any": not outcome.empty,
        }[fail_on]
        return ExitCode.DRIFT if failed else ExitCode.OK

    _run(run, debug=debug)


_FAIL_ON = (None, "breaking", "breaking-server", "breaking-client", "any")


@app.command()
def impact(
    revision: Annotated[
        str,
        typer.Argument(help="The revision to try: a pinned revision (the project's pinned draft too), `latest`, or a schema.json path."),
    ],
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="The project's files or folders to check (default: what its checker's configuration names)."),
    ] = None,
    against: Annotated[
        str | None,
        typer.Option("--against", help="The vendored revision the target replaces (needed when the project vendors several)."),
    ] = None,
    checker: Annotated[
        str | None,
        typer.Option("--checker", help="mypy or pyright (default: the one the project configures; mypy when it configures both)."),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
    spec_source: SpecSourceOpt = None,
    pins: PinsOpt = None,
    config: ConfigOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Does the project's own code break at another revision? Generates it in place of the vendored
    one (same package, same settings) in a scratch copy of the project, runs the project's type
    checker there and at the vendored revision, and reports each new error with the `diff` changes
    that cause it. Exit 1 when there are new errors. The project's files are never written."""

    def run() -> int:
        from codegen import api
        from codegen import config as settings_file
        from codegen.errors import fail

        if fmt not in ("text", "json"):
            raise fail("MCG012", f"--format {fmt!r} is not supported", hint="use text or json")
        pyproject = config or Path("pyproject.toml")
        settings = settings_file.load(config)
        project = pyproject.parent
        _use_pins(settings.pins, config, pins)
        options = api.Options(
            field_naming=settings.field_naming,
            extra_keys=settings.extra_keys,
            open_definitions=settings.open_definitions,
            inbound=settings.inbound,
            base_class=settings.base_class,
            pydantic_config=tuple(sorted(settings.pydantic_config.items())),
            package=settings.package or "mcp_models",
            formatter=settings.formatter,
            absolute_links=settings.absolute_links,
        )
        out = settings.out or api.DEFAULT_OUT
        options = replace(options, line_length=settings.line_length, first_party=settings.first_party(project, project / out))
        found = api.impact(
            revision,
            pyproject=pyproject,
            vendored=settings.revisions,
            out=out,
            against=against,
            checker=checker,
            paths=tuple(paths or ()),
            options=options,
            limits=settings.limits(DEFAULT_LIMITS),
            spec_source=spec_source or _project_source(settings.spec_source, project, given=False),
            errata_files=tuple(project / name for name in settings.errata),
            disabled_errata=settings.disable_errata,
        )
        if fmt == "json":
            _say_block(found.as_json())
        else:
            shown = os.path.relpath(found.project)
            where = "" if shown == "." else (found.project if shown.startswith("..") else shown) + os.sep
            for line in found.lines(where):
                _say(line)
        return ExitCode.DRIFT if found.new else ExitCode.OK

    _run(run, debug=debug)


@app.command()
def tools(
    name: Annotated[
        str | None,
        typer.Argument(
            help="A tools entry of the config ([tool.mcp-codegen.tools.<name>]); with no name and no "
            "--out, every entry.",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Output package folder for the server's tool types.")
    ] = None,
    from_file: Annotated[
        Path | None, typer.Option("--from", help="A tools/list result (JSON file: the result or the whole response).")
    ] = None,
    server: Annotated[
        str | None,
        typer.Option(
            "--server",
            help="Command that starts an MCP server over stdio, e.g. \"npx -y @modelcontextprotocol/server-everything\".",
        ),
    ] = None,
    models: Annotated[
        str | None,
        typer.Option(
            "--models",
            help="Import path of the spec models the module uses (default: <package>.<revision>, where "
            "package is the configured one, else the models package generated beside --out, else "
            "mcp_models, and revision the one the server negotiated, or for --from the newest released "
            "one generated).",
        ),
    ] = None,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Do not write; if out is stale, exit 1 and say per tool what changed (added, removed, input or "
            "output schema changed) and whether existing calls or readers break.",
        ),
    ] = False,
    ignore_bytecode: IgnoreBytecodeOpt = False,
    config: ConfigOpt = None,
    quiet: QuietOpt = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="With --check: every change of each tool, then the diff of the source.")
    ] = False,
    debug: DebugOpt = False,
    max_schema_bytes: MaxBytesOpt = None,
    max_depth: MaxDepthOpt = None,
    max_definitions: MaxDefsOpt = None,
    max_subschemas: MaxSubOpt = None,
    max_members: MaxMembersOpt = None,
) -> None:
    """Generate typed input and output models (and narrowing helpers) for one server's tools: the
    one given by --out with --from or --server, else the config's tools entries (all, or the one
    named)."""

    def run() -> int:
        import shlex

        from codegen import api
        from codegen import config as settings_file
        given = {
            "max_schema_bytes": max_schema_bytes,
            "max_depth": max_depth,
            "max_definitions": max_definitions,
            "max_subschemas": max_subschemas,
            "max_members": max_members,
        }
        settings = settings_file.with_flags(settings_file.load(config), given)
        project = (config or Path("pyproject.toml")).parent
        models_out = project / settings.out if settings.out is not None else Path(os.path.abspath(api.DEFAULT_OUT))
        style = api.Options(
            formatter=settings.formatter,
            line_length=settings.line_length,
            first_party=settings.first_party(project, models_out),
        )
        runs = _tools_runs(name, out, from_file, server, models, settings.tools, project, config, given)
        code: int = ExitCode.OK
        for run_out, run_file, run_server, run_models, again in runs:
            result = api.generate_tools(
                style=style,
                out=run_out,
                tools_file=run_file,
                server=shlex.split(run_server) if run_server else None,
                models_package=run_models,
                models_root=settings.package,
                revisions=settings.revisions,
                check=check,
                limits=settings.limits(DEFAULT_LIMITS),
                prune=settings.prune,
                ignore_bytecode=ignore_bytecode,
            )
            code = max(code, _report(result, check, Output(quiet=quiet, verbose=verbose), command=again, tools=True))
        return code

    _run(run, debug=debug)


_ToolsRun = tuple[Path, Path | None, str | None, str | None, str]  # out, --from, --server, --models, command


def _tools_runs(
    name: str | None,
    out: Path | None,
    from_file: Path | None,
    server: str | None,
    models: str | None,
    entries: Mapping[str, ToolsEntry],
    project: Path,
    config: Path | None,
    limits: Mapping[str, int | None],
) -> list[_ToolsRun]:
    """What one `tools` command runs: the package its flags name (--out with --from or --server), or
    the config's tools entries (the one named, else every one), their paths relative to the
    pyproject.toml that holds them; each with the command line that regenerates it."""
    import shlex

    from codegen.errors import fail

    if out is not None or from_file is not None or server is not None:
        if name is not None:
            raise fail("MCG008", f"give a tools entry ({name!r}) or --out with --from or --server, not both")
        if out is None:
            raise fail("MCG008", "--from and --server need --out, the package folder to write")
        return [(out, from_file, server, models, _tools_command(out, from_file, server, models, config, limits))]
    where = f"[tool.mcp-codegen.tools] of {config or 'pyproject.toml'}"
    if not entries:
        raise fail(
            "MCG008",
            f"no tools to generate: no --out, and no entry in {where}",
            hint="give --out with --from FILE or --server COMMAND, or add [tool.mcp-codegen.tools.<name>] "
            "with from (or server) and out (docs/commands.md)",
        )
    if name is not None and name not in entries:
        known = ", ".join(sorted(entries))
        raise fail("MCG008", f"no tools entry named {name!r} in {where}", hint=f"its entries: {known}")
    chosen = [name] if name is not None else sorted(entries)
    runs: list[_ToolsRun] = []
    for entry_name in chosen:
        entry = entries[entry_name]
        again = shlex.join(["mcp-codegen", "tools", entry_name, *(["--config", str(config)] if config is not None else [])])
        runs.append(
            (
                project / entry.out,
                project / entry.source if entry.source is not None else None,
                entry.server,
                models or entry.models,
                f"`{again}`",
            )
        )
    return runs





_LINE_LIMIT = 300  # characters of an error line
_SHORT_VALUE = 40  # a flag's value longer than this is elided from a hint that would be too long


def _tools_command(
    out: Path, from_file: Path | None, server: str | None, models: str | None, config: Path | None, limits: Mapping[str, int | None]
) -> str:
    """The `mcp-codegen tools` command line that regenerates out, quoted for the drift line: this
    run's own flags, less --check; long values elided (`…`, "as given") where the line would be
    longer than an error line may be."""
    import shlex

    parts = ["mcp-codegen", "tools"]
    parts += ["--from", str(from_file)] if from_file is not None else ["--server", server or ""]
    parts += ["--out", str(out)]
    parts += ["--models", models] if models is not None else []
    parts += ["--config", str(config)] if config is not None else []
    for name, value in limits.items():
        parts += [f"--{name.replace('_', '-')}", str(value)] if value is not None else []
    room = _LINE_LIMIT - len(_drift_line(out, ""))
    whole = f"`{shlex.join(parts)}`"
    if len(printable(whole)) <= room:
        return whole
    short = [part if part.startswith("--") or len(part) <= _SHORT_VALUE else "…" for part in parts]
    return f"`{' '.join(part if part == '…' else shlex.quote(part) for part in short)}` (each … as given to this run)"


def _drift_line(root: Path, command: str) -> str:
    return f"drift: {root} differs from a fresh generation; run {command} to regenerate it"


@dataclass(frozen=True)
class Output:
    """How much a command prints, and in which form."""

    as_json: bool = False
    quiet: bool = False
    verbose: bool = False


def _generate(
    flags: Mapping[str, object],
    config_path: Path | None,
    schema: Path | None,
    check: bool,
    output: Output,
    errata_files: tuple[Path, ...] = (),
    *,
    use_cache: bool = True,
    jobs: int | None = None,
    pins: Path | None = None,
    ignore_bytecode: bool = False,
) -> int:
    from codegen import api
    from codegen import config as settings_file
    from codegen.errors import fail
    settings = settings_file.with_flags(settings_file.load(config_path), dict(flags))
    options = api.Options(
        field_naming=settings.field_naming,
        extra_keys=settings.extra_keys,
        open_definitions=settings.open_definitions,
        inbound=settings.inbound,
        base_class=settings.base_class,
        pydantic_config=tuple(sorted(settings.pydantic_config.items())),
        package=settings.package or "mcp_models",
        formatter=settings.formatter,
        absolute_links=settings.absolute_links,
    )
    limits = settings.limits(DEFAULT_LIMITS)
    # the project's errata files are relative to its pyproject.toml; --errata ones to the working folder
    project = (config_path or Path("pyproject.toml")).parent
    errata_files = tuple(project / name for name in settings.errata) + errata_files
    _use_pins(settings.pins, config_path, pins)
    revisions = list(settings.revisions) if settings.revisions else None
    # `out` of the config is relative to its pyproject.toml, as every path in it; --out to the working folder
    out = settings.out if settings.out is None or flags.get("out") is not None else project / settings.out
    # the project's own style: its line length, and its import sorting's first-party packages
    where = Path(os.path.abspath(out or api.DEFAULT_OUT))
    options = replace(options, line_length=settings.line_length, first_party=settings.first_party(project, where))
    spec_source = _project_source(settings.spec_source, project, given=flags.get("spec_source") is not None)
    if schema is not None:
        if out is None:
            raise fail("MCG008", "--schema needs --out", hint="e.g. --schema spec/schema.json --out src/pkg/_mcp")
        if revisions:
            raise fail("MCG008", "--schema and --revision cannot be combined")
        result = api.generate_schema(
            schema,
            out=out,
            check=check,
            limits=limits,
            options=options,
            errata_files=errata_files,
            disabled_errata=settings.disable_errata,
            prune=settings.prune,
            ignore_bytecode=ignore_bytecode,
        )
    else:
        with _progress(display=not output.quiet and not output.as_json, revisions=revisions) as progress:
            began = time.perf_counter()
            result = api.generate(
                revisions,
                spec_source=spec_source,
                out=out or api.DEFAULT_OUT,
                check=check,
                limits=limits,
                options=options,
                progress=progress.event,
                use_cache=use_cache,
                jobs_count=jobs,
                errata_files=errata_files,
                disabled_errata=settings.disable_errata,
                prune=settings.prune,
                surface=settings.surface,
                ignore_bytecode=ignore_bytecode,
            )
            progress.total = time.perf_counter() - began
        return _report(result, check, output, progress)
    return _report(result, check, output)


def _project_source(source: str | None, project: Path, *, given: bool) -> str | None:
    """A spec source from the config: a folder relative to its pyproject.toml (a URL as it is)."""
    if source is None or given or "://" in source:
        return source
    return str(project / source)


def _use_pins(
    configured: str | None, config_path: Path | None, flag: Path | None, *, may_be_missing: bool = False
) -> Path | None:
    """Overlay the project's pins file on the shipped pins for this command: --pins (relative to the
    working folder), else `pins` of the config (relative to its pyproject.toml). Returns the file.
    A pins file that does not exist is an error (a typo would otherwise leave the shipped pins in
    force, silently), except for `spec bump`, which creates it."""
    import os

    from codegen import api
    from codegen.errors import fail

    chosen = flag or ((config_path or Path("pyproject.toml")).parent / configured if configured else None)
    if chosen is not None and not may_be_missing and not os.path.lexists(chosen):
        raise fail(
            "MCG010",
            f"pins file {chosen} does not exist",
            hint="`mcp-codegen spec bump` creates it; or fix the path (--pins, or `pins` in [tool.mcp-codegen])",
        )
    api.use_project_pins(chosen)
    return chosen


@dataclass
class _Progress:
    """Follows the stages of each revision: their timings always, a bar on a terminal (stderr)."""

    bar: Any = None  # rich.progress.Progress while shown
    task: Any = None
    started: dict[str, float] = field(default_factory=dict[str, float])
    seconds: dict[str, float] = field(default_factory=dict[str, float])  # revision -> wall time, start to built
    total: float | None = None  # the whole run's wall time
    stages_done: dict[str, int] = field(default_factory=dict[str, int])

    def event(self, revision: str, stage: str) -> None:
        from codegen.api import STAGES

        now = time.perf_counter()
        self.started.setdefault(revision, now)
        if stage == "done":
            self.seconds[revision] = now - self.started[revision]
            self.stages_done[revision] = len(STAGES)
        else:
            self.stages_done[revision] = STAGES.index(stage)
        if self.bar is not None:
            from rich.markup import escape

            self.bar.update(
                self.task,
                description=escape(printable(f"{revision}: {'built' if stage == 'done' else stage}")),
                completed=sum(self.stages_done.values()),
            )


@contextlib.contextmanager
def _progress(*, display: bool, revisions: Sequence[str] | None = None) -> Generator[_Progress, None, None]:
    """Stage timings; on a terminal also a bar that advances per revision and stage (on stderr)."""
    tracker = _Progress()
    if not display or not sys.stderr.isatty():
        yield tracker
        return
    from rich.console import Console
    from rich.progress import Progress

    from codegen.api import STAGES, pinned_revision_count

    with Progress(console=Console(stderr=True), transient=True) as bar:
        tracker.bar = bar
        tracker.task = bar.add_task("generating", total=pinned_revision_count(revisions) * len(STAGES))
        yield tracker


def _report(
    result: GenerateResult,
    check: bool,
    output: Output,
    progress: _Progress | None = None,
    *,
    command: str = "mcp-codegen generate",
    tools: bool = False,
) -> int:
    """One line per revision and a summary line; with --verbose the union report, timings and files;
    with --quiet nothing but errors. command: what regenerates this output (said on drift). tools:
    a `tools --check`, whose drift is said per tool first, the source diff only with --verbose."""
    if output.as_json:
        import json as json_module

        _say_block(json_module.dumps(result.as_json(), indent=2))
        return ExitCode.DRIFT if check and result.drift else ExitCode.OK
    say: Callable[[str], None] = _silent if output.quiet else _say
    if not output.quiet:
        for warning in result.warnings:
            _err(warning)
    seconds = progress.seconds if progress is not None else {}
    total = f" in {progress.total:.1f}s" if output.verbose and progress is not None and progress.total else ""
    root = result.fileset.root
    touched = _touched_packages(result)
    for summary in result.summaries:
        files = touched.get(summary.package, 0)
        if check:
            state = f"differs ({files} file{'s' if files != 1 else ''})" if files else "up to date"
        else:
            state = f"{files} file{'s' if files != 1 else ''} written" if files else "unchanged"
        took = f"; built in {seconds[summary.revision]:.1f}s" if output.verbose and summary.revision in seconds else ""
        where = root if _package_is_root(result) else root / summary.package
        say(
            f"{summary.revision} -> {where.as_posix()}: {summary.definitions} definitions, "
            f"{summary.classes} classes, {summary.aliases} aliases; {state}{took}"
        )
        if output.verbose:
            tagged = ", ".join(f"{name} by {tag}" for name, tag in summary.tagged_unions) or "none"
            say(f"  tagged unions: {tagged}")
            if summary.structural_unions:
                say(f"  unions told apart by shape: {', '.join(summary.structural_unions)}")
            for name, reason in summary.smart_unions:
                say(f"  not discriminated: {name}: {reason}")
    cached = " (nothing it depends on changed since the last run)" if result.cached else ""
    if check:
        if result.drift:
            if tools:
                _report_tool_changes(result, output)
                _err(_drift_line(root, command))
                return ExitCode.DRIFT
            if not output.quiet:
                _say_block("".join(result.drift))
            if result.drifted and all("__pycache__/" in f"/{rel}" for rel in result.drifted):
                # generating rewrites no source here: the bytecode is what to remove
                _err(f"drift: {root} holds bytecode not compiled from its sources; remove its __pycache__ folders")
            else:
                _err(f"drift: {root} differs from a fresh generation; run `{command}` with the same settings")
            return ExitCode.DRIFT
        say(f"{root}: up to date{cached}{total}")
        return ExitCode.OK
    written = result.written
    if written is not None:
        say(f"{root}: {len(written.changed)} written, {written.unchanged} unchanged, {len(written.removed)} removed{cached}{total}")
        if output.verbose:
            for name in written.changed:
                say(f"  wrote {name}")
            for name in written.removed:
                say(f"  removed {name}")
    return ExitCode.OK


def _report_tool_changes(result: GenerateResult, output: Output) -> None:
    """`tools --check` found drift: per tool what changed and whom it breaks (--verbose: every
    change, then the source diff)."""
    if output.quiet:
        return
    for line in result.tools.lines(details=output.verbose) if result.tools is not None else []:
        _say(line)
    if output.verbose:
        _say_block("".join(result.drift))
        return
    # what is not a unified diff stays: a file that should not be there, bytecode, a missing folder
    # (their lines start with a word; a diff's with ---, +++, @@, a space, + or -)
    _say_block("".join(line for line in result.drift if line[:1].isalpha()))
    files = len(result.drifted)
    _say(f"the generated source differs in {files} file{'s' if files != 1 else ''}; --verbose shows the diff")


def _touched_packages(result: GenerateResult) -> dict[str, int]:
    """Files written or removed (generate), or differing (check), per revision package (a package
    generated from --schema is the output folder itself: everything counts for it)."""
    names = [*result.written.changed, *result.written.removed] if result.written is not None else list(result.drifted)
    whole = _package_is_root(result)
    counts: dict[str, int] = {}
    for name in names:
        package = result.summaries[0].package if whole else name.split("/", 1)[0]
        counts[package] = counts.get(package, 0) + 1
    return counts


def _package_is_root(result: GenerateResult) -> bool:
    return len(result.summaries) == 1 and result.summaries[0].package == result.fileset.root.name


def _silent(text: str) -> None:
    """--quiet: nothing on success."""


def _say(text: str) -> None:
    """One line on stdout, escaped: names and paths in it come from schemas, servers and users.
    Written in the stream's own encoding, as every line is (_any_locale)."""
    sys.stdout.write(printable(text) + "\n")
    sys.stdout.flush()


def _say_block(text: str) -> None:
    """Lines on stdout (a diff, a JSON document): each escaped, the line breaks (and tabs) kept."""
    lines = text.split("\n")  # not splitlines(): \x0c, \x85, \u2028 ... are escaped, not line breaks
    if lines[-1] == "":
        lines.pop()
    sys.stdout.write("".join(printable(line, keep="\t") + "\n" for line in lines))
    sys.stdout.flush()


def _err(text: str) -> None:
    """One line on stderr, escaped (a Diagnostic's one_line() already is; escaping twice is harmless)."""
    sys.stderr.write(printable(text) + "\n")


def _run(action: Callable[[], int], *, debug: bool) -> NoReturn:
    try:
        code = action()
    except CodegenError as exc:
        if debug:
            raise
        for diagnostic in exc.diagnostics:
            _err(diagnostic.one_line())
        raise typer.Exit(ExitCode.ERROR) from None
    except BrokenPipeError:  # the reader went away (`| head`): nothing left to say
        sys.stderr.close()
        raise typer.Exit(ExitCode.OK) from None
    except KeyboardInterrupt as exc:
        from codegen.api import Interrupted
        _err(exc.one_line() if isinstance(exc, Interrupted) else "error[MCG900]: interrupted; the output folder was left as it was")
        raise typer.Exit(ExitCode.ERROR) from None
    except Exception as exc:  # noqa: BLE001 - the one place that turns bugs into a clean exit
        if debug:
            raise
        _err(f"error[MCG999]: internal error: {type(exc).__name__}: {flat(str(exc))} (hint: rerun with --debug)")
        raise typer.Exit(ExitCode.ERROR) from None
    raise typer.Exit(code)


spec_app = typer.Typer(help="The pinned spec revisions: list, pull, verify, bump.", no_args_is_help=True)
app.add_typer(spec_app, name="spec")


@spec_app.command("list")
def spec_list(
    as_json: Annotated[bool, typer.Option("--json", help="Print the pins as JSON.")] = False,
    pins: PinsOpt = None,
    config: ConfigOpt = None,
) -> None:
    """The pinned revisions: commit, sha256, and where the schema is read from (shipped, cached, or not yet)."""

    def run() -> int:
        import json as json_module

        from codegen import api
        from codegen import config as settings_file

        _use_pins(settings_file.load(config).pins, config, pins)
        rows = api.pin_rows()
        if as_json:
            _say_block(json_module.dumps(rows, indent=2))
        else:
            for row in rows:
                _say(
                    f"{row['revision']:11} {str(row['commit'])[:12]}  {str(row['sha256'])[:16]}…  "
                    f"{_where(row)}{'' if row['released'] else '  (unreleased)'}"
                )
        return ExitCode.OK

    _run(run, debug=False)


def _where(row: Mapping[str, object]) -> str:
    """Where generate finds a pinned schema without a spec source: the copy that ships (with
    mcp-codegen or beside the project's pins), the download cache, or nowhere yet."""
    if row["bundled"]:
        return "shipped" if row["pinned-by"] == "mcp-codegen" else "beside the project's pins"
    return "cached" if row["cached"] else "not cached (`mcp-codegen spec pull` downloads it)"


@spec_app.command("pull")
def spec_pull(revision: RevisionOpt = None, spec_source: SpecSourceOpt = None, debug: DebugOpt = False) -> None:
    """Download (or copy from --spec-source) and verify the pinned schemas into the local cache."""

    _run(lambda: _each_pinned_schema(revision, spec_source, keep=True), debug=debug)


@spec_app.command("verify")
def spec_verify(revision: RevisionOpt = None, spec_source: SpecSourceOpt = None, debug: DebugOpt = False) -> None:
    """Check that each pinned schema, from the source or cache, has its pinned sha256."""

    _run(lambda: _each_pinned_schema(revision, spec_source, keep=False), debug=debug)


@spec_app.command("bump")
def spec_bump(
    revision: Annotated[str, typer.Argument(help="The pinned revision to move, e.g. draft.")],
    commit: Annotated[str, typer.Option("--commit", help="The upstream commit (40 hex digits) to pin.")],
    spec_source: SpecSourceOpt = None,
    pins: PinsOpt = None,
    config: ConfigOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Pin a revision to another commit in this project's pins file (never in mcp-codegen's own
    files), keep the schema beside it, then summarise what changed."""

    def run() -> int:
        from codegen import api
        from codegen import config as settings_file
        from codegen.errors import fail

        settings = settings_file.load(config)
        pins_file = _use_pins(settings.pins, config, pins, may_be_missing=True)
        if pins_file is None:
            raise fail(
                "MCG013",
                "spec bump writes this project's pins file, and none is configured",
                revision=revision,
                hint='set pins = "mcp-spec/pins.toml" in [tool.mcp-codegen], or pass --pins FILE',
            )
        project = (config or Path("pyproject.toml")).parent
        source = spec_source or _project_source(settings.spec_source, project, given=False)
        bumped = api.bump_pin(revision, commit, spec_source=source, pins_file=pins_file)
        old, new = bumped.old, bumped.new
        _say(f"{revision}: {old.commit[:12]} -> {new.commit[:12]}, sha256 {old.sha256[:16]}… -> {new.sha256[:16]}…")
        _say(f"  read {bumped.location}; pinned in {pins_file}")
        if not bumped.compared:
            _say("  (the previous schema is not in the cache: `mcp-codegen spec pull` before bumping to see the changes)")
            return ExitCode.OK
        added, removed, changed = bumped.added, bumped.removed, bumped.changed
        _say(f"  definitions: {len(added)} added, {len(removed)} removed, {len(changed)} changed")
        for label, names in (("added", added), ("removed", removed), ("changed", changed)):
            if names:
                _say(f"  {label}: {', '.join(names)}")
        return ExitCode.OK

    _run(run, debug=debug)


def _each_pinned_schema(revisions: list[str] | None, spec_source: str | None, *, keep: bool) -> int:
    """Fetch and verify each pinned schema; with keep, also store it in the cache."""
    from codegen import api

    for revision, where in api.fetch_pinned(revisions, spec_source, keep=keep):
        _say(f"{revision}: sha256 verified ({where})")
    return ExitCode.OK


def _any_locale() -> None:
    """Output under any locale: a character the terminal's encoding (ISO-8859-1, ASCII) cannot show
    is written as its escape, never an UnicodeEncodeError that turns a report (drift, a diff)
    into a tool error. The files written are UTF-8 whatever the locale; this is printing only."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and (getattr(stream, "errors", None) or "strict") == "strict":
            reconfigure(errors="backslashreplace")


def main() -> None:
    from codegen.api import stop_on_signals

    stop_on_signals()  # SIGTERM unwinds like Ctrl-C: no staging folder or lock left behind
    _any_locale()
    try:
        app()
    except KeyboardInterrupt:  # a signal before a command started (while the CLI is being set up)
        _err("error[MCG900]: interrupted before anything was done; the output folder was left as it was")
        raise SystemExit(ExitCode.ERROR) from None
