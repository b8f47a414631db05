"""Defaults for the whole test run (tests/ and the tests generated into generated/mcp_models):
the spec mirror and the docs pages sit in ../shared beside a checkout unless configured."""

from __future__ import annotations

import os
from pathlib import Path

_SHARED = Path(__file__).resolve().parent.parent / "shared"
os.environ.setdefault("MCP_CODEGEN_SPEC_SOURCE", str(_SHARED / "spec"))
os.environ.setdefault("MCP_CODEGEN_DOCS_SOURCE", str(_SHARED / "seeds"))
