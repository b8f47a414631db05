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
import math
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from codegen.schema import patterns, pointers, schemas
from codegen.errors import fail
from codegen.limits import Limits
from codegen.schema.load import check_bounded
from codegen.schema.wellformed import check_cycles
from codegen.schema.jsontypes import is_array, is_object
OUTPUT_LIMITS = Limits(max_schema_bytes=1 << 20, max_depth=64, max_definitions=10_000, max_subschemas=10_000)
MAX_VALUE_DEPTH = 128  # nesting of the checked value (the validator recurses through it)
LABEL = "outputSchema"

# A match may start only if twice its estimated cost fits in the time left: the estimate's
# weights were measured on one machine (patterns.match_cost), and one match cannot be interrupted.
_MATCH_MARGIN = 2.0


@dataclass
class _Run:
    """One validation: when it must stop, and the patterns it has compiled (each once)."""

    deadline: float
    budget: float
    matchers: dict[str, Callable[[str], bool]] = field(default_factory=dict[str, Callable[[str], bool]])

    def check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise _OutOfTime(f"validation stopped after {self.budget}s")

    def check_match_time(self, pattern: str, text: str) -> None:
        """Stop before a match that could outlast the budget: its cost is the string's length in
        bytes times the pattern's worst cost per byte, and pydantic-core cannot be interrupted."""
        self.check_time()
        per_byte = patterns.match_cost(pattern)
        size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
        seconds = per_byte * size / 1e9 if isinstance(per_byte, int) else math.inf
        if seconds * _MATCH_MARGIN > self.deadline - time.monotonic():
            raise _OutOfTime(
                f"validation stopped: matching a string of {size:,} bytes against {pattern!r:.80} may "
                f"take {seconds:.2g}s, more than is left of the {self.budget}s budget"
            )

    def matcher(self, pattern: str) -> Callable[[str], bool]:
        found = self.matchers.get(pattern)
        if found is None:
            found = self.matchers[pattern] = _compile(pattern)
        return found


_run: contextvars.ContextVar[_Run] = contextvars.ContextVar("output_validation")


class _OutOfTime(Exception):
    """The budget ran out, or would run out during the next match; the message says which."""


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
    import jsonschema.validators

    if isinstance(output_schema, bool):
        return [] if output_schema else [OutputProblem("", "the schema `false` accepts no value")]
    document = dict(output_schema)
    check_bounded(document, LABEL, limits)
    _check_patterns(document)  # before the meta-schema check, which compiles them with Python's `re`
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
    unfit = _unfit(value, max_value_depth)
    if unfit is not None:
        return [unfit]
    return _validate(_bounded(validator_class), document, value, budget_seconds)


def _validate(validator_class: Any, schema: dict[str, Any], value: object, budget: float) -> list[OutputProblem]:
    import referencing
    import referencing.exceptions

    # referencing declares its attrs classes with a pre-PEP 681 dataclass transform that mypy does
    # not read (pyright does), so mypy sees no keyword arguments on them
    def refuse(uri: str) -> referencing.Resource[Any]:
        raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]

    registry: referencing.Registry[Any] = referencing.Registry(retrieve=refuse)  # type: ignore[call-arg]
    validator = validator_class(schema, registry=registry)
    token = _run.set(_Run(time.monotonic() + budget, budget))
    problems: list[OutputProblem] = []
    try:
        for error in validator.iter_errors(value):
            problems.append(OutputProblem("/" + "/".join(str(p) for p in error.absolute_path), error.message))
    except _OutOfTime as stopped:
        problems.append(OutputProblem("", str(stopped)))
    except RecursionError:
        problems.append(OutputProblem("", "the value is too deeply nested to validate against this schema"))
    except referencing.exceptions.Unresolvable as exc:  # jsonschema's wrapper of it is a subclass
        raise fail(
            "MCG712",
            f"outputSchema reference cannot be resolved: {exc}",
            revision=LABEL,
            pointer="#",
            hint="references must point inside the schema; nothing is fetched",
        ) from exc
    finally:
        _run.reset(token)
    return problems


def _check_patterns(document: dict[str, Any]) -> None:
    from codegen.schema.wellformed import pattern_problem
    uses_pattern_properties = False
    tally = patterns.Tally()
    for pointer, node in schemas.all_subschemas(document):
        found = [(pointer + "/pattern", node["pattern"])] if isinstance(node.get("pattern"), str) else []
        if isinstance(node.get("patternProperties"), dict):
            uses_pattern_properties = True
            found += [(pointer + "/patternProperties", key) for key in node["patternProperties"]]
        for where, pattern in found:
            costly = tally.add(pattern) if isinstance(pattern, str) else "not a string"
            problem = costly or pattern_problem(pattern)
            if problem is not None:
                raise fail(
                    "MCG713",
                    f"pattern {pattern!r} is refused: {problem}",
                    revision=LABEL,
                    pointer=where,
                    hint="counted repetitions of classes compile and match slowly; bound lengths with maxLength"
                    if costly
                    else "patterns are matched in linear time: no look-around, no backreferences",
                )
    if uses_pattern_properties and any("unevaluatedProperties" in n for _, n in schemas.all_subschemas(document)):
        raise fail(
            "MCG713",
            "`unevaluatedProperties` together with `patternProperties` is not supported",
            revision=LABEL,
            pointer="#",
            hint="the library would match those patterns by backtracking",
        )


def _unfit(value: object, limit: int) -> OutputProblem | None:
    """Why value cannot be validated at all: nested deeper than limit, or holding NaN or an infinity
    (a Python float no JSON text carries). One iterative pass: the value may be hostile."""
    if isinstance(value, float) and not math.isfinite(value):
        return OutputProblem("", f"{value!r} is not a JSON number (JSON has no NaN or Infinity)")
    stack: list[tuple[object, int, tuple[str | int, ...]]] = [(value, 1, ())]
    while stack:
        node, depth, path = stack.pop()
        if depth > limit:
            return OutputProblem("", f"the value nests more than {limit} levels deep; not validated")
        items = node.items() if is_object(node) else enumerate(node) if is_array(node) else ()
        for key, child in items:
            if is_object(child) or is_array(child):
                stack.append((child, depth + 1, (*path, key)))
            elif isinstance(child, float) and not math.isfinite(child):
                where = "".join("/" + pointers.escape(str(p)) for p in (*path, key))
                return OutputProblem(where, f"{child!r} is not a JSON number (JSON has no NaN or Infinity)")
    return None


# -- the validator: every keyword checks the budget; patterns and uniqueness in bounded time --------


@functools.lru_cache(maxsize=8)
def _bounded(base: Any) -> Any:
    import jsonschema.validators

    keywords = {name: _timed(function) for name, function in base.VALIDATORS.items()}
    keywords.update(
        {
            "pattern": _timed(_pattern),
            "patternProperties": _timed(_pattern_properties),
            "additionalProperties": _timed(_additional_properties),
            "uniqueItems": _timed(_unique_items),
            "multipleOf": _timed(_multiple_of),
        }
    )
    # untyped in types-jsonschema (mypy: an untyped call; pyright: an unknown member and return)
    return jsonschema.validators.extend(base, keywords)  # type: ignore[no-untyped-call]  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]


def _timed(function: Callable[..., Any]) -> Callable[..., Iterator[Any]]:
    def keyword(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
        _run.get().check_time()
        yield from function(validator, value, instance, schema) or ()

    return keyword


def _compile(pattern: str) -> Callable[[str], bool]:
    from pydantic_core import SchemaValidator, core_schema

    validator = SchemaValidator(core_schema.str_schema(pattern=pattern))  # unanchored, like re.search
    return validator.isinstance_python


def _matches(pattern: str, text: str) -> bool:
    """Whether pattern finds a match in text; a text Rust cannot read (a lone surrogate) matches nothing."""
    run = _run.get()
    run.check_match_time(pattern, text)
    try:
        return run.matcher(pattern)(text)
    except UnicodeError:
        return False


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not _matches(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: dict[str, Any], instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    run = _run.get()
    for pattern, subschema in patterns.items():
        for key, item in instance.items():
            run.check_time()  # per key: 1,500 patterns x 40,000 keys is 60 million matches
            if _matches(pattern, key):
                yield from validator.descend(item, subschema, path=key, schema_path=pattern)


def _additional_properties(validator: Any, additional: Any, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    run = _run.get()
    named = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras: list[str] = []
    for key in instance:
        run.check_time()
        if key not in named and not any(_matches(p, key) for p in patterns):
            extras.append(key)
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
    run = _run.get()
    seen: set[Any] = set()
    for index, item in enumerate(instance):
        if index % 1024 == 0:
            run.check_time()
        key = _canonical(item)
        if key in seen:
            yield ValidationError(f"{instance!r:.80} has non-unique elements")
            return
        seen.add(key)


def _multiple_of(validator: Any, divisor: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """multipleOf in exact arithmetic: the numbers as written in decimal, so `10**400` is a multiple
    of 0.1 (floating-point division overflows or rounds: 0.3 is not a float multiple of 0.1)."""
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "number"):
        return
    if not isinstance(divisor, int | float) or isinstance(divisor, bool) or not math.isfinite(divisor) or divisor <= 0:
        return  # the meta-schema check has refused it already
    quotient = _exact(instance) / _exact(divisor)
    if quotient.denominator != 1:
        yield ValidationError(f"{instance!r:.80} is not a multiple of {divisor!r}")


def _exact(number: int | float) -> Fraction:
    """A JSON number as the decimal it was written as (0.1 is 1/10, not the nearest binary float)."""
    return Fraction(number) if isinstance(number, int) else Fraction(repr(number))


def _canonical(value: Any) -> Any:
    """A hashable form under JSON equality (1 == 1.0, True != 1), so uniqueness is one pass."""
    if isinstance(value, bool) or value is None:
        return ("literal", value)
    if isinstance(value, int | float):
        return ("number", value)
    if is_array(value):
        return ("array", tuple(_canonical(v) for v in value))
    if is_object(value):
        return ("object", frozenset((k, _canonical(v)) for k, v in value.items()))
    return ("string", value)
