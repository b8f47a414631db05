"""A generated file set -> disk: written atomically and only if changed, checked, or diffed.

The output root (e.g. generated/mcp_models) is owned by the generator: it is staged in a sibling
temporary folder and swapped in with two renames while SIGINT/SIGTERM are held back, so a failed or
interrupted run leaves the previous tree exactly as it was. A lock on the parent folder keeps two
runs from writing the same output at once.
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
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from codegen.emit.stamp import MARKER
from codegen.errors import fail
_IGNORED_DIRS = frozenset({"__pycache__", ".mypy_cache", ".pytest_cache"})
_STAGING = ".staging-"
_OLD = ".old-"


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
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0


def read_tree(root: Path) -> dict[str, bytes]:
    """Every file under root (generated caches excluded), by posix relative path."""
    tree: dict[str, bytes] = {}
    if not root.is_dir():
        return tree
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _IGNORED_DIRS)
        for filename in sorted(filenames):
            path = Path(dirpath) / filename
            tree[path.relative_to(root).as_posix()] = path.read_bytes()
    return tree


def _compare(fileset: FileSet, on_disk: Mapping[str, bytes]) -> _Diff:
    result = _Diff()
    for rel, text in sorted(fileset.files.items()):
        if on_disk.get(rel) == text.encode("utf-8"):
            result.unchanged += 1
        else:
            result.changed.append(rel)
    result.removed = sorted(set(on_disk) - set(fileset.files))
    return result


def unified_diff(fileset: FileSet) -> list[str]:
    """Lines of a unified diff from what is on disk to what would be generated (empty: no drift)."""
    on_disk = read_tree(fileset.root)
    lines: list[str] = []
    for rel in sorted(set(on_disk) | set(fileset.files)):
        old = on_disk.get(rel)
        new = fileset.files.get(rel)
        old_text = old.decode("utf-8", "replace") if old is not None else ""
        if new is not None and old is not None and old == new.encode("utf-8"):
            continue
        label = (fileset.root / rel).as_posix()
        lines.extend(
            difflib.unified_diff(
                old_text.splitlines(keepends=True),
                (new or "").splitlines(keepends=True),
                fromfile=f"{label} (on disk)" if old is not None else "/dev/null",
                tofile=f"{label} (fresh generation)" if new is not None else "/dev/null",
            )
        )
    return [line if line.endswith("\n") else line + "\n" for line in lines]


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


def write(fileset: FileSet) -> WriteReport:
    """Make fileset.root hold exactly fileset.files; nothing is touched when nothing changed."""
    root = fileset.root
    parent = root.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _io_error(exc, parent) from exc
    with _locked(parent):
        try:
            _recover(root)
            on_disk = read_tree(root)
        except OSError as exc:
            raise _io_error(exc, root, "read") from exc
        diff = _compare(fileset, on_disk)
        if not diff.changed and not diff.removed:
            return WriteReport(root, unchanged=diff.unchanged)
        _refuse_foreign(root, on_disk)
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
            _swap(staging, root)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return WriteReport(root, tuple(diff.changed), tuple(diff.removed), diff.unchanged)


def _stage(fileset: FileSet, staging: Path, root: Path, changed: set[str]) -> None:
    try:
        for rel, text in sorted(fileset.files.items()):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if rel not in changed:
                # unchanged: keep the very same file (and its mtime) from the current tree
                shutil.copy2(root / rel, target)
            else:
                with open(target, "w", encoding="utf-8", newline="\n") as handle:
                    handle.write(text)
                    handle.flush()
                    os.fsync(handle.fileno())
    except OSError as exc:
        raise _io_error(exc, staging) from exc


def _swap(staging: Path, root: Path) -> None:
    old = root.with_name(f".{root.name}{_OLD}{os.getpid()}")
    with _signals_held() as caught:
        try:
            if root.exists():
                os.rename(root, old)
            try:
                os.rename(staging, root)
            except OSError:
                if old.exists():
                    os.rename(old, root)
                raise
        except OSError as exc:
            raise _io_error(exc, root) from exc
        shutil.rmtree(old, ignore_errors=True)
        # a signal that came during the swap is taken here, so it cannot claim the old tree stayed
        for signum in sorted(signal.sigpending() & _HELD):
            caught.append(signal.sigwait({signum}))
    if caught:
        raise Interrupted(caught[0], committed=True)


def _recover(root: Path) -> None:
    """Undo what a run killed mid-swap left behind: restore the old tree, drop stale staging folders."""
    parent = root.parent
    olds = sorted(parent.glob(f".{root.name}{_OLD}*"))
    if olds and not root.exists():
        os.rename(olds[-1], root)
        olds = olds[:-1]
    for leftover in [*olds, *parent.glob(f".{root.name}{_STAGING}*")]:
        shutil.rmtree(leftover, ignore_errors=True)


def _refuse_foreign(root: Path, on_disk: Mapping[str, bytes]) -> None:
    if not on_disk:
        return
    init = on_disk.get("__init__.py", b"")
    if MARKER.encode() not in init[:500]:
        raise fail(
            "MCG603",
            f"refusing to replace {root}: it holds files that mcp-codegen did not generate",
            hint="choose an empty or previously generated output folder",
        )


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
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
def _signals_held() -> Iterator[list[int]]:
    """SIGINT/SIGTERM wait until the block ends; signals taken inside it go into the list."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    caught: list[int] = []
    try:
        yield caught
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _io_error(exc: OSError, path: Path, action: str = "write") -> Exception:
    reason = {
        errno.ENOSPC: "no space left on device",
        errno.EDQUOT: "disk quota exceeded",
        errno.EFBIG: "file too large (the file size limit or the file system's)",
        errno.EACCES: "permission denied",
        errno.EPERM: "operation not permitted",
        errno.EROFS: "read-only file system",
    }.get(exc.errno or 0, exc.strerror or str(exc))
    return fail("MCG601", f"cannot {action} {path}: {reason}", hint="nothing was changed in the output folder")
