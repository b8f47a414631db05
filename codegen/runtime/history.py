"""What other pinned MCP revisions define where a revision refuses a message: the engine every
revision package's `history.py` runs over its own tables.

A peer that speaks another revision sends keys and values a revision does not define: a content
`type`, a `method`, an enum value, a key added later or removed since. Where a revision's models
refuse such a message, pydantic's error says what it expected; `History` says why, in one line:
`/result/content/0: type `audio` is defined from 2025-03-26 on; ...`.

What a revision package's history.py offers, through its `History`:

- `explain(error, model)`: the first problem of a `ValidationError` from validating `model` (a class
  or type alias of the package) that another revision's key or value explains, or None;
- `explain_message(error, raw, pending)` and `explain_result(error, method)`: the same for an
  error of its `parse_message(raw, pending)` and of its `parse_result(method, raw)`;
- `foreign_keys(obj)`: the keys of a parsed object that the revision does not define and another
  does. Such keys are valid there (no MCP object is closed): the models keep them (extra-keys
  "lossless", the default), never refuse them, and report them only when asked.

A revision package passes in its tables (derived by the generator from every pinned schema, each
written by the revisions that define what it names, `by_place` turns them around): `Keys` (per
class, the keys other revisions declare there and it does not, with those revisions) and `Values`
(per class and property, the values and union tags they allow there), its models module (to
resolve forward references), its `Explanation` class (whose `revision` and `pinned` are the
package's) and, where it reads messages, what its messages.py finds for a message (`Reader`).
Nothing here runs unless called: parsing never imports a history module.
"""

from __future__ import annotations

import json
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import (
    Annotated,
    Any,
    ClassVar,
    ForwardRef,
    Generic,
    Literal,
    TypeAlias,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
)

from pydantic import BaseModel, Tag, ValidationError
from pydantic_core import MISSING, ErrorDetails

from .reading import MessageError, RawJSON, json_object

__all__ = ["Explanation", "History", "Keys", "Pending", "Reader", "Values", "by_place"]

Keys: TypeAlias = dict[str, dict[str, tuple[str, ...]]]
"""Class -> a key other revisions declare there and this one does not -> the revisions declaring
it."""
Values: TypeAlias = dict[tuple[str, str], dict[tuple[str, str], tuple[str, ...]]]
"""(class, property; "" for a union or enum alias itself) -> (union tag key, or "" for the value
itself; the value as JSON text) other revisions allow there and this one does not -> those
revisions."""
Pending: TypeAlias = Mapping[int, str] | Mapping[str, str] | Mapping[str | int, str]
"""The methods of the requests awaiting a response, by request id (a `dict[int, str]` will do)."""

_Place = TypeVar("_Place", str, tuple[str, str])
_Item = TypeVar("_Item", str, tuple[str, str])


def by_place(
    spans: Mapping[tuple[str, ...], Mapping[_Place, tuple[_Item, ...]]],
) -> dict[_Place, dict[_Item, tuple[str, ...]]]:
    """A table as a revision package writes it (the revisions defining something -> place -> what
    they define there) turned around: place -> what -> the revisions, both sorted."""
    found: dict[_Place, dict[_Item, tuple[str, ...]]] = {}
    for revisions, places in spans.items():
        for place, items in places.items():
            row = found.setdefault(place, {})
            for item in items:
                row[item] = revisions
    return {place: dict(sorted(found[place].items())) for place in sorted(found)}


_MAX_ERRORS = 100  # problems of one error looked at (a message may have thousands)
_MAX_PATH = 120  # characters of a JSON pointer shown
_MAX_LINE = 300


@dataclass(frozen=True)
class Explanation:
    """Why another revision would take what this one refused (or kept as an unknown key). A
    revision package's subclass gives `revision` its default and `pinned` its value."""

    path: str  # JSON pointer of the key or value in the input, escaped for one line
    subject: str  # a key: "`ttlMs`"; a value: "method `tasks/get`", "type `audio`"
    defined_in: tuple[str, ...]  # the pinned revisions that define it, oldest first
    revision: str  # the revision whose models refused it
    pinned: ClassVar[tuple[str, ...]] = ()  # every pinned revision, oldest first

    @property
    def span(self) -> str:
        """The revisions in words: "defined from 2025-11-25 on", "defined up to 2025-11-25", ..."""
        pinned = self.pinned
        at = [pinned.index(r) for r in self.defined_in]
        first, last = self.defined_in[0], self.defined_in[-1]
        if len(at) == 1 or at != list(range(at[0], at[-1] + 1)):
            return "defined only in " + ", ".join(self.defined_in)
        if at[-1] == len(pinned) - 1:
            return f"defined from {first} on"
        if at[0] == 0:
            return f"defined up to {last}"
        return f"defined from {first} to {last}"

    def line(self, context: str) -> str:
        """One line: where, what, which revisions define it, and context (what this side speaks)."""
        where = f"{self.path}: " if self.path else ""  # the whole value has no pointer token
        return _bounded(f"{where}{self.subject} is {self.span}; {context}")

    def __str__(self) -> str:
        return self.line(f"these models are revision {self.revision}")


E = TypeVar("E", bound=Explanation)


@dataclass(frozen=True)
class Reader:
    """What a revision's messages.py finds for a message, as its parse_message and parse_result do:
    the class a decoded message validates with (by its pending request's method), the generic
    envelope a wire class is also checked against, and the type a method's result validates with."""

    message_class: Callable[[Mapping[str, object], Mapping[str | int, str] | None], object]
    envelope_of: Mapping[Any, object]
    result_type: Callable[[str], object]


class History(Generic[E]):
    """A revision's explanations, over its tables (see the module's docstring)."""

    def __init__(
        self,
        revision: str,
        keys: Keys,
        values: Values,
        explanation: type[E],
        models: types.ModuleType,
        reader: Reader | None = None,
    ) -> None:
        self._revision = revision
        self._keys = keys
        self._values = values
        self._explanation = explanation
        self._models = models
        self._reader = reader

    def explain(self, error: ValidationError, model: object) -> E | None:
        """The first problem of error (from validating model: a class or type alias of this
        package) that a key or value another pinned revision defines explains; None when none does.
        """
        for details in error.errors(include_url=False)[:_MAX_ERRORS]:
            found = self._explained(details, model)
            if found is not None:
                return found
        return None

    def explain_message(
        self, error: ValidationError, raw: RawJSON, pending: Pending | None = None
    ) -> E | None:
        """explain() for an error of `parse_message(raw, pending)`: the class it validated with is
        found as parse_message finds it (and the generic envelope that class is also checked
        against)."""
        reader = self._reader
        if reader is None:
            return None
        try:
            message = json_object(raw)
            model = reader.message_class(
                message, cast("Mapping[str | int, str] | None", pending)
            )  # read by key only
        except MessageError:
            return None
        envelope = reader.envelope_of.get(model)
        return self.explain(error, model) or (
            self.explain(error, envelope) if envelope is not None else None
        )

    def explain_result(self, error: ValidationError, method: str) -> E | None:
        """explain() for an error of `parse_result(method, raw)`."""
        return (
            None if self._reader is None else self.explain(error, self._reader.result_type(method))
        )

    def foreign_keys(self, obj: BaseModel) -> list[E]:
        """Every key of obj (and of the objects in it) that this revision keeps as an unknown key
        and another revision defines there, in document order. Opt-in: parsing never looks."""
        # Each value carries the start of its pointer as shown (_step), bounded: a step costs the
        # same at any depth, so the walk is linear in the size of obj.
        found: list[E] = []
        pending: list[tuple[object, str]] = [(obj, "")]
        while pending:
            value, path = pending.pop()
            if isinstance(value, BaseModel):
                extra = value.__pydantic_extra__ or {}
                for key in extra:
                    defined = self._foreign_key(type(value), key)
                    if defined:
                        found.append(
                            self._explanation(
                                _shown(_step(path, key)), f"`{key}`", defined, self._revision
                            )
                        )
                # the values as stored: reading a deprecated field as an attribute would warn
                stored = vars(value)
                inside = [
                    (stored.get(name), _step(path, wire))
                    for name, wire in _attribute_wire(type(value)).items()
                ]
                pending.extend(reversed(inside))
            elif isinstance(value, list | tuple):
                items = cast("Sequence[object]", value)
                pending.extend(
                    reversed([(item, _step(path, str(index))) for index, item in enumerate(items)])
                )
            elif isinstance(value, dict):
                members = cast("Mapping[str, object]", value)
                pending.extend(
                    reversed([(item, _step(path, str(key))) for key, item in members.items()])
                )
        return found

    def _explained(self, details: ErrorDetails, model: object) -> E | None:
        """Walk one problem's location through the types from model: the first key there that a
        class does not declare (and another revision does), or the value at its end (a tag or an
        enum value another revision allows)."""
        here = model
        owner: tuple[object, str] = (model, "")  # the class (or alias) and property the value is in
        path: list[str] = []
        steps = details["loc"]
        index = 0
        while True:
            here = self._unwrapped(here)
            if index == len(steps):
                return self._foreign_value(details, owner, path)
            step = steps[index]
            model = _model(here)
            if model is not None:
                if not isinstance(step, str):
                    return None
                path.append(step)
                declared = _fields(model).get(step)
                if declared is None:
                    defined = self._foreign_key(model, step)
                    return (
                        self._explanation(_pointer(path), f"`{step}`", defined, self._revision)
                        if defined
                        else None
                    )
                owner, here, index = (model, step), declared, index + 1
                continue
            arms = self._arms(here)
            if arms is not None:
                chosen = _arm(arms, step)
                if chosen is None and isinstance(step, str) and index + 1 < len(steps):
                    index += 1  # a label of another union over the same arms (the surface's alias)
                    continue
                if chosen is None:
                    return None
                here, index = chosen[0], index + chosen[1]
                continue
            origin, arguments = get_origin(here), get_args(here)
            if origin in (list, tuple) and isinstance(step, int) and arguments:
                path.append(str(step))
                here, index = arguments[0], index + 1
            elif origin is dict and isinstance(step, str) and len(arguments) == 2:
                path.append(step)
                here, index = arguments[1], index + 1
            else:
                return None

    def _foreign_key(self, model: type, key: str) -> tuple[str, ...]:
        for cls in model.__mro__:
            defined = self._keys.get(cls.__name__, {}).get(key)
            if defined:
                return defined
        return ()

    def _foreign_value(
        self, details: ErrorDetails, owner: tuple[object, str], path: list[str]
    ) -> E | None:
        """A union tag or an enum value this revision refused at owner and another one allows."""
        context: dict[str, Any] = details.get("ctx") or {}
        if details["type"] == "union_tag_invalid":
            discriminator, value = (
                str(context.get("discriminator", "")).strip("'\""),
                context.get("tag"),
            )
        elif details["type"] in ("literal_error", "enum"):
            discriminator, value = "", details.get("input")
        else:
            return None
        if not isinstance(value, str | int | float | bool) and value is not None:
            return None
        place, key = owner
        names = (
            [c.__name__ for c in place.__mro__]
            if isinstance(place, type)
            else [str(getattr(place, "__name__", ""))]
        )
        for name in names:
            defined = self._values.get((name, key), {}).get((discriminator, json.dumps(value)))
            if defined:
                shown = value if isinstance(value, str) else json.dumps(value)
                subject = f"{discriminator or key or 'value'} `{shown}`"
                return self._explanation(_pointer(path), _escaped(subject), defined, self._revision)
        return None

    def _unwrapped(self, here: object) -> object:
        """A type without its Annotated metadata, type-alias indirection and forward references."""
        for _ in range(64):
            value: object = None if isinstance(here, type) else getattr(here, "__value__", None)
            if isinstance(here, str | ForwardRef):
                name = here.__forward_arg__ if isinstance(here, ForwardRef) else here
                here = getattr(self._models, name, None)
            elif get_origin(here) is Annotated:
                here = get_args(here)[0]
            elif value is not None:  # a TypeAliasType
                here = value
            else:
                return here
        return here

    def _arms(self, here: object) -> list[tuple[object, str | None]] | None:
        """A union's arms (MISSING and None left out), each with its Tag, if it has one."""
        if get_origin(here) not in (Union, types.UnionType):
            return None
        arms: list[tuple[object, str | None]] = []
        for arm in get_args(here):
            tag: str | None = None
            if get_origin(arm) is Annotated:
                tag = next((m.tag for m in get_args(arm)[1:] if isinstance(m, Tag)), None)
                arm = get_args(arm)[0]
            if arm is not MISSING and arm is not type(None):
                arms.append((self._unwrapped(arm), tag))
        return arms


def _model(here: object) -> type[BaseModel] | None:
    return here if isinstance(here, type) and issubclass(here, BaseModel) else None


def _arm(arms: list[tuple[object, str | None]], step: str | int) -> tuple[object, int] | None:
    """The arm a location step goes into, and whether the step was the arm's label (1) or not (0):
    pydantic labels a union's arm by its Tag, its class name, or its tag value."""
    if len(arms) == 1:
        return arms[0][0], 0
    for arm, tag in arms:
        if tag is not None and tag == step:
            return arm, 1
    for arm, _ in arms:
        if isinstance(arm, type) and arm.__name__ == step:
            return arm, 1
    for arm, _ in arms:
        if isinstance(arm, type) and issubclass(arm, BaseModel) and _pins(arm, step):
            return arm, 1
    return None


def _pins(model: type[BaseModel], value: object) -> bool:
    """Whether a field of model allows only literal values, value among them (a tag)."""
    return any(get_origin(t) is Literal and value in get_args(t) for t in _fields(model).values())


@cache
def _fields(model: type[BaseModel]) -> dict[str, object]:
    """Wire key -> the type of each declared field."""
    return {info.alias or name: info.annotation for name, info in model.model_fields.items()}


@cache
def _attribute_wire(model: type[BaseModel]) -> dict[str, str]:
    return {name: info.alias or name for name, info in model.model_fields.items()}


def _step(path: str, token: str) -> str:
    """path (the start of a pointer as _pointer shows it, at most _MAX_PATH + 1 characters) one
    token further, cut alike: what _pointer shows of the whole path starts so."""
    if len(path) > _MAX_PATH:
        return path
    return (path + _pointer_token(token[: _MAX_PATH + 1]))[: _MAX_PATH + 1]


def _shown(path: str) -> str:
    """A path made by _step as _pointer shows it."""
    return path if len(path) <= _MAX_PATH else path[: _MAX_PATH - 1] + "…"


def _pointer(tokens: Sequence[str]) -> str:
    text = "".join(_pointer_token(token) for token in tokens)
    return text if len(text) <= _MAX_PATH else text[: _MAX_PATH - 1] + "…"


def _pointer_token(token: str) -> str:
    """One step of a pointer as shown: `/`, the token escaped for a pointer, then for one line."""
    return _escaped("/" + token.replace("~", "~0").replace("/", "~1"))


def _escaped(text: str) -> str:
    """text on one line: what is not printable (newlines, escapes, bidi controls) as \\x.. /
    \\u.."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def _bounded(line: str) -> str:
    return line if len(line) <= _MAX_LINE else line[: _MAX_LINE - 1] + "…"
