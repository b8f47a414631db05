"""Generate every schema.json the MCP spec ever published, and diff each against the next.

    .venv/bin/python scripts/spec_history.py --git-dir PATH [--ref=--branches] [--json FILE] [--no-diffs]

PATH is a clone (bare or not) of github.com/modelcontextprotocol/modelcontextprotocol. The script
walks every commit reachable from the refs (all branches by default, full history, so commits made
on merged branches count) that touches schema/draft/schema.json or schema/<revision>/schema.json.
Each distinct blob is one version, generated once in-process (codegen.generate_schema into a
temporary folder); the versions of one file, in commit order, are also diffed pairwise
(codegen.diff, each version against the next). Every item is classified:

- generated: the generator made its package (or the diff its report);
- refused: a CodegenError, reported by its first diagnostic's one line, code and pointer;
- crashed: any other exception (what the CLI reports as MCG999), a bug of ours.

It prints the counts and one line per refused or crashed item (commit, path, reason); --json FILE
writes every row. It reads the git directory only (git cat-file, git log), works offline, and runs
at most two worker processes. Exit status: 1 when anything crashed, else 0.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath

STATUSES = ("generated", "refused", "crashed")
MAX_WORKERS = 2  # the sweep shares a small machine


@dataclass(frozen=True)
class Version:
    path: str  # schema/<folder>/schema.json
    blob: str
    commit: str  # the first commit (in date order) that wrote this blob at path


@dataclass(frozen=True)
class Row:
    kind: str  # "version" or "diff"
    path: str
    commit: str  # the version's commit; for a diff, the newer side's
    old_commit: str | None  # a diff's older side
    status: str
    code: str | None = None
    pointer: str | None = None
    reason: str | None = None


def _git(git_dir: Path, *args: str) -> bytes:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True).stdout


def _is_revision_schema(path: str) -> bool:
    parts = PurePosixPath(path).parts
    return len(parts) == 3 and parts[0] == "schema" and parts[2] == "schema.json"


# Every commit that touched a file (commits of merged branches too), oldest first, with the blobs
# it wrote (`--raw`: ":mode mode old-blob new-blob status<TAB>path").
_LOG_OPTIONS = ("--full-history", "--date-order", "--reverse", "--no-abbrev", "--format=C %H", "--raw")


def list_versions(git_dir: Path, refs: Sequence[str]) -> dict[str, list[Version]]:
    """Per schema file, its distinct blobs in the order they first appeared (oldest first)."""
    log = _git(git_dir, "log", *refs, *_LOG_OPTIONS, "--", "schema/*/schema.json").decode()
    files: dict[str, list[Version]] = {}
    seen: set[tuple[str, str]] = set()
    commit = ""
    for line in log.splitlines():
        if line.startswith("C "):
            commit = line[2:]
        elif line.startswith(":"):
            meta, path = line.split("\t", 1)
            blob = meta.split()[3]
            if set(blob) == {"0"} or not _is_revision_schema(path) or (path, blob) in seen:
                continue  # a deletion, another file, or a blob this file already had
            seen.add((path, blob))
            files.setdefault(path, []).append(Version(path, blob, commit))
    return files


def _write_blob(git_dir: Path, version: Version, root: Path) -> Path:
    # the folder is named after the revision folder and the commit: error messages and the
    # generated headers carry it, and the two sides of a diff differ
    folder = root / f"{PurePosixPath(version.path).parts[1]}-{version.commit[:12]}"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "schema.json"
    if not target.exists():
        target.write_bytes(_git(git_dir, "cat-file", "blob", version.blob))
    return target


def _classify(kind: str, path: str, commit: str, old_commit: str | None, exc: BaseException | None) -> Row:
    from codegen.errors import CodegenError, flat

    if exc is None:
        return Row(kind, path, commit, old_commit, "generated")
    if isinstance(exc, CodegenError):
        first = exc.diagnostics[0]
        return Row(kind, path, commit, old_commit, "refused", first.code, first.pointer, first.one_line())
    reason = f"error[MCG999]: internal error: {type(exc).__name__}: {flat(str(exc))}"
    return Row(kind, path, commit, old_commit, "crashed", "MCG999", None, reason)


def run_version(git_dir: Path, version: Version) -> Row:
    from codegen import generate_schema

    with tempfile.TemporaryDirectory(prefix="spec-history-") as tmp:
        schema = _write_blob(git_dir, version, Path(tmp))
        try:
            generate_schema(schema, out=Path(tmp) / "out" / "mcp_history_pkg")
        except Exception as exc:  # noqa: BLE001 - classifying every failure is the point
            return _classify("version", version.path, version.commit, None, exc)
    return _classify("version", version.path, version.commit, None, None)


def run_diff(git_dir: Path, old: Version, new: Version) -> Row:
    from codegen import diff

    with tempfile.TemporaryDirectory(prefix="spec-history-") as tmp:
        old_path, new_path = _write_blob(git_dir, old, Path(tmp)), _write_blob(git_dir, new, Path(tmp))
        try:
            diff.diff(str(old_path), str(new_path))
        except Exception as exc:  # noqa: BLE001 - classifying every failure is the point
            return _classify("diff", new.path, new.commit, old.commit, exc)
    return _classify("diff", new.path, new.commit, old.commit, None)


def _pairs(files: dict[str, list[Version]]) -> Iterable[tuple[Version, Version]]:
    for versions in files.values():
        yield from itertools.pairwise(versions)


def _distinct(files: dict[str, list[Version]]) -> list[Version]:
    """One version per blob: a file copied to a new revision folder is generated once."""
    first: dict[str, Version] = {}
    for version in (v for vs in files.values() for v in vs):
        first.setdefault(version.blob, version)
    return list(first.values())


Task = tuple[Path, Version, Version | None]  # a version, or a diff's older and newer sides


def _run(task: Task) -> Row:
    git_dir, version, newer = task
    return run_version(git_dir, version) if newer is None else run_diff(git_dir, version, newer)


def sweep(git_dir: Path, refs: Sequence[str], jobs: int, *, diffs: bool = True) -> list[Row]:
    files = list_versions(git_dir, refs)
    tasks: list[Task] = [(git_dir, v, None) for v in _distinct(files)]
    if diffs:
        tasks += [(git_dir, old, new) for old, new in _pairs(files)]
    # fresh workers now and then: a generation imports each package it builds
    with multiprocessing.get_context("spawn").Pool(max(1, min(jobs, MAX_WORKERS)), maxtasksperchild=16) as pool:
        return pool.map(_run, tasks, chunksize=1)


def report(rows: Sequence[Row]) -> str:
    lines: list[str] = []
    for kind, title in (("version", "versions"), ("diff", "diffs")):
        mine = [r for r in rows if r.kind == kind]
        counts = " / ".join(f"{sum(r.status == s for r in mine)} {s}" for s in STATUSES)
        lines.append(f"{title}: {len(mine)}: {counts}")
    for row in sorted(rows, key=lambda r: (r.status, r.kind, r.path, r.commit)):
        if row.status != "generated":
            commits = f"{row.old_commit[:12]}..{row.commit[:12]}" if row.old_commit else row.commit[:12]
            lines.append(f"{row.status} {row.kind} {commits} {row.path}: {row.reason}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--git-dir", type=Path, required=True, help="the spec repository's git directory")
    parser.add_argument("--ref", action="append", help="what to walk, as git log takes it (repeatable; default --ref=--branches)")
    parser.add_argument("--json", type=Path, help="write every row to this file")
    parser.add_argument("--jobs", type=int, default=MAX_WORKERS, help=f"worker processes (at most {MAX_WORKERS})")
    parser.add_argument("--no-diffs", action="store_true", help="generate the versions only")
    args = parser.parse_args(argv)
    rows = sweep(args.git_dir.resolve(), args.ref or ["--branches"], args.jobs, diffs=not args.no_diffs)
    print(report(rows))
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1) + "\n", encoding="utf-8")
    return 1 if any(r.status == "crashed" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
