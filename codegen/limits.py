"""Named resource limits for reading schemas: generous for every real MCP schema, bounded for hostile ones."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any


# The deepest nesting any setting may allow: the engine, copying and black recurse through the
# schema, and past ~500 levels Python's recursion limit ends them with a crash, not an error.
DEPTH_CEILING = 400
# How deeply types may nest, whatever max-depth allows (wellformed.check_type_depth): past these
# the engine ends in a RecursionError, or the package it writes cannot be imported. Python stops at
# 1,000 frames. The engine spends about 10 per schema nested inside one definition (an array of
# arrays fails at 96 levels); pydantic, building the validators at import, about 11 per nested
# model and 4-6 per other type along every reference (a chain of models fails at 88, of arrays of
# references at 97). One level of TYPE_DEPTH_CEILING is about five frames (a model counts 2), so
# both leave a third of the stack to the importer. MCP revisions: at most 8 and 40.
INLINE_DEPTH_CEILING = 64
TYPE_DEPTH_CEILING = 128


@dataclass(frozen=True)
class Limits:
    max_schema_bytes: int = 8 * 1024 * 1024  # the largest MCP schema.json is ~200 KB
    max_depth: int = 64  # nesting of JSON containers; MCP schemas reach 12; at most DEPTH_CEILING
    max_definitions: int = 2_000  # MCP revisions have 79..155
    max_subschemas: int = 50_000  # every object node counted; MCP revisions have 560..1,100
    # What the models declare: every schema (a field's type, a union arm, an item type) and enum
    # value counts 1, a named type (a definition, a class) 2. The engine, black and pydantic spend
    # about 1-1.5 ms on each, so this bounds a run to a few seconds of CPU (MCP revisions: 600..1,160;
    # their merged surface 1,400).
    max_members: int = 3_000

    def updated(self, overrides: dict[str, Any]) -> Limits:
        known = {f.name for f in fields(self)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise KeyError(", ".join(unknown))
        return replace(self, **{k: int(v) for k, v in overrides.items() if v is not None})


DEFAULT_LIMITS = Limits()
