"""The two revisions compared, read offline: a pinned revision from the spec source folder, the
copy shipped with mcp-codegen or beside the project's pins, or the download cache (never a
download: MCG826), or a schema.json on disk."""

from __future__ import annotations

import os
from pathlib import Path

from codegen.diff.source import is_schema_path
from codegen.errors import fail
from codegen.impact import Schema
from codegen.limits import Limits
from codegen.schema import load, spec


def pinned(label: str, source: str | None) -> Schema:
    pin = spec.find_revision(label)
    source = spec.resolve_source(source)
    if source is not None and "://" in source:
        raise fail(
            "MCG826",
            f"the spec source {source} is a URL: impact reads revisions offline",
            revision=pin.revision,
            hint="use a local mirror folder, or `mcp-codegen spec pull` first and no --spec-source",
        )
    if source is None and spec.bundled(pin) is None and spec.cached(pin) is None:
        raise fail(
            "MCG826",
            f"revision {pin.revision} is neither shipped, beside the project's pins, nor in the cache",
            revision=pin.revision,
            hint=f"`mcp-codegen spec pull -r {pin.revision}` downloads it once; impact never does",
        )
    data = spec.fetch(pin, source).data
    return Schema(pin.revision, pin.sha256, data, pin.revision)


def target(which: str, source: str | None, limits: Limits) -> Schema:
    """The revision to try: a schema path (its bytes; a pinned revision's bytes are that revision,
    as `diff` reads them), else a pinned label or `latest`."""
    if not is_schema_path(which):
        return pinned(which, source)
    path = Path(which)
    if os.path.isdir(path):
        path = path / "schema.json"
    data = load.read_input(
        path, limit=limits.max_schema_bytes, hint="give a pinned revision (`mcp-codegen spec list`) or a schema.json path"
    )
    digest = spec.sha256_hex(data)
    pin = next((p for p in spec.load_manifest() if p.sha256 == digest), None)
    label = pin.revision if pin else (path.parent.name if path.stem == "schema" and path.parent.name else path.stem)
    return Schema(label, digest, data, which)
