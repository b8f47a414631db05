"""How this test run is set up (read by the test modules), and the trees it builds once.

The command line decides (tests/conftest.py): `--long` multiplies every drawn test's example count
and gives each a random seed; `--spec-source` / `--docs-source` point at another spec mirror.

`shared_tree` builds a generated tree once per run, whatever the number of xdist workers: the
first worker to ask builds it under a file lock in the run's temporary folder, the others wait
and reuse it. A tree is keyed by its name and the parameters that shape it; the run's folder is
new each run, so nothing carries over from an earlier run or another checkout.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

REPO = Path(__file__).resolve().parents[1]
LONG_FACTOR = 10

LONG = False
SPEC = REPO / "spec"
DOCS = REPO / "spec" / "pages"
BAD_INPUT_TABLE: str | None = None  # a file the bad-input cases append their measured rows to


def configure(*, long: bool, spec_source: str | None, docs_source: str | None, bad_input_table: str | None) -> None:
    global LONG, SPEC, DOCS, BAD_INPUT_TABLE
    LONG = long
    BAD_INPUT_TABLE = bad_input_table
    SPEC = Path(spec_source).resolve() if spec_source else REPO / "spec"
    DOCS = Path(docs_source).resolve() if docs_source else REPO / "spec" / "pages"
    if not (SPEC / "2026-07-28" / "schema.json").is_file():
        raise pytest.UsageError(f"no spec data at {SPEC}: --spec-source names a folder holding <revision>/schema.json")


def examples(count: int) -> int:
    """A drawn test's example count: as written for CI, LONG_FACTOR times that with --long."""
    return count * LONG_FACTOR if LONG else count


def run_root(factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of this run, shared by its xdist workers (each has its own below it)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def shared_tree(factory: pytest.TempPathFactory, name: str, params: Any, build: Callable[[Path], None]) -> Path:
    """The folder build(folder) fills, built once per run for (name, params); callers that write
    into it must copy it first. A build that fails is not kept: the next caller tries again."""
    key = hashlib.sha256(json.dumps([name, params], sort_keys=True, default=str).encode()).hexdigest()[:16]
    home = run_root(factory) / "shared-trees"
    home.mkdir(exist_ok=True)
    done = home / f"{name}-{key}"
    with FileLock(str(home / f"{name}-{key}.lock")):
        if not done.is_dir():
            staging = home / f".{name}-{key}.staging"
            shutil.rmtree(staging, ignore_errors=True)
            staging.mkdir()
            build(staging)
            staging.rename(done)
    return done
