"""JSON as documentation writes it: `//` and `/* */` comments, trailing commas, and several values
in one block. Comments and commas are removed outside strings only; the result is parsed with the
standard library, so anything else that is not JSON stays an error."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

__all__ = ["loads_all", "strip"]


def strip(text: str) -> str:
    """text without comments and trailing commas (string contents untouched)."""
    return _drop_trailing_commas(_drop_comments(text))


def _scan(text: str, on_code: Callable[[str, int], tuple[str, int]]) -> str:
    """Copy text, handing each position outside strings to on_code (which returns output and the
    next index)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        else:
            piece, i = on_code(text, i)
            out.append(piece)
    return "".join(out)


def _drop_comments(text: str) -> str:
    def code(source: str, i: int) -> tuple[str, int]:
        if source.startswith("//", i):
            end = source.find("\n", i)
            return "", len(source) if end == -1 else end
        if source.startswith("/*", i):
            end = source.find("*/", i + 2)
            return " ", len(source) if end == -1 else end + 2
        return source[i], i + 1

    return _scan(text, code)


def _drop_trailing_commas(text: str) -> str:
    def code(source: str, i: int) -> tuple[str, int]:
        if source[i] == ",":
            j = i + 1
            while j < len(source) and source[j] in " \t\r\n":
                j += 1
            if j < len(source) and source[j] in "}]":
                return "", i + 1
        return source[i], i + 1

    return _scan(text, code)


def loads_all(text: str) -> list[Any]:
    """Every JSON value in text, in order (a block may hold several, one after another)."""
    decoder = json.JSONDecoder()
    cleaned = strip(text)
    values: list[Any] = []
    position = 0
    while True:
        while position < len(cleaned) and cleaned[position] in " \t\r\n":
            position += 1
        if position >= len(cleaned):
            return values
        value, position = decoder.raw_decode(cleaned, position)
        values.append(value)
