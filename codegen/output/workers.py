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
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.pool import AsyncResult

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


def run(job: Job) -> BuiltRevision:
    return build_revision(
        job.revision,
        job.package,
        job.data,
        job.sha256,
        limits=job.limits,
        examples=job.examples,
        options=job.options,
        errata_selection=job.errata,
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
    started: Callable[[Job, int], None] | None = None,
) -> list[BuiltRevision]:
    """Every job's BuiltRevision, in job order; a CodegenError from any job is raised as is.

    started(job, index) is called as each job is handed out.
    """
    count = min(workers or default_workers(), len(jobs))
    if count <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        built: list[BuiltRevision] = []
        for index, job in enumerate(jobs):
            if started is not None:
                started(job, index)
            built.append(run(job))
        return built
    _import_heavy_modules()
    # the largest schemas first, so the last job to start is a short one
    order = sorted(range(len(jobs)), key=lambda i: -len(jobs[i].data))
    with multiprocessing.get_context("fork").Pool(count, initializer=_ignore_interrupts) as pool:
        pending: dict[int, AsyncResult[BuiltRevision]] = {}
        for index in order:
            if started is not None:
                started(jobs[index], index)
            pending[index] = pool.apply_async(run, (jobs[index],))
        return [pending[index].get() for index in range(len(jobs))]


def _import_heavy_modules() -> None:
    """Import the engine and the formatter once, in the parent, before the workers are forked."""
    importlib.import_module("black")
    importlib.import_module("datamodel_code_generator")


def _ignore_interrupts() -> None:
    # The parent's handlers are for the parent: a worker ignores ^C and dies quietly when the pool
    # is terminated (SIGTERM).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
