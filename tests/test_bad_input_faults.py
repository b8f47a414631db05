"""Faults around the output: an unwritable folder, a full disk, SIGINT/SIGTERM mid-write, two runs
at once. Each is a real `mcp-codegen generate` process; the output folder holds a previously
generated tree, hashed before and after: a failed run leaves it byte-identical, with no staging
folder beside it, exits 2 and prints one line.

The run writes a package whose models.py is large (a definition with a 600 KB description), so
that writing takes long enough to be caught in the act and a file size limit is hit mid-file.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from codegen import generate_schema
from codegen.output.tree import read_tree

from . import bad_input_support as support

# These runs fail only after generating the whole package (a full disk is found by writing; a
# second run meets the lock when it writes): their bound is a generation's.


@pytest.fixture(scope="module")
def base() -> Iterator[Path]:
    """A scratch folder of this module's own."""
    folder = Path(tempfile.mkdtemp(prefix="mcp-codegen-faults-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def schema(base: Path) -> Path:
    path = base / "big_description" / "schema.json"
    path.parent.mkdir()
    text = "A long description. " * 30_000  # 600 KB into models.py
    path.write_text(
        json.dumps({"$defs": {"Big": {"type": "object", "description": text, "properties": {"a": {"type": "string"}}}}})
    )
    path.parent.chmod(0o755)
    path.chmod(0o644)
    return path


@pytest.fixture(scope="module")
def previous(base: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tree each output folder starts with: a package generated from another schema."""
    root = base / "previous" / "pkg"
    shutil.copytree(support.unions_package(tmp_path_factory), root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture
def cache(base: Path) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="cache-", dir=base))
    folder.chmod(0o777)
    return folder


def _out(base: Path, previous: Path, name: str) -> Path:
    out = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=base)) / "pkg"
    shutil.copytree(previous, out)
    return out


def _args(schema: Path, out: Path) -> list[str]:
    return ["generate", "--schema", str(schema), "--out", str(out)]


def _assert_untouched(out: Path, before: str) -> None:
    assert support.tree_digest(out) == before
    assert support.leftovers(out) == []


# -- unwritable --------------------------------------------------------------------------------


def test_unwritable_parent_folder(base: Path, schema: Path, cache: Path) -> None:
    parent = Path(tempfile.mkdtemp(prefix="locked-", dir=base))
    parent.chmod(0o555)  # nobody may create the staging folder here
    out = parent / "pkg"
    try:
        result = support.run(_args(schema, out), env=support.cli_env(cache), no_permission_override=True)
    finally:
        parent.chmod(0o755)
    line = support.assert_one_line_error(result, "MCG601")
    assert "permission denied" in line
    assert not out.exists() and support.leftovers(out) == []
    support.assert_bounded(result)
    support.record("unwritable_output_folder", result, "parent folder mode 555, no permission override")


def test_read_only_output_folder(base: Path, schema: Path, previous: Path, cache: Path) -> None:
    out = _out(base, previous, "read-only")
    out.chmod(0o555)  # beside it may be written, not into it
    before = support.tree_digest(out)
    try:
        result = support.run(_args(schema, out), env=support.cli_env(cache), no_permission_override=True)
    finally:
        out.chmod(0o755)
    line = support.assert_one_line_error(result, "MCG601")
    assert "permission denied" in line
    _assert_untouched(out, before)
    support.assert_bounded(result)
    support.record("read_only_output_folder", result, "output folder mode 555, no permission override")


# -- a full disk ---------------------------------------------------------------------------------


def test_disk_full_mid_write(base: Path, schema: Path, previous: Path, cache: Path) -> None:
    out = _out(base, previous, "fsize")
    before = support.tree_digest(out)
    result = support.run(_args(schema, out), env=support.cli_env(cache), file_size_limit=256 * 1024)
    line = support.assert_one_line_error(result, "MCG601")
    assert "file too large" in line and "nothing was changed" in line
    _assert_untouched(out, before)
    support.assert_bounded(result, support.GENERATION)
    support.record("disk_full_mid_write", result, "RLIMIT_FSIZE 256 KiB: EFBIG inside models.py")


def test_no_space_left_on_a_small_file_system(base: Path, schema: Path, previous: Path, cache: Path) -> None:
    mount_point = Path(tempfile.mkdtemp(prefix="tmpfs-", dir=base))
    size = 384 * 1024  # room for the previous tree, not for the new one beside it
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount_point)], capture_output=True, check=False
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        out = mount_point / "pkg"
        shutil.copytree(previous, out)
        before = support.tree_digest(out)
        result = support.run(_args(schema, out), env=support.cli_env(cache))
        line = support.assert_one_line_error(result, "MCG601")
        assert "no space left on device" in line
        _assert_untouched(out, before)
        support.assert_bounded(result, support.GENERATION)
        support.record("no_space_left_on_device", result, "384 KiB tmpfs: ENOSPC")
    finally:
        subprocess.run(["umount", str(mount_point)], check=True)


# -- signals mid-write -----------------------------------------------------------------------------


def _blocked_signals(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigBlk:"):
            return int(line.split()[1], 16)
    return 0


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time pid has used so far (inf once it is gone: stop waiting)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("inf")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _stopped_while_staging(pid: int, out: Path, deadline: float = 30.0) -> bool:
    """Stop pid as soon as a staging folder for out appears; True if it was stopped while still
    staging (not in the swap, where SIGINT/SIGTERM are held back on purpose)."""
    prefix = f".{out.name}.staging-"
    give_up = time.monotonic() + deadline
    while time.monotonic() < give_up:
        if any(name.startswith(prefix) for name in os.listdir(out.parent)):
            os.kill(pid, signal.SIGSTOP)
            held = _blocked_signals(pid) & (1 << (signal.SIGTERM - 1))
            if held:
                os.kill(pid, signal.SIGCONT)
            return not held
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.0005)
    return False


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_interrupted_mid_write(signum: int, base: Path, schema: Path, previous: Path, cache: Path) -> None:
    name = signal.Signals(signum).name
    for _ in range(10):  # the write may be missed or caught in the swap: then run again
        out = _out(base, previous, name)
        before = support.tree_digest(out)
        caught: list[bool] = []

        def interrupt(pid: int, out: Path = out, caught: list[bool] = caught) -> None:
            caught.append(_stopped_while_staging(pid, out))
            if caught[-1]:
                os.kill(pid, signum)
                os.kill(pid, signal.SIGCONT)

        result = support.run(_args(schema, out), env=support.cli_env(cache), while_running=interrupt)
        if caught[-1]:
            break
        assert result.returncode == 0, result.stderr
    else:
        pytest.fail("never caught the run while it was writing")
    line = support.assert_one_line_error(result, "MCG900")
    assert f"interrupted by {name}" in line
    _assert_untouched(out, before)
    support.record(f"{name.lower()}_mid_write", result, "signal sent while the staging folder was filling")


@pytest.mark.slow
def test_interrupted_before_writing(base: Path, previous: Path, cache: Path) -> None:
    out = _out(base, previous, "early")
    before = support.tree_digest(out)

    def interrupt(pid: int) -> None:
        # well into generating: starting takes ~0.5 s of CPU, the two revisions and their surface
        # ~3 s more, all in this process (--jobs 1: /proc counts the process's own CPU time).
        # Waiting for CPU time used, not for wall time, holds however busy the machine is.
        give_up = time.monotonic() + support.HANG_SECONDS
        while _cpu_seconds(pid) < 2.0 and time.monotonic() < give_up:
            time.sleep(0.005)
        os.kill(pid, signal.SIGTERM)

    args = ["generate", "-r", "2025-11-25", "-r", "2026-07-28", "--jobs", "1", "--out", str(out), "--no-cache"]
    result = support.run(args, env=support.cli_env(cache), while_running=interrupt)
    line = support.assert_one_line_error(result, "MCG900")
    assert "SIGTERM" in line
    _assert_untouched(out, before)


# -- two runs at once ------------------------------------------------------------------------------


def test_a_second_run_is_refused_while_one_writes(base: Path, schema: Path, previous: Path, cache: Path) -> None:
    out = _out(base, previous, "concurrent")
    fresh = base / "fresh-concurrent" / "pkg"
    generate_schema(schema, out=fresh)
    second: list[support.Run] = []
    held: list[bool] = []
    holder: list[int] = []

    def while_first_writes(pid: int) -> None:
        holder.append(pid)
        held.append(_stopped_while_staging(pid, out))
        if not held[-1]:
            return
        try:
            second.append(support.run(_args(schema, out), env=support.cli_env(cache)))
            assert support.leftovers(out) != []  # the first run's staging folder is still there
        finally:
            os.kill(pid, signal.SIGCONT)

    first = support.run(_args(schema, out), env=support.cli_env(cache), while_running=while_first_writes)
    assert first.returncode == 0, first.stderr
    if not held[-1]:
        pytest.fail("the first run was not caught while writing")
    line = support.assert_one_line_error(second[0], "MCG604")
    assert f"another mcp-codegen run (pid {holder[0]}) is writing into {out.parent}" in line
    support.assert_bounded(second[0], support.GENERATION)
    assert read_tree(out) == read_tree(fresh) and support.leftovers(out) == []
    support.record("concurrent_run_refused", second[0], "the holder's pid is named")


def test_two_runs_racing_end_in_one_clean_tree(base: Path, schema: Path, previous: Path, cache: Path) -> None:
    out = _out(base, previous, "race")
    fresh = base / "fresh-race" / "pkg"
    generate_schema(schema, out=fresh)
    env = support.cli_env(cache)
    processes = [
        subprocess.Popen([str(support.CLI), *_args(schema, out)], env=env, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outcomes = [(p.wait(timeout=120), p.stderr.read() if p.stderr else "") for p in processes]
    for code, stderr in outcomes:
        assert code == 0 or (code == 2 and stderr.startswith("error[MCG604]") and len(stderr.splitlines()) == 1), stderr
    assert any(code == 0 for code, _ in outcomes)
    assert read_tree(out) == read_tree(fresh) and support.leftovers(out) == []


def test_a_written_output_folder_has_ordinary_permissions(base: Path, schema: Path, cache: Path) -> None:
    out = Path(tempfile.mkdtemp(prefix="mode-", dir=base)) / "pkg"
    result = support.run(_args(schema, out), env=support.cli_env(cache))
    assert result.returncode == 0, result.stderr
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o777 & ~umask  # not a temporary folder's 0700
