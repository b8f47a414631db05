"""Validating structured content against a tool's `outputSchema` (JSON Schema 2020-12, by the
jsonschema library), safely for schemas from servers nobody vetted (SEP-2106's security notes):

- a `$ref` that leaves the schema is never fetched (an error), same-document pointers and `$anchor`s
  work;
- the schema's size and nesting are bounded before validating, so composition cannot explode;
- validation stops at a time budget between errors.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import fail
from .limits import Limits
from .load import check_bounded

OUTPUT_LIMITS = Limits(max_schema_bytes=1 << 20, max_depth=64, max_definitions=10_000, max_subschemas=10_000)


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
) -> list[OutputProblem]:
    """The problems of value against output_schema (empty: it conforms). Raises CodegenError for a
    schema that is refused (remote `$ref`, too large or deep, not a schema)."""
    import jsonschema
    import referencing
    import referencing.exceptions

    if isinstance(output_schema, bool):
        return [] if output_schema else [OutputProblem("", "the schema `false` accepts no value")]
    check_bounded(dict(output_schema), "outputSchema", limits)

    def refuse(uri: str) -> referencing.Resource[Any]:
        raise referencing.exceptions.NoSuchResource(ref=uri)

    registry: referencing.Registry[Any] = referencing.Registry(retrieve=refuse)
    validator_class = jsonschema.validators.validator_for(output_schema, default=jsonschema.Draft202012Validator)
    try:
        validator_class.check_schema(output_schema)
    except jsonschema.SchemaError as exc:
        raise fail("MCG711", f"outputSchema is not a valid JSON Schema: {exc.message}", pointer="#") from exc
    validator = validator_class(output_schema, registry=registry)
    deadline = time.monotonic() + budget_seconds
    problems = []
    try:
        for error in validator.iter_errors(value):
            problems.append(OutputProblem("/" + "/".join(str(p) for p in error.absolute_path), error.message))
            if time.monotonic() > deadline:
                problems.append(OutputProblem("", f"validation stopped after {budget_seconds}s"))
                break
    except (referencing.exceptions.Unresolvable, jsonschema.exceptions._WrappedReferencingError) as exc:  # noqa: SLF001
        raise fail("MCG712", f"outputSchema reference cannot be resolved: {exc}", pointer="#") from exc
    return problems
