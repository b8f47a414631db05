"""mcp-codegen: typed, lossless Pydantic v2 models for every Model Context Protocol spec revision.

The library API does everything the `mcp-codegen` command does:

- `generate(revisions, out=..., check=...)` and `generate_schema(path, out=...)`: the models;
- `generate_tools(out=..., tools_file=... | server=[...])`: a typed package for one server's tools;
- `codegen.diff.diff(old, new)`: what changed between two revisions;
- `codegen.api.impact(revision, pyproject=..., ...)`: the project's own type errors at another revision;
- `codegen.checks.examples.report(...)`, `codegen.checks.outputschema.check_output(...)`,
  `codegen.schema.spec` (pinned revisions).
"""

from __future__ import annotations

from codegen.version import __version__

from codegen.api import GenerateResult, RevisionSummary, generate, generate_schema, generate_tools  # noqa: E402
__all__ = [
    "GenerateResult",
    "RevisionSummary",
    "__version__",
    "generate",
    "generate_schema",
    "generate_tools",
]
