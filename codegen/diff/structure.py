"""The wire changes inside one definition: its properties, required keys, openness, union arms,
`const`/`enum` values, types and bounds; descriptions only when asked for.

Each change carries the relation of old to new values it implies (see relation.py), so that
classify.py can say whom it breaks. Changes nested below a property of the definition are folded
into one `property-retyped` change at that property (the nested ones become its details), so a
report lists what a definition's users see: its own members.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from .relation import (
    ANNOTATIONS, CHANGED, COMPATIBLE, EQUIVALENT, NARROWED, WIDENED, Comparer, Node, essential, relation, types_of,
)  # fmt: skip
from codegen.diff.source import Side, definition_of
from codegen.schema import pointers
from codegen.schema.jsontypes import is_array, is_object
_STRUCTURAL = frozenset({"properties", "required", "additionalProperties", "items", "anyOf", "oneOf", "allOf", "$ref"})
_TEXT = ("description", "title")


@dataclass(frozen=True)
class Found:
    kind: str
    path: tuple[str, ...]
    summary: str
    relation: str | None  # None: a description, which no party validates
    old: str | None = None
    new: str | None = None
    details: tuple[str, ...] = ()


class Walker:
    def __init__(
        self,
        old: Side,
        new: Side,
        renames: dict[str, str],
        *,
        descriptions: bool = False,
        envelopes: tuple[dict[str, str], dict[str, str]] = ({}, {}),
    ) -> None:
        self.old, self.new = old, new
        self.envelopes = envelopes
        self.renames = renames
        self.descriptions = descriptions
        self.comparer = Comparer(self.same_definition)

    def same_definition(self, old_name: str, new_name: str) -> bool:
        return self.renames.get(old_name, old_name) == new_name

    def definition(self, old_name: str, new_name: str) -> list[Found]:
        old_def = self._wire_message(self.old, old_name, self.envelopes[0])
        new_def = self._wire_message(self.new, new_name, self.envelopes[1])
        with self.at(old_name):
            return self._fold(old_def, new_def, list(self._walk(old_def, new_def, ())))

    @contextmanager
    def at(self, old_name: str) -> Generator[None, None, None]:
        """Comparisons in the block charge their work to this definition (of the old revision),
        so a budget running out there names a place that exists."""
        saved = self.comparer.origin
        self.comparer.origin = (self.old.label, pointers.join("#", "$defs", old_name))
        try:
            yield
        finally:
            self.comparer.origin = saved

    @staticmethod
    def _wire_message(side: Side, name: str, envelopes: dict[str, str]) -> Any:
        """A message as it is on the wire: with the envelope members its revision leaves to JSONRPCRequest
        or JSONRPCNotification (so that a revision writing them into the message adds nothing)."""
        schema = side.defs[name]
        envelope = side.defs.get(envelopes.get(name, ""))
        if not is_object(envelope) or not is_object(schema):
            return schema
        own = dict(schema.get("properties") or {})
        members: dict[str, Any] = envelope.get("properties") or {}
        borrowed = {k: members[k] for k in envelope.get("required") or () if k in members and k not in own}
        required = list(schema.get("required") or ()) + list(borrowed)
        return {**schema, "properties": {**own, **borrowed}, "required": required}

    def relation(self, old: Any, new: Any) -> str:
        return relation(self.comparer, Node(self.old, old), Node(self.new, new))

    # The walk: old and new schemas at the same place.
    def _walk(self, a: Any, b: Any, path: tuple[str, ...]) -> Iterator[Found]:
        a, b = _schema(a), _schema(b)
        if a == b:
            return
        if self.descriptions:
            yield from self._texts(a, b, path)
        if essential(a) == essential(b) and not self.descriptions:
            return
        ref_a, ref_b = _ref(a), _ref(b)
        if ref_a or ref_b:
            if ref_a and ref_b and self._same_ref(ref_a, ref_b):
                return
            yield self._retyped("type-changed", a, b, path)
            return
        a, b = self._flat(self.old, a), self._flat(self.new, b)
        arms_a, arms_b = _arms(a), _arms(b)
        if arms_a is not None and arms_b is not None:
            yield from self._arms(arms_a, arms_b, path)
            yield from self._keywords(_without_arms(a), _without_arms(b), path)
            return
        if (arms_a is None) != (arms_b is None) or _is_object(a) != _is_object(b):
            if essential(a) != essential(b):
                yield self._retyped("type-changed", a, b, path)
            return
        if _is_object(a):
            yield from self._object(a, b, path)
        yield from self._keywords(a, b, path)
        items_a, items_b = a.get("items"), b.get("items")
        if isinstance(items_a, dict) and isinstance(items_b, dict):
            yield from self._walk(items_a, items_b, (*path, "[]"))
        elif essential(items_a) != essential(items_b):
            yield self._retyped("type-changed", a, b, path)

    def _texts(self, a: dict[str, Any], b: dict[str, Any], path: tuple[str, ...]) -> Iterator[Found]:
        for key in _TEXT:
            if a.get(key) != b.get(key) and isinstance(a.get(key, ""), str) and isinstance(b.get(key, ""), str):
                yield Found("description-changed", path, f"{key} changed", None, _clip(a.get(key)), _clip(b.get(key)))

    def _object(self, a: dict[str, Any], b: dict[str, Any], path: tuple[str, ...]) -> Iterator[Found]:
        pa, pb = a.get("properties") or dict[str, Any](), b.get("properties") or dict[str, Any]()
        ra, rb = set[str](a.get("required") or ()), set[str](b.get("required") or ())
        closed_a, closed_b = a.get("additionalProperties") is False, b.get("additionalProperties") is False
        for name in sorted(set(pb) - set(pa)):
            if name in rb:
                rel, how = NARROWED, "required"
            else:
                rel, how = (WIDENED if closed_a else COMPATIBLE), "optional"
            yield Found("property-added", (*path, name), f"property added ({how})", rel, new=self._describe(self.new, pb[name]))
        for name in sorted(set(pa) - set(pb)):
            was_required = name in ra
            if was_required:
                rel = CHANGED if closed_b else WIDENED
            else:
                rel = NARROWED if closed_b else COMPATIBLE
            how = "required" if was_required else "optional"
            old = self._describe(self.old, pa[name])
            yield Found("property-removed", (*path, name), f"property removed (was {how})", rel, old=old)
        for name in sorted(set(pa) & set(pb)):
            if name in rb and name not in ra:
                yield Found("property-now-required", (*path, name), "optional → required", NARROWED, "optional", "required")
            elif name in ra and name not in rb:
                yield Found("property-now-optional", (*path, name), "required → optional", WIDENED, "required", "optional")
            yield from self._walk(pa[name], pb[name], (*path, name))
        for name in sorted((rb - ra) - set(pa) - set(pb)):  # required without a declared schema
            yield Found("property-now-required", (*path, name), "optional → required", NARROWED, "optional", "required")
        if closed_a != closed_b:
            kind, rel = ("object-closed", NARROWED) if closed_b else ("object-opened", WIDENED)
            summary = "closed: unknown keys now rejected" if closed_b else "opened: unknown keys now allowed"
            yield Found(kind, path, summary, rel, "closed" if closed_a else "open", "closed" if closed_b else "open")
        extra_a, extra_b = a.get("additionalProperties"), b.get("additionalProperties")
        if not closed_a and not closed_b and essential(_schema(extra_a)) != essential(_schema(extra_b)):
            if isinstance(extra_a, dict) and isinstance(extra_b, dict) and extra_a and extra_b:
                yield from self._walk(extra_a, extra_b, (*path, "*"))
            else:
                yield self._retyped("values-retyped", _schema(extra_a), _schema(extra_b), (*path, "*"))

    def _keywords(self, a: dict[str, Any], b: dict[str, Any], path: tuple[str, ...]) -> Iterator[Found]:
        """Everything but structure: type, const/enum, bounds, format, pattern."""
        rest_a, rest_b = _rest_keywords(a), _rest_keywords(b)
        if rest_a == rest_b:
            return
        if "enum" in rest_a and "enum" in rest_b and _rest(rest_a, "enum") == _rest(rest_b, "enum"):
            old, new = _values(rest_a["enum"]), _values(rest_b["enum"])
            if added := [v for v in new if v not in old]:
                yield Found("enum-value-added", path, "values added: " + ", ".join(added), WIDENED, new=", ".join(added))
            if removed := [v for v in old if v not in new]:
                text = ", ".join(removed)
                yield Found("enum-value-removed", path, f"values removed: {text}", NARROWED, old=text)
            return
        if "const" in rest_a and "const" in rest_b and _rest(rest_a, "const") == _rest(rest_b, "const"):
            old_value, new_value = json.dumps(rest_a["const"]), json.dumps(rest_b["const"])
            yield Found("const-changed", path, f"constant {old_value} → {new_value}", CHANGED, old_value, new_value)
            return
        keys = {k for k in set(rest_a) | set(rest_b) if rest_a.get(k) != rest_b.get(k)}
        kind = "type-changed" if keys & {"type", "const", "enum"} else "constraint-changed"
        skeleton_a = {**_object_skeleton(a), **rest_a}
        skeleton_b = {**_object_skeleton(b), **rest_b}
        rel = self.relation(skeleton_a, skeleton_b)
        summary = "; ".join(f"{k} {_keyword_value(k, rest_a)} → {_keyword_value(k, rest_b)}" for k in sorted(keys))
        yield Found(kind, path, f"{summary} ({rel})", rel, _keywords_text(rest_a, keys), _keywords_text(rest_b, keys))

    def _arms(self, arms_a: list[Any], arms_b: list[Any], path: tuple[str, ...]) -> Iterator[Found]:
        keyed_a = {self._arm_key(self.old, arm, old=True): arm for arm in arms_a}
        keyed_b = {self._arm_key(self.new, arm, old=False): arm for arm in arms_b}
        lone_a = [k for k in keyed_a if k not in keyed_b]
        lone_b = [k for k in keyed_b if k not in keyed_a]
        pairs = [(k, k) for k in keyed_a if k in keyed_b]
        # Inline arms of the same JSON types that changed shape: the same arm, changed.
        for key_a in list(lone_a):
            if key_a.startswith("ref:"):
                continue
            types = _arm_types(keyed_a[key_a])
            match = next((k for k in lone_b if not k.startswith("ref:") and _arm_types(keyed_b[k]) == types), None)
            if match is not None:
                pairs.append((key_a, match))
                lone_a.remove(key_a)
                lone_b.remove(match)
        # A `$ref` arm now naming another definition that accepts the same values: the same arm.
        for key_a in list(lone_a):
            match = next(
                (k for k in lone_b if self.relation(keyed_a[key_a], keyed_b[k]) in (EQUIVALENT, COMPATIBLE)), None
            )
            if match is not None:
                old_arm, new_arm = self._describe(self.old, keyed_a[key_a]), self._describe(self.new, keyed_b[match])
                rel = self.relation(keyed_a[key_a], keyed_b[match])
                yield Found("arm-retargeted", path, f"union arm {old_arm} is now {new_arm} ({rel})", rel, old_arm, new_arm)
                lone_a.remove(key_a)
                lone_b.remove(match)
        for key in lone_b:
            arm = self._describe(self.new, keyed_b[key])
            yield Found("arm-added", path, f"union arm added: {arm}", WIDENED, new=arm)
        for key in lone_a:
            arm = self._describe(self.old, keyed_a[key])
            yield Found("arm-removed", path, f"union arm removed: {arm}", NARROWED, old=arm)
        for key_a, key_b in pairs:
            arm_a, arm_b = keyed_a[key_a], keyed_b[key_b]
            if not key_a.startswith("ref:"):
                yield from self._walk(arm_a, arm_b, (*path, f"<{self._describe(self.new, arm_b)}>"))
            elif self.descriptions:
                yield from self._texts(_schema(arm_a), _schema(arm_b), path)

    def _arm_key(self, side: Side, arm: Any, *, old: bool) -> str:
        arm = _schema(arm)
        ref = _ref(arm)
        if ref:
            name = definition_of(ref) or ref
            if old:
                name = self.renames.get(name, name)
            return f"ref:{name}:{ref.split('/', 3)[3] if ref.count('/') > 2 else ''}"
        tags = sorted(
            f"{key}={json.dumps(sub['const'])}"
            for key, sub in (arm.get("properties") or dict[str, Any]()).items()
            if isinstance(sub, dict) and "const" in sub and key in (arm.get("required") or ())
        )
        if tags:
            return "tag:" + ",".join(tags)
        return "shape:" + json.dumps(essential(arm), sort_keys=True)

    def _same_ref(self, ref_a: str, ref_b: str) -> bool:
        name_a, name_b = definition_of(ref_a), definition_of(ref_b)
        if name_a is None or name_b is None or not self.same_definition(name_a, name_b):
            return ref_a == ref_b
        return ref_a.split("/", 3)[3:] == ref_b.split("/", 3)[3:]

    def _retyped(self, kind: str, a: Any, b: Any, path: tuple[str, ...]) -> Found:
        old, new = self._describe(self.old, a), self._describe(self.new, b)
        rel = self.relation(a, b)
        return Found(kind, path, f"{old} → {new} ({rel})", rel, old, new)

    def _flat(self, side: Side, schema: dict[str, Any]) -> dict[str, Any]:
        if isinstance(schema.get("allOf"), list):
            return side.flat(dict(schema))
        return schema

    def _describe(self, side: Side, schema: Any) -> str:
        return describe(schema, side.resolve)

    # Folding: one change per member of the definition.
    def _fold(self, old_def: Any, new_def: Any, found: list[Found]) -> list[Found]:
        direct = [f for f in found if len(f.path) <= 1]
        nested: dict[str, list[Found]] = {}
        for item in found:
            if len(item.path) > 1 and item.path[0].startswith("<"):
                direct.append(item)  # inside an inline union arm: kept whole, the arm has no name
            elif len(item.path) > 1:
                nested.setdefault(item.path[0], []).append(item)
        old_members = _members(self._flat(self.old, _schema(old_def)))
        new_members = _members(self._flat(self.new, _schema(new_def)))
        for member, items in sorted(nested.items()):
            details = tuple(f"{'.'.join(f.path[1:])}: {f.summary}" for f in items)
            if all(f.relation is None for f in items):
                direct.append(Found("description-changed", (member,), "descriptions changed below", None, details=details))
                continue
            a, b = old_members.get(member, {}), new_members.get(member, {})
            rel = self.relation(a, b)
            old, new = self._describe(self.old, a), self._describe(self.new, b)
            direct.append(Found("property-retyped", (member,), f"{old} → {new} ({rel})", rel, old, new, details))
        return [replace(f, details=tuple(sorted(f.details))) for f in direct]


def describe(schema: Any, resolve: Callable[[str], Any], depth: int = 0) -> str:
    """A short human description of what a schema accepts."""
    schema = _schema(schema)
    if depth > 2:
        return "…"
    if not essential(schema):
        return "any JSON value"
    ref = _ref(schema)
    if ref:
        name = definition_of(ref) or ref
        return name if ref.count("/") <= 2 else f"{name}{ref.split('/', 3)[3].replace('properties/', '.').replace('/', '')}"
    if "const" in schema:
        return json.dumps(schema["const"])
    if isinstance(schema.get("enum"), list):
        values = _values(schema["enum"])
        return " | ".join(values[:6]) + (" | …" if len(values) > 6 else "")
    arms = _arms(schema)
    if arms is not None:
        parts = [describe(arm, resolve, depth + 1) for arm in arms]
        return " | ".join(parts[:6]) + (" | …" if len(parts) > 6 else "")
    if isinstance(schema.get("allOf"), list):
        return " & ".join(describe(part, resolve, depth + 1) for part in schema["allOf"])
    kinds = types_of(schema)
    if kinds == ("object",):
        names = sorted(schema.get("properties") or {})
        extra = schema.get("additionalProperties")
        if names:
            shown = ", ".join(names[:4]) + (", …" if len(names) > 4 else "")
            return f"object {{{shown}}}" + (" (closed)" if extra is False else "")
        if isinstance(extra, dict) and essential(extra):
            return f"map of {describe(extra, resolve, depth + 1)}"
        return "closed empty object" if extra is False else "object"
    if kinds == ("array",):
        items = schema.get("items")
        return f"array of {describe(items, resolve, depth + 1)}" if isinstance(items, dict) else "array"
    if len(kinds) == 1:
        text = kinds[0]
        extras = [f"{k} {schema[k]}" for k in ("format", "pattern") if k in schema]
        return f"{text} ({', '.join(extras)})" if extras else text
    if len(kinds) == 7:
        return "any JSON value"
    return " | ".join(kinds)


def _schema(node: Any) -> Any:
    if node is True or node is None:
        return {}
    if node is False:
        return {"not": {}}
    return node


def _ref(schema: Any) -> str | None:
    return schema["$ref"] if is_object(schema) and isinstance(schema.get("$ref"), str) else None


def _arms(schema: Any) -> list[Any] | None:
    if not is_object(schema):
        return None
    arms = [arm for key in ("anyOf", "oneOf") for arm in (schema.get(key) or ())]
    return arms or None


def _without_arms(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}


def _arm_types(arm: Any) -> tuple[str, ...]:
    return types_of(_schema(arm))


def _is_object(schema: dict[str, Any]) -> bool:
    return types_of(schema) == ("object",) and not _ref(schema)


def _members(schema: Any) -> dict[str, Any]:
    """Property schemas of an object definition (a union has none)."""
    if not is_object(schema):
        return {}
    members = dict(schema.get("properties") or {})
    if isinstance(schema.get("additionalProperties"), dict):
        members["*"] = schema["additionalProperties"]
    if isinstance(schema.get("items"), dict):
        members["[]"] = schema["items"]
    return members


def _rest_keywords(schema: dict[str, Any]) -> dict[str, Any]:
    rest = {k: v for k, v in schema.items() if k not in _STRUCTURAL and k not in ANNOTATIONS}
    if "type" not in rest and _is_object(schema) and {"properties", "additionalProperties", "required"} & set(schema):
        rest["type"] = "object"  # an object by its keywords: the same as one that says so
    return rest


def _object_skeleton(schema: dict[str, Any]) -> dict[str, Any]:
    """The part of an object schema that keyword checks keep: its openness."""
    return {"additionalProperties": False} if schema.get("additionalProperties") is False else {}


def _rest(keywords: dict[str, Any], without: str) -> dict[str, Any]:
    return {k: v for k, v in keywords.items() if k not in (without, "type")}


def _values(values: list[Any]) -> list[str]:
    return [json.dumps(v) for v in values]


def _keywords_text(keywords: dict[str, Any], keys: set[str]) -> str:
    shown = [f"{k} {_keyword_value(k, keywords)}" for k in sorted(keys) if k in keywords]
    return ", ".join(shown) if shown else "none"


def _keyword_value(key: str, keywords: dict[str, Any]) -> str:
    if key not in keywords:
        return "none"
    value = keywords[key]
    if key == "type":
        return " | ".join(value) if is_array(value) else str(value)
    return json.dumps(value)


def _clip(text: Any, limit: int = 160) -> str | None:
    if not isinstance(text, str):
        return None
    single = " ".join(text.split())
    return single if len(single) <= limit else single[: limit - 1] + "…"
