"""The most specific arm of a union of models that no rule tells apart: the engine, the same in
every revision package. A package's _specific.py holds its unions' tables and `decide`, a Decider
over them; the models' discriminator (base.MostSpecific, its _base.py's `most_specific`) loads that
module, and so this one, on the first value to decide for.

pydantic's smart union validates every arm and keeps the one that fills the most declared fields
(counting those of the models inside), the first on a tie. The shapes (derived from the schema by
mcp-codegen, see its codegen/analysis/specific.py) say, per arm, which keys it requires and, per
key it declares, a signature of what validates the value there (equal signatures validate alike)
and, for a model held there, that model's shape. From the keys a value has, one level deep, they
often single out one arm that fills more than every other arm that can validate at all, or as
much, alike, and comes first: the smart union would keep it whenever it validates. That arm alone
is tried first, and the smart union over every arm (tag ANY_ARM) when it fails. Any other value
goes to the smart union directly, so the arm chosen is always the smart union's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

from .base import ANY_ARM

__all__ = ["ANY_ARM", "Decider", "Table"]


# An object model's table: (required keys, ((declared key, signature, the held model's table or
# None), ...)): nested tuples of constants, which Python loads as one constant at import. A
# package's tables: per union, its arms in order, (tag, table).
Table: TypeAlias = tuple[tuple[str, ...], tuple[tuple[str, int, Any], ...]]

# dict, typed Any: `type(v) is _DICT` tests the exact type as `type(v) is dict` does, without the
# type checkers narrowing v to a dict of unknown items
_DICT: Any = dict


class Decider:
    """A package's `decide(union, value)` over its tables: the tag of the union's arm to try first
    for value, or ANY_ARM (a union's shapes are made on its first choice)."""

    __slots__ = ("_arms", "_shapes")

    def __init__(self, arms: Mapping[str, tuple[tuple[str, Table], ...]]) -> None:
        self._arms = arms
        self._shapes: dict[str, tuple[tuple[str, _Shape], ...]] = {}

    def shapes(self, union: str) -> tuple[tuple[str, _Shape], ...]:
        found = self._shapes.get(union)
        if found is None:
            found = self._shapes[union] = tuple(
                (tag, _Shape(table)) for tag, table in self._arms[union]
            )
        return found

    def __call__(self, union: str, value: dict[Any, Any]) -> str:
        return _decide(self.shapes(union), value)


class _Shape:
    """What an object model requires, and per key it declares: (signature, the held model's
    shape)."""

    __slots__ = ("keys", "required")

    def __init__(self, table: Table) -> None:
        self.required = table[0]
        self.keys: dict[str, tuple[int, _Shape | None]] = {
            key: (signature, None if held is None else _Shape(held))
            for key, signature, held in table[1]
        }


def _decide(arms: tuple[tuple[str, _Shape], ...], value: dict[Any, Any]) -> str:
    could = [(tag, shape) for tag, shape in arms if _could_be(shape, value)]
    for index, (tag, shape) in enumerate(could):
        if all(
            _outranks(shape, other, value, earlier=index < position)
            for position, (_, other) in enumerate(could)
            if position != index
        ):
            return tag
    return ANY_ARM


def _object(value: Any) -> dict[Any, Any] | None:
    """value where it is a JSON object (a dict exactly), else None."""
    if type(value) is _DICT:
        found: dict[Any, Any] = value
        return found
    return None


def _could_be(shape: _Shape, value: dict[Any, Any]) -> bool:
    """Whether value has every key the model requires (and an object where it holds a model,
    with the keys that model requires): else that arm cannot validate."""
    for name in shape.required:
        if name not in value:
            return False
        inner = shape.keys[name][1]
        if inner is not None:
            held = _object(value[name])
            if held is None or not _could_be(inner, held):
                return False
    return True


def _outranks(a: _Shape, b: _Shape, value: dict[Any, Any], *, earlier: bool) -> bool:
    """Whether the smart union keeps a over b when both validate value."""
    filled = _fills(a, b, value)
    return filled == 1 or (filled == 0 and earlier)


def _fills(a: _Shape, b: _Shape, value: dict[Any, Any]) -> int | None:
    """1 when a surely fills more fields of value than b, 0 when as many and alike, None when the
    keys cannot tell."""
    if any(name in value and name not in a.keys for name in b.keys):
        return None
    outcome = 1 if any(name in value and name not in b.keys for name in a.keys) else 0
    for name, (signature, inner_b) in b.keys.items():
        if name not in value:
            continue
        own, inner_a = a.keys[name]
        if own == signature:
            continue
        held = _object(value[name])
        if inner_a is None or inner_b is None or held is None:
            return None
        if _fills(inner_a, inner_b, held) != 1:
            return None
        outcome = 1
    return outcome
