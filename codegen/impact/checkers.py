"""Running the project's type checker over the copy: found in the project's environment (the
interpreter running mcp-codegen: `python -m mypy`; `pyright` beside it or on PATH), started in a
child with a bounded environment, its output decoded into Findings with the project's own paths.

The environment passed is a short list (PATH with the interpreter's folder first, HOME, the
locale), never PYTHONPATH or MYPYPATH (they would add to the search path the copy defines), with
bytecode writing, colour and pyright's version check (a network request) switched off, and TMPDIR
inside the scratch folder."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from codegen.errors import fail, flat
from codegen.impact import findings
from codegen.impact.findings import Finding
from codegen.impact.project import CheckerConfig

_PASSED = ("HOME", "USERPROFILE", "SYSTEMROOT", "LANG", "LC_ALL", "LC_CTYPE", "XDG_CACHE_HOME")
TIMEOUT_S = 1800  # a checker that hangs is cut off (MCG824), never waited on forever
_JSON_SINCE = (1, 11)  # mypy's `--output json`


@dataclass(frozen=True)
class Checker:
    name: str  # "mypy" | "pyright"
    command: tuple[str, ...]  # how it is started
    version: str  # "" when unknown until it has run (pyright says it in its output)
    json_output: bool  # mypy: --output json; pyright always


def locate(name: str) -> Checker:
    """The checker's executable in the project's environment (MCG821 when it is not installed)."""
    beside = str(Path(sys.executable).parent)
    search = os.pathsep.join([beside, os.environ.get("PATH", os.defpath)])
    if name == "mypy":
        if importlib.util.find_spec("mypy") is not None:
            version = importlib.metadata.version("mypy")
            return Checker("mypy", (sys.executable, "-m", "mypy"), version, _version_tuple(version) >= _JSON_SINCE)
        found = shutil.which("mypy", path=search)
        if found is not None:
            version = _reported_version(found)
            return Checker("mypy", (found,), version, _version_tuple(version) >= _JSON_SINCE)
    else:
        found = shutil.which("pyright", path=search)
        if found is not None:
            return Checker("pyright", (found,), "", True)
    raise fail(
        "MCG821",
        f"{name} is not installed where mcp-codegen runs ({sys.executable}) nor on PATH",
        hint=f"install it in the project's environment (pip install {name}), or choose the other with --checker",
    )


def environment(tmp: Path) -> dict[str, str]:
    env = {key: os.environ[key] for key in _PASSED if key in os.environ}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", os.defpath)])
    env.update(
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONIOENCODING="utf-8",
        NO_COLOR="1",
        MYPY_FORCE_COLOR="0",
        PYRIGHT_PYTHON_IGNORE_WARNINGS="1",
        TMPDIR=str(tmp),
    )
    return env


def command(checker: Checker, config: CheckerConfig, targets: Sequence[str], cache: Path) -> list[str]:
    """The command line, run in the copy's folder: the project's own config file, the targets given
    (none: what the config says to check)."""
    if checker.name == "mypy":
        args = [*checker.command, "--no-error-summary", "--no-pretty", "--no-color-output", "--show-error-codes"]
        args += ["--output", "json"] if checker.json_output else ["--show-column-numbers"]
        args += ["--cache-dir", str(cache)]
        if config.file is not None:
            args += ["--config-file", str(config.file)]
        return [*args, *targets]
    args = [*checker.command, "--outputjson", "-p", str(config.file or ".")]
    if not any(key in config.table for key in ("venv", "pythonPath")):
        args += ["--pythonpath", sys.executable]  # the environment mcp-codegen runs in
    return [*args, *targets]


@dataclass(frozen=True)
class Run:
    findings: tuple[Finding, ...]  # with paths relative to the copy's folder
    version: str


def run(checker: Checker, config: CheckerConfig, copy: Path, targets: Sequence[str], scratch: Path) -> Run:
    """One run of the checker over the copy; its errors in the copy's own files (paths relative to
    copy, POSIX), others (a library's stubs) left out. A checker that fails to run (a crash, a
    configuration error, output that is not its format) is MCG824."""
    tmp = scratch / "tmp"
    tmp.mkdir(exist_ok=True)
    args = command(checker, config, targets, scratch / "mypy-cache")
    try:
        done = subprocess.run(
            args,
            cwd=copy,
            env=environment(tmp),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise fail("MCG824", f"{checker.name} did not finish within {TIMEOUT_S} seconds") from None
    except OSError as exc:
        raise fail("MCG821", f"cannot start {checker.name} ({args[0]}): {exc.strerror or exc}") from exc
    out = done.stdout.decode("utf-8", errors="replace")
    err = done.stderr.decode("utf-8", errors="replace")
    version = checker.version
    if checker.name == "mypy":
        if done.returncode not in (0, 1):
            raise _failed(checker.name, done.returncode, err or out)
        found = findings.mypy_json(out) if checker.json_output else findings.mypy_text(out)
        if done.returncode == 1 and not found:
            raise _failed(checker.name, done.returncode, err or out)
    else:
        decoded = findings.pyright_json(out)
        if decoded is None or done.returncode not in (0, 1):
            raise _failed(checker.name, done.returncode, err or out)
        found, said = decoded
        version = said or version
    return Run(tuple(sorted(_in_copy(found, copy))), version)


def _in_copy(found: Sequence[Finding], copy: Path) -> list[Finding]:
    """The findings in the copy's files, their paths relative to it; findings elsewhere dropped."""
    base = os.path.realpath(copy)
    kept: list[Finding] = []
    for finding in found:
        where = os.path.realpath(os.path.join(copy, finding.file))  # an absolute file stays itself
        if where != base and where.startswith(base + os.sep):
            relative = Path(os.path.relpath(where, base)).as_posix()
            kept.append(Finding(relative, finding.line, finding.column, finding.code, finding.message))
    return kept


def _failed(name: str, code: int, said: str) -> Exception:
    lines = [line for line in said.strip().splitlines() if line.strip()]
    last = flat(" ".join(lines[-3:]))[:300] if lines else "no output"
    return fail("MCG824", f"{name} failed (exit {code}): {last}", hint="run it in the project folder to see why")


def _reported_version(executable: str) -> str:
    try:
        done = subprocess.run(
            [executable, "--version"], capture_output=True, timeout=60, check=False, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    matched = re.search(r"(\d+(?:\.\d+)+)", done.stdout.decode("utf-8", errors="replace"))
    return matched.group(1) if matched else ""


def _version_tuple(version: str) -> tuple[int, ...]:
    parts: list[int] = []
    for part in version.split(".")[:3]:
        digits = re.match(r"\d+", part)
        if digits is None:
            break
        parts.append(int(digits.group()))
    return tuple(parts)
