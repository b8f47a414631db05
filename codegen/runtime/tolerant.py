"""What a tolerant parse gives (messages.parse_message and parse_result with `tolerant=True`):
made the first time a program names them, so a program that never parses tolerantly never makes
them (two frozen dataclasses are a twentieth of messages.py's import)."""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

from pydantic import ValidationError

__all__ = [
    "DroppedItem",
    "Tolerated",
    "json_copy",
    "pointer_into",
    "read_json",
    "reason",
    "sifted",
    "token",
]


@dataclass(frozen=True)
class DroppedItem:
    """One list item a tolerant parse left out, and why."""

    index: int
    """Its index in the list as received."""
    pointer: str
    """JSON pointer to it: `/tools/3` in a result, `/result/tools/3` in a message."""
    raw: object
    """The item as received, decoded JSON (dict, list, str, int, float, bool or None), unchanged:
    a copy of its own, which a later change to the input the caller passed never reaches."""
    reason: str
    """Why, in one line: the first problem its validation found (`/inputSchema/type: Input should be
    'object'`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "raw", json_copy(self.raw))  # frozen: set once, here

    def __str__(self) -> str:
        return f"{self.pointer} dropped: {self.reason}"


def json_copy(value: object) -> object:
    """A deep copy of decoded JSON, at any depth (a loop, not recursion): dicts and lists are
    copied (a mapping as a dict), strings, numbers, booleans and None shared (they never change),
    anything else deep-copied. A value met twice is copied once, so a cycle stays a cycle."""
    made: dict[int, object] = {}  # by id of the source: its copy (the sources outlive the loop)
    pending: list[object] = []  # sources whose copy is still empty

    def shell(member: object) -> object:
        if isinstance(member, _SHARED):
            return member
        known = made.get(id(member))
        if known is not None:
            return known
        fresh = _empty_like(member)
        if fresh is None:
            return copy.deepcopy(member)
        made[id(member)] = fresh
        pending.append(member)
        return fresh

    top = shell(value)
    while pending:
        source = pending.pop()
        target = made[id(source)]
        if isinstance(target, dict):
            into = cast("dict[object, object]", target)
            for key, member in cast("Mapping[object, object]", source).items():
                into[key] = shell(member)
        else:
            cast("list[object]", target).extend(
                [shell(member) for member in cast("list[object]", source)]
            )
    return top


_SHARED = (str, int, float, bool, type(None))


def _empty_like(value: object) -> dict[object, object] | list[object] | None:
    """An empty dict for a mapping, an empty list for a list, else None."""
    return {} if isinstance(value, Mapping) else [] if isinstance(value, list) else None


_ValueT_co = TypeVar("_ValueT_co", covariant=True)


@dataclass(frozen=True)
class Tolerated(Generic[_ValueT_co]):
    """What a tolerant parse gives: `value`, typed as the strict parse types it, without the list
    items it could not read, and `dropped`, each of those items in list order (empty when the
    input was valid: then `value` is exactly what the strict parse gives)."""

    value: _ValueT_co
    dropped: tuple[DroppedItem, ...] = ()


# JSON text at any depth. pydantic-core's parser stops at a fixed nesting depth (its recursion
# limit), which one item of a list may pass (a tool's inputSchema); this reader keeps the open
# containers in a list instead of on the stack, so a tolerant parse reads such text as it reads
# the same value decoded. Strict JSON only: what pydantic-core's parser refuses it refuses too
# (NaN, Infinity, a number a double cannot hold, control characters in strings).
_SPACE = re.compile(r"[ \t\n\r]*").match
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"').match
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?").match
_WORDS: dict[str, object] = {"true": True, "false": False, "null": None}


def read_json(text: bytes | bytearray) -> object:
    """The value of a JSON text, at any nesting depth; ValueError where it is not JSON."""
    source = bytes(text).decode("utf-8")  # UnicodeDecodeError is a ValueError
    open_: list[dict[str, object] | list[object]] = []  # the containers being read, innermost last
    keys: list[str] = []  # for each open object, the key of the value being read
    at = _skip(source, 0)
    while True:
        value, at = _value_start(source, at)
        if isinstance(value, _Opened):
            at = _skip(source, at)
            closer = "}" if isinstance(value.container, dict) else "]"
            if source.startswith(closer, at):
                value, at = value.container, at + 1  # empty
            else:
                open_.append(value.container)
                if isinstance(value.container, dict):
                    key, at = _key(source, at)
                    keys.append(key)
                continue
        # a whole value: into its container, then past the commas and closers after it
        while True:
            at = _skip(source, at)
            if not open_:
                if at != len(source):
                    raise ValueError(f"trailing characters at {at}")
                return value
            container = open_[-1]
            if isinstance(container, dict):
                container[keys[-1]] = value
            else:
                container.append(value)
            if source.startswith(",", at):
                at = _skip(source, at + 1)
                if isinstance(container, dict):
                    keys[-1], at = _key(source, at)
                break
            if not source.startswith("}" if isinstance(container, dict) else "]", at):
                kind = "object" if isinstance(container, dict) else "array"
                raise ValueError(f"expected ',' or the end of the {kind} at {at}")
            open_.pop()
            if isinstance(container, dict):
                keys.pop()
            value, at = container, at + 1


def _skip(source: str, at: int) -> int:
    """The index of the first character at or after `at` that is not white space."""
    found = _SPACE(source, at)
    return at if found is None else found.end()


@dataclass(frozen=True)
class _Opened:
    container: dict[str, object] | list[object]


def _value_start(source: str, at: int) -> tuple[object, int]:
    """The scalar at `at` and the index after it, or an _Opened container (at after its bracket)."""
    char = source[at : at + 1]
    if char == "{":
        return _Opened({}), at + 1
    if char == "[":
        return _Opened([]), at + 1
    if char == '"':
        return _string(source, at)
    found = _NUMBER(source, at)
    if found is not None:
        return _number(found.group(), bool(found.group(1) or found.group(2))), found.end()
    for word, value in _WORDS.items():
        if source.startswith(word, at):
            return value, at + len(word)
    raise ValueError(f"expected a value at {at}")


def _string(source: str, at: int) -> tuple[str, int]:
    found = _STRING(source, at)
    if found is None:
        raise ValueError(f"invalid string at {at}")
    token = found.group()
    if "\\" not in token:
        return token[1:-1], found.end()
    value: str = json.loads(token)
    value.encode("utf-8")  # a lone surrogate escape (\\ud800) is no text: UnicodeEncodeError
    return value, found.end()


def _number(token: str, fraction: bool) -> int | float:
    if not fraction:
        return int(token)
    value = float(token)
    if not math.isfinite(value):
        raise ValueError(f"the number {token[:20]} does not fit a double")
    return value


def _key(source: str, at: int) -> tuple[str, int]:
    """An object's key at `at`, and the index after its colon and the white space after that."""
    if not source.startswith('"', at):
        raise ValueError(f"expected a key at {at}")
    key, at = _string(source, at)
    at = _skip(source, at)
    if not source.startswith(":", at):
        raise ValueError(f"expected ':' at {at}")
    return key, _skip(source, at + 1)


def sifted(
    data: object, key: str, check: Callable[[object], object], where: str
) -> tuple[dict[str, object], tuple[DroppedItem, ...]] | None:
    """data (a list result) without the items of its list `key` that fail `check`, and those items
    (pointers under `where`); None when it has no such list or no item fails."""
    if not isinstance(data, Mapping):
        return None
    result = cast("Mapping[str, object]", data)
    items = result.get(key)
    if not isinstance(items, list):
        return None
    prefix = f"{where}/{token(key)}"
    kept: list[object] = []
    dropped: list[DroppedItem] = []
    for index, item in enumerate(cast("list[object]", items)):
        try:
            check(item)
        except ValidationError as exc:
            dropped.append(DroppedItem(index, f"{prefix}/{index}", item, reason(exc, item)))
        else:
            kept.append(item)
    return ({**result, key: kept}, tuple(dropped)) if dropped else None


def reason(exc: ValidationError, item: object) -> str:
    """The first problem of an item's validation, in one line of at most 300 characters:
    `/inputSchema/type: Input should be 'object'` (a JSON pointer into the item, then why)."""
    first = exc.errors(include_url=False, include_context=False, include_input=False)[0]
    where = pointer_into(item, first["loc"])
    more = exc.error_count() - 1
    text = (f"{where}: " if where else "") + first["msg"] + (f" (and {more} more)" if more else "")
    text = "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)
    return text if len(text) <= 300 else text[:299] + "…"


def pointer_into(value: object, loc: tuple[int | str, ...]) -> str:
    """A validation error's location as a JSON pointer into the value. Pydantic's location also
    names union arms and tags, which are no step into the value: they are skipped."""
    tokens: list[str] = []
    for position, part in enumerate(loc):
        if isinstance(value, Mapping) and isinstance(part, str) and part in value:
            value = cast("Mapping[str, object]", value)[part]
        elif (
            isinstance(value, list)
            and isinstance(part, int)
            and 0 <= part < len(cast("list[object]", value))
        ):
            value = cast("list[object]", value)[part]
        elif not (
            position == len(loc) - 1 and isinstance(value, Mapping) and isinstance(part, str)
        ):
            continue  # an arm or a tag; the last step into an object is a key it lacks
        tokens.append(token(str(part)))
    return "".join(f"/{token}" for token in tokens)


def token(key: str) -> str:
    """key as one JSON pointer token."""
    return key.replace("~", "~0").replace("/", "~1")
