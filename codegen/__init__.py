"""mcp-codegen: typed, lossless Pydantic v2 models for every Model Context Protocol spec revision.

The library API does everything the `mcp-codegen` command does:

- `generate(revisions, out=..., check=...)` and `generate_schema(path, out=...)`: the models;
- `generate_tools(out=..., tools_file=... | server=[...])`: a typed package for one server's tools;
- `codegen.diff.diff(old, new)`: what changed between two revisions;
- `codegen.examples.report(...)`, `codegen.outputschema.check_output(...)`, `codegen.spec`.
"""

from __future__ import annotations

__version__ = "0.1.0"

from .api import GenerateResult, RevisionSummary, generate, generate_schema, generate_tools  # noqa: E402

__all__ = [
    "GenerateResult",
    "RevisionSummary",
    "__version__",
    "generate",
    "generate_schema",
    "generate_tools",
]
