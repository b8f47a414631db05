#!/usr/bin/env bash
# The generated packages on the lowest pydantic they support: a small second venv (.venv-floor) with
# only pydantic and pytest, running the tests generated into generated/ (spec round trips, dispatch).
set -euo pipefail
cd "$(dirname "$0")/.."
PYDANTIC_FLOOR="2.12.0"  # the lowest pydantic the generated code supports (README: Replacing an SDK's generator)
if [[ ! -x .venv-floor/bin/python ]]; then
  python3 -m venv .venv-floor
fi
if [[ "$(.venv-floor/bin/python -c 'import pydantic; print(pydantic.VERSION)' 2>/dev/null)" != "$PYDANTIC_FLOOR" ]]; then
  .venv-floor/bin/python -m pip install --quiet "pydantic==$PYDANTIC_FLOOR" pytest
fi
# mcp-codegen is not installed in this venv, so the generated tests are told where its pinned spec
# data is: the copies committed under spec/ (unless the caller points elsewhere)
export MCP_CODEGEN_SPEC_SOURCE="${MCP_CODEGEN_SPEC_SOURCE:-$(pwd)/spec}"
export MCP_CODEGEN_DOCS_SOURCE="${MCP_CODEGEN_DOCS_SOURCE:-$(pwd)/spec/pages}"
# no bytecode inside generated/: `mcp-codegen check` counts __pycache__ there as drift
export PYTHONDONTWRITEBYTECODE=1
# from inside generated/: the repository's pytest settings name plugins this venv does not have
cd generated
../.venv-floor/bin/python -c 'import pydantic; print("pydantic", pydantic.VERSION)'
# warnings are errors: a dump that warns on this pydantic is a failure, not noise
../.venv-floor/bin/python -m pytest -q -p no:cacheprovider -W error::UserWarning mcp_models "$@"
# building messages by keyword, on the same pydantic
cd ..
.venv-floor/bin/python scripts/floor_building.py
