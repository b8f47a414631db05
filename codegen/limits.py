"""Named resource limits for reading schemas: generous for every real MCP schema, bounded for hostile ones."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any


# The deepest nesting any setting may allow: the engine, copying and black recurse through the
# schema, and past ~500 levels Python's recursion limit ends them with a crash, not an error.
DEPTH_CEILING = 400


@dataclass(frozen=True)
class Limits:
    max_schema_bytes: int = 8 * 1024 * 1024  # the largest MCP schema.json is ~200 KB
    max_depth: int = 64  # nesting of JSON containers; MCP schemas reach 12; at most DEPTH_CEILING
    max_definitions: int = 2_000  # MCP revisions have 79..155
    max_subschemas: int = 50_000  # every object node counted; MCP revisions have 560..1,100

    def updated(self, overrides: dict[str, Any]) -> Limits:
        known = {f.name for f in fields(self)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise KeyError(", ".join(unknown))
        return replace(self, **{k: int(v) for k, v in overrides.items() if v is not None})


DEFAULT_LIMITS = Limits()
