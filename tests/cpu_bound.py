"""Cost bounds that hold on a busy machine: a piece of work runs in a forked child under rlimits,
and the child's own CPU time for it is what the test asserts, as a multiple of a reference task's
CPU time measured the same way in the same process (assert_within): a machine half as fast slows
both alike, so no bound is a number of seconds.

Wall time measures the machine as much as the work (two tests failed at load 4-10 on 2 cores);
CPU time of the work alone does not grow when other processes compete for the cores. The child is
forked (no imports to pay again), limited to a few times the bound in CPU seconds and in address
space, so a runaway ends there instead of stalling the suite; a child still running after
HANG_SECONDS of wall time (blocked, not computing) is killed and reported as hung.
"""

from __future__ import annotations

import gc
import json
import math
import os
import pickle
import re
import resource
import select
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

HANG_SECONDS = 120.0
MEMORY_HEADROOM_MIB = 2048  # address space the work may add to what the test runner already maps


@dataclass(frozen=True)
class Measured:
    value: Any  # what the work returned (picklable), or None if it raised
    raised: str | None  # "<ExceptionType>: <message>" when the work raised
    cpu_seconds: float  # user + system time of the work, in the child


def measure(work: Callable[[], Any], *, cpu_limit: float = 30.0) -> Measured:
    """Run work() in a forked child; its result (or exception) and the CPU seconds it took."""
    read_end, write_end = os.pipe()
    # the runner's objects stay out of the child's garbage collections: one that touched them would
    # copy the runner's heap page by page and bill the work for it
    gc.freeze()
    pid = os.fork()
    if pid != 0:
        gc.unfreeze()
    if pid == 0:  # the child: never returns into the test runner
        status = 0
        try:
            os.close(read_end)
            limit = math.ceil(cpu_limit)
            resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))
            resource.setrlimit(resource.RLIMIT_AS, (_mapped_bytes() + MEMORY_HEADROOM_MIB * 2**20,) * 2)
            started = time.process_time()
            try:
                outcome: tuple[Any, str | None] = (work(), None)
            except BaseException as exc:  # noqa: BLE001 - reported to the parent as a value
                outcome = (None, f"{type(exc).__name__}: {str(exc)[:2000]}")
            cpu = time.process_time() - started
            try:
                payload = pickle.dumps((*outcome, cpu))
            except Exception:  # noqa: BLE001 - an unpicklable result is reported, not lost
                payload = pickle.dumps((None, f"unpicklable result: {traceback.format_exc()[-500:]}", cpu))
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(payload)
        except BaseException:  # noqa: BLE001
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    chunks: list[bytes] = []
    give_up = time.monotonic() + HANG_SECONDS
    try:
        with os.fdopen(read_end, "rb") as pipe:
            while True:
                ready, _, _ = select.select([pipe], [], [], max(0.0, give_up - time.monotonic()))
                if not ready:
                    raise AssertionError(f"hung: the work still ran after {HANG_SECONDS:.0f} s (killed)")
                chunk = os.read(pipe.fileno(), 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
    finally:
        if not chunks:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    if not chunks:
        signum = -os.waitstatus_to_exitcode(status)
        killed = f" by {signal.Signals(signum).name}" if signum > 0 else ""
        raise AssertionError(f"the work ended{killed} without a result (CPU limit {cpu_limit:.0f} s)")
    value, raised, cpu = pickle.loads(b"".join(chunks))
    return Measured(value, raised, cpu)


def _mapped_bytes() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def reference_cpu(*, fresh: bool = False) -> float:
    """CPU seconds of the reference task (the median of three, each in a forked child), cached per
    process unless fresh: ~0.15 s on an idle 2-core machine of 2026."""
    global _reference
    if fresh or _reference is None:
        runs = sorted(measure(_reference_task).cpu_seconds for _ in range(3))
        _reference = runs[1]
    return _reference


_reference: float | None = None


def _reference_task() -> int:
    """Fixed pure-Python work of the kinds the bounded tasks do: JSON text read and written,
    dicts built and sorted, a regular expression over text."""
    records = [{"id": i, "name": f"tool-{i % 97}", "tags": [str(i % 7), "x" * (i % 13)]} for i in range(20_000)]
    total = 0
    for _ in range(2):
        text = json.dumps(records)
        total += len(json.loads(text))
        total += len(sorted(records, key=lambda record: (record["name"], -record["id"])))
        total += len(re.findall(r'"name": "tool-(\d+)"', text))
    return total


def assert_within(measured: Measured, times: float, *, what: str = "the work") -> None:
    """measured's CPU time within times the reference task's. A run past it has the reference
    measured again, now, under the load the run had, before it fails."""
    reference = reference_cpu()
    if measured.cpu_seconds > times * reference:
        reference = max(reference, reference_cpu(fresh=True))
    assert measured.cpu_seconds <= times * reference, (
        f"{what} took {measured.cpu_seconds:.2f} s of CPU, {measured.cpu_seconds / reference:.1f}x the reference "
        f"task ({reference:.3f} s in this process); the bound is {times:g}x"
    )
