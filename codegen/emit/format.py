"""Formatting: ruff's safe fixes (import merging and sorting, modern syntax), then the formatter,
each with one fixed configuration: the output never depends on the user's config.

The default output is black's: every file is byte for byte what black (line length 100, Python
3.11) makes of it. `ruff format` configured as black produces it at a hundredth of the cost, so it
is the engine; the templates avoid the few constructs on which the two disagree, and
tests/test_generation_speed.py formats every file of a full generation with black itself and
compares. `reference_black()` runs black instead (that test's reference)."""

from __future__ import annotations

import shutil
import subprocess
import sysconfig
import tempfile
from collections.abc import Generator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from codegen import safeio
from codegen.analysis.ir import Options
from codegen.errors import CodegenError, fail, flat

if TYPE_CHECKING:
    from black.mode import Mode

LINE_LENGTH = 100  # black's, unless the project sets its own (Options.line_length)
FORMATTERS = ("black", "ruff")
# `ruff format` as black formats: black's defaults spelled out (they are ruff's too), so that a
# change of ruff's defaults cannot change the output unseen
_AS_BLACK = (
    "--config", "format.quote-style='double'",
    "--config", "format.indent-style='space'",
    "--config", "format.skip-magic-trailing-comma=false",
    "--config", "format.line-ending='lf'",
    "--config", "format.docstring-code-format=false",
)  # fmt: skip


def _ruff_base(options: Options) -> tuple[str, ...]:
    """ruff runs --isolated (no configuration file is read: the output is a function of the
    settings alone), safe fixes only, with what the project's settings say: the line length, and
    the packages its import sorting takes as first-party (so `ruff check --fix` in the project
    changes nothing). Beside black, black's target; as the formatter, ruff's other defaults, so
    the output is what a project on ruff's defaults would write."""
    args = ["--isolated", "--line-length", str(options.width)]
    if options.formatter == "black":
        args += ["--target-version", "py311"]
    if options.first_party:
        listed = ", ".join(f"'{name}'" for name in sorted(options.first_party))
        args += ["--config", f"lint.isort.known-first-party=[{listed}]"]
    return tuple(args)
_RUFF_TIMEOUT_S = 120
_reference = False  # black itself formats (reference_black)


@contextmanager
def reference_black() -> Generator[None, None, None]:
    """Within the block (and in worker processes forked within it), black itself formats the default
    output: the reference the engine's output is compared with."""
    global _reference  # noqa: PLW0603 - read by format_files, inherited by forked workers
    _reference = True
    try:
        yield
    finally:
        _reference = False


@cache
def _mode(line_length: int = LINE_LENGTH) -> Mode:
    from black.mode import Mode, TargetVersion

    return Mode(
        target_versions={TargetVersion.PY311},
        line_length=line_length,
        string_normalization=True,
        magic_trailing_comma=True,
    )


def format_python(source: str, *, name: str, revision: str | None = None, line_length: int = LINE_LENGTH) -> str:
    """Formatted source, by black. black parses the source itself (it refuses invalid Python), so a
    module that is not valid Python is reported here, with the file name, as the generator bug it is."""
    import black
    from black.parsing import InvalidInput

    try:
        return black.format_str(source, mode=_mode(line_length))
    except InvalidInput as exc:
        raise _invalid(name, str(exc), revision) from exc


def format_files(
    sources: Mapping[str, str], *, options: Options | None = None, where: str = "", revision: str | None = None
) -> dict[str, str]:
    """Formatted Python files (by relative path): ruff's safe fixes under its default rules
    (duplicate imports merged, imports and `__all__` sorted, `X | Y` unions where they are valid at
    run time), then black's formatting or `ruff format`'s, at the options' line length. One scratch
    copy per package, read once after both ruff runs."""
    options = options or Options()
    python = {name: text for name, text in sources.items() if name.endswith(".py")}
    base = _ruff_base(options)
    fix = ("check", "--fix", "--exit-zero", "--quiet", *base)
    if options.formatter == "ruff":
        runs = [fix, ("format", *base)]
    elif _reference:
        runs = [fix]
    else:
        runs = [fix, ("format", *base, *_AS_BLACK)]
    fixed = _ruff(python, runs, where, revision)
    if options.formatter != "ruff" and _reference:
        fixed = {
            name: format_python(text, name=f"{where}/{name}", revision=revision, line_length=options.width)
            for name, text in fixed.items()
        }
    return {name: fixed.get(name, text) for name, text in sources.items()}


def _ruff(
    files: Mapping[str, str], runs: list[tuple[str, ...]], where: str, revision: str | None
) -> dict[str, str]:
    """files after each ruff run in turn, on one scratch copy."""
    if not files:
        return {}
    with tempfile.TemporaryDirectory(prefix="mcp-codegen-ruff-") as scratch:
        root = Path(scratch)
        safeio.write_scratch(root, files, purpose="the scratch copy ruff formats")
        for args in runs:
            _run_ruff(root, args, where, revision)
        try:
            return {name: (root / name).read_text(encoding="utf-8") for name in files}
        except OSError as exc:
            raise fail("MCG601", f"cannot read back ruff's scratch copy: {safeio.reason(exc)}", revision=revision) from exc


def _run_ruff(root: Path, args: tuple[str, ...], where: str, revision: str | None) -> None:
    try:
        done = subprocess.run(  # noqa: S603 - our own binary and arguments, no shell
            [_ruff_binary(), *args, "--no-cache", "."], cwd=root, capture_output=True, check=False, timeout=_RUFF_TIMEOUT_S
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise fail("MCG503", f"ruff could not run on {where or 'the package'}: {flat(str(exc))}", revision=revision) from exc
    if done.returncode != 0:
        detail = flat(done.stderr.decode("utf-8", "replace") or done.stdout.decode("utf-8", "replace"))
        if args[0] == "format" and "Failed to parse" in detail:  # ruff names the file and the place
            raise _invalid(where or "the package", detail.removeprefix("error: "), revision)
        raise fail(
            "MCG503",
            f"ruff {args[0]} failed on {where or 'the package'}: {detail[:300]}",
            revision=revision,
            hint="this is a generator bug; please report it with the schema",
        )


def _invalid(name: str, detail: str, revision: str | None) -> CodegenError:
    return fail(
        "MCG502",
        f"generated {name} is not valid Python: {flat(detail)[:200]}",
        revision=revision,
        hint="this is a generator bug; please report it with the schema",
    )


@cache
def _ruff_binary() -> str:
    """The ruff installed with mcp-codegen (its environment's scripts folder), else one on PATH."""
    found = shutil.which("ruff", path=sysconfig.get_path("scripts")) or shutil.which("ruff")
    if found is None:
        raise fail("MCG503", "ruff is not installed", hint="pip install ruff (a dependency of mcp-codegen)")
    return found
