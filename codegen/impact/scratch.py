"""The copy of the project that is checked: its folder as it is, less the vendored revision's
package (generated afresh into the copy for each run), less caches and version control.

Why a copy of the whole folder: the vendored package lives inside the team's own package
(`acme_platform/mcp` inside `acme_platform`), so no search-path order can shadow it without
hiding the team's code; in a copy the replacement is exact, the checker's own configuration
(pyproject.toml, mypy.ini, pyrightconfig.json, relative `mypy_path`/`extraPaths`) comes along
unchanged, and the project's files are only ever read. Virtual environments in the folder are
linked, not copied: a checker configured to use `.venv` finds it, and nothing writes through a
link (the checkers read environments)."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from codegen import safeio
from codegen.errors import fail

# caches and version control: what no checker reads as the project's code
SKIPPED = frozenset(
    {".git", ".hg", ".svn", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", ".nox",
     "node_modules", ".mcg-cache", ".dmypy.json"}
)  # fmt: skip
MAX_FILES = 50_000
MAX_BYTES = 512 * 1024 * 1024


def copy_project(
    root: Path, dest: Path, *, leave_out: Path, max_files: int = MAX_FILES, max_bytes: int = MAX_BYTES
) -> int:
    """Copy root's tree to dest (which must not exist), without leave_out (relative to root).
    Regular files are copied, links kept as links, other files (FIFOs, sockets, devices) left out:
    opening one could block. Returns the number of files copied; past max_files or max_bytes the
    copy stops (MCG825) — impact is for a project's folder, not a disk."""
    files = size = 0
    left_out = os.path.normpath(leave_out)
    for folder, dirnames, filenames in os.walk(root):  # never descends into a link to a folder
        here = Path(folder)
        relative = here.relative_to(root)
        target = dest / relative
        target.mkdir(parents=True, exist_ok=True)
        kept: list[str] = []
        for name in sorted(dirnames):
            rel = os.path.normpath(relative / name)
            if name in SKIPPED or rel == left_out:
                continue
            source = here / name
            if source.is_symlink() or (source / "pyvenv.cfg").is_file():
                _link(source, target / name)  # a link as it is; a virtual environment by reference
                continue
            kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            if name in SKIPPED:
                continue
            source = here / name
            info = os.lstat(source)
            if stat.S_ISLNK(info.st_mode):
                _link(source, target / name)
                continue
            if not stat.S_ISREG(info.st_mode):
                continue
            files += 1
            size += info.st_size
            if files > max_files or size > max_bytes:
                raise fail(
                    "MCG825",
                    f"the project folder {root} holds more than {max_files:,} files or {max_bytes:,} bytes to copy",
                    hint="run impact from the package's own folder (--config packages/<name>/pyproject.toml)",
                )
            try:
                shutil.copyfile(source, target / name, follow_symlinks=False)
            except OSError as exc:
                raise fail("MCG601", f"cannot copy {source} into the scratch folder: {safeio.reason(exc)}") from exc
    return files


def _link(source: Path, target: Path) -> None:
    """A link in the copy: a link of the project's copied as it reads (relative stays relative),
    a virtual environment linked by its absolute path."""
    try:
        os.symlink(os.readlink(source) if source.is_symlink() else os.path.abspath(source), target)
    except OSError as exc:
        raise fail("MCG601", f"cannot link {source} into the scratch folder: {safeio.reason(exc)}") from exc


def replace_package(copy: Path, relative: Path) -> Path:
    """The vendored revision's folder in the copy, emptied for the next build."""
    folder = copy / relative
    if os.path.lexists(folder):
        shutil.rmtree(folder)
    return folder
