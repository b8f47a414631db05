"""Where the project's data folders (spec/, templates/) live: beside the package in a checkout,
inside it (codegen/_data) in an installed wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    for candidate in (_PACKAGE_DIR / "_data" / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"mcp-codegen data folder {name!r} is missing from the installation")


def spec_dir() -> Path:
    return data_dir("spec")


def templates_dir() -> Path:
    return data_dir("templates")


def runtime_dir() -> Path:
    """The runtime the generated packages share (codegen/runtime/): written out, never imported."""
    return _PACKAGE_DIR / "runtime"
