"""A work budget for the walks over a schema, so that the cost of a run follows the input's size,
not its shape.

A 2 KB schema can describe an exponential amount of work to a walk that follows references
(`A_i = allOf[A_{i+1}, A_{i+1}]`, 30 levels): the walks that expand `$ref`/`allOf` memoise what
they have seen, and every walk charges the nodes it visits (schemas.all_subschemas, the `allOf`
merge, the diff's comparisons) to the budget of the run. What is left over after memoising is still
bounded: a run over N schema nodes may visit WORK_PER_NODE * N + WORK_FLOOR of them in all; past
that it stops with MCG119, naming the pointer where the expansion grew. Every MCP revision uses
under a tenth of its budget (tests/test_bad_input_schema.py measures it).

The budget is held in a context variable for the duration of one stage (`scope`), so the helpers
deep inside analysis, lowering and diffing charge it without every signature carrying it; outside
a scope nothing is counted.
"""

from __future__ import annotations

import contextvars
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass

from codegen.errors import fail
WORK_PER_NODE = 100  # MCP revisions: about 9 per node to generate, at most 12 to diff
WORK_FLOOR = 100_000  # small schemas: the fixed walks of the pipeline, with room to spare
# A member merged into an `allOf` is not visited once: every later stage walks the merged schema
# and the engine writes a field for each of its properties, at many times the cost of a visit.
MERGED_WEIGHT = 10


@dataclass
class Budget:
    limit: int
    revision: str | None
    spent: int = 0

    def charge(self, pointer: str, units: int = 1, revision: str | None = None) -> None:
        self.spent += units
        if self.spent > self.limit:
            raise fail(
                "MCG119",
                f"the schema expands to more than {self.limit:,} nodes when its references and `allOf` "
                "are followed (shared parts counted at each use)",
                revision=revision or self.revision,
                pointer=pointer,
                hint="a schema whose size multiplies through references is refused; share fewer parts "
                "in place (`allOf`) or nest them less deeply",
            )


_current: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("work_budget", default=None)


def limit_for(nodes: int) -> int:
    """The budget of a run over a schema of this many nodes."""
    return WORK_PER_NODE * nodes + WORK_FLOOR


@contextmanager
def scope(nodes: int, revision: str | None) -> Generator[Budget, None, None]:
    """A budget for the work inside the block, sized for a schema of `nodes` schema objects."""
    budget = Budget(limit_for(nodes), revision)
    token = _current.set(budget)
    try:
        yield budget
    finally:
        _current.reset(token)


@contextmanager
def resume(budget: Budget) -> Generator[Budget, None, None]:
    """The work inside the block goes on charging budget: a later stage of the same work (in this
    process, or in a worker that was handed the budget with what it had spent)."""
    token = _current.set(budget)
    try:
        yield budget
    finally:
        _current.reset(token)


def charge(pointer: str, units: int = 1, revision: str | None = None) -> None:
    """Count work against the current budget (nothing happens outside a scope); revision names
    the document pointer is in when it is not the scope's own (one side of a diff)."""
    budget = _current.get()
    if budget is not None:
        budget.charge(pointer, units, revision)


def current() -> Budget | None:
    return _current.get()
