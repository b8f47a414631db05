"""Names for the members of a union (and of a tuple, and of an `allOf`): what each one is, never
where it stands.

A member that is a `$ref` is what it names and needs no name. Any other member is named by the
first of these that tells it apart from its siblings:

1. its tag: the value of a required string `const` (`ToolUse`);
2. its `title`;
3. what it holds: an array of one `$ref` X is `XList`, a name of its own that any union holding
   the same array shares (analyze.py); a `$ref` with more keywords is named after X;
4. its JSON type: `String`, `Number`, `Integer`, `Boolean`, `Null`, `Object`, `List`, several
   joined (`NumberOrNull`); `Choice` for an `enum` or `const` of no type;
5. a key it requires that no sibling requires (`WithUrl`), then a key it declares that no sibling
   declares.

A member none of these tells apart has no name (None): the caller refuses the schema (MCG301),
since a name from its position would change whenever a member is added before it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from codegen.analysis import naming
from codegen.schema.jsontypes import is_array, is_object

_TYPE_WORDS = {
    "string": "String",
    "number": "Number",
    "integer": "Integer",
    "boolean": "Boolean",
    "null": "Null",
    "object": "Object",
    "array": "List",
}
# Words about a schema: a member that has nothing else beside its `$ref` is that reference.
_WORDS = frozenset({"description", "title", "$comment"})


@dataclass(frozen=True)
class MemberName:
    text: str
    standalone: bool = False  # a name of its own (`SamplingMessageContentBlockList`), not a suffix


def is_reference(member: Mapping[str, Any]) -> bool:
    """A member that is nothing but a `$ref` (and words about it)."""
    return isinstance(member.get("$ref"), str) and set(member) <= _WORDS | {"$ref"}


def list_of(member: Mapping[str, Any]) -> str | None:
    """The `$ref` X of a member that is only an array of X (and words about it): `XList`'s X."""
    items = member.get("items")
    if member.get("type") != "array" or not set(member) <= _WORDS | {"type", "items"} or not is_object(items):
        return None
    return items["$ref"] if is_reference(items) else None


def ref_name(ref: str) -> str:
    """A class-name stem for what a local `$ref` names: its last token's words."""
    return naming.base_name(ref.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~"))


def member_names(members: Sequence[Any]) -> list[MemberName | None]:
    """A name per member, in order: None for a `$ref` (or a non-object) and for a member no rule
    tells apart from its siblings."""
    named: list[MemberName | None] = [None] * len(members)
    pending = [i for i, m in enumerate(members) if is_object(m) and not is_reference(m)]
    inline: list[Mapping[str, Any]] = [members[i] for i in pending]
    rules: list[Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]]], MemberName | None]] = [
        _by_tag, _by_title, _by_content, _by_type, _by_required_key, _by_declared_key,
    ]  # fmt: skip
    for rule in rules:
        if not pending:
            break
        candidates = {i: rule(members[i], [m for m in inline if m is not members[i]]) for i in pending}
        taken = [n.text for n in named if n is not None] + [c.text for c in candidates.values() if c is not None]
        for i, candidate in candidates.items():
            if candidate is not None and candidate.text and taken.count(candidate.text) == 1:
                named[i] = candidate
        pending = [i for i in pending if named[i] is None]
    return named


def _by_tag(member: Mapping[str, Any], _others: Sequence[Mapping[str, Any]]) -> MemberName | None:
    required = _strings(member.get("required"))
    properties = member.get("properties")
    for prop, sub in sorted(properties.items()) if is_object(properties) else ():
        if prop in required and is_object(sub) and isinstance(sub.get("const"), str):
            return MemberName(naming.pascal(sub["const"])) if naming.pascal(sub["const"]) else None
    return None


def _by_title(member: Mapping[str, Any], _others: Sequence[Mapping[str, Any]]) -> MemberName | None:
    title = member.get("title")
    return MemberName(naming.pascal(title)) if isinstance(title, str) and naming.pascal(title) else None


def _by_content(member: Mapping[str, Any], _others: Sequence[Mapping[str, Any]]) -> MemberName | None:
    listed = list_of(member)
    if listed is not None:
        return MemberName(ref_name(listed) + "List", standalone=True)
    ref = member.get("$ref")
    return MemberName(ref_name(ref)) if isinstance(ref, str) else None


def _by_type(member: Mapping[str, Any], _others: Sequence[Mapping[str, Any]]) -> MemberName | None:
    kind = member.get("type")
    if isinstance(kind, str):
        return MemberName(_TYPE_WORDS[kind]) if kind in _TYPE_WORDS else None
    if is_array(kind):
        words = [_TYPE_WORDS.get(k) for k in kind if isinstance(k, str)]
        return MemberName("Or".join(w for w in words if w)) if words and all(words) else None
    if "properties" in member or "allOf" in member:
        return MemberName("Object")
    if "items" in member or "prefixItems" in member:
        return MemberName("List")
    return MemberName("Choice") if "enum" in member or "const" in member else None


def _by_required_key(member: Mapping[str, Any], others: Sequence[Mapping[str, Any]]) -> MemberName | None:
    theirs = {key for other in others for key in _strings(other.get("required"))}
    return _with_key(sorted(_strings(member.get("required")) - theirs))


def _by_declared_key(member: Mapping[str, Any], others: Sequence[Mapping[str, Any]]) -> MemberName | None:
    theirs = {key for other in others for key in _declared(other)}
    return _with_key(sorted(_declared(member) - theirs))


def _with_key(keys: list[str]) -> MemberName | None:
    words = [naming.pascal(key) for key in keys if naming.pascal(key)]
    return MemberName("With" + words[0]) if words else None


def _declared(member: Mapping[str, Any]) -> set[str]:
    properties = member.get("properties")
    return set(properties) if is_object(properties) else set()


def _strings(values: object) -> set[str]:
    return {v for v in values if isinstance(v, str)} if is_array(values) else set()
