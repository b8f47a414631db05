"""Formatting: ruff's safe fixes (import merging and sorting, modern syntax), then black in-process
or ruff format, each with one fixed configuration: the output never depends on the user's config."""

from __future__ import annotations

import shutil
import subprocess
import sysconfig
import tempfile
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from codegen import safeio
from codegen.errors import fail, flat

if TYPE_CHECKING:
    from black.mode import Mode

LINE_LENGTH = 100
FORMATTERS = ("black", "ruff")
# ruff runs --isolated (no user configuration is read), safe fixes only. Beside black it keeps
# black's line length; as the formatter it keeps all of ruff's defaults, so the output is what a
# project on ruff's defaults would write (`ruff check` and `ruff format --check` clean).
_RUFF_BESIDE_BLACK = ("--isolated", "--line-length", str(LINE_LENGTH), "--target-version", "py311")
_RUFF_DEFAULTS = ("--isolated",)
_RUFF_TIMEOUT_S = 120


@cache
def _mode() -> Mode:
    from black.mode import Mode, TargetVersion

    return Mode(
        target_versions={TargetVersion.PY311},
        line_length=LINE_LENGTH,
        string_normalization=True,
        magic_trailing_comma=True,
    )


def format_python(source: str, *, name: str, revision: str | None = None) -> str:
    """Formatted source. black parses the source itself (it refuses invalid Python), so a module
    that is not valid Python is reported here, with the file name, as the generator bug it is."""
    import black
    from black.parsing import InvalidInput

    try:
        return black.format_str(source, mode=_mode())
    except InvalidInput as exc:
        raise fail(
            "MCG502",
            f"generated {name} is not valid Python: {flat(str(exc))}",
            revision=revision,
            hint="this is a generator bug; please report it with the schema",
        ) from exc


def format_files(
    sources: Mapping[str, str], *, formatter: str = "black", where: str = "", revision: str | None = None
) -> dict[str, str]:
    """Formatted Python files (by relative path): ruff's safe fixes under its default rules
    (duplicate imports merged, imports and `__all__` sorted, `X | Y` unions where they are valid at
    run time), then black or `ruff format`. One ruff run per package, on a scratch copy."""
    python = {name: text for name, text in sources.items() if name.endswith(".py")}
    settings = _RUFF_DEFAULTS if formatter == "ruff" else _RUFF_BESIDE_BLACK
    fixed = _ruff(python, ("check", "--fix", "--exit-zero", "--quiet", *settings), where, revision)
    if formatter == "ruff":
        fixed = _ruff(fixed, ("format", "--quiet", *settings), where, revision)
    else:
        fixed = {name: format_python(text, name=f"{where}/{name}", revision=revision) for name, text in fixed.items()}
    return {name: fixed.get(name, text) for name, text in sources.items()}


def _ruff(files: Mapping[str, str], args: tuple[str, ...], where: str, revision: str | None) -> dict[str, str]:
    if not files:
        return {}
    with tempfile.TemporaryDirectory(prefix="mcp-codegen-ruff-") as scratch:
        root = Path(scratch)
        safeio.write_scratch(root, files, purpose="the scratch copy ruff formats")
        try:
            done = subprocess.run(  # noqa: S603 - our own binary and arguments, no shell
                [_ruff_binary(), *args, "--no-cache", "."], cwd=root, capture_output=True, check=False, timeout=_RUFF_TIMEOUT_S
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise fail("MCG503", f"ruff could not run on {where or 'the package'}: {flat(str(exc))}", revision=revision) from exc
        if done.returncode != 0:
            detail = flat(done.stderr.decode("utf-8", "replace") or done.stdout.decode("utf-8", "replace"))
            raise fail(
                "MCG503",
                f"ruff {args[0]} failed on {where or 'the package'}: {detail[:300]}",
                revision=revision,
                hint="this is a generator bug; please report it with the schema",
            )
        try:
            return {name: (root / name).read_text(encoding="utf-8") for name in files}
        except OSError as exc:
            raise fail("MCG601", f"cannot read back ruff's scratch copy: {safeio.reason(exc)}", revision=revision) from exc


@cache
def _ruff_binary() -> str:
    """The ruff installed with mcp-codegen (its environment's scripts folder), else one on PATH."""
    found = shutil.which("ruff", path=sysconfig.get_path("scripts")) or shutil.which("ruff")
    if found is None:
        raise fail("MCG503", "ruff is not installed", hint="pip install ruff (a dependency of mcp-codegen)")
    return found
