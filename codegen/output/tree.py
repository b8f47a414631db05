"""A generated file set -> disk: written atomically and only if changed, checked, or diffed.

The output root (e.g. generated/mcp_models) is owned by the generator: it is staged in a sibling
temporary folder and swapped in with two renames while SIGINT/SIGTERM are held back, so a failed or
interrupted run leaves the previous tree exactly as it was. A lock on the parent folder keeps two
runs from writing the same output at once.

What is already there is read as untrusted (a pull request can put anything into a committed
output folder): the root must be a real folder (not a link, not a file) holding a package this
tool generated; inside it, links are never followed and nothing but regular files is opened, the
walk is bounded in files and bytes, and everything that is not a regular file is reported by what
it is, never read. A run removes only files this tool wrote (their first line carries MARKER), and
only with `prune` whole packages (revisions) the new run no longer generates.
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import fcntl
import os
import secrets
import shutil
import signal
import stat
from collections.abc import Generator, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from codegen import safeio
from codegen.output import bytecode
from codegen.emit.stamp import MARKER
from codegen.errors import fail, printable

_MARKER_SPAN = 500  # the marker is on the first line of every file the generator writes
# Python's bytecode caches: walked and read like the rest (Python imports from them), kept apart
_BYTECODE_DIR = "__pycache__"
# other tools' caches (never imported): not read, never deleted, carried into the new tree
_TOOL_CACHES = frozenset({".mypy_cache", ".pytest_cache"})
_CACHE_FOLDER = "a tool's cache folder"  # what _walk says of one
_STAGING = ".staging-"
_OLD = ".old-"  # the previous tree during a swap: restored if a run dies before the new one is in
_TRASH = ".trash-"  # the previous tree once the new one is in: only ever removed
# The most a previous output folder is read to (raised to 4x the new file set when that is larger):
# the generated tree of every revision is ~60 files and ~1 MB.
MAX_FILES = 10_000
MAX_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class FileSet:
    root: Path
    files: Mapping[str, str]  # posix relative path -> text


@dataclass(frozen=True)
class WriteReport:
    root: Path
    changed: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    unchanged: int = 0

    @property
    def touched(self) -> bool:
        return bool(self.changed or self.removed)


@dataclass
class _Diff:
    changed: list[str] = field(default_factory=list[str])
    removed: list[str] = field(default_factory=list[str])
    unchanged: int = 0


@dataclass(frozen=True)
class Tree:
    """What an output folder holds: its regular files' bytes, and what else is there (never read)."""

    files: dict[str, bytes]
    special: dict[str, str] = field(default_factory=dict[str, str])  # posix relative path -> what it is
    bytecode: dict[str, bytes] = field(default_factory=dict[str, bytes])  # regular files under __pycache__
    caches: tuple[str, ...] = ()  # other tools' cache folders (posix relative paths), never read


def is_bytecode(rel: str, data: bytes) -> bool:
    """A file Python's import system writes: __pycache__/<module>.<tag>.pyc holding a pyc header.
    Such a file is disposable (Python rebuilds it), never trusted (it is not checked against its source)."""
    parts = rel.split("/")
    return (
        len(parts) >= 2
        and parts[-2] == _BYTECODE_DIR
        and parts[-1].endswith(".pyc")
        and parts[-1].count(".") >= 2
        and len(data) >= 16
        and data[2:4] == b"\r\n"
    )


def guard_root(root: Path, *, checking: bool = False) -> None:
    """Refuse, before anything of it is read or moved, an output root that is not a folder this
    tool may replace: a symbolic link, a file (an executable above all), a FIFO or device, or a
    non-empty folder whose __init__.py does not carry the generator's marker."""
    action = "check" if checking else "replace"
    if not checking:
        _refuse_unwritable(root)
    try:
        status = os.lstat(root)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _io_error(exc, root, "read") from exc
    if not stat.S_ISDIR(status.st_mode):
        raise fail(
            "MCG603",
            f"refusing to {action} {root}: it is {safeio.describe(status.st_mode, root)}, not a package folder",
            hint="--out names the folder the package goes in; give a new or previously generated folder"
            + (" itself, not a link to it" if stat.S_ISLNK(status.st_mode) else ""),
        )
    try:
        with os.scandir(root) as entries:
            empty = next(entries, None) is None
        if empty:
            return
        head: bytes | None = safeio.read_head(root / "__init__.py", _MARKER_SPAN)
    except FileNotFoundError:
        head = b""
    except safeio.NotRegular as exc:
        if not checking:
            _refuse_special(root, {"__init__.py": exc.what})
        head = None  # `check` names it in its report, by what it is
    except OSError as exc:
        raise _io_error(exc, root, "read") from exc
    if head is not None and MARKER.encode() not in head:
        raise fail(
            "MCG603",
            f"refusing to {action} {root}: it holds files that mcp-codegen did not generate",
            hint="choose an empty or previously generated output folder",
        )
    try:
        special = {rel: what for rel, _, what in _walk(root, MAX_FILES, MAX_BYTES) if what and what != _CACHE_FOLDER}
    except OSError as exc:
        raise _io_error(exc, root, "read") from exc
    if not checking:  # `check` names them in its report instead
        _refuse_special(root, special)


def guard_pruning(root: Path, kept: set[str], *, prune: bool) -> None:
    """Before generating: the packages (folders) root holds that this run will not write are
    removed only with prune, and only if mcp-codegen wrote every file in them."""
    if not os.path.isdir(root) or os.path.islink(root):
        return
    with os.scandir(root) as entries:
        dropped = sorted(
            e.name
            for e in entries
            if e.is_dir(follow_symlinks=False) and e.name not in _TOOL_CACHES | {_BYTECODE_DIR} | kept
        )
    if not dropped:
        return
    removed: dict[str, bytes] = {}
    for name in dropped:
        try:
            tree = scan(root / name)
        except OSError as exc:
            raise _io_error(exc, root / name, "read") from exc
        _refuse_special(root, {f"{name}/{rel}": what for rel, what in tree.special.items()})
        _refuse_foreign_bytecode(root, {f"{name}/{rel}": data for rel, data in tree.bytecode.items()})
        if tree.caches:
            _refuse_foreign(root, {f"{name}/{tree.caches[0]}": b""}, [f"{name}/{tree.caches[0]}"])
        removed.update({f"{name}/{rel}": data for rel, data in tree.files.items()})
    _refuse_foreign(root, removed, sorted(removed))
    if not prune:
        _refuse_pruning(root, FileSet(root, {}), [f"{name}/" for name in dropped])


def _refuse_unwritable(root: Path) -> None:
    """Before any work: the folder the output goes in (its nearest existing ancestor) and a
    previous output folder must be writable, or the run would fail only at its very end."""
    existing = next((p for p in (root.parent, *root.parent.parents) if os.path.lexists(p)), None)
    if existing is not None and os.path.isdir(existing) and not os.access(existing, os.W_OK | os.X_OK):
        raise _io_error(PermissionError(errno.EACCES, "permission denied"), existing)
    if os.path.isdir(root) and not os.path.islink(root) and not os.access(root, os.W_OK | os.X_OK):
        raise _io_error(PermissionError(errno.EACCES, "permission denied"), root)


def _walk(root: Path, max_files: int, max_bytes: int) -> Iterator[tuple[str, os.DirEntry[str], str]]:
    """(relative path, entry, what it is if not a regular file) for everything under root, in
    order, without following a link or opening a file: more than max_files entries, or regular
    files of more than max_bytes in all, is MCG606 (that is not a folder this tool wrote). Another
    tool's cache folder is reported as _CACHE_FOLDER and not entered."""
    total = count = 0
    pending = [""]
    while pending:
        folder = pending.pop()
        with os.scandir(root / folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
        for entry in entries:
            rel = f"{folder}/{entry.name}" if folder else entry.name
            count += 1
            if count > max_files:
                raise _too_big(root, f"more than {max_files:,} files")
            status = entry.stat(follow_symlinks=False)
            if stat.S_ISDIR(status.st_mode):
                if entry.name in _TOOL_CACHES:
                    yield rel, entry, _CACHE_FOLDER
                else:
                    pending.append(rel)
                continue
            if stat.S_ISREG(status.st_mode) and status.st_nlink > 1:
                # another name for a file elsewhere (mcp-codegen writes none): its content is not ours to show
                yield rel, entry, f"a file with {status.st_nlink} hard links"
            elif stat.S_ISREG(status.st_mode):
                total += status.st_size
                if total > max_bytes:
                    raise _too_big(root, f"more than {max_bytes:,} bytes")
                yield rel, entry, ""
            else:
                yield rel, entry, safeio.describe(status.st_mode, Path(entry.path))


def scan(root: Path, *, max_files: int = MAX_FILES, max_bytes: int = MAX_BYTES) -> Tree:
    """Every entry under root, by posix relative path, without following a single symbolic link:
    regular files read (at most max_bytes in all; those under __pycache__ kept apart as bytecode),
    other tools' cache folders named, everything else described. More than max_files entries or
    max_bytes is MCG606: that folder is not one this tool wrote."""
    files: dict[str, bytes] = {}
    special: dict[str, str] = {}
    bytecode: dict[str, bytes] = {}
    caches: list[str] = []
    if not os.path.isdir(root) or os.path.islink(root):
        return Tree(files, special)
    total = 0
    for rel, entry, what in _walk(root, max_files, max_bytes):
        if what == _CACHE_FOLDER:
            caches.append(rel)
            continue
        if what:
            special[rel] = what
            continue
        try:
            data = safeio.read_regular(Path(entry.path), max_bytes - total)
        except safeio.NotRegular as exc:  # replaced since it was listed
            special[rel] = exc.what
            continue
        except safeio.TooLarge:  # grew since it was listed
            raise _too_big(root, f"more than {max_bytes:,} bytes") from None
        (bytecode if _BYTECODE_DIR in rel.split("/")[:-1] else files)[rel] = data
        total += len(data)
    return Tree(dict(sorted(files.items())), dict(sorted(special.items())), dict(sorted(bytecode.items())), tuple(caches))


def read_tree(root: Path) -> dict[str, bytes]:
    """Every regular file under root (bytecode and other tools' caches excluded), by posix relative
    path; links and special files are left out, unread."""
    return scan(root).files


def has_leftovers(root: Path) -> bool:
    """A run's staging, previous or discarded tree lies beside root (a run died or is running)."""
    try:
        with os.scandir(root.parent) as entries:
            names = [e.name for e in entries]
    except OSError:
        return False
    prefixes = tuple(f".{root.name}{kind}" for kind in (_STAGING, _OLD, _TRASH))
    return any(name.startswith(prefixes) for name in names)


def _budget(fileset: FileSet) -> dict[str, int]:
    size = sum(len(text) for text in fileset.files.values())
    return {"max_files": max(MAX_FILES, 4 * len(fileset.files)), "max_bytes": max(MAX_BYTES, 4 * size)}


def _too_big(root: Path, what: str) -> Exception:
    return fail(
        "MCG606",
        f"refusing to read {root}: it holds {what}, far more than mcp-codegen writes",
        hint="choose an empty or previously generated output folder; nothing was changed",
    )


_IMPORTABLE = (".pyc", ".pyo", ".so", ".pyd")  # not source, yet Python imports them


def _binary(data: bytes) -> bool:
    if b"\0" in data:
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _ours(rel: str, data: bytes) -> bool:
    """A file this tool wrote: its first line carries the marker (py.typed: empty)."""
    return MARKER.encode() in data[:_MARKER_SPAN] or (rel.rsplit("/", 1)[-1] == "py.typed" and not data)


def _compare(fileset: FileSet, on_disk: Mapping[str, bytes]) -> _Diff:
    result = _Diff()
    for rel, text in sorted(fileset.files.items()):
        if on_disk.get(rel) == text.encode("utf-8"):
            result.unchanged += 1
        else:
            result.changed.append(rel)
    result.removed = sorted(set(on_disk) - set(fileset.files))
    return result


def unified_diff(fileset: FileSet, *, ignore_bytecode: bool = False) -> list[str]:
    """The lines of drift_report: a unified diff (empty: no drift)."""
    return drift_report(fileset, ignore_bytecode=ignore_bytecode)[0]


def drift_report(fileset: FileSet, *, ignore_bytecode: bool = False) -> tuple[list[str], list[str]]:
    """Lines of a unified diff from what is on disk to what would be generated (empty: no drift).

    Everything Python could import from the folder counts: a file mcp-codegen did not write is
    drift, and so is bytecode under __pycache__ (Python may run a .pyc instead of its source, and
    bytecode cannot be checked against a source, so none is taken as up to date), unless
    ignore_bytecode (a working tree whose bytecode is never committed). Only regular files inside
    the output folder are read; a link or special file there is named with what it is (a link
    with its target), binary content never is shown, and every path is escaped (a file name
    cannot add lines to the report). Also returns the relative paths that differ. A folder that
    does not exist is one line, not a diff of every file against /dev/null."""
    guard_root(fileset.root, checking=True)
    if not os.path.lexists(fileset.root):
        label = printable(fileset.root.as_posix())
        return [f"missing: {label} does not exist; generating with the same settings creates it\n"], sorted(fileset.files)
    try:
        tree = scan(fileset.root, **_budget(fileset))
    except OSError as exc:
        raise _io_error(exc, fileset.root, "read") from exc
    on_disk = tree.files
    lines: list[str] = []
    differing: list[str] = []
    # bytecode Python wrote from the very sources checked is no drift (output/bytecode.py)
    verified = {rel: text for rel, text in fileset.files.items() if on_disk.get(rel) == text.encode("utf-8")}
    stale = {} if ignore_bytecode else dict(tree.bytecode)
    for rel in bytecode.compiled_from(stale, verified) if stale else ():
        del stale[rel]
    for rel in sorted(set(on_disk) | set(fileset.files) | set(tree.special) | set(stale)):
        label = printable((fileset.root / rel).as_posix())
        new = fileset.files.get(rel)
        old = on_disk.get(rel)
        if rel in tree.special or rel in stale or old is None or new is None or old != new.encode("utf-8"):
            differing.append(rel)
        if rel in tree.special:
            what = printable(tree.special[rel])
            lines.append(f"not a regular file (not read): {label} is {what}; mcp-codegen writes none: remove it\n")
        if rel in stale:
            why = "not this Python's (not compared)" if bytecode.source_of(rel) is None else "not compiled from the checked source"
            lines.append(
                f"bytecode (not shown): {label}: {why}, and Python may run it instead of the source; remove the"
                " __pycache__ folders (Python rebuilds them)\n"
            )
            continue
        if new is not None and old is not None and old == new.encode("utf-8"):
            continue
        if old is not None and new is None and _binary(old):
            importable = " Python may import it;" if rel.endswith(_IMPORTABLE) else ""
            lines.append(f"not generated (binary, not shown): {label}:{importable} mcp-codegen did not write it: remove it\n")
            continue
        old_text = old.decode("utf-8", "replace") if old is not None else ""
        lines.extend(
            difflib.unified_diff(
                old_text.splitlines(keepends=True),
                (new or "").splitlines(keepends=True),
                fromfile=f"{label} (on disk)" if old is not None else "/dev/null",
                tofile=f"{label} (fresh generation)" if new is not None else "/dev/null",
            )
        )
    return [line if line.endswith("\n") else line + "\n" for line in lines], differing


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM stopped the run; `committed`: the new tree was already in place."""

    def __init__(self, signum: int, *, committed: bool = False) -> None:
        super().__init__(signum)
        self.signum = signum
        self.committed = committed

    def one_line(self) -> str:
        name = signal.Signals(self.signum).name
        if self.committed:
            return (
                f"error[MCG901]: interrupted by {name} just after the output folder was replaced; "
                "it holds the complete new tree (hint: nothing to undo)"
            )
        return f"error[MCG900]: interrupted by {name}; the output folder was left as it was (hint: run again)"


def stop_on_signals() -> None:
    """SIGINT and SIGTERM stop a run by unwinding it (staging removed, lock released), like Ctrl-C;
    by default SIGTERM would end the process where it stands."""

    def interrupt(signum: int, _frame: object) -> None:
        raise Interrupted(signum)

    for signum in _HELD:
        signal.signal(signum, interrupt)


def write(fileset: FileSet, *, prune: bool = False) -> WriteReport:
    """Make fileset.root hold exactly fileset.files; nothing is touched when nothing changed.

    Refused, before anything is moved: a root that is not a generated folder (guard_root), a link or
    special file inside it, a file this tool did not write that the run would remove, and (unless
    prune) a whole package, such as another revision, that the run would remove."""
    root = fileset.root
    parent = root.parent
    guard_root(root)
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _io_error(exc, parent) from exc
    with _locked(parent):
        try:
            _recover(root)
            guard_root(root)  # again: a recovered tree is checked like any other
            tree = scan(root, **_budget(fileset))
        except OSError as exc:
            raise _io_error(exc, root, "read") from exc
        _refuse_special(root, tree.special)
        diff = _compare(fileset, tree.files)
        if not diff.changed and not diff.removed:
            return WriteReport(root, unchanged=diff.unchanged)
        _refuse_foreign(root, tree.files, diff.removed)
        _refuse_foreign_bytecode(root, tree.bytecode)
        if not prune:
            _refuse_pruning(root, fileset, diff.removed)
        carried = _carried_caches(root, fileset, tree.caches)
        if root.exists() and not os.access(root, os.W_OK | os.X_OK):
            # the swap would replace a folder its owner made read-only (and could not remove it)
            raise _io_error(PermissionError(errno.EACCES, "permission denied"), root)
        # Named here and made inside the try: an interrupt right after mkdir still removes it.
        # (Not mkdtemp: its 0700 would become the output folder's mode.)
        staging = parent / f".{root.name}{_STAGING}{os.getpid()}-{secrets.token_hex(4)}"
        try:
            try:
                staging.mkdir()
            except OSError as exc:
                raise _io_error(exc, parent) from exc
            _stage(fileset, staging, root, set(diff.changed))
            _move_caches(carried, root, staging)
            _swap(staging, root)
        except BaseException:
            if os.path.isdir(staging):
                _move_caches(carried, staging, root, quietly=True)  # the old tree is in place: they go back
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return WriteReport(root, tuple(diff.changed), tuple(diff.removed), diff.unchanged)


def _carried_caches(root: Path, fileset: FileSet, caches: tuple[str, ...]) -> list[str]:
    """Other tools' cache folders (.mypy_cache, .pytest_cache) in the old tree: they move into the
    new one unread. One whose folder the new tree drops (a pruned package) is refused, as a file
    mcp-codegen did not write would be."""
    folders = {rel.rsplit("/", 1)[0] for rel in fileset.files if "/" in rel}
    folders |= {"/".join(f.split("/")[: i + 1]) for f in list(folders) for i in range(f.count("/"))}
    for rel in caches:
        parent = rel.rsplit("/", 1)[0] if "/" in rel else ""
        if parent and parent not in folders:
            _refuse_foreign(root, {rel: b""}, [rel])
    return list(caches)


def _move_caches(caches: list[str], source: Path, target: Path, *, quietly: bool = False) -> None:
    for rel in caches:
        if not os.path.lexists(source / rel):
            continue
        try:
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            os.rename(source / rel, target / rel)
        except OSError as exc:
            if not quietly:
                raise _io_error(exc, target / rel) from exc


def _refuse_foreign_bytecode(root: Path, bytecode: Mapping[str, bytes]) -> None:
    """Bytecode caches go with the tree they were made from; anything else under __pycache__ was
    not written by Python's import system, so it is not removed (MCG607)."""
    foreign = {rel: b"" for rel, data in bytecode.items() if not is_bytecode(rel, data)}
    if foreign:
        _refuse_foreign(root, foreign, sorted(foreign))


def _stage(fileset: FileSet, staging: Path, root: Path, changed: set[str]) -> None:
    try:
        for rel, text in sorted(fileset.files.items()):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if rel not in changed:
                # unchanged: keep the very same file (and its mtime) from the current tree (a
                # regular file, as scanned: never followed if it has become a link since)
                shutil.copy2(root / rel, target, follow_symlinks=False)
            else:
                with open(target, "w", encoding="utf-8", newline="\n") as handle:
                    handle.write(text)
                    handle.flush()
                    os.fsync(handle.fileno())
    except OSError as exc:
        raise _io_error(exc, staging) from exc


def _swap(staging: Path, root: Path) -> None:
    old = root.with_name(f".{root.name}{_OLD}{os.getpid()}")
    trash = root.with_name(f".{root.name}{_TRASH}{os.getpid()}")
    with _signals_held() as caught:
        try:
            if os.path.lexists(root):
                os.rename(root, old)
            try:
                os.rename(staging, root)
            except OSError:
                if os.path.lexists(old):
                    os.rename(old, root)
                raise
        except OSError as exc:
            raise _io_error(exc, root) from exc
        # renamed before it is removed: a run killed while removing it leaves a trash folder, never
        # a half-removed `old` tree that a later run would restore
        if os.path.lexists(old):
            try:
                os.rename(old, trash)
            except OSError:
                trash = old
            _remove(trash)
        # a signal that came during the swap is taken here, so it cannot claim the old tree stayed
        for signum in sorted(signal.sigpending() & _HELD):
            caught.append(signal.sigwait({signum}))
    if caught:
        raise Interrupted(caught[0], committed=True)


def _recover(root: Path) -> None:
    """Undo what a run killed mid-swap left behind: restore the old tree if the new one never got
    in, remove stale staging and trash folders. A folder of such a name is removed only if
    mcp-codegen wrote everything in it (else MCG607: a user's folder that happens to match the
    pattern); a link of such a name is only unlinked, never followed."""
    parent = root.parent
    olds = sorted(parent.glob(f".{root.name}{_OLD}*"))
    real = [p for p in olds if p.is_dir() and not p.is_symlink()]
    if real and not os.path.lexists(root):
        _refuse_unless_ours(real[-1])
        os.rename(real[-1], root)
        olds.remove(real[-1])
    for staging in sorted(parent.glob(f".{root.name}{_STAGING}*")):
        if staging.is_dir() and not staging.is_symlink() and os.path.isdir(root):
            # a run killed after moving other tools' caches into its staging folder: they go back
            _move_caches(list(scan(staging).caches), staging, root, quietly=True)
        olds.append(staging)
    for leftover in [*olds, *sorted(parent.glob(f".{root.name}{_TRASH}*"))]:
        _refuse_unless_ours(leftover)
        _remove(leftover)


def _refuse_unless_ours(folder: Path) -> None:
    """A leftover folder holds only what a run of mcp-codegen put there: generated files, Python's
    bytecode, nothing special; a link is fine (it is unlinked, not followed)."""
    if folder.is_symlink() or not folder.is_dir():
        return
    tree = scan(folder)
    foreign = [rel for rel, data in tree.files.items() if not _ours(rel, data)]
    foreign += [rel for rel, data in tree.bytecode.items() if not is_bytecode(rel, data)]
    foreign += list(tree.special) + list(tree.caches)
    if foreign:
        raise fail(
            "MCG607",
            f"refusing to remove {printable(str(folder))}: it is named like a leftover of an mcp-codegen run, "
            f"but mcp-codegen did not write {printable(sorted(foreign)[0])}",
            hint="rename or move that folder; nothing was changed",
        )


def _remove(path: Path) -> None:
    if path.is_symlink() or not path.is_dir():
        with contextlib.suppress(OSError):
            path.unlink()
    else:
        shutil.rmtree(path, ignore_errors=True)


def _refuse_special(root: Path, special: Mapping[str, str]) -> None:
    if special:
        rel, what = next(iter(special.items()))
        more = f" (and {len(special) - 1} more)" if len(special) > 1 else ""
        raise fail(
            "MCG608",
            f"refusing to replace {root}: {rel} is not a regular file, it is {what}{more}",
            hint="mcp-codegen writes only regular files and did not read it; remove it from the output folder",
        )


def _refuse_foreign(root: Path, on_disk: Mapping[str, bytes], removed: list[str]) -> None:
    """Nothing a user wrote is deleted: a file the new tree drops must carry the generator's mark."""
    foreign = [rel for rel in removed if not _ours(rel, on_disk[rel])]
    if foreign:
        more = f" (and {len(foreign) - 1} more: {', '.join(foreign[1:4])}{', …' if len(foreign) > 4 else ''})"
        raise fail(
            "MCG607",
            f"refusing to remove {foreign[0]} from {root}: mcp-codegen did not write it"
            + (more if len(foreign) > 1 else ""),
            hint="move it out of the output folder (mcp-codegen replaces the folder as a whole); nothing was changed",
        )


def _refuse_pruning(root: Path, fileset: FileSet, removed: list[str]) -> None:
    """A run that would drop whole packages (other revisions) from the root says so and needs prune."""
    kept = {rel.split("/", 1)[0] for rel in fileset.files if "/" in rel}
    dropped = sorted({rel.split("/", 1)[0] for rel in removed if "/" in rel} - kept)
    if dropped:
        raise fail(
            "MCG605",
            f"this run would remove {len(dropped)} previously generated package(s) from {root}: {', '.join(dropped)}",
            hint="generate them too (e.g. without -r), or pass --prune (config: prune = true) to remove them",
        )


@contextlib.contextmanager
def _locked(folder: Path) -> Generator[None, None, None]:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError as exc:
        raise _io_error(exc, folder, "open") from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _lock_holder(os.fstat(fd))
            raise fail(
                "MCG604",
                f"another mcp-codegen run{f' (pid {holder})' if holder else ''} is writing into {folder}",
                hint="wait for it to finish, then run again",
            ) from None
        yield
    finally:
        os.close(fd)


def _lock_holder(folder: os.stat_result) -> int | None:
    """The process holding the lock on folder, from /proc/locks (Linux; None elsewhere)."""
    device = f"{os.major(folder.st_dev):02x}:{os.minor(folder.st_dev):02x}:{folder.st_ino}"
    try:
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == device and fields[4].isdigit():
            return int(fields[4])
    return None


_HELD = frozenset({signal.SIGINT, signal.SIGTERM})


@contextlib.contextmanager
def _signals_held() -> Generator[list[int], None, None]:
    """SIGINT/SIGTERM wait until the block ends; signals taken inside it go into the list."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    caught: list[int] = []
    try:
        yield caught
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _io_error(exc: OSError, path: Path, action: str = "write") -> Exception:
    return fail("MCG601", f"cannot {action} {path}: {safeio.reason(exc)}", hint="nothing was changed in the output folder")
