"""Which `diff` changes explain one type checker error: evidence read from the error's message.

A checker names what it trips on: the class (`"ListToolsResult"`), the attribute or keyword
(`"etag"`), a literal value (`Literal['decline']`). A change is scored by the evidence it shares
with the message; the changes with the best score are the causes, none is "unexplained".

- a literal value the change added or removed (an `enum` value, a `const`, a `Literal` arm): 4,
  plus 1 when its class or attribute is named too;
- its class and its attribute both named: 3;
- its class named, where the change is to the class itself (removed, renamed, retyped): 2;
- its attribute alone (pyright's `Argument missing for parameter "etag"` names no class), or the
  class of a change to one of its attributes: 1.

Names are matched whole (a quoted `"etag"`, a class as a word), so `Tool` does not match
`ListToolsResult` and `action` does not match `transaction`.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from typing import cast

from codegen.analysis.naming import field_name
from codegen.diff.report import Change

_LITERAL = re.compile(r"Literal\[([^\[\]]*)\]")
_QUOTED = re.compile(r"\"([^\"\s]+)\"|'([^'\s]+)'")
# the kinds whose old/new sides are JSON values (wire `enum`/`const`); others are type texts
_JSON_VALUES = frozenset({"enum-value-added", "enum-value-removed", "const-changed"})
# changes that no type checker can see
_INVISIBLE = frozenset({"description-changed"})


def causes(message: str, changes: Iterable[Change]) -> tuple[Change, ...]:
    """The changes that best explain an error with this message (empty: unexplained), in the
    diff's own order."""
    quoted = _quoted_names(message)
    values = literal_values(message)
    scored: list[tuple[int, Change]] = []
    for change in changes:
        if change.kind in _INVISIBLE:
            continue
        score = _score(change, message, quoted, values)
        if score:
            scored.append((score, change))
    best = max((score for score, _ in scored), default=0)
    return tuple(sorted((c for score, c in scored if score == best), key=Change.sort_key))


def _score(change: Change, message: str, quoted: frozenset[str], values: frozenset[str]) -> int:
    named_class = any(_word(name, message) for name in _class_names(change))
    named_field = bool(change.path) and bool(_attribute_names(change) & quoted)
    if changed_values(change) & values:
        return 5 if named_class or named_field else 4
    if named_class and named_field:
        return 3
    if named_class and not change.path:  # the class itself changed (removed, renamed, retyped)
        return 2
    return 1 if named_class or named_field else 0


def _word(name: str, text: str) -> bool:
    """name occurs in text as a whole identifier."""
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text) is not None


def _quoted_names(message: str) -> frozenset[str]:
    return frozenset(a or b for a, b in _QUOTED.findall(message))


def _class_names(change: Change) -> frozenset[str]:
    """The class a change is in; a class renamed is named by code under its old name too."""
    names = {change.subject} if change.subject else set[str]()
    if change.kind.endswith("-renamed") and not change.path:
        names |= {name for name in (change.old, change.new) if name and name.isidentifier()}
    return frozenset(names)


def _attribute_names(change: Change) -> frozenset[str]:
    """The names code uses for the change's last path element: the attribute (Python API axis) or
    the wire key and its snake_case attribute (wire axis; either field-naming style); an attribute
    renamed, under its old name too."""
    last = change.path[-1] if change.path else ""
    if not last or last == "*":
        return frozenset()
    names = {last, field_name(last)} if change.axis == "wire" else {last}
    if change.kind.endswith("-renamed"):
        names |= {name for name in (change.old, change.new) if name and name.isidentifier()}
    return frozenset(names)


def literal_values(text: str) -> frozenset[str]:
    """The values inside every `Literal[...]` of a type text or message, as JSON texts
    (`Literal['a', 1]` -> {'"a"', '1'})."""
    found: set[str] = set()
    for inside in _LITERAL.findall(text):
        for item in _split(inside):
            value = _python_value(item)
            if value is not None:
                found.add(value)
    return frozenset(found)


def changed_values(change: Change) -> frozenset[str]:
    """The literal values a change added or removed, as JSON texts: a wire `enum`/`const` change
    lists them; a Python annotation retyped is compared Literal by Literal."""
    if change.kind in _JSON_VALUES:
        return _json_values(change.old) | _json_values(change.new)
    old, new = literal_values(change.old or ""), literal_values(change.new or "")
    return old ^ new


def _json_values(text: str | None) -> frozenset[str]:
    """`"a", "b"` (the diff's list of values) -> {'"a"', '"b"'}."""
    if not text:
        return frozenset()
    try:
        items: object = json.loads(f"[{text}]")
    except ValueError:
        return frozenset()
    if not isinstance(items, list):
        return frozenset()
    listed = cast("list[object]", items)
    return frozenset(json.dumps(item) for item in listed if item is None or isinstance(item, str | int | float | bool))


def _split(inside: str) -> list[str]:
    """`'a, b', 'c'` -> ["'a, b'", "'c'"]: commas inside quotes do not split."""
    parts: list[str] = []
    current: list[str] = []
    quote = ""
    for char in inside:
        if quote:
            current.append(char)
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
            current.append(char)
        elif char == ",":
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    parts.append("".join(current).strip())
    return [p for p in parts if p]


def _python_value(item: str) -> str | None:
    """A Literal member as Python writes it (`'a'`, `"a"`, `1`, `True`, `None`) as a JSON text."""
    try:
        value: object = ast.literal_eval(item)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if value is None or isinstance(value, str | int | float | bool):
        return json.dumps(value)
    return None
