"""RFC 6901 JSON pointers in URI-fragment form ("#/$defs/Tool/properties/name")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote

from codegen.schema.jsontypes import is_array, is_object


def escape(token: str) -> str:
    if "~" not in token and "/" not in token:  # most tokens: no copy
        return token
    return token.replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def join(base: str, *tokens: str | int) -> str:
    return base + "".join("/" + escape(str(t)) for t in tokens)


def split(pointer: str) -> list[str]:
    """Tokens of a '#/a/b' pointer; '#' is the document root."""
    if not pointer.startswith("#"):
        raise ValueError(f"not a fragment pointer: {pointer!r}")
    body = pointer[1:]
    if body == "":
        return []
    if not body.startswith("/"):
        raise ValueError(f"not a JSON pointer fragment: {pointer!r}")
    return [unescape(t) for t in body[1:].split("/")]


def canonical(ref: str) -> str:
    """The pointer a `$ref` fragment names, spelled as this package spells pointers. RFC 6901 (6):
    a pointer in a URI fragment is percent-decoded first, then split and unescaped, so
    "#/$defs/A%20B" names the definition "A B" (and "%2F" separates tokens, as "/" does). Every
    reader of a `$ref` (the models' pipeline and check_output, through jsonschema) uses this rule."""
    if not ref.startswith("#/"):
        return ref
    return join("#", *(unescape(token) for token in unquote(ref[2:]).split("/")))


def resolve(document: Any, pointer: str) -> Any:
    """The value at pointer; KeyError if it does not exist."""
    node = document
    for token in split(pointer):
        if is_object(node) and token in node:
            node = node[token]
        elif is_array(node) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise KeyError(pointer)
    return node


def from_tokens(tokens: Iterable[str | int]) -> str:
    return join("#", *tokens)
