from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GENERATED = REPO / "generated"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))


def spec_source() -> Path:
    """The spec mirror: $MCP_CODEGEN_SPEC_SOURCE, else the pinned data committed under spec/."""
    configured = os.environ.get("MCP_CODEGEN_SPEC_SOURCE")
    return Path(configured) if configured else REPO / "spec"


def docs_source() -> Path:
    """The documentation pages: $MCP_CODEGEN_DOCS_SOURCE, else the copies committed under spec/pages."""
    configured = os.environ.get("MCP_CODEGEN_DOCS_SOURCE")
    return Path(configured) if configured else REPO / "spec" / "pages"


SPEC = spec_source()
DOCS = docs_source()
if not (SPEC / "2026-07-28" / "schema.json").is_file():
    raise RuntimeError(
        f"spec mirror not found at {SPEC}: set MCP_CODEGEN_SPEC_SOURCE to a folder holding <revision>/schema.json"
    )

REVISIONS = {
    "2024-11-05": "v2024_11_05",
    "2025-03-26": "v2025_03_26",
    "2025-06-18": "v2025_06_18",
    "2025-11-25": "v2025_11_25",
    "2026-07-28": "v2026_07_28",
    "draft": "draft",
}


@pytest.fixture(scope="session")
def spec_dir() -> Path:
    return SPEC
