"""Renamed definitions: a removed and an added definition with (nearly) the same shape.

Similarity is the Jaccard index of each side's property names, required keys and property
schemas (annotations ignored); definitions pinning different constants (a `method`, a `type`, an
error `code`) are different things whatever their shape. Ties go to the longest common name prefix
(`JSONRPCError` -> `JSONRPCErrorResponse`), then the closest length.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from codegen.schema import schemas
from codegen.diff.relation import essential
from codegen.schema.jsontypes import is_object
RENAME_SIMILARITY = 0.7


def find_renames(old_defs: Mapping[str, Any], new_defs: Mapping[str, Any]) -> dict[str, str]:
    """Old name -> new name, for definitions only in old paired with definitions only in new."""
    removed = sorted(set(old_defs) - set(new_defs))
    added = sorted(set(new_defs) - set(old_defs))
    renames: dict[str, str] = {}
    for name in removed:
        best = max(
            added,
            key=lambda candidate: (
                similarity(old_defs[name], new_defs[candidate]),
                len(os.path.commonprefix([name, candidate])),
                -abs(len(candidate) - len(name)),
                candidate,
            ),
            default=None,
        )
        if best is not None and similarity(old_defs[name], new_defs[best]) >= RENAME_SIMILARITY:
            renames[name] = best
            added.remove(best)
    return renames


def similarity(a: Any, b: Any) -> float:
    if _constants(a) != _constants(b):
        return 0.0
    keys_a, keys_b = _keys(a), _keys(b)
    if not keys_a and not keys_b:
        return 1.0 if essential(a) == essential(b) else 0.0
    return len(keys_a & keys_b) / len(keys_a | keys_b)


def _keys(schema: Any) -> set[str]:
    if not is_object(schema):
        return set()
    properties: Mapping[str, Any] = schema.get("properties") or {}
    return (
        set(properties)
        | {f"!{k}" for k in schema.get("required") or ()}
        | {f"{k}={json.dumps(essential(v), sort_keys=True)}" for k, v in properties.items()}
    )


def _constants(schema: Any) -> frozenset[str]:
    return frozenset(json.dumps(node["const"]) for _, node in schemas.all_subschemas(schema) if "const" in node)
