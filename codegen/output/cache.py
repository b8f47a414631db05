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
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from codegen.version import __version__
from codegen.analysis import ir
from codegen.schema import spec
from codegen.errors import CodegenError
from codegen.limits import Limits
from codegen.output.tree import guard_root, scan
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
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _record_path(key: str) -> Path:
    return spec.cache_dir() / "runs" / f"{key}.json"


def _hashes(files: Mapping[str, bytes]) -> dict[str, str]:
    return {name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())}


def lookup(key: str, out: Path) -> dict[str, Any] | None:
    """The record of a finished run with this key, if out still holds exactly its files."""
    path = _record_path(key)
    try:
        record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    try:
        guard_root(out, checking=True)
        tree = scan(out)
    except (CodegenError, OSError):
        return None  # not a folder to compare with: the run itself says why
    return record if not tree.special and record.get("files") == _hashes(tree.files) else None


def save(key: str, files: Mapping[str, str], summaries: list[dict[str, Any]]) -> None:
    """Record a finished run (best effort: a cache that cannot be written only costs time)."""
    path = _record_path(key)
    record = {"files": _hashes({k: v.encode("utf-8") for k, v in files.items()}), "summaries": summaries}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(record, sort_keys=True), encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        pass
