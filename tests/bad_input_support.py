"""Running `mcp-codegen` as a real process, with its cost measured, for the bad-input corpus
(tests/test_bad_input*.py) and its table (scripts/bad_input_table.py).

Wall time is taken around the child; CPU time (user + system) and peak memory (ru_maxrss, KiB on
Linux) are the child's own from wait4. The child is started by a small launcher process, not by
pytest: on Linux a process's ru_maxrss starts from the memory of the process that forked it, so a
child forked by a 200 MB test runner would report at least 200 MB.
Bounds are asserted on CPU time, as a multiple of a reference run's (Bound): other work on a
shared machine stretches wall time without the run costing more, and a slower machine slows the
reference alike. Wall time is never asserted; a run still going after `timeout` seconds (a
hang: a FIFO read, a dead server) is killed and fails its test as hung.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from . import suite

CLI = Path(sys.executable).parent / "mcp-codegen"
HANG_SECONDS = 120.0  # a run still going after this is killed as hung (not a bound on cost)
MAX_MIB = 500.0
UNIONS = Path(__file__).parent / "cases" / "unions" / "schema.json"


@dataclass(frozen=True)
class Bound:
    """A bound on a run's CPU time, as a multiple of a reference run's, both measured by this test
    process (a machine half as fast, or loaded, slows both alike; seconds would hold on one machine).

    reference: "refusal", the smallest refusal (`generate` of a schema with no definitions: the
    interpreter, the imports and the read, MCG106), or "generation", a whole generation of the small
    tests/cases/unions schema (engine, formatter, the package imported)."""

    times: float
    reference: str


# A refusal that reads its input and stops: 1-3x the smallest refusal idle (a 1 MiB schema's parse
# and checks included); what grows with the input's size passes this, as 40,000 properties did
# (10x) while the engine ran before the count.
REFUSAL = Bound(6, "refusal")
# A run that generates a package before it can succeed or tell what is wrong: 1-2x the reference
# generation idle (a whole MCP revision about 1.5x).
GENERATION = Bound(5, "generation")

# Runs argv with the given stdio, reports the child's pid at once and its wait4 figures at the end.
# Options, applied in the child before exec: "file_size_limit" (bytes; SIGXFSZ ignored, so a write
# past it fails with EFBIG) and "no_permission_override" (root gives up CAP_DAC_OVERRIDE,
# CAP_DAC_READ_SEARCH and CAP_FOWNER, so folder modes apply to it too).
_LAUNCHER = r"""
import ctypes, json, os, resource, signal, subprocess, sys, time
spec = json.loads(sys.argv[1])
def prepare():
    resource.setrlimit(resource.RLIMIT_CPU, (60, 61))  # a runaway is ended by the kernel, not awaited
    if spec.get("file_size_limit"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (spec["file_size_limit"],) * 2)
    if spec.get("no_permission_override") and os.geteuid() == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        for capability in (1, 2, 3):
            if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
                raise OSError(ctypes.get_errno(), "prctl")
with open(spec["stdout"], "wb") as out, open(spec["stderr"], "wb") as err:
    started = time.monotonic()
    child = subprocess.Popen(spec["argv"], stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                             cwd=spec["cwd"], preexec_fn=prepare)
    with open(spec["pid"], "w") as handle:
        handle.write(str(child.pid))
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = 0
    report = {"status": status, "wall": time.monotonic() - started,
              "cpu": usage.ru_utime + usage.ru_stime, "maxrss_kib": usage.ru_maxrss}
with open(spec["report"] + ".part", "w") as handle:
    json.dump(report, handle)
os.replace(spec["report"] + ".part", spec["report"])
"""


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str
    seconds: float  # wall
    cpu_seconds: float
    peak_mib: float

    @property
    def lines(self) -> list[str]:
        return self.stderr.splitlines()

    @property
    def code(self) -> str | None:
        """The MCGnnn of a one-line error on stderr."""
        first = self.lines[0] if self.lines else ""
        return first[len("error[") : first.index("]")] if first.startswith("error[MCG") and "]" in first else None


def run(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    file_size_limit: int | None = None,
    no_permission_override: bool = False,
    while_running: Callable[[int], None] | None = None,
    timeout: float = HANG_SECONDS,
) -> Run:
    """mcp-codegen args, to completion; while_running(pid) is called once it has started.

    A run that fails (any exit but 0) must leave its `--out` tree as it found it: hashed before and
    after (links recorded by target, never followed) where it lies under the temporary folder."""
    guarded = _guarded_out(args, cwd)
    before = tree_digest(guarded) if guarded is not None else None
    with tempfile.TemporaryDirectory() as scratch:
        files = {name: str(Path(scratch) / name) for name in ("stdout", "stderr", "pid", "report")}
        spec = {
            "argv": [str(CLI), *args],
            "cwd": str(cwd) if cwd else None,
            "file_size_limit": file_size_limit,
            "no_permission_override": no_permission_override,
            **files,
        }
        launcher = subprocess.Popen(  # noqa: S603
            [sys.executable, "-c", _LAUNCHER, json.dumps(spec)], env=dict(env) if env is not None else None
        )
        try:
            pid = _wait_for(Path(files["pid"]), launcher, timeout)
            if while_running is not None:
                while_running(pid)
            launcher.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"hung: mcp-codegen {' '.join(args)[:200]} still ran after {timeout:.0f} s") from None
        finally:
            if launcher.poll() is None:  # a hang: end the child, then its launcher
                _kill(Path(files["pid"]))
                launcher.kill()
                launcher.wait()
        report: dict[str, Any] = json.loads(Path(files["report"]).read_text())
        returncode = os.waitstatus_to_exitcode(report["status"])
        if guarded is not None and returncode != 0:
            assert tree_digest(guarded) == before, f"exit {returncode} but {guarded} changed"
        return Run(
            returncode=returncode,
            stdout=Path(files["stdout"]).read_text(encoding="utf-8", errors="replace"),
            stderr=Path(files["stderr"]).read_text(encoding="utf-8", errors="replace"),
            seconds=report["wall"],
            cpu_seconds=report["cpu"],
            peak_mib=report["maxrss_kib"] / 1024,
        )


def _guarded_out(args: Sequence[str], cwd: Path | None) -> Path | None:
    """The `--out` of a run when it lies under the temporary folder (a test's own tree), else None:
    `--out /usr` is a case, not a tree to hash."""
    if "--out" not in args or args.index("--out") + 1 >= len(args):
        return None
    out = Path(args[args.index("--out") + 1])
    out = out if out.is_absolute() else (cwd or Path.cwd()) / out
    temporary = Path(os.path.realpath(tempfile.gettempdir()))
    parent = Path(os.path.realpath(out.parent))
    return out if parent == temporary or temporary in parent.parents else None


def _wait_for(pid_file: Path, launcher: subprocess.Popen[bytes], timeout: float) -> int:
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        text = pid_file.read_text() if pid_file.exists() else ""
        if text:
            return int(text)
        if launcher.poll() is not None:
            raise RuntimeError(f"the launcher ended ({launcher.returncode}) before starting mcp-codegen")
        time.sleep(0.0005)
    raise TimeoutError("mcp-codegen did not start")


def _kill(pid_file: Path) -> None:
    try:
        os.kill(int(pid_file.read_text()), 9)
    except (OSError, ValueError):
        pass


def cli_env(cache: Path, **extra: str) -> dict[str, str]:
    """The environment of a child: the spec mirror, a private schema cache, no terminal progress."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCP_CODEGEN_")}
    if suite.SPEC != suite.REPO / "spec":  # --spec-source; else the pinned copies under spec/
        env["MCP_CODEGEN_SPEC_SOURCE"] = str(suite.SPEC)
    env["MCP_CODEGEN_CACHE"] = str(cache)
    env.update(extra)
    return env


def tree_digest(root: Path) -> str:
    """sha256 over every path under root (folders, hidden files and caches included) and its bytes.

    Nothing is followed or opened but regular files: a symbolic link is recorded by its target, a
    FIFO, socket or device by its kind (reading them could block, leak or never end). A root that is
    itself a link or a file is recorded the same way."""
    digest = hashlib.sha256()
    if not os.path.lexists(root):
        return "absent"
    if root.is_symlink() or not root.is_dir():
        _entry(digest, root, "")
        return digest.hexdigest()
    for dirpath, dirnames, filenames in os.walk(root):  # never descends into a link to a folder
        dirnames.sort()
        here = Path(dirpath)
        digest.update(b"D" + here.relative_to(root).as_posix().encode() + b"\0")
        for name in sorted(filenames + [d for d in dirnames if (here / d).is_symlink()]):
            _entry(digest, here / name, (here / name).relative_to(root).as_posix())
    return digest.hexdigest()


def _entry(digest: Any, path: Path, rel: str) -> None:
    mode = os.lstat(path).st_mode
    if stat.S_ISLNK(mode):
        digest.update(b"L" + rel.encode() + b"\0" + os.readlink(path).encode() + b"\0")
    elif stat.S_ISREG(mode):
        digest.update(b"F" + rel.encode() + b"\0" + oct(mode & 0o7777).encode() + b"\0")
        digest.update(_file_digest(path))
    else:
        digest.update(b"S" + rel.encode() + b"\0" + oct(stat.S_IFMT(mode)).encode() + b"\0")


def _file_digest(path: Path) -> bytes:
    """sha256 of a file's size and of each stretch of data in it, by offset.

    Holes of a sparse file are skipped (SEEK_DATA/SEEK_HOLE), not read as zeros: the cases plant
    4 GiB sparse files, and reading those twice per test cost half a minute. Any write lands in a
    data stretch or makes one, so the digest still changes with the content."""
    digest = hashlib.sha256()
    with open(path, "rb", buffering=0) as handle:
        size = os.fstat(handle.fileno()).st_size
        digest.update(b"size %d\0" % size)
        offset = 0
        while offset < size:
            try:
                start = os.lseek(handle.fileno(), offset, os.SEEK_DATA)
                end = os.lseek(handle.fileno(), start, os.SEEK_HOLE)
            except OSError as exc:
                if exc.errno == errno.ENXIO:  # nothing but a hole from offset to the end
                    break
                start, end = offset, size  # a file system without hole queries: read it all
            digest.update(b"data %d\0" % start)
            handle.seek(start)
            remaining = end - start
            while remaining > 0:
                chunk = handle.read(min(remaining, 1 << 20))
                if not chunk:
                    break
                digest.update(chunk)
                remaining -= len(chunk)
            offset = end
    return digest.digest()


def leftovers(out: Path) -> list[str]:
    """Staging or swapped-out folders a run left beside out."""
    if not out.parent.is_dir():
        return []
    prefixes = (f".{out.name}.staging-", f".{out.name}.old-")
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(prefixes))


def assert_one_line_error(
    result: Run, code: str, *, revision: str | None = None, pointer: str | None = None, hint: bool = True
) -> str:
    """Exit 2 and exactly one line: error[code], where (revision, pointer) and a hint; no traceback.

    pointer is matched exactly, unless it ends in "/" or is "#": then it is a prefix."""
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert len(result.lines) == 1, result.stderr[-2000:]
    line = result.lines[0]
    assert line.startswith(f"error[{code}]"), line
    if revision is not None:
        assert (f"from {revision}" if "/" in revision else f"revision {revision}") in line, line
    if pointer is not None:
        assert (f"at {pointer}" if pointer == "#" or pointer.endswith("/") else f"at {pointer}):") in line, line
    if hint:
        assert " (hint: " in line and line.endswith(")"), line
    return line


def assert_bounded(result: Run, bound: Bound | None = None) -> None:
    """CPU time within its bound (by default a refusal's, or a generation's for a run that
    succeeds: it has generated and imported a package) and peak memory within MAX_MIB."""
    bound = bound or (GENERATION if result.returncode == 0 else REFUSAL)
    assert_within(result.cpu_seconds, bound, what=f"mcp-codegen exit {result.returncode}")
    assert result.peak_mib <= MAX_MIB, f"peaked at {result.peak_mib:.0f} MiB"


def assert_within(cpu_seconds: float, bound: Bound, *, what: str = "the run") -> None:
    """cpu_seconds within bound.times the reference. The reference is measured once per test
    process; when a run exceeds it, it is measured again, now, under the load the run had."""
    reference = reference_cpu(bound.reference)
    if cpu_seconds > bound.times * reference:
        reference = max(reference, reference_cpu(bound.reference, fresh=True))
    _note_ratio(what, cpu_seconds, bound, reference)
    assert cpu_seconds <= bound.times * reference, (
        f"{what} took {cpu_seconds:.2f} s of CPU, {cpu_seconds / reference:.1f}x the {bound.reference} reference "
        f"({reference:.2f} s, measured in this process); the bound is {bound.times:g}x"
    )


_REFERENCES: dict[str, float] = {}


def reference_cpu(name: str, *, fresh: bool = False) -> float:
    """CPU seconds of a reference run (Bound.reference), the median of three; cached per process
    unless fresh."""
    if fresh or name not in _REFERENCES:
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch)
            if name == "refusal":
                schema = folder / "schema.json"
                schema.write_text('{"$defs": {}}', encoding="utf-8")
            elif name == "generation":
                schema = UNIONS
            else:
                raise ValueError(f"no reference run named {name!r}")
            env = cli_env(folder / "cache")
            times: list[float] = []
            for attempt in range(3):
                made = run(["generate", "-q", "--schema", str(schema), "--out", str(folder / f"pkg{attempt}")], env=env)
                assert made.returncode == (2 if name == "refusal" else 0), made.stderr[-500:]
                times.append(made.cpu_seconds)
        _REFERENCES[name] = sorted(times)[1]
    return _REFERENCES[name]


def _note_ratio(what: str, cpu_seconds: float, bound: Bound, reference: float) -> None:
    """One row per bounded run in MCG_TEST_RATIO_LOG, when set: how near each run is to its bound."""
    target = os.environ.get("MCG_TEST_RATIO_LOG")
    if target:
        row = {"test": os.environ.get("PYTEST_CURRENT_TEST", ""), "what": what, "cpu": round(cpu_seconds, 3),
               "reference": bound.reference, "reference_cpu": round(reference, 3),
               "ratio": round(cpu_seconds / reference, 2), "times": bound.times}
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")


def record(case: str, result: Run, note: str = "") -> None:
    """One row of the corpus table, when a table is being collected (scripts/bad_input_table.py)."""
    target = suite.BAD_INPUT_TABLE
    if not target:
        return
    row: dict[str, Any] = {
        "case": case,
        "exit": result.returncode,
        "code": result.code or "",
        "seconds": round(result.seconds, 3),
        "cpu_seconds": round(result.cpu_seconds, 3),
        "peak_mib": round(result.peak_mib, 1),
        "note": note,
    }
    with open(target, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(row) + "\n")


def unions_package(factory: pytest.TempPathFactory) -> Path:
    """A package generated from tests/cases/unions, built once per run: the tree a case's output
    folder starts with (copy it before writing)."""
    from codegen import generate_schema

    return suite.shared_tree(factory, "unions", [], lambda folder: generate_schema(UNIONS, out=folder / "pkg")) / "pkg"


def vendored_acme(factory: pytest.TempPathFactory) -> Path:
    """2025-11-25 and 2026-07-28 vendored as `acme._mcp` by the command, built once per run."""

    def build(folder: Path) -> None:
        made = run(
            ["generate", "-q", "-r", "2025-11-25", "-r", "2026-07-28", "--out", str(folder / "_mcp"), "--package", "acme._mcp"],
            env=cli_env(folder.parent / f"{folder.name}-cache"),
        )
        assert made.returncode == 0, made.stderr

    return suite.shared_tree(factory, "vendored-acme", [], build) / "_mcp"
