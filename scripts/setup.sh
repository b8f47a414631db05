#!/usr/bin/env bash
# Create .venv (if missing) and install mcp-codegen with its development tools into it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -x .venv/bin/python ]]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'
# The reference MCP server the tools tests talk to (started with node; pinned).
if [[ ! -f .cache/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js ]]; then
  mkdir -p .cache/npm
  npm install --silent --no-audit --no-fund --prefix .cache/npm @modelcontextprotocol/server-everything@2026.8.31
fi
# Headless Chromium for the diff report's browser test (tests/test_diff_html.py): Debian's package.
if ! command -v chromium >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "setup: Chromium is missing; install Debian's package (apt-get install chromium) for tests/test_diff_html.py" >&2
  fi
fi
