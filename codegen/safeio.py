"""Reading files that someone else may have planted: regular files only, never through a symbolic
link that leaves the tree being read, never more than a limit.

A FIFO would block a plain open() forever, a link to /dev/zero would read until memory runs out,
a link to /proc/self/environ would put the environment into a diff. Everything is therefore opened
with O_NONBLOCK (a FIFO opens at once), checked with fstat on the open descriptor (no race between
the check and the read), and read up to a limit; links are either not followed at all (O_NOFOLLOW,
for the output folder) or followed only while they stay inside the given root (for inputs).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Mapping
from pathlib import Path

_OPEN = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY


class NotRegular(OSError):
    """The path is not a regular file (or is a link the caller does not follow); `what` says what it is."""

    def __init__(self, path: Path, what: str) -> None:
        super().__init__(errno.EINVAL, what)
        self.path = path
        self.what = what


class TooLarge(OSError):
    """The file holds more than the limit; `size` is its size when known (None: it kept growing)."""

    def __init__(self, path: Path, size: int | None, limit: int) -> None:
        super().__init__(errno.EFBIG, f"larger than {limit:,} bytes")
        self.path = path
        self.size = size
        self.limit = limit


_WRITE_REASONS = {
    errno.ENOSPC: "no space left on device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EFBIG: "file too large (the file size limit or the file system's)",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.EROFS: "read-only file system",
}


def write_scratch(root: Path, files: Mapping[str, str], *, purpose: str) -> None:
    """Write files (relative path -> text) under a scratch folder of ours: a failure (a full disk, a
    file size limit) is MCG601, naming the file and what the copy was for; the output folder is
    never involved."""
    from codegen.errors import fail

    for relative, text in files.items():
        path = root / relative
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise fail(
                "MCG601",
                f"cannot write {path} ({purpose}): {reason(exc)}",
                hint="nothing was changed in the output folder; free space or raise the limit in the temporary folder",
            ) from exc


def reason(exc: OSError) -> str:
    """Why an operation on a file failed, in the words an error line uses."""
    return _WRITE_REASONS.get(exc.errno or 0, exc.strerror or str(exc))


def describe(mode: int, path: Path | None = None) -> str:
    """What a file of this mode is, in words ("a symbolic link to '/proc/self/environ'", "a FIFO")."""
    if stat.S_ISLNK(mode):
        try:
            return f"a symbolic link to {os.readlink(path)!r}" if path is not None else "a symbolic link"
        except OSError:
            return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISREG(mode):
        return "an executable file" if mode & 0o111 else "a regular file"
    return "a special file"


def describe_path(path: Path) -> str:
    try:
        return describe(os.lstat(path).st_mode, path)
    except OSError:
        return "missing"


def read_regular(path: Path, limit: int, *, follow: bool = False, size_hint: int | None = None) -> bytes:
    """The bytes of the regular file at path, at most limit of them (else TooLarge).

    follow=False: a symbolic link at path is refused (NotRegular), not followed. size_hint: the
    size already known from a stat, to read it in one call.
    """
    fd = _open_regular(path, follow=follow)
    try:
        status = os.fstat(fd)
        if status.st_size > limit:
            raise TooLarge(path, status.st_size, limit)
        chunks: list[bytes] = []
        total = 0
        # one byte more than its size: sees a file that grew (or one of /proc's, which report 0)
        step = max(status.st_size, size_hint or 0, 1 << 16) + 1
        while True:
            chunk = os.read(fd, min(step, limit + 1 - total))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise TooLarge(path, None, limit)
    finally:
        os.close(fd)


def read_head(path: Path, count: int) -> bytes:
    """The first count bytes (fewer if the file is shorter) of the regular file at path, whatever
    its size; a symbolic link at path is refused (NotRegular), not followed."""
    fd = _open_regular(path, follow=False)
    try:
        chunks: list[bytes] = []
        total = 0
        while total < count:
            chunk = os.read(fd, count - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _open_regular(path: Path, *, follow: bool) -> int:
    """A descriptor of the regular file at path (NotRegular for anything else, never blocking)."""
    try:
        fd = os.open(path, _OPEN | (0 if follow else os.O_NOFOLLOW))
    except OSError as exc:
        # ELOOP: a link under O_NOFOLLOW; ENXIO: a socket (or a FIFO opened for writing)
        if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EOPNOTSUPP):
            raise NotRegular(path, describe_path(path)) from exc
        raise
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        os.close(fd)
        raise
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotRegular(path, describe(mode, path))
    return fd


def read_input(path: Path, limit: int, root: Path | None = None) -> bytes:
    """An input file (a schema, a tools/list result, a config file): a symbolic link is followed
    only while it stays inside root (default: the folder holding path); only a regular file is read.
    """
    base = root if root is not None else path.parent
    if not _inside(path, base):
        how = describe_path(path) if os.path.islink(path) else "reached through a symbolic link"
        raise NotRegular(path, f"{how}, leading out of {base}")
    return read_regular(path, limit, follow=True)


def _inside(path: Path, root: Path) -> bool:
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)
