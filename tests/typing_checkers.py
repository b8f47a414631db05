"""Run mypy --strict and pyright (strict, from pyproject.toml) on the files of tests/typing; their errors by line.

Each checker runs once per test session over every file of tests/typing (one process each, not one per
file): the errors are then looked up per file. A run that did not check every file fails loudly, so an
empty error set always means "checked and clean", never "not checked".
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

from .conftest import REPO

TYPING = Path(__file__).parent / "typing"

_MARK = re.compile(r"#\s*expect-error\b")


def expected_errors(path: Path) -> set[int]:
    """The lines of `path` marked `# expect-error`."""
    return {n for n, line in enumerate(path.read_text().splitlines(), 1) if _MARK.search(line)}


def _typing_files() -> list[Path]:
    return sorted(TYPING.glob("*.py"))


@cache
def _mypy_report() -> dict[str, set[int]]:
    files = _typing_files()
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *map(str, files)],
        capture_output=True, text=True, cwd=REPO, check=False,
    )  # fmt: skip
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ""
    checked = re.search(r"(\d+) source files?\)?$", summary)  # "... in 4 source files" / "(checked 4 source files)"
    if run.returncode not in (0, 1) or checked is None or int(checked.group(1)) != len(files):
        raise RuntimeError(f"mypy did not check {len(files)} files: {run.returncode}\n{run.stdout}\n{run.stderr}")
    errors: dict[str, set[int]] = {path.name: set() for path in files}
    for found in re.finditer(r"^(?:.*[/\\])?([^/\\:]+\.py):(\d+): error", run.stdout, re.MULTILINE):
        errors[found.group(1)].add(int(found.group(2)))
    return errors


@cache
def _pyright_report() -> dict[str, set[int]]:
    files = _typing_files()
    run = subprocess.run(
        [str(Path(sys.executable).parent / "pyright"), "--outputjson", *map(str, files)],
        capture_output=True, text=True, cwd=REPO, check=False,
    )  # fmt: skip
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError:
        raise RuntimeError(f"pyright gave no JSON report: {run.returncode}\n{run.stdout}\n{run.stderr}") from None
    if report["summary"]["filesAnalyzed"] != len(files):
        raise RuntimeError(f"pyright did not check {len(files)} files: {report['summary']}")
    errors: dict[str, set[int]] = {path.name: set() for path in files}
    for diagnostic in report["generalDiagnostics"]:
        if diagnostic["severity"] == "error":
            errors[Path(diagnostic["file"]).name].add(diagnostic["range"]["start"]["line"] + 1)
    return errors


def mypy_errors(path: Path) -> set[int]:
    """The lines of `path` (a file of tests/typing) where `mypy --strict` reports an error."""
    return _mypy_report()[path.name]


def pyright_errors(path: Path) -> set[int]:
    """The lines of `path` (a file of tests/typing) where pyright (strict) reports an error."""
    return _pyright_report()[path.name]
