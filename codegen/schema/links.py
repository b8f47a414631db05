"""Descriptions are written for the spec site: their links (`[text](/specification/...)`) are
relative to it. `absolute-links` makes them absolute, so they work in an IDE or on another site.

They also carry TypeDoc links (`{@link Tool}`), which the schema's conversion from TypeScript
mangles: `{@link CallToolRequest | tools/call}` arrives as `{@link CallToolRequesttools/call}`.
`readable` renders each as text a docstring reader understands: `` `CallToolRequest` (`tools/call`) ``."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from codegen.schema.jsontypes import JSON, is_array, is_object

SPEC_SITE = "https://modelcontextprotocol.io"
# a Markdown link or image target that starts at the site root (not `//host`, not a relative path)
_ROOT_RELATIVE = re.compile(r"(\]\()(/(?!/))")
_TEXT_KEYS = frozenset({"description", "title", "$comment"})
_DATA_KEYS = frozenset({"const", "default", "enum", "examples"})  # instances: never rewritten


def absolute(document: JSON) -> JSON:
    """A copy of a schema document whose description links are absolute on the spec site."""
    return _texts(document, lambda text: _ROOT_RELATIVE.sub(lambda m: f"{m.group(1)}{SPEC_SITE}{m.group(2)}", text))


_TYPEDOC_LINK = re.compile(r"\{@link ([^{}]*)\}")


def readable(document: JSON) -> JSON:
    """A copy of a schema document whose TypeDoc links read as text (see the module docstring)."""
    defs = document.get("$defs", document.get("definitions")) if is_object(document) else None
    names = sorted(defs, key=len, reverse=True) if is_object(defs) else []

    def link(match: re.Match[str]) -> str:
        target = match.group(1).strip()
        # the longest definition name the link starts with, whole (Tool is not ToolAnnotations), or
        # glued to a method the conversion ran into it (CallToolRequesttools/call)
        name = next(
            (n for n in names if target.startswith(n) and (not target[len(n) : len(n) + 1].isalnum() or "/" in target[len(n) :])),
            None,
        )
        if name is None:
            return f"`{target}`" if target else ""
        rest = target[len(name) :].strip(" |")
        if not rest or rest.startswith("."):  # a member: ClientCapabilities.sampling.tools
            return f"`{target}`"
        shown = f"`{rest}`" if " " not in rest else rest
        return f"`{name}` ({shown})"

    return _texts(document, lambda text: _TYPEDOC_LINK.sub(link, text))


def _texts(document: JSON, rewrite: Callable[[str], str]) -> JSON:
    """A copy of document with rewrite applied to the text keywords of every schema (iteratively:
    a schema nested as deep as the limits allow must not exhaust Python's stack here).

    Only the text keywords of a schema are rewritten; a property that happens to be named
    `description` (under `properties`) is a schema, and values (`const`, `default`) are data."""
    if not is_object(document) and not is_array(document):
        return document
    root: list[JSON] = [None]
    # (the container to fill, the key or index in it, the value to copy there, whether it is a text keyword)
    pending: list[tuple[Any, Any, JSON, bool]] = [(root, 0, document, False)]
    while pending:
        target, slot, value, text = pending.pop()
        if text and isinstance(value, str):
            target[slot] = rewrite(value)
        elif is_object(value):
            copied: dict[str, JSON] = {}
            target[slot] = copied
            for key, item in value.items():
                if key in _DATA_KEYS:
                    copied[key] = item
                else:
                    copied[key] = None  # keeps the key order; filled in below
                    pending.append((copied, key, item, key in _TEXT_KEYS))
        elif is_array(value):
            items: list[JSON] = [None] * len(value)
            target[slot] = items
            pending.extend((items, index, item, False) for index, item in enumerate(value))
        else:
            target[slot] = value
    return root[0]
