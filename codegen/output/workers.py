"""Revisions built side by side: one worker process per core. The stages are CPU-bound Python (the
engine, pydantic), so threads would not help.

A worker runs the whole pipeline for its revisions and then imports the package it made (the import
check, emit/smoke.py), so that only the root package's own small files are left to the parent.
Revisions of identical schema bytes go to one worker, one after the other: the engine runs once
for them (emit/dcg.py keeps its last results). The surface, which needs every revision, is built
by its own task beside the revisions', from the same inputs.

Workers are forked after the heavy modules are imported, so none of them imports anything again;
they ignore SIGINT (the parent decides what an interrupt means) and are terminated with the pool
when the parent stops for any reason. Results come back in the order the jobs were given, so the
output never depends on which worker finished first.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import queue
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.pool import AsyncResult
from multiprocessing.queues import Queue
from pathlib import Path

from codegen.analysis import ir
from codegen.emit import runtime, smoke
from codegen.emit.stamp import header
from codegen.limits import Limits
from codegen.schema import errata
from codegen.emit.pipeline import Analysed, BuiltRevision, ExampleSources, build_revision, latest_module


@dataclass(frozen=True)
class ImportCheck:
    """The import check a worker runs on the package it built, before anything is written."""

    out: Path  # the output folder (a base class that cannot be imported here is looked for above it)
    latest: bool = False  # the newest released revision: it also makes and checks the root's latest.py


@dataclass(frozen=True)
class Job:
    revision: str
    package: str
    data: bytes
    sha256: str
    limits: Limits
    examples: ExampleSources | None = None
    options: ir.Options | None = None
    errata: errata.Selection | None = None
    elsewhere: ir.Elsewhere | None = None  # what other pinned revisions define (history.py)
    check: ImportCheck | None = None  # None: not checked here (check mode writes nothing)
    analysed: Analysed | None = None  # its first stages, done by the parent (pipeline.analyse)
    ts: bytes | None = None  # its schema.ts (the spec's deprecations), when one is pinned


# (revision, stage) events of the workers, read by the parent for its progress display. Set before
# the pool forks, so every worker inherits it.
_events: Queue[tuple[str, str]] | None = None


def run(job: Job, stage: Callable[[str], None] | None = None) -> BuiltRevision:
    if stage is None and _events is not None:
        events = _events
        stage = lambda name: events.put((job.revision, name))  # noqa: E731 - a worker's own reporter
    built = build_revision(
        job.revision,
        job.package,
        job.data,
        job.sha256,
        limits=job.limits,
        examples=job.examples,
        options=job.options,
        errata_selection=job.errata,
        stage=stage,
        elsewhere=job.elsewhere,
        analysed=job.analysed,
        ts=job.ts,
    )
    if job.check is not None:
        built = _checked(built, job.check)
    return built


def _checked(built: BuiltRevision, check: ImportCheck) -> BuiltRevision:
    """built, import-checked (with the root's latest.py when it is the newest release)."""
    root = {"latest.py": latest_module(built)} if check.latest else {}
    files = {**{f"{built.revision.package}/{name}": text for name, text in built.files.items()}, **root}
    files.update(runtime.runtime_files(header()))  # the root's, which the package imports
    standins = smoke.standin_bases(files, [built.revision], check.out)
    smoke.check({**files, **standins}, revision=built.revision.revision)
    return BuiltRevision(built.revision, built.files, built.exports, root)


def run_group(jobs: Sequence[Job]) -> list[BuiltRevision]:
    """Jobs of identical schema bytes, in one worker: the engine's result of the first serves the rest."""
    return [run(job) for job in jobs]


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def build_all(
    jobs: Sequence[Job],
    *,
    workers: int | None = None,
    progress: Callable[[str, str], None] | None = None,
    beside: Callable[[], BuiltRevision] | None = None,
    complete: Callable[[Sequence[Job]], Sequence[Job]] | None = None,
) -> tuple[list[BuiltRevision], BuiltRevision | None]:
    """Every job's BuiltRevision, in job order, and what beside() built (a task of its own, run
    alongside: a module-level function, or a partial of one, so that it reaches a worker); a
    CodegenError from any job is raised as is, the jobs' before beside's. complete(jobs) gives the
    jobs as they are run (the same revisions, in the same order), made in this process once beside
    has started in a worker: what only the jobs need is made meanwhile.

    progress(revision, stage) is called as each stage of a revision starts (see pipeline.STAGES), and
    with "done" when the revision is built.
    """
    global _events  # noqa: PLW0603 - inherited by the forked workers
    groups = _groups(jobs)
    count = min(workers or default_workers(), len(groups) + (beside is not None))
    if count <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        built: list[BuiltRevision] = []
        for job in complete(jobs) if complete is not None else jobs:
            built.append(run(job, _for_revision(progress, job.revision) if progress is not None else None))
            if progress is not None:
                progress(job.revision, "done")
        return built, beside() if beside is not None else None
    _import_heavy_modules()
    context = multiprocessing.get_context("fork")
    _events = context.Queue() if progress is not None else None
    try:
        with context.Pool(count, initializer=_ignore_interrupts) as pool:
            aside = pool.apply_async(beside) if beside is not None else None
            jobs = complete(jobs) if complete is not None else jobs
            # the largest first, so the last task to start is a short one
            order = sorted(range(len(groups)), key=lambda i: -sum(len(jobs[j].data) for j in groups[i]))
            pending = {i: pool.apply_async(run_group, ([jobs[j] for j in groups[i]],)) for i in order}
            if progress is not None and _events is not None:
                _follow(jobs, groups, pending, _events, progress)
            results: dict[int, BuiltRevision] = {}
            for index, group in enumerate(groups):
                results.update(zip(group, pending[index].get(), strict=True))
            return [results[i] for i in range(len(jobs))], aside.get() if aside is not None else None
    finally:
        _events = None


def _groups(jobs: Sequence[Job]) -> list[list[int]]:
    """Indexes of the jobs, grouped by identical schema bytes (first appearance order)."""
    by_bytes: dict[str, list[int]] = {}
    for index, job in enumerate(jobs):
        by_bytes.setdefault(job.sha256, []).append(index)
    return list(by_bytes.values())


def _for_revision(progress: Callable[[str, str], None], revision: str) -> Callable[[str], None]:
    return lambda stage: progress(revision, stage)


def _follow(
    jobs: Sequence[Job],
    groups: Sequence[Sequence[int]],
    pending: dict[int, AsyncResult[list[BuiltRevision]]],
    events: Queue[tuple[str, str]],
    progress: Callable[[str, str], None],
) -> None:
    """Relay the workers' stage events until every group has finished (or failed)."""
    finished: set[int] = set()
    while len(finished) < len(groups):
        try:
            progress(*events.get(timeout=0.1))
        except queue.Empty:
            pass
        for index, result in pending.items():
            if index not in finished and result.ready():
                finished.add(index)
                for job in groups[index]:
                    progress(jobs[job].revision, "done")


def _import_heavy_modules() -> None:
    """Import the engine once, in the parent, before the workers are forked: also the modules its
    first run imports (its parser and model classes), which every worker would import again."""
    for module in _ENGINE_MODULES:
        importlib.import_module(module)


_ENGINE_MODULES = (
    "datamodel_code_generator",
    "datamodel_code_generator.parser.jsonschema",
    "datamodel_code_generator.model.pydantic_v2",
)


def _ignore_interrupts() -> None:
    # The parent's handlers are for the parent: a worker ignores ^C and dies quietly when the pool
    # is terminated (SIGTERM).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
