"""What the surface tests share: each revision's schema as the models read it, jsonschema validators
on it, every example source of every revision, and names between a revision and the surface."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

import jsonschema.validators

from codegen.emit.pipeline import prepared
from codegen.limits import DEFAULT_LIMITS
from codegen.schema import load, spec

from .conftest import REVISIONS, SPEC

SPANNED = tuple(REVISIONS)  # oldest first, the draft last
NEWEST_RELEASED = "2026-07-28"


def surface() -> ModuleType:
    return importlib.import_module("mcp_models.surface")


def revision_package(revision: str) -> ModuleType:
    return importlib.import_module(f"mcp_models.{REVISIONS[revision]}")


@cache
def document(revision: str) -> dict[str, Any]:
    """The revision's schema with its errata, definitions under `$defs` (what the models read)."""
    pin = spec.find_pin(revision)
    data = spec.fetch(pin, str(SPEC)).data
    return dict(load.to_schema_doc(prepared(revision, data, DEFAULT_LIMITS), revision, DEFAULT_LIMITS).document)


@cache
def _validator(revision: str, where: str) -> Any:
    doc = document(revision)
    schema = {**doc, "$ref": where if where.startswith("#/") else f"#/$defs/{where}"}
    return jsonschema.validators.Draft202012Validator(schema)


def accepts(revision: str, where: str, value: Any) -> bool:
    """Whether the revision's JSON Schema accepts value as a definition it has (by name) or as the
    schema at a pointer."""
    return bool(_validator(revision, where).is_valid(value))


@cache
def _merged() -> Any:
    from codegen.surface.merge import merge

    return merge([(revision, document(revision)) for revision in SPANNED])


def place(revision: str, surface_name: str) -> str | None:
    """Where a surface definition is in the revision's own schema: its definition (under its own
    name there), or the place an older revision wrote it inline; None where the revision lacks it."""
    origins: dict[str, str] = _merged().origins[revision]
    return origins.get(surface_name)


def own_name(revision: str, surface_name: str) -> str | None:
    """The revision's name of a surface definition (a renamed one under its old name), if it has it."""
    defs = document(revision)["$defs"]
    if surface_name in defs:
        return surface_name
    return next((old for old, new in _renamed().items() if new == surface_name and old in defs), None)


def _renamed() -> dict[str, str]:
    tables = importlib.import_module("mcp_models.surface._tables")
    renamed: dict[str, str] = tables.RENAMED
    return renamed


def surface_name(name: str) -> str:
    return _renamed().get(name, name)


@dataclass(frozen=True)
class Sample:
    origin: str  # "<revision>:<example origin>"
    value: Any
    target: str  # a definition name (in the revision it came from), "message", or "result of <method>"


def samples() -> Iterator[Sample]:
    """Every routed example of every revision's example sources (trees and documentation pages),
    once each (the same JSON under the same target counted once)."""
    seen: set[str] = set()
    for revision, package in REVISIONS.items():
        try:
            examples = importlib.import_module(f"mcp_models.{package}._examples")
        except ModuleNotFoundError:
            continue  # a revision with no example source
        for example in examples.all_examples():
            if example.target is None:
                continue
            key = example.target + json.dumps(example.value, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            yield Sample(f"{revision}:{example.origin}", example.value, example.target)


def canonical(value: Any) -> str:
    """JSON text that tells 1 from 1.0 and true from 1, keys sorted."""
    return json.dumps(value, sort_keys=True)
