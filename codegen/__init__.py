"""mcp-codegen: typed, lossless Pydantic v2 models for every Model Context Protocol spec revision."""

from __future__ import annotations

__version__ = "0.1.0"

from .api import GenerateResult, RevisionSummary, generate, generate_schema  # noqa: E402

__all__ = ["GenerateResult", "RevisionSummary", "__version__", "generate", "generate_schema"]
