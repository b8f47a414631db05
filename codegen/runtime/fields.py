"""What the surface's walks know from model classes alone (the surface engine, surface.py, asks
them; no table, no revision): the wire names of a class's fields, the model classes a field's type
may hold, and receive's notes of the keys a revision kept as unknown ones that the surface declares
(`remember`, read back by `arrived`), walked only where, by the classes, a note can be.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from functools import cache
from types import UnionType
from typing import (
    Annotated,
    Any,
    ForwardRef,
    Literal,
    TypeAlias,
    Union,
    cast,
    get_args,
    get_origin,
)

from pydantic import BaseModel
from pydantic_core import MISSING
from typing_extensions import TypeIs

__all__ = [
    "ARRIVED",
    "Foreign",
    "arrived",
    "attribute_wire",
    "classes_in",
    "declared_foreign",
    "holds_objects",
    "is_array",
    "model_classes_in",
    "quoted_names",
    "remember",
    "walked_keys",
    "walks_below",
    "wire_names",
]

# Where a received object keeps the keys it arrived with that its revision does not define
# (another revision's keys, sent by a peer as its own extension): (revision, keys).
ARRIVED = "_mcp_arrived"

# isinstance's classes on the hot paths as tuples: `a | b` there builds a union on every call.
_SEQUENCES = (list, tuple)
_HOLDERS = (list, dict, BaseModel, tuple)  # the cheap tests first: BaseModel's is an ABC's
_SCALARS = (str, int, float, bool, type(None))
# Builtins a quoted type may name that hold no model themselves (a container's arguments do).
_HOLD_NOTHING = frozenset({"list", "dict", "tuple", "str", "int", "float", "bool"})


@cache
def wire_names(model: type[BaseModel]) -> dict[str, str]:
    """Wire key -> attribute name, for a model's declared fields."""
    return {field.alias or name: name for name, field in model.model_fields.items()}


@cache
def attribute_wire(model: type[BaseModel]) -> dict[str, str]:
    """Attribute name -> wire key, for a model's declared fields."""
    return {name: field.alias or name for name, field in model.model_fields.items()}


@cache
def walked_keys(model: type[BaseModel]) -> frozenset[str]:
    """The wire keys of a surface class whose values send's fit walks: those whose type may hold
    a model (not scalars, not `Any`)."""
    return frozenset(
        field.alias or attribute
        for attribute, field in model.model_fields.items()
        if classes_in(field.annotation) != frozenset()
    )


def holds_objects(value: object) -> bool:
    """Whether a value may hold models below it (a model, a list or a map); a bool, not a
    narrowing isinstance: the walks keep the value as the object it is."""
    return isinstance(value, _HOLDERS)


def is_array(value: object) -> TypeIs[list[Any]]:
    """A JSON array (what isinstance cannot tell a type checker about its items)."""
    return isinstance(value, list)


def classes_in(annotation: object) -> frozenset[str] | None:
    """The names of the model classes a field of this type may hold, or None where that is not
    known (a name not yet defined, a type variable)."""
    classes = model_classes_in(annotation)
    return None if classes is None else frozenset(model.__name__ for model in classes)


def model_classes_in(annotation: object) -> frozenset[type[BaseModel]] | None:
    """The model classes a field of this type may hold, or None where that is not known. `Any`
    holds none: it is JSON the schema does not constrain, read as JSON (received) and dumped as
    pydantic dumps it (sent: a model object put there is not fitted, see docs/surface.md)."""
    found: set[type[BaseModel]] = set()
    # (type, the module a quoted name in it is written in: a type alias's own, like JSONValue's)
    pending: list[tuple[object, str | None]] = [(annotation, None)]
    seen: set[int] = set()
    while pending:
        kind, module = pending.pop()
        if isinstance(kind, ForwardRef):
            kind = kind.__forward_arg__
        if isinstance(kind, str):
            named = quoted_names(kind, module)
            if named is None:
                return None
            pending.extend((found_name, module) for found_name in named)
            continue
        if id(kind) in seen or kind is MISSING or kind is Any:
            continue
        seen.add(id(kind))
        origin = get_origin(kind)
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            found.add(kind)
        elif isinstance(kind, type) and issubclass(kind, _SCALARS):
            continue
        elif origin is None and getattr(cast(Any, kind), "__value__", None) is not None:
            alias = cast(Any, kind)  # a type alias
            pending.append(
                (alias.__value__, cast("str | None", getattr(alias, "__module__", None)))
            )
        elif origin is Annotated:
            pending.append((get_args(kind)[0], module))
        elif origin in (Union, UnionType, list, dict, tuple):
            pending.extend((arg, module) for arg in get_args(kind) if arg is not Ellipsis)
        elif origin is not Literal:
            return None
    return frozenset(found)


def quoted_names(text: str, module: str | None) -> list[object] | None:
    """What a quoted type (a type alias naming itself: `"list[JSONValue]"`) names, looked up in the
    module it is written in, never evaluated: the model classes it may hold are those of the names
    it subscripts and unites. None where it is not only names, None, subscripts, `|` and tuples of
    them, or a name is not found."""
    if module is None or module not in sys.modules:
        return None
    namespace = vars(sys.modules[module])
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return None
    named: list[object] = []
    pending: list[ast.expr] = [tree.body]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Name):
            if node.id in _HOLD_NOTHING:
                continue
            if node.id in namespace:
                named.append(namespace[node.id])
            else:
                return None
        elif isinstance(node, ast.Subscript):
            pending.extend((node.value, node.slice))
        elif isinstance(node, ast.Tuple):
            pending.extend(node.elts)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            pending.extend((node.left, node.right))
        elif not (isinstance(node, ast.Constant) and node.value is None):  # None holds nothing
            return None
    return named


# -- receive's notes: keys another revision defines, kept by the session's as unknown ones -------


def arrived(value: BaseModel, revision: str) -> frozenset[str]:
    """The keys value arrived with at revision that the revision does not define (`remember`)."""
    private = value.__pydantic_private__
    found = private.get(ARRIVED) if private else None
    if isinstance(found, tuple):
        arrived_at, keys = cast("tuple[str, frozenset[str]]", found)
        if arrived_at == revision:
            return keys
    return frozenset()


# (the revision's class, the surface's class beside it) -> the keys a note of that pair is of
Foreign: TypeAlias = Callable[[type[BaseModel], type[BaseModel]], frozenset[str]]


@cache
def declared_foreign(exact: type[BaseModel], surface: type[BaseModel]) -> frozenset[str]:
    """The keys the surface's class declares that the revision's class beside it does not: what
    the revision keeps as an unknown key where the surface has a property (`remember`'s default;
    the surface engine leaves out those sending treats alike with or without a note)."""
    return frozenset(wire_names(surface).keys() - attribute_wire(exact).values())


def remember(
    exact: object, surface: object, revision: str, foreign: Foreign = declared_foreign
) -> None:
    """Walk the revision's object and the surface's side by side; where the revision kept a key as
    an unknown extra that the surface declares (another revision's property; foreign: which of
    those a pair of classes notes), note it on the surface object, so that sending it back at this
    revision keeps it. A loop, not recursion: a value of any JSON (a tool's inputSchema) may nest
    deeper than Python's stack."""
    walked = _REMEMBERED
    pending: list[tuple[object, object]] = [(exact, surface)]
    while pending:
        exact, surface = pending.pop()
        if isinstance(exact, _SEQUENCES):  # the cheap tests first: BaseModel's is an ABC's
            if isinstance(surface, _SEQUENCES):
                items = cast("list[object]", exact)
                pending.extend(zip(items, cast("list[object]", surface), strict=False))
            continue
        if isinstance(exact, dict):
            if isinstance(surface, dict):
                theirs = cast("dict[str, object]", surface)
                pending.extend(
                    (mine, theirs[key])
                    for key, mine in cast("dict[str, object]", exact).items()
                    if key in theirs
                )
            continue
        pair = (type(exact), type(surface), foreign)
        fields = walked.get(pair)  # met before: a pair of model classes
        if fields is None:
            if not (isinstance(exact, BaseModel) and isinstance(surface, BaseModel)):
                continue
            fields = walked.setdefault(pair, _remembered(type(exact), type(surface), foreign))
        model, other = cast("BaseModel", exact), cast("BaseModel", surface)
        extra = model.__pydantic_extra__
        if extra:
            _note_foreign(other, extra, revision, foreign(type(model), type(other)))
        if fields:
            # as stored: reading a field the revision deprecates as an attribute would warn
            mine, theirs = model.__dict__, other.__dict__
            for mine_name, theirs_name in fields:
                inside: object = mine.get(mine_name)
                if isinstance(inside, _HOLDERS):
                    pending.append((cast(object, inside), theirs.get(theirs_name)))


def walks_below(exact: type[BaseModel], surface: type[BaseModel], foreign: Foreign) -> bool:
    """Whether `remember` walks into a field of a pair of these classes (it looks at the pair's own
    unknown keys either way)."""
    return bool(_remembered(exact, surface, foreign))


# (attribute of the revision's class, attribute of the surface's) of each field remember walks
_Walked: TypeAlias = tuple[tuple[str, str], ...]
# remember's fields to walk, by (the revision's class, the surface's, foreign): `_remembered`
_REMEMBERED: dict[tuple[type[object], type[object], Foreign], _Walked] = {}


def _note_foreign(
    surface: BaseModel, extra: dict[str, Any], revision: str, foreign: frozenset[str]
) -> None:
    """Note on the surface object the unknown keys of the revision's that are foreign ones."""
    noted = frozenset(key for key in extra if key in foreign)
    if noted:
        private = dict(surface.__pydantic_private__ or {})
        private[ARRIVED] = (revision, noted)
        object.__setattr__(surface, "__pydantic_private__", private)


@cache
def _remembered(exact: type[BaseModel], surface: type[BaseModel], foreign: Foreign) -> _Walked:
    """(attribute of exact's class, attribute of surface's) of the fields `remember` walks into:
    those both declare whose values may hold, at any depth, a pair of classes where a note can be
    (foreign keys); a field of scalars or `Any` holds none."""
    return tuple(
        (attribute, theirs)
        for attribute, theirs, mine_held, theirs_held in _paired_fields(exact, surface)
        if mine_held is None
        or theirs_held is None
        or any(_notes_below(mine, other, foreign) for mine in mine_held for other in theirs_held)
    )


_Paired = tuple[str, str, frozenset[type[BaseModel]] | None, frozenset[type[BaseModel]] | None]


@cache
def _paired_fields(exact: type[BaseModel], surface: type[BaseModel]) -> tuple[_Paired, ...]:
    """(attribute of exact's class, attribute of surface's, the model classes each may hold) of the
    fields both declare whose revision type may hold a model."""
    declared = wire_names(surface)
    paired: list[_Paired] = []
    for attribute, key in attribute_wire(exact).items():
        mine = model_classes_in(exact.model_fields[attribute].annotation)
        if key in declared and mine != frozenset():
            theirs = model_classes_in(surface.model_fields[declared[key]].annotation)
            paired.append((attribute, declared[key], mine, theirs))
    return tuple(paired)


@cache
def _may_pair(exact: type[BaseModel], surface: type[BaseModel]) -> bool:
    """Whether one JSON object can be read as both classes: not where the revision's class requires
    a constant (a content block's `type`) that the surface's class, having that key, cannot be."""
    wire = wire_names(surface)
    for attribute, field in exact.model_fields.items():
        key = field.alias or attribute
        mine = _constants_of(field.annotation) if field.is_required() else None
        theirs = _constants_of(surface.model_fields[wire[key]].annotation) if key in wire else None
        if mine is not None and theirs is not None and not mine & theirs:
            return False
    return True


def _constants_of(annotation: object) -> frozenset[object] | None:
    """The values a type of only Literal arms (and MISSING) allows, else None."""
    arms = get_args(annotation) if get_origin(annotation) in (Union, UnionType) else (annotation,)
    values: set[object] = set()
    for arm in arms:
        if arm is MISSING:
            continue
        if get_origin(arm) is not Literal:
            return None
        values.update(get_args(arm))
    return frozenset(values)


@cache
def _notes_below(exact: type[BaseModel], surface: type[BaseModel], foreign: Foreign) -> bool:
    """Whether `remember` can find a note in a pair of these classes or in the pairs their fields
    hold, at any depth: decided once per class pair from the classes' declared keys and field types
    (where a type is not known, it can)."""
    pending, seen = [(exact, surface)], {(exact, surface)}
    while pending:
        pair = pending.pop()
        if foreign(*pair):
            return True
        for _, _, mine_held, theirs_held in _paired_fields(*pair):
            if mine_held is None or theirs_held is None:
                return True
            for below in ((mine, other) for mine in mine_held for other in theirs_held):
                if below not in seen and _may_pair(*below):
                    seen.add(below)
                    pending.append(below)
    return False
