"""Property-based agreement between the generated models and the JSON Schema they come from.

For every definition, instances are drawn from the schema (a hypothesis strategy built from the
JSON Schema keywords MCP uses; hypothesis-jsonschema 0.23 does not run with current hypothesis and
cannot follow recursive references), kept only if the jsonschema library accepts them, and must
be accepted by the model and round-trip losslessly. Mutations of them that the validator rejects
(wrong `const`, a required key removed, a wrong primitive type, an extra key where
`additionalProperties` is false) must be rejected by the model too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from codegen.schema import pointers, schemas
from codegen.schema.jsontypes import is_array, is_object
MAX_DEPTH = 4  # beyond it, objects get only required keys, arrays stay short, unions avoid references


@dataclass
class Agreement:
    revision: str
    definitions: int = 0
    instances: int = 0
    instances_agreed: int = 0
    mutations: int = 0
    mutations_agreed: int = 0
    disagreements: list[dict[str, str]] = field(default_factory=list[dict[str, str]])

    @property
    def ratio(self) -> float:
        total = self.instances + self.mutations
        return (self.instances_agreed + self.mutations_agreed) / total if total else 1.0


def _json_values(depth: int) -> Any:
    from hypothesis import strategies as st

    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(-1000, 1000), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=5)
    )
    if depth > MAX_DEPTH:
        return scalars
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner, max_size=2), max_leaves=4)


def strategy(document: Mapping[str, Any], schema: Any, depth: int = 0) -> Any:
    """A hypothesis strategy of (mostly) valid instances of schema within document."""
    from hypothesis import strategies as st

    if schema is True or schema == {} or not is_object(schema):
        return _json_values(depth)
    if "$ref" in schema:
        target = pointers.resolve(document, schema["$ref"])
        rest = {k: v for k, v in schema.items() if k not in ("$ref", "description", "title")}
        return strategy(document, {**target, **rest} if rest and isinstance(target, dict) else target, depth + 1)
    if "const" in schema:
        return st.just(schema["const"])
    if isinstance(schema.get("enum"), list):
        return st.sampled_from(schema["enum"])
    if "allOf" in schema:
        return strategy(document, schemas.flatten_all_of(dict(schema), lambda ref: pointers.resolve(document, ref)), depth)
    arms = [a for key in ("anyOf", "oneOf") for a in schema.get(key) or ()]
    if arms:
        if depth > MAX_DEPTH:
            shallow = [a for a in arms if "$ref" not in json.dumps(a)]
            arms = shallow or arms[:1]
        base = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
        return st.one_of(*[strategy(document, {**base, **a} if isinstance(a, dict) else a, depth) for a in arms])
    kind = schema.get("type")
    if is_array(kind):
        return st.one_of(*[strategy(document, {**schema, "type": k}, depth) for k in kind])
    if kind == "object" or "properties" in schema:
        return _object(document, schema, depth)
    if kind == "array":
        items = schema.get("items", {})
        low = int(schema.get("minItems", 0))
        high = min(int(schema.get("maxItems", low + 2)), low + (0 if depth > MAX_DEPTH else 2))
        return st.lists(strategy(document, items, depth + 1), min_size=low, max_size=max(low, high))
    if kind == "string":
        if isinstance(schema.get("pattern"), str):
            return st.from_regex(str(schema["pattern"]), fullmatch=True)
        low = int(schema.get("minLength", 0))
        return st.text(min_size=low, max_size=max(low, int(schema.get("maxLength", low + 6))))
    if kind == "integer":
        return st.integers(schema.get("minimum", -(10**6)), schema.get("maximum", 10**6))
    if kind == "number":
        minimum, maximum = schema.get("minimum"), schema.get("maximum")
        return st.integers(int(minimum) if minimum is not None else -(10**6), int(maximum) if maximum is not None else 10**6) | st.floats(
            min_value=minimum, max_value=maximum, allow_nan=False, allow_infinity=False
        )
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return _json_values(depth)


def _object(document: Mapping[str, Any], schema: Mapping[str, Any], depth: int) -> Any:
    from hypothesis import strategies as st

    properties: Mapping[str, Any] = schema.get("properties") or {}
    required = [k for k in schema.get("required") or () if k in properties]
    optional: dict[str, Any] = {} if depth > MAX_DEPTH else {k: strategy(document, v, depth + 1) for k, v in properties.items() if k not in required}
    fixed = st.fixed_dictionaries(
        {k: strategy(document, properties[k], depth + 1) for k in required}, optional=optional
    )
    extra = schema.get("additionalProperties", True)
    if extra is False or depth > MAX_DEPTH:
        return fixed
    values = _json_values(depth + 1) if extra is True else strategy(document, extra, depth + 1)
    unknown = st.dictionaries(st.text(min_size=1, max_size=6).filter(lambda k: k not in properties), values, max_size=2)
    def merged(known: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
        return {**more, **known}

    return st.builds(merged, fixed, unknown)


_WRONG_TYPE: dict[str, Any] = {"string": 7, "integer": "7", "number": "7.5", "boolean": 1, "array": "[]", "object": []}


def mutations(document: Mapping[str, Any], schema: Mapping[str, Any], instance: Any) -> list[tuple[str, Any]]:
    """(kind, mutated instance) candidates; the caller keeps those the JSON Schema rejects."""
    target: Any = schema
    while is_object(target) and "$ref" in target:
        target = pointers.resolve(document, target["$ref"])
    if not is_object(target) or not is_object(instance):
        return []
    target = schemas.flatten_all_of(dict(target), lambda ref: pointers.resolve(document, ref))
    properties: Mapping[str, Any] = target.get("properties") or {}
    out: list[tuple[str, Any]] = []
    for key in target.get("required") or ():
        if key in instance:
            out.append((f"without required {key!r}", {k: v for k, v in instance.items() if k != key}))
    for key, sub in properties.items():
        if key not in instance or not is_object(sub):
            continue
        while "$ref" in sub and is_object(sub):
            sub = pointers.resolve(document, sub["$ref"])
        if "const" in sub:
            out.append((f"wrong const {key!r}", {**instance, key: f"not-{sub['const']}"}))
        kind = sub.get("type")
        wrong = _WRONG_TYPE.get(kind) if isinstance(kind, str) else None
        if wrong is not None:
            out.append((f"wrong type {key!r}", {**instance, key: wrong}))
    if target.get("additionalProperties") is False:
        out.append(("extra key on a closed object", {**instance, "unexpected-key": 1}))
    return out


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def measure(
    document: dict[str, Any], revision: str, package: ModuleType, per_definition: int = 20, *, derandomize: bool = True
) -> Agreement:
    """Agreement of a generated package with its (errata-patched) schema document; instances are
    drawn from a fixed seed unless derandomize is False."""
    import jsonschema.validators
    from hypothesis import HealthCheck, given, settings
    from pydantic import TypeAdapter, ValidationError

    defs = "$defs" if "$defs" in document else "definitions"
    validator_class = jsonschema.validators.validator_for(document)
    report = Agreement(revision)
    for name in sorted(document[defs]):
        schema = {"$ref": f"#/{defs}/{name}"}
        validator = validator_class({**document, **schema})
        adapter: TypeAdapter[Any] = TypeAdapter(getattr(package, name))
        drawn: list[Any] = []

        @settings(max_examples=per_definition, derandomize=derandomize, database=None, deadline=None,
                  suppress_health_check=list(HealthCheck))  # fmt: skip  # pyright: ignore[reportArgumentType]
        @given(strategy(document, schema))
        def collect(value: Any) -> None:
            drawn.append(value)

        collect()
        report.definitions += 1
        for value in drawn:
            if not validator.is_valid(value):
                continue  # the strategy over-approximates (oneOf, uniqueness): keep valid instances only
            report.instances += 1
            try:
                dumped = adapter.dump_python(adapter.validate_python(value), mode="json", by_alias=True, exclude_unset=True)
            except ValidationError as exc:
                report.disagreements.append({"definition": name, "kind": "valid instance rejected", "instance": _canonical(value)[:200], "error": str(exc.errors()[0]["msg"])})
                continue
            if _canonical(dumped) != _canonical(value):
                report.disagreements.append({"definition": name, "kind": "lossy round trip", "instance": _canonical(value)[:200], "error": _canonical(dumped)[:200]})
                continue
            report.instances_agreed += 1
            for kind, mutated in mutations(document, schema, value):
                if validator.is_valid(mutated):
                    continue
                report.mutations += 1
                try:
                    adapter.validate_python(mutated)
                except ValidationError:
                    report.mutations_agreed += 1
                    continue
                report.disagreements.append({"definition": name, "kind": f"invalid instance accepted ({kind})", "instance": _canonical(mutated)[:200], "error": ""})
    return report
