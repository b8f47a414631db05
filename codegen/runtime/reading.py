"""Reading JSON-RPC text: the errors for input that is no message (`MessageError`, `NotJSONError`:
one class for every revision, so `except MessageError` catches any revision's) and the readers
every revision's messages.py and the surface's wire.py share."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, TypeAlias, cast

from pydantic_core import from_json

__all__ = [
    "MessageError",
    "NotJSONError",
    "RawJSON",
    "holds_non_finite",
    "json_numbers_only",
    "json_object",
    "load",
    "load_any_depth",
    "may_hold_non_finite",
    "refuse_non_finite",
    "utf8",
]

RawJSON: TypeAlias = bytes | bytearray | str | Mapping[str, Any]


class MessageError(ValueError):
    """The input is not a JSON-RPC message: JSON that is not one (not an object, or none of
    method/result/error), or no JSON at all (NotJSONError). `code` is the JSON-RPC error code to
    answer it with: -32600 (Invalid Request) here, -32700 (Parse error) for NotJSONError."""

    code: int = -32600


class NotJSONError(MessageError):
    """The input is not JSON text, or JSON this reader refuses (NaN, Infinity, a number a double
    cannot hold): a JSON-RPC Parse error."""

    code = -32700


def utf8(text: str) -> bytes:
    """text as the UTF-8 bytes the readers scan and parse; MessageError for a str that has no UTF-8
    form (a lone surrogate such as '\\ud800'), which no JSON text is."""
    try:
        return text.encode()
    except UnicodeEncodeError as exc:
        raise NotJSONError(
            f"not JSON: the text has no UTF-8 form ({exc.reason} at index {exc.start})"
        ) from None


def load(raw: RawJSON) -> object:
    if isinstance(raw, str):
        raw = utf8(raw)  # a str subclass too: pydantic-core reads bytes alike
    if isinstance(raw, bytes | bytearray):
        try:
            # pydantic-core's parser, several times faster than json.loads (NaN, Infinity: not JSON)
            return from_json(raw, allow_inf_nan=False)
        except ValueError as exc:
            raise NotJSONError(f"not JSON: {exc}") from exc
    return raw


# Which text may hold NaN, Infinity or a number a double cannot hold (an exponent of three digits
# or more, 200 digits or more in a row): pydantic's JSON parser reads them as floats, which a value
# of any JSON keeps. One translate cuts the text down to the bytes those are written with: each
# digit as 0, e and E as e, N and I (where the words start) as N, what may come before or after a
# value (`[` `:` `,` `}` `]`) as `,`; quotes and minus signs stay, every other byte (letters, dots,
# plus signs, white space) is dropped. A bare NaN or Infinity then leaves `N,` (or ends the text),
# a number with a long exponent `,0e000` (`: -1.5E+400` leaves `,-00e000`), and most messages
# hold neither: a hex id's or base64's `3e456` comes after a quote, a letter or another digit
# (`"123e4567-...` leaves `"000e0000-`). A hit is only a hint (`"Acme Inc, Ltd"` gives one too),
# which the exact check (a second parse) weighs.
_SCAN_KEPT = b'0123456789eENI[:,}]"-'
_SCAN_TABLE = bytes.maketrans(_SCAN_KEPT, b'0000000000eeNN,,,,,"-')
_SCAN_DROPPED = bytes(byte for byte in range(256) if byte not in _SCAN_KEPT)
_DIGIT_RUN = re.compile(rb"[0-9]{200}").search
_ZERO, _MINUS, _COMMA = ord("0"), ord("-"), ord(",")


def may_hold_non_finite(raw: bytes | bytearray) -> bool:
    shape = raw.translate(_SCAN_TABLE, _SCAN_DROPPED)
    if shape.find(b"N,") >= 0 or shape.endswith(b"N"):
        return True
    at = shape.find(b"e000")
    while at >= 0:
        if _ends_a_number(shape, at):
            return True
        at = shape.find(b"e000", at + 1)
    return len(shape) >= 200 and shape.count(b"0") >= 200 and _DIGIT_RUN(raw) is not None


def _ends_a_number(shape: bytes | bytearray, at: int) -> bool:
    """Whether the exponent at `at` ends a number's mantissa: digits (and a `-`) right after the
    start of the text or what may come before a value. A mantissa of more than 64 digits counts."""
    if at == 0 or shape[at - 1] != _ZERO:  # no digit right before the e: a word
        return False
    start = at - 1
    while start > 0 and shape[start - 1] == _ZERO:
        start -= 1
        if at - start > 64:
            return True
    if start > 0 and shape[start - 1] == _MINUS:
        start -= 1
    return start == 0 or shape[start - 1] == _COMMA


def refuse_non_finite(raw: bytes | bytearray) -> None:
    """The exact check behind the hint: MessageError when the text holds NaN, Infinity or a number
    that overflows a double. Text that is not JSON at all is left to the reader that follows."""
    try:
        data = from_json(raw, allow_inf_nan=True)
    except ValueError:
        return
    if holds_non_finite(data):
        try:
            from_json(raw, allow_inf_nan=False)
        except ValueError as exc:  # the words NaN, Infinity
            raise NotJSONError(f"not JSON: {exc}") from exc
        raise NotJSONError(
            "not JSON this reader keeps: a number does not fit a double (it would read as infinity)"
        )


def json_numbers_only(raw: bytes | bytearray | str) -> None:
    """MessageError for text holding NaN, Infinity or a number that overflows a double, which
    pydantic's JSON parser reads as numbers (a number field refuses them, but a value of any JSON
    would keep them, and dump them as null). The exact check runs only on the scan's hint."""
    if isinstance(raw, str):
        raw = utf8(raw)
    if may_hold_non_finite(raw):
        refuse_non_finite(raw)


def json_object(raw: RawJSON) -> Mapping[str, object]:
    data = load(raw)
    if not isinstance(data, Mapping):
        raise MessageError("a JSON-RPC message is a JSON object")
    return cast("Mapping[str, object]", data)


def load_any_depth(raw: RawJSON) -> tuple[object, bool]:
    """raw decoded (load), and whether it is JSON text nested deeper than pydantic-core's parser
    reads (its recursion limit: one tool's inputSchema may pass it), then read by the tolerant
    reader, which has no depth limit: a tolerant parse reads such text as the same value decoded."""
    try:
        return load(raw), False
    except MessageError as exc:
        if not isinstance(raw, bytes | bytearray | str) or "recursion limit exceeded" not in str(
            exc
        ):
            raise
    from .tolerant import read_json  # made on the first text nested this deep

    try:
        return read_json(utf8(raw) if isinstance(raw, str) else raw), True
    except ValueError as exc:
        raise NotJSONError(f"not JSON: {exc}") from None


def holds_non_finite(data: object) -> bool:
    pending = [data]
    while pending:
        value = pending.pop()
        if type(value) is float and not math.isfinite(value):
            return True
        if isinstance(value, Mapping):
            pending.extend(cast("Mapping[str, object]", value).values())
        elif isinstance(value, list):
            pending.extend(cast("list[object]", value))
    return False
