"""The `mcp-codegen` command: a thin typer shell over the library API.

Exit codes: 0 ok, 1 drift (check) or breaking change (diff), 2 error. Errors are printed one line
each on stderr; `--debug` adds the traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from . import __version__
from .api import GenerateResult
from .errors import CodegenError, ExitCode
from .limits import DEFAULT_LIMITS

app = typer.Typer(
    name="mcp-codegen",
    help="Typed, lossless Pydantic v2 models for every Model Context Protocol spec revision.",
    no_args_is_help=True,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
    add_completion=False,
)

RevisionOpt = Annotated[
    list[str] | None,
    typer.Option("--revision", "-r", help="Pinned revision to generate (repeatable). Default: all pinned revisions."),
]
SpecSourceOpt = Annotated[
    str | None,
    typer.Option(
        "--spec-source",
        help="Local mirror folder or URL holding <revision>/schema.json. "
        "Default: $MCP_CODEGEN_SPEC_SOURCE, else the pinned upstream URL.",
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
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print errors only.")]
MaxBytesOpt = Annotated[int | None, typer.Option("--max-schema-bytes", help="Largest schema file accepted.")]
MaxDepthOpt = Annotated[int | None, typer.Option("--max-depth", help="Deepest JSON nesting accepted.")]
MaxDefsOpt = Annotated[int | None, typer.Option("--max-definitions", help="Most definitions accepted.")]
MaxSubOpt = Annotated[int | None, typer.Option("--max-subschemas", help="Most JSON objects in a schema accepted.")]
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
    str | None, typer.Option("--extra-keys", help="Unknown keys: lossless (kept, default) or ignore (dropped).")
]
BaseClassOpt = Annotated[
    str | None, typer.Option("--base-class", help="Import path of a pydantic BaseModel subclass to derive every model from.")
]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mcp-codegen {__version__}")
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
        from . import config as settings

        target = config or Path("pyproject.toml")
        if settings.write_starter(target):
            typer.echo(f"{target}: added a [tool.{settings.SECTION}] section")
            return ExitCode.OK
        _err(f"error[MCG011]: {target} already has a [tool.{settings.SECTION}] section (hint: edit it)")
        return ExitCode.ERROR

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
    errata_file: Annotated[
        Path | None, typer.Option("--errata", help="Errata JSON Patch file to apply to --schema first.")
    ] = None,
    check: Annotated[bool, typer.Option("--check", help="Do not write; exit 1 with a diff if out is stale.")] = False,
    quiet: QuietOpt = False,
    debug: DebugOpt = False,
    max_schema_bytes: MaxBytesOpt = None,
    max_depth: MaxDepthOpt = None,
    max_definitions: MaxDefsOpt = None,
    max_subschemas: MaxSubOpt = None,
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
    }
    _run(lambda: _generate(flags, config, schema, check, quiet, errata_file), debug=debug)


@app.command()
def check(
    revision: RevisionOpt = None,
    spec_source: SpecSourceOpt = None,
    out: OutOpt = None,
    schema: SchemaOpt = None,
    config: ConfigOpt = None,
    quiet: QuietOpt = False,
    debug: DebugOpt = False,
) -> None:
    """Exit 1 with a unified diff when the output folder differs from a fresh generation."""
    flags = {"revisions": tuple(revision) if revision else None, "out": out, "spec_source": spec_source}
    _run(lambda: _generate(flags, config, schema, True, quiet), debug=debug)


@app.command()
def examples(
    revision: RevisionOpt = None,
    spec_source: SpecSourceOpt = None,
    docs: Annotated[
        str | None,
        typer.Option("--docs", help="Docs folder holding the pages of spec/examples.toml (default: $MCP_CODEGEN_DOCS_SOURCE)."),
    ] = None,
    out: OutOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    debug: DebugOpt = False,
) -> None:
    """How the generated models fare on every example source: found, schema-valid, accepted, lossless."""

    def run() -> int:
        from . import api
        from . import examples as report_examples

        reports = report_examples.report(out or api.DEFAULT_OUT, revision, spec_source, docs)
        if as_json:
            typer.echo(report_examples.as_json(reports))
        else:
            for line in report_examples.as_text(reports):
                typer.echo(line)
        return ExitCode.OK

    _run(run, debug=debug)


@app.command()
def tools(
    out: Annotated[Path, typer.Option("--out", "-o", help="Output package folder for the server's tool types.")],
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
            help="Import path of the spec models the module uses (default: the revision the server "
            "negotiated, or mcp_models.v2026_07_28 for --from).",
        ),
    ] = None,
    check: Annotated[bool, typer.Option("--check", help="Do not write; exit 1 with a diff if out is stale.")] = False,
    quiet: QuietOpt = False,
    debug: DebugOpt = False,
) -> None:
    """Generate typed input and output models (and narrowing helpers) for one server's tools."""

    def run() -> int:
        import shlex

        from . import api

        result = api.generate_tools(
            out=out,
            tools_file=from_file,
            server=shlex.split(server) if server else None,
            models_package=models,
            check=check,
        )
        return _report(result, check, quiet)

    _run(run, debug=debug)


def _generate(
    flags: dict[str, object],
    config_path: Path | None,
    schema: Path | None,
    check: bool,
    quiet: bool,
    errata_file: Path | None = None,
) -> int:
    from . import api, ir
    from . import config as settings_file
    from .errors import fail

    settings = settings_file.with_flags(settings_file.load(config_path), flags)
    options = ir.Options(
        field_naming=settings.field_naming,
        extra_keys=settings.extra_keys,
        base_class=settings.base_class,
        pydantic_config=tuple(sorted(settings.pydantic_config.items())),
        package=settings.package or "mcp_models",
    )
    limits = settings.limits(DEFAULT_LIMITS)
    revisions = list(settings.revisions) if settings.revisions else None
    out = settings.out
    if schema is not None:
        if out is None:
            raise fail("MCG008", "--schema needs --out", hint="e.g. --schema spec/schema.json --out src/pkg/_mcp")
        if revisions:
            raise fail("MCG008", "--schema and --revision cannot be combined")
        result = api.generate_schema(
            schema, out=out, errata_file=errata_file, check=check, limits=limits, options=options
        )
    else:
        result = api.generate(
            revisions,
            spec_source=settings.spec_source,
            out=out or api.DEFAULT_OUT,
            check=check,
            limits=limits,
            options=options,
        )
    return _report(result, check, quiet)


def _report(result: GenerateResult, check: bool, quiet: bool) -> int:
    if check:
        if result.drift:
            sys.stdout.writelines(result.drift)
            _err(f"drift: {result.fileset.root} differs from a fresh generation; run `mcp-codegen generate`")
            return ExitCode.DRIFT
        if not quiet:
            typer.echo(f"{result.fileset.root}: up to date ({len(result.fileset.files)} files)")
        return ExitCode.OK
    if not quiet:
        for summary in result.summaries:
            tagged = ", ".join(f"{name} by {tag}" for name, tag in summary.tagged_unions) or "none"
            typer.echo(
                f"{summary.revision} -> {summary.package}: {summary.definitions} definitions, "
                f"{summary.classes} classes, {summary.aliases} aliases; tagged unions: {tagged}"
            )
            if summary.structural_unions:
                typer.echo(f"  unions told apart by shape: {', '.join(summary.structural_unions)}")
            for name, reason in summary.smart_unions:
                typer.echo(f"  not discriminated: {name}: {reason}")
        written = result.written
        if written is not None:
            state = f"{len(written.changed)} written, {len(written.removed)} removed" if written.touched else "unchanged"
            typer.echo(f"{written.root}: {state}")
    return ExitCode.OK


def _err(text: str) -> None:
    sys.stderr.write(text + "\n")


def _run(action, *, debug: bool) -> NoReturn:  # type: ignore[no-untyped-def]
    try:
        code = action()
    except CodegenError as exc:
        if debug:
            raise
        for diagnostic in exc.diagnostics:
            _err(diagnostic.one_line())
        raise typer.Exit(ExitCode.ERROR) from None
    except KeyboardInterrupt:
        _err("error[MCG900]: interrupted; the output folder was left as it was")
        raise typer.Exit(ExitCode.ERROR) from None
    except Exception as exc:  # noqa: BLE001 - the one place that turns bugs into a clean exit
        if debug:
            raise
        _err(f"error[MCG999]: internal error: {type(exc).__name__}: {' '.join(str(exc).split())} (hint: rerun with --debug)")
        raise typer.Exit(ExitCode.ERROR) from None
    raise typer.Exit(code)


def main() -> None:
    app()
