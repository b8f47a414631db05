"""The `@deprecated` tags of a spec revision's TypeScript source (schema.ts), and where they land in
its schema.json. schema.json carries none of them, so this is the only place they are read.

Not a TypeScript compiler: a bounded scanner that knows comments, string literals and braces, and
reads, after each JSDoc block (`/** ... */`), the name of the declaration that follows: a top-level
`interface`/`type`/`enum`/`class`/`const` (`export` optional), or a member (`name?:`,
`"io.x/y"?:`) of the interface or object literal type it is in. Interfaces' `extends` lists are
kept, so a member's tag reaches the schema's flattened copies of it in derived interfaces.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from codegen.errors import fail
from codegen.schema import pointers
from codegen.schema.jsontypes import is_object

# A schema.ts is ~100 KB today; nesting past this is no declaration file the spec would write.
MAX_DEPTH = 64
_DECLARATION = re.compile(
    r"(?:export\s+)?(?:declare\s+)?(interface|type|enum|class|const|let|var|function)\s+([A-Za-z_$][\w$]*)"
)
_MEMBER = re.compile(r"(?:readonly\s+)?(\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|[A-Za-z_$][\w$]*)\s*\??\s*:")
_EXTENDS = re.compile(r"\s*(?:<[^{]*?>)?\s*extends\s+([^{]*)")
_TAG = re.compile(r"^@([A-Za-z]+)\b\s?(.*)$")
_LINK = re.compile(r"\{@link\s+([^}|\s]+)\s*(?:\|\s*([^}]*?))?\s*\}")
DEFAULT_MESSAGE = "Deprecated."


@dataclass(frozen=True, order=True)
class Tag:
    """One `@deprecated` tag: the declaration it is on, as a path (an interface, then members), its
    text (inline links as their text) and the line it is on."""

    path: tuple[str, ...]
    message: str
    line: int


@dataclass(frozen=True)
class Source:
    """What a schema.ts says that the generator uses."""

    tags: tuple[Tag, ...]  # in source order
    bases: Mapping[str, tuple[str, ...]]  # interface -> the interfaces it extends
    members: Mapping[str, frozenset[str]]  # interface -> the members it declares itself


@dataclass(frozen=True)
class Deprecations:
    """The tags placed in a schema: what the models carry."""

    # pointer of a definition ("#/$defs/Root") or of a property ("#/$defs/X/properties/y") -> message
    at: Mapping[str, str]
    # a tag on a key the schema declares no property for: (definition pointer, key path, message)
    loose: tuple[tuple[str, str, str], ...] = ()

    @property
    def count(self) -> int:
        return len(self.at) + len(self.loose)


NONE = Deprecations({})


def _malformed(revision: str, line: int, what: str) -> Exception:
    return fail(
        "MCG131",
        f"schema.ts line {line}: {what}",
        revision=revision,
        hint="the pinned schema.ts must be the spec's TypeScript source at the schema's commit",
    )


def read(data: bytes, revision: str) -> Source:
    """The tags, `extends` lists and members of a schema.ts (MCG131 when it cannot be read so)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise fail("MCG131", f"schema.ts is not UTF-8 text ({exc.reason} at byte {exc.start})", revision=revision) from exc
    tags: list[Tag] = []
    bases: dict[str, tuple[str, ...]] = {}
    members: dict[str, set[str]] = {}
    # each open brace: the path it declares members of, or None (a block that names nothing: a
    # function body, an index signature's type)
    scopes: list[tuple[str, ...] | None] = []
    last: tuple[str, ...] | None = None  # the declaration or member named last in this scope
    pending: str | None = None  # the JSDoc block waiting for its declaration
    pending_line = 0
    index, line, size = 0, 1, len(text)
    while index < size:
        char = text[index]
        if char == "\n":
            line += 1
            index += 1
        elif char.isspace() or char in ";,":
            index += 1
        elif text.startswith("//", index):
            end = text.find("\n", index)
            index = size if end < 0 else end
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            if end < 0:
                raise _malformed(revision, line, "a comment is never closed")
            body = text[index + 2 : end]
            if body.startswith("*") and not body.startswith("**"):
                pending, pending_line = body[1:], line
            line += body.count("\n")
            index = end + 2
        elif char in "\"'`" and not (scopes and scopes[-1] and _MEMBER.match(text, index)):
            end = _string_end(text, index)
            if end < 0:
                raise _malformed(revision, line, "a string literal is never closed")
            line += text.count("\n", index, end)
            index = end
        elif char == "{":
            if len(scopes) >= MAX_DEPTH:
                raise _malformed(revision, line, f"braces nest deeper than {MAX_DEPTH}")
            scopes.append(last)
            last = None
            pending = None
            index += 1
        elif char == "}":
            if not scopes:
                raise _malformed(revision, line, "a `}` closes nothing")
            last = scopes.pop()
            pending = None
            index += 1
        else:
            scope = scopes[-1] if scopes else ()
            named: tuple[str, ...] | None = None
            found: re.Match[str] | None = None
            if not scopes and (found := _DECLARATION.match(text, index)):
                named = (found.group(2),)
                if found.group(1) == "interface" and (extends := _EXTENDS.match(text, found.end())):
                    bases[found.group(2)] = tuple(_names(extends.group(1)))
                members.setdefault(found.group(2), set())
            elif scope and (found := _MEMBER.match(text, index)):
                key = found.group(1)
                named = (*scope, _unquoted(key) if key[0] in "\"'" else key)
                if len(scope) == 1:
                    members.setdefault(scope[0], set()).add(named[-1])
            if named is not None and found is not None:
                if pending is not None and (message := _deprecated(pending)) is not None:
                    tags.append(Tag(named, message, pending_line))
                last, pending = named, None
                index = found.end()
            else:
                pending = None
                index = _word_end(text, index)
    if scopes:
        raise _malformed(revision, line, "a `{` is never closed")
    return Source(tuple(tags), bases, {name: frozenset(keys) for name, keys in members.items()})


def _string_end(text: str, start: int) -> int:
    """The index after the string literal at start, or -1 when it does not end."""
    quote, index = text[start], start + 1
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == quote:
            return index + 1
        if char == "\n" and quote != "`":
            return -1
        index += 1
    return -1


def _word_end(text: str, start: int) -> int:
    """Past one token that is neither a comment, a string nor a brace."""
    index = start + 1
    while index < len(text) and (text[index].isalnum() or text[index] in "_$"):
        index += 1
    return index


def _names(clause: str) -> list[str]:
    """The interface names of an `extends` clause, type arguments left out."""
    depth, current = 0, ""
    names: list[str] = []
    for char in clause:
        depth += (char == "<") - (char == ">")
        if depth == 0 and char == ",":
            names.append(current)
            current = ""
        elif depth == 0 and char != ">":
            current += char
    names.append(current)
    return [name.strip() for name in names if re.fullmatch(r"\s*[A-Za-z_$][\w$.]*\s*", name)]


def _unquoted(key: str) -> str:
    return re.sub(r"\\(.)", r"\1", key[1:-1])


def _deprecated(block: str) -> str | None:
    """The text of a JSDoc block's `@deprecated` tag (up to the next block tag), or None."""
    lines = [re.sub(r"^\s*\*? ?", "", raw).rstrip() for raw in block.split("\n")]
    text: list[str] | None = None
    for content in lines:
        tag = _TAG.match(content)
        if tag is not None:
            if text is not None:
                break
            if tag.group(1) == "deprecated":
                text = [tag.group(2)]
        elif text is not None:
            text.append(content)
    if text is None:
        return None
    message = " ".join(part.strip() for part in text if part.strip())
    message = _LINK.sub(lambda m: (m.group(2) or m.group(1)).strip(), message)
    return message or DEFAULT_MESSAGE


def place(source: Source, defs: Mapping[str, Any], revision: str, defs_key: str = "$defs") -> Deprecations:
    """Where each tag lands in the schema's definitions: a definition, a property (also the copies
    of it in interfaces that extend the one it is declared in, as schema.json flattens them), or a
    loose key of a definition that has no property for it. A tag on a name schema.json does not
    define is MCG132."""
    at: dict[str, str] = {}
    loose: set[tuple[str, str, str]] = set()
    derived: dict[str, list[str]] = {}
    for name, parents in source.bases.items():
        for parent in parents:
            derived.setdefault(parent, []).append(name)
    for tag in source.tags:
        definition, *keys = tag.path
        if definition not in defs:
            raise fail(
                "MCG132",
                f"schema.ts line {tag.line}: @deprecated on `{'.'.join(tag.path)}`, which schema.json does not define",
                revision=revision,
                hint="pin schema.ts and schema.json from one commit (the same `spec bump`)",
            )
        owners = [definition] if not keys else _inheritors(definition, keys[0], source, derived)
        for owner in owners:
            if owner not in defs:
                continue
            base = pointers.join("#", defs_key, owner)
            if not keys:
                at[base] = tag.message
                continue
            node: Any = defs[owner]
            pointer = base
            for key in keys:
                properties = node.get("properties") if is_object(node) else None
                if not is_object(properties) or key not in properties:
                    node = None
                    break
                node = properties[key]
                pointer = pointers.join(pointer, "properties", key)
            if node is None:
                loose.add((base, ".".join(keys), tag.message))
            else:
                at[pointer] = tag.message
    return Deprecations(dict(sorted(at.items())), tuple(sorted(loose)))


def _inheritors(name: str, member: str, source: Source, derived: Mapping[str, list[str]]) -> list[str]:
    """name and every interface extending it (transitively) that does not declare member itself."""
    found, queue = [name], list(derived.get(name, ()))
    while queue:
        child = queue.pop(0)
        if child in found or member in source.members.get(child, frozenset()):
            continue
        found.append(child)
        queue.extend(derived.get(child, ()))
    return found
