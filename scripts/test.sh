#!/usr/bin/env bash
# The whole test suite: set up, drift-check generated/, type-check it strictly, run pytest.
# Spec data: the pinned copies under spec/ (MCP_CODEGEN_SPEC_SOURCE / MCP_CODEGEN_DOCS_SOURCE override).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== mcp-codegen check (generated/ matches a fresh generation)"
.venv/bin/mcp-codegen check
echo "== mypy --strict generated/mcp_models"
.venv/bin/mypy --strict generated/mcp_models
echo "== pyright (strict) generated/mcp_models"
.venv/bin/pyright generated/mcp_models
echo "== pytest"
.venv/bin/python -m pytest "$@"
