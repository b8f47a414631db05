"""The project whose code is checked: its folder, the vendored revision replaced, the type checker
its own configuration names, and what that checker is told to check."""

from __future__ import annotations

import configparser
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from codegen import safeio
from codegen.errors import fail, flat

CHECKERS = ("mypy", "pyright")
_CONFIG_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class Project:
    root: Path  # the folder of the pyproject.toml holding [tool.mcp-codegen], absolute
    out: Path  # the vendored output folder, relative to root
    package: str  # its import path (`acme_platform.mcp`)
    revision: str  # the vendored revision the target replaces (`2026-07-28`)
    revision_package: str  # its subpackage (`v2026_07_28`)

    @property
    def replaced(self) -> Path:
        """The folder, relative to root, that each run generates afresh."""
        return self.out / self.revision_package

    @property
    def module(self) -> str:
        return f"{self.package}.{self.revision_package}"


def locate(pyproject: Path, out: Path, package: str, revision: str, revision_package: str) -> Project:
    """The project of pyproject (its folder), with out (as configured: relative to that folder)
    inside it: the copy checked is that folder's, so a vendored package outside it could not be
    replaced in the copy."""
    if not pyproject.is_file():
        raise fail(
            "MCG823",
            f"{pyproject} does not exist: impact checks the project that pyproject.toml describes",
            hint="run it in the project's folder, or pass --config path/to/pyproject.toml",
        )
    root = Path(os.path.abspath(pyproject.parent))
    folder = Path(os.path.normpath(root / out))
    try:
        inside = folder.relative_to(root)
    except ValueError:
        inside = None
    if inside is None or inside == Path("."):
        raise fail(
            "MCG823",
            f"the vendored package {out.as_posix()} is not inside the project folder {root}",
            hint="impact copies the project folder and replaces the package in the copy; `out` must be below it",
        )
    if not folder.is_dir():
        raise fail(
            "MCG823",
            f"the vendored package {inside.as_posix()} does not exist in {root}",
            hint="run `mcp-codegen generate` first: impact compares the project's code against the revision it vendors",
        )
    return Project(root, inside, package, revision, revision_package)


def current_revision(vendored: Sequence[str], against: str | None) -> str:
    """The vendored revision the target replaces: --against, or the one the project vendors."""
    if against is not None:
        if against not in vendored:
            raise fail(
                "MCG822",
                f"--against {against!r} is not a revision the project vendors",
                hint="it vendors " + ", ".join(vendored) + " (`revisions` in [tool.mcp-codegen])",
            )
        return against
    if len(vendored) != 1:
        raise fail(
            "MCG822",
            f"the project vendors {len(vendored)} revisions ({', '.join(vendored)}): "
            "which one does the target replace?",
            hint="name it with --against, e.g. --against " + (vendored[-1] if vendored else "2026-07-28"),
        )
    return vendored[0]


@dataclass(frozen=True)
class CheckerConfig:
    name: str  # "mypy" | "pyright"
    file: Path | None  # the config file holding its settings (relative to the project), if any
    table: Mapping[str, Any]  # its settings, as far as impact reads them (mypy `files`, pyright `venv`)


def configured(root: Path) -> list[CheckerConfig]:
    """The type checkers the project configures, mypy first: mypy.ini, .mypy.ini, [tool.mypy] in
    pyproject.toml or [mypy] in setup.cfg (mypy's own order); pyrightconfig.json or [tool.pyright]."""
    found: list[CheckerConfig] = []
    tool = _pyproject_tools(root / "pyproject.toml")
    for name in ("mypy.ini", ".mypy.ini"):
        section = _ini_section(root / name, "mypy")
        if section is not None:
            found.append(CheckerConfig("mypy", Path(name), section))
            break
    else:
        if isinstance(tool.get("mypy"), dict):
            found.append(CheckerConfig("mypy", Path("pyproject.toml"), cast("dict[str, Any]", tool["mypy"])))
        elif (section := _ini_section(root / "setup.cfg", "mypy")) is not None:
            found.append(CheckerConfig("mypy", Path("setup.cfg"), section))
    if os.path.lexists(root / "pyrightconfig.json"):
        found.append(CheckerConfig("pyright", Path("pyrightconfig.json"), _json_object(root / "pyrightconfig.json")))
    elif isinstance(tool.get("pyright"), dict):
        found.append(CheckerConfig("pyright", Path("pyproject.toml"), cast("dict[str, Any]", tool["pyright"])))
    return found


def choose(root: Path, forced: str | None) -> CheckerConfig:
    """The checker to run: --checker, else the one the project configures (mypy when it configures
    both, as a project checked by mypy in CI usually is)."""
    if forced is not None and forced not in CHECKERS:
        raise fail("MCG012", f"--checker {forced!r} is not supported", hint="use --checker mypy or --checker pyright")
    found = configured(root)
    if forced is not None:
        return next((c for c in found if c.name == forced), CheckerConfig(forced, None, {}))
    if not found:
        raise fail(
            "MCG820",
            f"the project in {root} configures no type checker",
            hint="add [tool.mypy] or [tool.pyright] to its pyproject.toml, or pass --checker mypy|pyright",
        )
    return found[0]


def mypy_names_files(config: CheckerConfig) -> bool:
    """Whether mypy's configuration says what to check (`files`), so no target is passed."""
    files: object = config.table.get("files")
    if isinstance(files, list):
        return bool(cast("list[object]", files))
    return isinstance(files, str) and bool(files.strip())


def _pyproject_tools(path: Path) -> Mapping[str, Any]:
    data = _read(path)
    if data is None:
        return {}
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as exc:
        raise fail("MCG010", f"cannot read {path}: {flat(str(exc))}") from exc
    tool: object = document.get("tool", {})
    return cast("dict[str, Any]", tool) if isinstance(tool, dict) else {}


def _ini_section(path: Path, section: str) -> Mapping[str, Any] | None:
    data = _read(path)
    if data is None:
        return None
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(data.decode("utf-8"), source=str(path))
    except (UnicodeDecodeError, configparser.Error) as exc:
        raise fail("MCG010", f"cannot read {path}: {flat(str(exc))}") from exc
    if not parser.has_section(section):
        return None
    return dict(parser.items(section))


def _json_object(path: Path) -> Mapping[str, Any]:
    """pyrightconfig.json's top level, as far as it is plain JSON (pyright also takes comments:
    then impact reads nothing from it, and pyright reads it all the same)."""
    import json

    data = _read(path)
    try:
        document: object = json.loads(data or b"{}")
    except ValueError:
        return {}
    return cast("dict[str, Any]", document) if isinstance(document, dict) else {}


def _read(path: Path) -> bytes | None:
    if not os.path.lexists(path):
        return None
    try:
        return safeio.read_regular(path, _CONFIG_BYTES)
    except safeio.NotRegular as exc:
        raise fail("MCG010", f"cannot read {path}: it is {exc.what}") from None
    except safeio.TooLarge:
        raise fail("MCG010", f"cannot read {path}: larger than {_CONFIG_BYTES:,} bytes") from None
    except OSError as exc:
        raise fail("MCG010", f"cannot read {path}: {safeio.reason(exc)}") from exc
