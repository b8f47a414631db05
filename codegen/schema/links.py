"""Descriptions are written for the spec site: their links (`[text](/specification/...)`) are
relative to it. `absolute-links` makes them absolute, so they work in an IDE or on another site."""

from __future__ import annotations

import re

from codegen.schema.jsontypes import JSON, is_array, is_object

SPEC_SITE = "https://modelcontextprotocol.io"
# a Markdown link or image target that starts at the site root (not `//host`, not a relative path)
_ROOT_RELATIVE = re.compile(r"(\]\()(/(?!/))")
_TEXT_KEYS = frozenset({"description", "title", "$comment"})
_DATA_KEYS = frozenset({"const", "default", "enum", "examples"})  # instances: never rewritten


def absolute(document: JSON) -> JSON:
    """A copy of a schema document whose description links are absolute on the spec site.

    Only the text keywords of a schema are rewritten; a property that happens to be named
    `description` (under `properties`) is a schema, and values (`const`, `default`) are data."""
    if is_object(document):
        return {key: _keyword(key, value) for key, value in document.items()}
    if is_array(document):
        return [absolute(item) for item in document]
    return document


def _keyword(key: str, value: JSON) -> JSON:
    if key in _DATA_KEYS:
        return value
    if key in _TEXT_KEYS and isinstance(value, str):
        return _rewrite(value)
    return absolute(value)


def _rewrite(text: str) -> str:
    return _ROOT_RELATIVE.sub(lambda m: f"{m.group(1)}{SPEC_SITE}{m.group(2)}", text)
