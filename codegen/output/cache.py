"""Skipping a generation that would change nothing.

A run is identified by everything its output depends on: the generator's own code and templates,
the pinned spec and errata data, the engine's and black's versions, the options and limits, and
the revisions asked for (their schemas are fixed by their sha256 pins). After a run, the sha256 of
each file it produced is recorded under that key; when the same key comes again and the output
folder still holds exactly those files, the run is already done.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, cast

from codegen import safeio
from codegen.version import __version__
from codegen.analysis import ir
from codegen.schema import spec
from codegen.errors import CodegenError
from codegen.limits import Limits
from codegen.output.tree import guard_root, has_leftovers, scan
from codegen.resources import spec_dir, templates_dir

_SOURCE = Path(__file__).resolve().parent.parent  # all of codegen/: any change to the generator is a new key


def run_key(
    pins: Sequence[spec.Pin], options: ir.Options, limits: Limits, source: str | None, errata: str = ""
) -> str:
    from importlib.metadata import version

    digest = hashlib.sha256()
    digest.update(json.dumps(
        {
            "mcp-codegen": __version__,
            "datamodel-code-generator": version("datamodel-code-generator"),
            "black": version("black"),
            "ruff": version("ruff"),
            "pins": [asdict(p) for p in pins],
            "options": asdict(options),
            "limits": asdict(limits),
            "examples-from-source": source is not None,
            "errata": errata,
        },
        sort_keys=True,
        default=str,
    ).encode())  # fmt: skip
    for folder in (_SOURCE, templates_dir(), spec_dir()):
        for relative in _files_under(folder):
            digest.update(relative.encode())
            with open(os.path.join(folder, relative), "rb") as handle:
                digest.update(handle.read())
    return digest.hexdigest()


def _files_under(folder: Path) -> list[str]:
    """Every file below folder as sorted relative POSIX paths: as `rglob("*")` with `is_file()`
    finds them (linked folders not entered, a dangling link left out), bytecode caches left out.
    os.scandir rather than pathlib: the no-op run walks ~600 entries, and pathlib's objects were
    half the cost of the key."""
    return sorted(_walk(str(folder), ""))


def _walk(folder: str, prefix: str) -> Iterator[str]:
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    yield from _walk(entry.path, f"{prefix}{entry.name}/")
            elif entry.is_file():
                yield prefix + entry.name


def _record_path(key: str) -> Path:
    return spec.cache_dir() / "runs" / f"{key}.json"


def _hashes(files: Mapping[str, bytes]) -> dict[str, str]:
    return {name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())}


_MAX_RECORD_BYTES = 4 * 1024 * 1024  # a record lists one sha256 per generated file


def lookup(key: str, out: Path) -> dict[str, Any] | None:
    """The record of a finished run with this key, if out still holds exactly its files.

    Only a record nobody else could have written is believed: a regular file (never a FIFO or a
    link) owned by this user, in a folder owned by this user, neither writable by anyone else. A
    cache restored from elsewhere or shared with other users is not trusted, it only costs a
    generation. `check` never asks (api.generate): its verdict comes from a fresh generation."""
    path = _record_path(key)
    if not (_trusted(path.parent) and _trusted(path)) or has_leftovers(out):
        return None  # leftovers: the run itself recovers what a killed run left beside out
    try:
        loaded: object = json.loads(safeio.read_regular(path, _MAX_RECORD_BYTES).decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(loaded, dict):
        return None
    record = cast("dict[str, Any]", loaded)
    if not isinstance(record.get("files"), dict):
        return None
    try:
        guard_root(out, checking=True)
        tree = scan(out)
    except (CodegenError, OSError):
        return None  # not a folder to compare with: the run itself says why
    return record if not tree.special and record.get("files") == _hashes(tree.files) else None


def _trusted(path: Path) -> bool:
    try:
        status = os.lstat(path)
    except OSError:
        return False
    kind_ok = stat.S_ISREG(status.st_mode) or stat.S_ISDIR(status.st_mode)
    return kind_ok and status.st_uid == os.geteuid() and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def save(key: str, files: Mapping[str, str], summaries: list[dict[str, Any]]) -> None:
    """Record a finished run (best effort: a cache that cannot be written only costs time)."""
    path = _record_path(key)
    record = {"files": _hashes({k: v.encode("utf-8") for k, v in files.items()}), "summaries": summaries}
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(record, sort_keys=True))
        os.replace(partial, path)
    except OSError:
        pass
