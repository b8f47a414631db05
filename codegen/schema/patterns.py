"""Regular expressions from untrusted schemas: what compiling them may cost, bounded before any is
compiled.

The generated models check `pattern` and `patternProperties` with pydantic-core's engine (Rust's
`regex` crate), and so do the generator and `check_output`, so that a pattern means one thing
everywhere. That engine matches in linear time, but compiling is another matter: it expands every
counted repetition and every Unicode class into its automaton, so `\\w{190}N` (9 bytes) costs 0.13 s
and ~10 MiB, just under the engine's own 10 MiB size limit, and 400 such patterns cost a minute and
a gigabyte. Compiling cannot be interrupted, so the cost is estimated from the pattern's syntax tree
(Python's own regex parser) before anything is compiled, with weights measured on pydantic-core
(microseconds per copy: `\\w` 430, `\\pL` 270, `\\d` 30, `.` 10, a literal 1):

- a pattern may cost at most MAX_PATTERN_COST units (about 50 ms), and be MAX_PATTERN_LENGTH long;
- all patterns of one document together at most MAX_TOTAL_COST (about half a second), and there may
  be at most MAX_PATTERNS of them.

Matching is linear in the string, but not in the pattern: the search starts at every offset, and a
counted repetition of a class (`a.{2000}c`) keeps every copy alive at once once the engine's lazy
DFA gives up, so each byte costs a step per copy (5 s for 512 KiB). The same syntax tree gives that
worst cost per byte (match_cost, nanoseconds per byte, weights measured the same way), and:

- a pattern may cost at most MAX_MATCH_COST per byte (a 512 KiB string in about half a second, in
  the models and everywhere else: nested and adjacent repetitions multiply and add up as copies);
- check_output matches a string only when its length times that cost fits in what is left of its
  time budget (codegen/checks/outputschema.py).

A deterministic estimate rather than a timer: whether a schema is accepted must not depend on how
busy or fast the machine is. A linear-time engine of our own (google-re2) was the other choice, but
its `\\w` and `\\d` are ASCII where pydantic's are Unicode: a second engine would give patterns a
second meaning, and the models would still compile every pattern with pydantic-core.
"""

from __future__ import annotations

import functools
import importlib
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MAX_PATTERN_LENGTH = 1_000
MAX_PATTERN_COST = 50_000
MAX_TOTAL_COST = 500_000
MAX_PATTERNS = 2_000
MAX_MATCH_COST = 1_000  # nanoseconds per byte of the string matched: 512 KiB in about half a second
_BASE = 20  # compiling the smallest pattern (and building its validator)

# Compile weights, in microseconds of pydantic-core compile time per copy (measured, rounded up).
_LITERAL = 1
_LITERAL_FOLDED = 8  # under (?i)
_ANY = 20  # `.`, a negated literal, a wide range
_CATEGORY = {"CATEGORY_WORD": 450, "CATEGORY_NOT_WORD": 450, "CATEGORY_DIGIT": 60, "CATEGORY_NOT_DIGIT": 60}
_OTHER_CATEGORY = 20  # \s, \S

# Match weights, in nanoseconds per byte of the string per copy, at worst (measured on pydantic-core
# with strings built to keep its lazy DFA from settling, rounded up). An unanchored search runs
# the pattern from every offset: `a.{2000}c` keeps up to 2,000 copies of `.` alive at once, the
# engine's DFA runs out of states, and its fallback steps through every live copy at every byte
# (5 s for 512 KiB). A class costs about the same whatever it holds (`[ab]` 3.9, `.` 5.1, `\w` 7.0,
# `\pL` 7.7); a literal, of either case, narrows what stays alive (`(?i)a{300}c`: 3.4 in all).
_MATCH_LITERAL = 1
_MATCH_CLASS = 4  # a class of ASCII literals and ranges
_MATCH_ANY = 6  # `.`, a negated literal or class, a range past ASCII, \d, \s and their negations
_MATCH_WORD = 8  # \w, \W (and \p{...}, estimated as \w)
_MAX_NESTING = 100
_COUNTED = re.compile(r"\{(\d+)(?:,(\d*))?\}")


@dataclass
class Tally:
    """The patterns of one document seen so far, and their estimated cost."""

    count: int = 0
    cost: int = 0

    def add(self, pattern: str) -> str | None:
        """Count pattern in; the reason it is refused, or None."""
        self.count += 1
        if self.count > MAX_PATTERNS:
            return f"more than {MAX_PATTERNS:,} patterns in one schema"
        own = cost(pattern)
        if isinstance(own, str):
            return own
        if own > MAX_PATTERN_COST:
            return (
                f"compiling it would cost about {own:,} units, over the limit of {MAX_PATTERN_COST:,} for one pattern"
            )
        per_byte = match_cost(pattern)
        if isinstance(per_byte, int) and per_byte > MAX_MATCH_COST:
            return f"matching it may take {per_byte:,} ns per byte of a string, over the limit of {MAX_MATCH_COST:,}"
        self.cost += own
        if self.cost > MAX_TOTAL_COST:
            return (
                f"the patterns of this schema would cost about {self.cost:,} units to compile, "
                f"over the limit of {MAX_TOTAL_COST:,}"
            )
        return None


@functools.lru_cache(maxsize=4096)
def cost(pattern: str) -> int | str:
    """The estimated compile cost of pattern, or why it cannot be estimated (a reason to refuse it)."""
    return _estimate(pattern, _compile_atom, _BASE, _CATEGORY["CATEGORY_WORD"])


@functools.lru_cache(maxsize=4096)
def match_cost(pattern: str) -> int | str:
    """The estimated worst cost of matching pattern, in nanoseconds per byte of the string searched
    (every copy of every atom live at once), or why it cannot be estimated."""
    return _estimate(pattern, _match_atom, 0, _MATCH_WORD)


_Atom = Callable[[str, Any, bool], int]


def _estimate(pattern: str, atom: _Atom, base: int, costliest: int) -> int | str:
    if len(pattern) > MAX_PATTERN_LENGTH:
        return f"it is {len(pattern):,} characters long, over the limit of {MAX_PATTERN_LENGTH:,}"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # FutureWarning on `[[`, read as pydantic reads it anyway
            tree = _parser().parse(_python_spelling(pattern))
        return base + _cost(tree, atom, folded=bool(tree.state.flags & re.IGNORECASE), depth=0)
    except _TooDeep:
        return f"it nests groups more than {_MAX_NESTING} levels deep"
    except (re.error, OverflowError, RecursionError, ValueError):
        # Syntax Python does not read (the engine may, or may refuse it with its own message): as
        # if every character were the costliest class, repeated as often as any count says.
        estimate = base + len(pattern) * costliest
        for low, high in _COUNTED.findall(pattern):
            estimate *= max(int(low[:12]), int(high[:12] or 0), 1)
            if estimate > MAX_TOTAL_COST:
                break
        return estimate


class _TooDeep(Exception):
    pass


def _parser() -> Any:
    """The standard library's regex parser (re._parser, 3.11+)."""
    return importlib.import_module("re._parser")


def _python_spelling(pattern: str) -> str:
    """pattern with the syntax pydantic's engine reads and Python's does not, respelled for the
    estimate: a Unicode property (`\\p{L}`, `\\pL`) as `\\w` (the costliest class), a group name
    `(?<n>` as `(?P<n>`, `\\z` as `\\Z`."""
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            following = pattern[index + 1]
            if following in "pP":
                end = pattern.find("}", index) + 1 if pattern[index + 2 : index + 3] == "{" else index + 3
                out.append("\\w")
                index = end if end > index else len(pattern)
                continue
            out.append("\\Z" if following == "z" else pattern[index : index + 2])
            index += 2
            continue
        if pattern.startswith("(?<", index) and pattern[index + 3 : index + 4] not in ("=", "!"):
            out.append("(?P<")
            index += 3
            continue
        out.append(char)
        index += 1
    return "".join(out)


def _cost(items: Any, atom: _Atom, *, folded: bool, depth: int) -> int:
    """The cost of a parsed pattern: its atoms' costs (atom), each counted once per copy the
    engine makes of it, so repetitions nested or side by side multiply or add up."""
    if depth > _MAX_NESTING:
        raise _TooDeep
    total = 0
    for op, value in items:
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, sub = value
            copies = low + 1 if high == _parser().MAXREPEAT else max(high, 1)
            total += copies * _cost(sub, atom, folded=folded, depth=depth + 1)
        elif name == "SUBPATTERN":
            _, add_flags, _, sub = value
            total += _cost(sub, atom, folded=folded or bool(add_flags & re.IGNORECASE), depth=depth + 1)
        elif name == "ATOMIC_GROUP":
            total += _cost(value, atom, folded=folded, depth=depth + 1)
        elif name == "BRANCH":
            total += sum(_cost(branch, atom, folded=folded, depth=depth + 1) for branch in value[1])
        elif name in ("ASSERT", "ASSERT_NOT"):
            total += _cost(value[1], atom, folded=folded, depth=depth + 1)
        elif name == "GROUPREF_EXISTS":
            total += sum(_cost(branch, atom, folded=folded, depth=depth + 1) for branch in value[1:] if branch)
        else:
            total += atom(name, value, folded)
    return total


def _compile_atom(name: str, value: Any, folded: bool) -> int:
    if name == "LITERAL":
        return _LITERAL_FOLDED if folded else _LITERAL
    if name in ("NOT_LITERAL", "ANY"):
        return _ANY
    if name == "IN":
        return sum(_class_item(item) for item in value)
    return _LITERAL  # anchors, boundaries, back-references (refused later by the engine itself)


def _class_item(item: tuple[Any, Any]) -> int:
    op, value = item
    name = str(op)
    if name == "CATEGORY":
        return _CATEGORY.get(str(value), _OTHER_CATEGORY)
    if name == "RANGE":
        _, high = value
        return _LITERAL if high < 0x80 else _ANY
    if name == "NEGATE":
        return _ANY
    return _LITERAL


def _match_atom(name: str, value: Any, folded: bool) -> int:
    if name == "LITERAL":
        return _MATCH_LITERAL
    if name in ("NOT_LITERAL", "ANY"):
        return _MATCH_ANY
    if name == "IN":  # one step whatever the class holds: its costliest member
        return max([_MATCH_CLASS, *(_match_class_item(item) for item in value)])
    return _MATCH_LITERAL  # anchors, boundaries


def _match_class_item(item: tuple[Any, Any]) -> int:
    op, value = item
    name = str(op)
    if name == "CATEGORY":
        return _MATCH_WORD if str(value) in ("CATEGORY_WORD", "CATEGORY_NOT_WORD") else _MATCH_ANY
    if name == "RANGE":
        return _MATCH_CLASS if value[1] < 0x80 else _MATCH_ANY
    if name == "NEGATE":
        return _MATCH_ANY
    return _MATCH_CLASS
