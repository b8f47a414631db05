"""Renamed definitions: a removed and an added definition with (nearly) the same shape.

Similarity is the Jaccard index of each side's property names, required keys and property
schemas (annotations ignored); definitions pinning different constants (a `method`, a `type`, an
error `code`) are different things whatever their shape. Ties go to the longest common name prefix
(`JSONRPCError` -> `JSONRPCErrorResponse`), then the closest length.

The work follows the input's size, not removed x added: each definition's shape is read once
(its nodes charged to the run's budget under its own pointer), and a removed definition is scored
only against the added ones that could reach the threshold. Two key sets with a Jaccard index of
at least t share at least ceil(t * |keys|) keys, so they share one of the first |keys| -
ceil(t * |keys|) + 1 keys of each set when every set is ordered the same way (rarest first): the
prefix filter of set-similarity joins. Only those prefixes are indexed and looked up. What is left
can still be quadratic (hundreds of definitions that all look alike, renamed at once): the postings
looked at and the pairs scored have a budget of their own, sized as the run's is (per node of the
definitions compared), and past it the diff stops with MCG119 naming the removed definition being
paired and why, not a place that is in neither schema.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from codegen.errors import fail
from codegen.schema import budget, pointers, schemas
from codegen.diff.relation import essential
from codegen.schema.jsontypes import is_object
RENAME_SIMILARITY = 0.7
# The pairing's steps are counted as the run's budget counts nodes visited (~1.4 us each); set
# operations in C go through about this many keys in that time.
_KEYS_PER_STEP = 64
_TIES_PER_STEP = 4  # names compared for a tie (a common prefix, two lengths)
_THRESHOLD = Fraction(7, 10)  # RENAME_SIMILARITY as an exact fraction, for the prefix lengths


@dataclass(frozen=True)
class Shape:
    """What similarity compares of one definition, read once."""

    constants: frozenset[str]  # every `const` below it, as JSON
    keys: frozenset[str]  # property names, "!required" keys, "name=<property schema>"
    plain: str  # the whole schema without annotations, as JSON: compared when it has no keys

    def similarity(self, other: Shape) -> float:
        if self.constants != other.constants:
            return 0.0
        if not self.keys and not other.keys:
            return 1.0 if self.plain == other.plain else 0.0
        return len(self.keys & other.keys) / len(self.keys | other.keys)


def shape_of(schema: Any, pointer: str = "#", revision: str | None = None) -> Shape:
    """The shape of a schema at pointer in revision (the place its nodes are charged to)."""
    walk = schemas.all_subschemas(schema, pointer, revision=revision)
    constants = frozenset(json.dumps(node["const"]) for _, node in walk if "const" in node)
    return Shape(constants, frozenset(_keys(schema)), json.dumps(essential(schema), sort_keys=True))


def similarity(a: Any, b: Any) -> float:
    return shape_of(a).similarity(shape_of(b))


def find_renames(
    old_defs: Mapping[str, Any],
    new_defs: Mapping[str, Any],
    *,
    old_label: str | None = None,
    new_label: str | None = None,
) -> dict[str, str]:
    """Old name -> new name, for definitions only in old paired with definitions only in new
    (the labels: the revisions a budget running out names, with a pointer into that one).

    Greedy, in the order of the removed names: each takes the most similar added definition not
    yet taken, when that one is similar enough."""
    removed = sorted(set(old_defs) - set(new_defs))
    added = sorted(set(new_defs) - set(old_defs))
    if not removed or not added:
        return {}
    old_shapes = {name: shape_of(old_defs[name], _definition_pointer(name), old_label) for name in removed}
    new_shapes = {name: shape_of(new_defs[name], _definition_pointer(name), new_label) for name in added}
    nodes = sum(schemas.count_subschemas(old_defs[n]) for n in removed) + sum(
        schemas.count_subschemas(new_defs[n]) for n in added
    )
    candidates = _Candidates(old_shapes, new_shapes, _pairing_limit(nodes), old_label)
    renames: dict[str, str] = {}
    for name in removed:
        best = candidates.best(name, old_shapes[name])
        if best is not None:
            renames[name] = best
            candidates.take(best, new_shapes[best])
    return renames


def _pairing_limit(nodes: int) -> int:
    """The pairing's own budget: what the run's budget allows for the definitions it compares."""
    return budget.limit_for(nodes)


class _Candidates:
    """The added definitions not yet taken, grouped by shape (a hundred alike are scored once),
    with the shapes indexed by the keys of their prefixes (and the keyless ones by their whole
    plain schema, the only thing they can be similar by). Shapes are numbered: the index holds
    numbers, which sets gather without hashing a shape each time."""

    def __init__(
        self, old_shapes: Mapping[str, Shape], new_shapes: Mapping[str, Shape], limit: int, old_label: str | None
    ) -> None:
        frequency: dict[str, int] = {}
        for shape in (*old_shapes.values(), *new_shapes.values()):
            for key in shape.keys:
                frequency[key] = frequency.get(key, 0) + 1
        self._frequency = frequency
        self._limit = limit
        self._spent = 0
        self._old_label = old_label
        self._number: dict[Shape, int] = {}
        self._members: dict[int, dict[str, None]] = {}  # by shape number, names in order
        for name, shape in sorted(new_shapes.items()):
            self._members.setdefault(self._number.setdefault(shape, len(self._number)), {})[name] = None
        self._shapes = list(self._number)  # by number
        self._by_key: dict[tuple[frozenset[str], str], list[int]] = {}
        self._keyless: dict[tuple[frozenset[str], str], int] = {}
        for number, shape in enumerate(self._shapes):
            if shape.keys:
                for key in self._prefix(shape):
                    self._by_key.setdefault((shape.constants, key), []).append(number)
            else:
                self._keyless[(shape.constants, shape.plain)] = number

    def best(self, name: str, shape: Shape) -> str | None:
        """The added definition most similar to shape, when similar enough; ties go to the longest
        common name prefix, then the closest length, then the last name."""
        scored = [(shape.similarity(self._shapes[number]), number) for number in self._near(name, shape)]
        top = max((score for score, _ in scored), default=0.0)
        if top < RENAME_SIMILARITY:
            return None
        tied = [member for score, number in scored if score == top for member in self._members[number]]
        self._spend(name, len(tied) // _TIES_PER_STEP)
        return max(tied, key=lambda c: (len(os.path.commonprefix([name, c])), -abs(len(c) - len(name)), c))

    def take(self, name: str, shape: Shape) -> None:
        number = self._number[shape]
        del self._members[number][name]
        if not self._members[number]:
            del self._members[number]

    def _near(self, name: str, shape: Shape) -> list[int]:
        """The shapes with members left that may reach the threshold with shape."""
        if not shape.keys:
            keyless = self._keyless.get((shape.constants, shape.plain))
            return [keyless] if keyless is not None and keyless in self._members else []
        found: set[int] = set()
        for key in self._prefix(shape):
            posting = self._by_key.get((shape.constants, key), [])
            self._spend(name, len(posting) // _KEYS_PER_STEP)
            found.update(posting)
        near = sorted(found.intersection(self._members))
        size = len(shape.keys)
        self._spend(name, sum(1 + (size + len(self._shapes[n].keys)) // _KEYS_PER_STEP for n in near))
        return near

    def _spend(self, name: str, steps: int) -> None:
        self._spent += steps + 1
        if self._spent > self._limit:
            raise fail(
                "MCG119",
                f"pairing the removed definitions with added ones of a similar shape (renames) takes "
                f"more than {self._limit:,} steps: too many of them look alike",
                revision=self._old_label,
                pointer=_definition_pointer(name),
                hint="definitions renamed in bulk are paired by shape, and these look alike; rename "
                "fewer at once or make them differ",
            )

    def _prefix(self, shape: Shape) -> list[str]:
        """Its rarest keys, as many as a similar enough shape must share one of."""
        ordered = sorted(shape.keys, key=lambda key: (self._frequency[key], key))
        size = len(ordered)
        needed = -((-_THRESHOLD.numerator * size) // _THRESHOLD.denominator)  # ceil(t * size)
        return ordered[: size - needed + 1]


def _definition_pointer(name: str) -> str:
    return pointers.join("#", "$defs", name)


def _keys(schema: Any) -> set[str]:
    if not is_object(schema):
        return set()
    properties: Mapping[str, Any] = schema.get("properties") or {}
    return (
        set(properties)
        | {f"!{k}" for k in schema.get("required") or ()}
        | {f"{k}={json.dumps(essential(v), sort_keys=True)}" for k, v in properties.items()}
    )
