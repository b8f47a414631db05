"""Validating structured content against a tool's `outputSchema` (JSON Schema 2020-12, by the
jsonschema library), safely for schemas and values from servers nobody vetted (SEP-2106's security
notes):

- a `$ref` that leaves the schema is never fetched (an error), same-document pointers and `$anchor`s
  work; reference loops that never reach a schema are refused;
- the schema's size and nesting are bounded before validating, and so is the value's nesting;
- patterns are matched by a linear-time engine (pydantic's), never by backtracking `re`, so no
  pattern can take exponential time;
- every keyword checks a time budget, so composition (`anyOf` of `anyOf` of ...) cannot run away.
"""

from __future__ import annotations

import contextvars
import functools
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from . import pointers, schemas
from .errors import fail
from .limits import Limits
from .load import check_bounded
from .wellformed import check_cycles

OUTPUT_LIMITS = Limits(max_schema_bytes=1 << 20, max_depth=64, max_definitions=10_000, max_subschemas=10_000)
MAX_VALUE_DEPTH = 128  # nesting of the checked value (the validator recurses through it)
LABEL = "outputSchema"

_deadline: contextvars.ContextVar[float] = contextvars.ContextVar("deadline")


class _OutOfTime(Exception):
    pass


@dataclass(frozen=True)
class OutputProblem:
    path: str  # JSON pointer into the value
    message: str


def check_output(
    output_schema: Mapping[str, Any] | bool,
    value: object,
    *,
    limits: Limits = OUTPUT_LIMITS,
    budget_seconds: float = 1.0,
    max_value_depth: int = MAX_VALUE_DEPTH,
) -> list[OutputProblem]:
    """The problems of value against output_schema (empty: it conforms). Raises CodegenError for a
    schema that is refused (remote `$ref`, too large or deep, a reference loop, a pattern that needs
    backtracking, not a schema)."""
    import jsonschema

    if isinstance(output_schema, bool):
        return [] if output_schema else [OutputProblem("", "the schema `false` accepts no value")]
    document = dict(output_schema)
    check_bounded(document, LABEL, limits)
    validator_class = jsonschema.validators.validator_for(document, default=jsonschema.Draft202012Validator)
    try:
        validator_class.check_schema(document)
    except jsonschema.SchemaError as exc:
        raise fail(
            "MCG711",
            f"outputSchema is not a valid JSON Schema: {exc.message}",
            revision=LABEL,
            pointer=pointers.join("#", *exc.absolute_path),
            hint="check it against the JSON Schema 2020-12 meta-schema",
        ) from exc
    check_cycles(document, LABEL, max_chain=limits.max_depth)
    _check_patterns(document)
    if _deeper_than(value, max_value_depth):
        return [OutputProblem("", f"the value nests more than {max_value_depth} levels deep; not validated")]
    return _validate(_bounded(validator_class), document, value, budget_seconds)


def _validate(validator_class: Any, schema: dict[str, Any], value: object, budget: float) -> list[OutputProblem]:
    import referencing
    import referencing.exceptions
    from jsonschema.exceptions import _WrappedReferencingError  # noqa: PLC2701

    def refuse(uri: str) -> referencing.Resource[Any]:
        raise referencing.exceptions.NoSuchResource(ref=uri)

    registry: referencing.Registry[Any] = referencing.Registry(retrieve=refuse)
    validator = validator_class(schema, registry=registry)
    token = _deadline.set(time.monotonic() + budget)
    problems = []
    try:
        for error in validator.iter_errors(value):
            problems.append(OutputProblem("/" + "/".join(str(p) for p in error.absolute_path), error.message))
    except _OutOfTime:
        problems.append(OutputProblem("", f"validation stopped after {budget}s"))
    except RecursionError:
        problems.append(OutputProblem("", "the value is too deeply nested to validate against this schema"))
    except (referencing.exceptions.Unresolvable, _WrappedReferencingError) as exc:
        raise fail(
            "MCG712",
            f"outputSchema reference cannot be resolved: {exc}",
            revision=LABEL,
            pointer="#",
            hint="references must point inside the schema; nothing is fetched",
        ) from exc
    finally:
        _deadline.reset(token)
    return problems


def _check_patterns(document: dict[str, Any]) -> None:
    from .wellformed import pattern_problem

    uses_pattern_properties = False
    for pointer, node in schemas.all_subschemas(document):
        found = [(pointer + "/pattern", node["pattern"])] if isinstance(node.get("pattern"), str) else []
        if isinstance(node.get("patternProperties"), dict):
            uses_pattern_properties = True
            found += [(pointer + "/patternProperties", key) for key in node["patternProperties"]]
        for where, pattern in found:
            problem = pattern_problem(pattern)
            if problem is not None:
                raise fail(
                    "MCG713",
                    f"pattern {pattern!r} is refused: {problem}",
                    revision=LABEL,
                    pointer=where,
                    hint="patterns are matched in linear time: no look-around, no backreferences",
                )
    if uses_pattern_properties and any("unevaluatedProperties" in n for _, n in schemas.all_subschemas(document)):
        raise fail(
            "MCG713",
            "`unevaluatedProperties` together with `patternProperties` is not supported",
            revision=LABEL,
            pointer="#",
            hint="the library would match those patterns by backtracking",
        )


def _deeper_than(value: object, limit: int) -> bool:
    """Does value nest deeper than limit? (iteratively: the value may be hostile)"""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(node, dict):
            stack.extend((child, depth + 1) for child in node.values() if isinstance(child, dict | list))
        elif isinstance(node, list):
            stack.extend((child, depth + 1) for child in node if isinstance(child, dict | list))
    return False


# -- the validator: every keyword checks the budget; patterns and uniqueness in bounded time --------


@functools.lru_cache(maxsize=8)
def _bounded(base: Any) -> Any:
    import jsonschema

    keywords = {name: _timed(function) for name, function in base.VALIDATORS.items()}
    keywords.update(
        {
            "pattern": _timed(_pattern),
            "patternProperties": _timed(_pattern_properties),
            "additionalProperties": _timed(_additional_properties),
            "uniqueItems": _timed(_unique_items),
        }
    )
    return jsonschema.validators.extend(base, keywords)


def _timed(function: Callable[..., Any]) -> Callable[..., Iterator[Any]]:
    def keyword(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if time.monotonic() > _deadline.get():
            raise _OutOfTime
        yield from function(validator, value, instance, schema) or ()

    return keyword


@functools.lru_cache(maxsize=1024)
def _matcher(pattern: str) -> Callable[[str], bool]:
    from pydantic_core import SchemaValidator, core_schema

    validator = SchemaValidator(core_schema.str_schema(pattern=pattern))  # unanchored, like re.search
    return validator.isinstance_python


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not _matcher(pattern)(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: dict[str, Any], instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        matches = _matcher(pattern)
        for key, item in instance.items():
            if matches(key):
                yield from validator.descend(item, subschema, path=key, schema_path=pattern)


def _additional_properties(validator: Any, additional: Any, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    named = schema.get("properties", {})
    matchers = [_matcher(p) for p in schema.get("patternProperties", {})]
    extras = [k for k in instance if k not in named and not any(m(k) for m in matchers)]
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif not additional and extras:
        listed = ", ".join(repr(k) for k in sorted(extras))
        yield ValidationError(f"Additional properties are not allowed ({listed} unexpected)")


def _unique_items(validator: Any, unique: Any, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not unique or not validator.is_type(instance, "array"):
        return
    seen: set[Any] = set()
    for item in instance:
        key = _canonical(item)
        if key in seen:
            yield ValidationError(f"{instance!r:.80} has non-unique elements")
            return
        seen.add(key)


def _canonical(value: Any) -> Any:
    """A hashable form under JSON equality (1 == 1.0, True != 1), so uniqueness is one pass."""
    if isinstance(value, bool) or value is None:
        return ("literal", value)
    if isinstance(value, int | float):
        return ("number", value)
    if isinstance(value, list):
        return ("array", tuple(_canonical(v) for v in value))
    if isinstance(value, dict):
        return ("object", frozenset((k, _canonical(v)) for k, v in value.items()))
    return ("string", value)
