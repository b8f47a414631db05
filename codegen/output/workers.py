"""Revisions built side by side: one worker process per core, each running the whole pipeline for
one revision. The stages are CPU-bound Python (the engine, black), so threads would not help.

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

from codegen.analysis import ir
from codegen.limits import Limits
from codegen.schema import errata
from codegen.emit.pipeline import BuiltRevision, ExampleSources, build_revision


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


# (revision, stage) events of the workers, read by the parent for its progress display. Set before
# the pool forks, so every worker inherits it.
_events: Queue[tuple[str, str]] | None = None


def run(job: Job, stage: Callable[[str], None] | None = None) -> BuiltRevision:
    if stage is None and _events is not None:
        events = _events
        stage = lambda name: events.put((job.revision, name))  # noqa: E731 - a worker's own reporter
    return build_revision(
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
    )


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
) -> list[BuiltRevision]:
    """Every job's BuiltRevision, in job order; a CodegenError from any job is raised as is.

    progress(revision, stage) is called as each stage of a revision starts (see pipeline.STAGES), and
    with "done" when the revision is built.
    """
    global _events  # noqa: PLW0603 - inherited by the forked workers
    count = min(workers or default_workers(), len(jobs))
    if count <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        built: list[BuiltRevision] = []
        for job in jobs:
            built.append(run(job, _for_revision(progress, job.revision) if progress is not None else None))
            if progress is not None:
                progress(job.revision, "done")
        return built
    _import_heavy_modules()
    # the largest schemas first, so the last job to start is a short one
    order = sorted(range(len(jobs)), key=lambda i: -len(jobs[i].data))
    context = multiprocessing.get_context("fork")
    _events = context.Queue() if progress is not None else None
    try:
        with context.Pool(count, initializer=_ignore_interrupts) as pool:
            pending = {index: pool.apply_async(run, (jobs[index],)) for index in order}
            if progress is not None and _events is not None:
                _follow(jobs, pending, _events, progress)
            return [pending[index].get() for index in range(len(jobs))]
    finally:
        _events = None


def _for_revision(progress: Callable[[str, str], None], revision: str) -> Callable[[str], None]:
    return lambda stage: progress(revision, stage)


def _follow(
    jobs: Sequence[Job],
    pending: dict[int, AsyncResult[BuiltRevision]],
    events: Queue[tuple[str, str]],
    progress: Callable[[str, str], None],
) -> None:
    """Relay the workers' stage events until every job has finished (or failed)."""
    finished: set[int] = set()
    while len(finished) < len(jobs):
        try:
            progress(*events.get(timeout=0.1))
        except queue.Empty:
            pass
        for index, result in pending.items():
            if index not in finished and result.ready():
                finished.add(index)
                progress(jobs[index].revision, "done")


def _import_heavy_modules() -> None:
    """Import the engine and the formatter once, in the parent, before the workers are forked."""
    importlib.import_module("black")
    importlib.import_module("datamodel_code_generator")


def _ignore_interrupts() -> None:
    # The parent's handlers are for the parent: a worker ignores ^C and dies quietly when the pool
    # is terminated (SIGTERM).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
