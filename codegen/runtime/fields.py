"""What the surface's walks know from model classes alone (the surface engine, surface.py, asks
them; no table, no revision): the wire names of a class's fields, the model classes a field's type
may hold, and receive's notes of the keys a revision kept as unknown ones that the surface declares
(`remember`, read back by `arrived`), walked only where, by the classes, a note can be.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from collections.abc import Callable
from functools import cache
from types import UnionType
from typing import (
    Annotated,
    Any,
    AnyStr,
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
    "note_conditions",
    "quoted_names",
    "remember",
    "walked_keys",
    "wire_names",
]

# Where a received object keeps the keys it arrived with that its revision does not define
# (another revision's keys, sent by a peer as its own extension): (revision, keys).
ARRIVED = "_mcp_arrived"

# isinstance's classes on the hot paths as tuples: `a | b` there builds a union on every call.
_SEQUENCES = (list, tuple)
_HOLDERS = (BaseModel, list, tuple, dict)
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
    exact: object,
    surface: object,
    revision: str,
    raw: object = None,
    foreign: Foreign = declared_foreign,
) -> None:
    """Walk the revision's object and the surface's side by side; where the revision kept a key as
    an unknown extra that the surface declares (another revision's property; foreign: which of
    those a pair of classes notes), note it on the surface object, so that sending it back at this
    revision keeps it. A loop, not recursion: a value of any JSON (a tool's inputSchema) may nest
    deeper than Python's stack. raw: the JSON text both were read from, if they were; where it
    spells none of the keys a note can be of, nothing is walked (`_spells_note_key`)."""
    if raw is not None and not _spells_note_key(raw, type(exact), type(surface), foreign):
        return
    pending: list[tuple[object, object]] = [(exact, surface)]
    walked = _REMEMBERED
    while pending:
        exact, surface = pending.pop()
        if isinstance(exact, BaseModel) and isinstance(surface, BaseModel):
            pair = (type(exact), type(surface), foreign)
            if exact.__pydantic_extra__:
                _note_foreign(surface, exact.__pydantic_extra__, revision, foreign(*pair[:2]))
            fields = walked[pair] if pair in walked else walked.setdefault(pair, _remembered(*pair))
            # as stored: reading a field the revision deprecates as an attribute would warn
            mine, theirs = vars(exact), vars(surface)
            for mine_name, theirs_name in fields:
                inside: object = mine.get(mine_name)
                if holds_objects(inside):
                    pending.append((inside, theirs.get(theirs_name)))
        elif isinstance(exact, _SEQUENCES) and isinstance(surface, _SEQUENCES):
            pairs = zip(cast("list[object]", exact), cast("list[object]", surface), strict=False)
            pending.extend(pairs)
        elif isinstance(exact, dict) and isinstance(surface, dict):
            theirs = cast("dict[str, object]", surface)
            pending.extend(
                (mine, theirs[key])
                for key, mine in cast("dict[str, object]", exact).items()
                if key in theirs
            )


# (attribute of the revision's class, attribute of the surface's) of each field remember walks
_Walked: TypeAlias = tuple[tuple[str, str], ...]
# remember's fields to walk, by (the revision's class, the surface's, foreign): `_remembered`
_REMEMBERED: dict[tuple[type[BaseModel], type[BaseModel], Foreign], _Walked] = {}


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


def _spells_note_key(raw: object, exact: type[Any], surface: type[Any], foreign: Foreign) -> bool:
    """Whether JSON text raw may hold a note below a pair of these classes (`note_conditions`):
    it spells, in quotes, every string some pair's classes require and one of the keys a note of
    that pair is of; or it has a `\\u` or `\\/` escape, the only ones that can spell those
    strings otherwise (they are printable and hold no quote or backslash). A string spelled where
    it does not stand as a key or constant only costs the walk. Anything but text may hold one."""
    if not (issubclass(exact, BaseModel) and issubclass(surface, BaseModel)):
        return True
    found = _spelled_conditions(exact, surface, foreign)
    if found is None:
        return True
    if isinstance(raw, str):
        return _meets(raw, found[0], ("\\u", "\\/"))
    if isinstance(raw, bytes | bytearray):
        return _meets(bytes(raw), found[1], (b"\\u", b"\\/"))
    return True


def _meets(
    raw: AnyStr,
    conditions: tuple[tuple[tuple[AnyStr, ...], tuple[AnyStr, ...]], ...],
    escapes: tuple[AnyStr, AnyStr],
) -> bool:
    """Whether raw spells every required string and one noted key of a condition, or an escape."""
    if not conditions:
        return False
    if escapes[0] in raw or escapes[1] in raw:
        return True
    for required, noted in conditions:  # loops written out: this runs on every message
        for needle in required:
            if needle not in raw:
                break
        else:
            for needle in noted:
                if needle in raw:
                    return True
    return False


_Spelled = tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
_SpelledOctets = tuple[tuple[tuple[bytes, ...], tuple[bytes, ...]], ...]


@cache
def _spelled_conditions(
    exact: type[BaseModel], surface: type[BaseModel], foreign: Foreign
) -> tuple[_Spelled, _SpelledOctets] | None:
    """note_conditions quoted, as text and as UTF-8: the required strings that fewest conditions
    share first (most likely absent: a condition is let go at its first one missing). None where a
    note may be anywhere, or a string is one JSON text must escape (then never found plain)."""
    conditions = note_conditions(exact, surface, foreign)
    if conditions is None:
        return None
    every = {text for required, noted in conditions for text in required | noted}
    if not all(text.isprintable() and '"' not in text and "\\" not in text for text in every):
        return None
    shared = Counter(text for required, _ in conditions for text in required)
    spelled = tuple(
        (
            tuple(f'"{text}"' for text in sorted(required, key=lambda text: (shared[text], text))),
            tuple(f'"{key}"' for key in sorted(noted)),
        )
        for required, noted in sorted(conditions, key=lambda c: (sorted(c[0]), sorted(c[1])))
    )
    octets = tuple(
        (tuple(text.encode() for text in required), tuple(key.encode() for key in noted))
        for required, noted in spelled
    )
    return spelled, octets


@cache
def note_conditions(
    exact: type[BaseModel], surface: type[BaseModel], foreign: Foreign = declared_foreign
) -> frozenset[tuple[frozenset[str], frozenset[str]]] | None:
    """Where a note `remember` makes below a pair of these classes can be: per pair of classes
    reachable as `_notes_below` reaches them whose foreign keys are not none, (the strings an
    object both classes read spells: their required keys and the string constants those hold; the
    foreign keys). An object noted there was read as both classes, so it spells every one of the
    former and one of the latter. None where a type is not known, or a class may read other keys
    than its wire names (`_required_strings`): a note may then be anywhere."""
    conditions: set[tuple[frozenset[str], frozenset[str]]] = set()
    pending, seen = [(exact, surface)], {(exact, surface)}
    while pending:
        mine, theirs = pending.pop()
        noted = foreign(mine, theirs)
        if noted:
            required = (_required_strings(mine), _required_strings(theirs))
            if required[0] is None or required[1] is None:
                return None
            conditions.add((required[0] | required[1], noted))
        for _, _, mine_held, theirs_held in _paired_fields(mine, theirs):
            if mine_held is None or theirs_held is None:
                return None
            for below in ((held, other) for held in mine_held for other in theirs_held):
                if below not in seen and _may_pair(*below):
                    seen.add(below)
                    pending.append(below)
    return frozenset(conditions)


# the model validator inbound = "lenient" adds: it reads null as absent, which a required key is not
_LENIENT_NULLS = "_lenient_nulls"


@cache
def _required_strings(model: type[BaseModel]) -> frozenset[str] | None:
    """The strings every JSON object a class reads spells: its required wire keys, and the value of
    each of those that is one string constant (a content block's `type`). None where the class may
    read other keys than its wire names (attribute names too, or a validator of a user's base
    class that may read anything)."""
    config = model.model_config
    decorators = model.__pydantic_decorators__
    own = set(decorators.model_validators) - {_LENIENT_NULLS}
    if config.get("validate_by_name") or config.get("populate_by_name") or own:
        return None
    if decorators.field_validators or decorators.root_validators:
        return None
    strings: set[str] = set()
    for attribute, field in model.model_fields.items():
        if field.is_required():
            strings.add(field.alias or attribute)
            constants = _constants_of(field.annotation)
            if constants is not None and len(constants) == 1:
                (constant,) = constants
                if isinstance(constant, str):
                    strings.add(constant)
    return frozenset(strings)
