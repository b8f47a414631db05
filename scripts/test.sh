#!/usr/bin/env bash
# The whole test suite: set up, drift-check generated/, type-check it and codegen/ strictly, run pytest.
# Spec data: the pinned copies under spec/ (pytest --spec-source DIR / --docs-source DIR read a mirror).
# Extra arguments go to pytest: `bash scripts/test.sh -m "not slow"` is the quick subset, `--long`
# the long property and fuzz runs (docs/development.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== mcp-codegen check (generated/ matches a fresh generation)"
.venv/bin/mcp-codegen check
echo "== mypy --strict generated/mcp_models generated/everything_tools"
.venv/bin/mypy --strict generated/mcp_models generated/everything_tools
echo "== pyright (strict) generated/mcp_models generated/everything_tools"
.venv/bin/pyright generated/mcp_models generated/everything_tools
echo "== mypy --strict codegen (the generator's own code)"
.venv/bin/mypy --strict codegen
echo "== pyright (strict) codegen"
.venv/bin/pyright codegen
echo "== generated tests on the lowest supported pydantic"
bash scripts/test-floor.sh
echo "== pytest (on every core: pytest-xdist)"
.venv/bin/python -m pytest -n auto --dist worksteal --durations=20 "$@"
