"""The suite's own settings: a hermetic environment, the spec data it reads, hypothesis profiles.

Nothing a developer's shell exports steers a test: every `MCP_CODEGEN_*` variable and the terminal
knobs that change what commands print are cleared before the first test module is imported, and
the tool's cache points into this run's temporary folder. Where the spec data comes from is a
command-line option (`--spec-source`), never an inherited variable.

`--long` runs the property and fuzz tests ten times longer, each with a fresh random seed
(printed on failure); without it every drawn test runs a fixed seed at its usual count.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from . import suite

REPO = Path(__file__).resolve().parents[1]
GENERATED = REPO / "generated"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

# what a shell may export that would change what the tool or a test's subprocess does or prints
_CLEARED_PREFIXES = ("MCP_CODEGEN_", "RUFF_")
_CLEARED = (
    "FORCE_COLOR", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "COLUMNS", "LINES",
    "PYTHONPATH", "PYTHONSTARTUP", "PYTHONDONTWRITEBYTECODE", "PYTHONWARNINGS", "PYTHONHASHSEED",
    "PYTHONPYCACHEPREFIX",
)  # fmt: skip
CLEARED = sorted(k for k in os.environ if k.startswith(_CLEARED_PREFIXES) or k in _CLEARED)
for _entry in os.environ.get("PYTHONPATH", "").split(os.pathsep):  # already on this process's path
    for _form in {_entry, os.path.abspath(_entry)} if _entry else ():
        while _form in sys.path:
            sys.path.remove(_form)
for _name in CLEARED:
    del os.environ[_name]
# Bytecode goes to one folder outside every tree (for this process, the xdist workers and every
# subprocess): imports in tests never put __pycache__ into generated/ or a tree a test compares,
# and `mcp-codegen check` never has bytecode to compare on a second run.
PYCACHE = REPO / ".cache" / "pycache"
os.environ["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
sys.pycache_prefix = str(PYCACHE)

settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)  # fmt: skip
settings.register_profile(
    "long", derandomize=False, database=None, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)  # fmt: skip
settings.load_profile("ci")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mcp-codegen")
    group.addoption(
        "--long", action="store_true", default=False,
        help=f"run property and fuzz tests {suite.LONG_FACTOR}x longer, each with a random seed",
    )  # fmt: skip
    group.addoption(
        "--spec-source", default=None, metavar="DIR",
        help="read spec data from this mirror (<revision>/schema.json) instead of the pinned copies under spec/",
    )  # fmt: skip
    group.addoption(
        "--docs-source", default=None, metavar="DIR",
        help="read the documentation pages from this folder instead of spec/pages",
    )  # fmt: skip
    group.addoption(
        "--bad-input-table", default=None, metavar="FILE",
        help="append each bad-input case's measured row (JSON lines) to FILE (scripts/bad_input_table.py)",
    )  # fmt: skip


def pytest_configure(config: pytest.Config) -> None:
    suite.configure(
        long=bool(config.getoption("long")),
        spec_source=config.getoption("spec_source"),
        docs_source=config.getoption("docs_source"),
        bad_input_table=config.getoption("bad_input_table"),
    )
    if suite.LONG:
        settings.load_profile("long")


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = [f"mcp-codegen suite: {'long (random seeds)' if suite.LONG else 'fixed seeds'}, spec data {suite.SPEC}"]
    if CLEARED:
        lines.append("cleared from the environment: " + ", ".join(CLEARED))
    return lines


def spec_source() -> Path:
    return suite.SPEC


def docs_source() -> Path:
    return suite.DOCS


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
    return suite.SPEC


@pytest.fixture(autouse=True)
def _private_tool_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test gets a tool cache of its own (never ~/.cache/mcp-codegen): a cached run of one
    test cannot make another's generation a no-op, whatever order they run in."""
    folder = tmp_path_factory.mktemp("tool-cache", numbered=True)
    monkeypatch.setenv("MCP_CODEGEN_CACHE", str(folder))


def __getattr__(name: str) -> Path:
    # SPEC and DOCS are read after the command line is (test modules import them at collection)
    if name == "SPEC":
        return suite.SPEC
    if name == "DOCS":
        return suite.DOCS
    raise AttributeError(name)
