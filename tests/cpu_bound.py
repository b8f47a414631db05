"""Cost bounds that hold on a busy machine: a piece of work runs in a forked child under rlimits,
and the child's own CPU time for it is what the test asserts.

Wall time measures the machine as much as the work (two tests failed at load 4-10 on 2 cores);
CPU time of the work alone does not grow when other processes compete for the cores. The child is
forked (no imports to pay again), limited to a few times the bound in CPU seconds and in address
space, so a runaway ends there instead of stalling the suite; a child still running after
HANG_SECONDS of wall time (blocked, not computing) is killed and reported as hung.
"""

from __future__ import annotations

import gc
import math
import os
import pickle
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
