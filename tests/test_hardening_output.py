"""What is already on disk is untrusted: the output folder (a pull request can put anything into a
committed one) and every input file. Each case runs `mcp-codegen` as a real process and asserts
exit 2 with one escaped line, at most 2 s of CPU and 500 MiB (tests/bad_input_support.py), and the
trees involved hashed before and after (links recorded by their target, never followed; FIFOs,
sockets and devices by their kind, never opened): nothing was read through a link, nothing blocked,
nothing moved, nothing a user wrote was deleted.

- special files: a link (to /proc/self/environ, /dev/zero, a folder, nowhere), a FIFO, a socket,
  a device, inside the output folder or as the output folder itself; `check` names them in its
  drift report by what they are, and prints nothing they point at;
- foreign roots: an executable file, a regular file, a folder mcp-codegen did not generate (however
  large: refused before it is read), a generated folder grown past what mcp-codegen writes;
- inputs (`--schema`, `--from`, `--errata`, `--config`, the spec mirror): regular files only, links
  only within their own folder, sizes checked before reading;
- deletion: a file mcp-codegen did not write is never removed (refused, named); a run that would
  drop other generated revisions needs --prune (or `prune = true`).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from codegen.output.tree import read_tree

from . import bad_input_support as support
from .conftest import GENERATED

UNIONS = Path(__file__).parent / "cases" / "unions" / "schema.json"
SECRET = "mcp-hardening-secret-5f1c0a"  # in the child's environment: must never be printed


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A package generated from tests/cases/unions: each test copies it as its output folder."""
    return support.unions_package(tmp_path_factory)


@pytest.fixture
def pkg(base: Path, tmp_path: Path) -> Path:
    out = tmp_path / "out" / "pkg"
    shutil.copytree(base, out, ignore=shutil.ignore_patterns("__pycache__"))
    return out


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return support.cli_env(tmp_path / "cache", MCP_HARDENING_SECRET=SECRET)


class Watch:
    """Paths hashed when added and again at the end of the test: they must be byte-identical."""

    def __init__(self) -> None:
        self.before: dict[Path, str] = {}

    def append(self, path: Path) -> None:
        self.before[path] = support.tree_digest(path)

    def verify(self) -> None:
        for path, digest in self.before.items():
            assert support.tree_digest(path) == digest, f"{path} changed"
            assert support.leftovers(path) == [], support.leftovers(path)


@pytest.fixture
def watched() -> Iterator[Watch]:
    watch = Watch()
    yield watch
    watch.verify()


def _refused(result: support.Run, code: str, case: str, *, phrase: str, note: str = "", generates: bool = False) -> str:
    """Exit 2, one printable line holding phrase, no secret anywhere, bounded: 2 s of CPU for a run
    refused before it generates anything (most are refused before reading the output), the
    generation's bound for one that can only tell after generating (tests/test_bad_input_faults.py)."""
    line = support.assert_one_line_error(result, code)
    assert phrase in line, line
    assert SECRET not in result.stdout + result.stderr
    assert all(c.isprintable() for c in line), line
    support.assert_bounded(result, support.GENERATION if generates else support.REFUSAL)
    support.record(case, result, note)
    return line


def _generate(out: Path, env: dict[str, str], *extra: str, schema: Path = UNIONS) -> support.Run:
    return support.run(["generate", "--schema", str(schema), "--out", str(out), *extra], env=env)


# -- special files inside the output folder: refused by `generate`, never read --------------------


def _link(target: str) -> Callable[[Path], None]:
    return lambda path: path.symlink_to(target)


def _socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()  # the socket file stays


def _hard_link(path: Path) -> None:
    secret = path.parent.parent / "secret.txt"  # beside the output folder, not in it
    secret.write_text(SECRET)
    os.link(secret, path)


def _null_device(path: Path) -> None:
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs CAP_MKNOD")


SPECIAL = {
    # case: (relative path in the output folder, how to make it, what the error says it is)
    "link_to_proc_self_environ": ("env.txt", _link("/proc/self/environ"), "a symbolic link to '/proc/self/environ'"),
    "link_to_dev_zero": ("zero.bin", _link("/dev/zero"), "a symbolic link to '/dev/zero'"),
    "link_to_a_folder_outside": ("etc", _link("/etc"), "a symbolic link to '/etc'"),
    "dangling_link": ("gone.py", _link("/nonexistent/gone.py"), "a symbolic link to '/nonexistent/gone.py'"),
    "generated_file_replaced_by_link": ("models.py", _link("/etc/passwd"), "a symbolic link to '/etc/passwd'"),
    "link_two_folders_deep": ("sub/deeper/env", _link("/proc/self/environ"), "a symbolic link to '/proc/self/environ'"),
    "hard_link_to_a_file_outside": ("notes.txt", _hard_link, "a file with 2 hard links"),
    "fifo": ("pipe", os.mkfifo, "a FIFO (named pipe)"),
    "unix_socket": ("sock", _socket, "a socket"),
    "character_device": ("null", _null_device, "a character device"),
}


@pytest.mark.parametrize("case", sorted(SPECIAL))
def test_special_file_in_the_output_folder_is_refused_unread(
    case: str, pkg: Path, env: dict[str, str], watched: Watch
) -> None:
    rel, make, what = SPECIAL[case]
    (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
    (pkg / rel).unlink(missing_ok=True)
    make(pkg / rel)
    watched.append(pkg)
    result = _generate(pkg, env)
    line = _refused(result, "MCG608", f"output: {case}", phrase=f"{rel} is not a regular file, it is {what}")
    assert "did not read it" in line


@pytest.mark.parametrize(
    "case", ["link_to_proc_self_environ", "fifo", "link_to_a_folder_outside", "hard_link_to_a_file_outside"]
)
def test_check_names_special_files_in_its_drift_report_and_prints_nothing_they_point_at(
    case: str, pkg: Path, env: dict[str, str], watched: Watch
) -> None:
    """`check` (CI, the pre-commit hook) reports drift (exit 1): the entry by what it is, never
    its content; generate would then refuse it (see above), so the line says to remove it."""
    rel, make, what = SPECIAL[case]
    make(pkg / rel)
    watched.append(pkg)
    result = support.run(["check", "--schema", str(UNIONS), "--out", str(pkg)], env=env)
    assert result.returncode == 1, result.stderr
    assert f"not a regular file (not read): {pkg / rel} is {what}; mcp-codegen writes none: remove it" in result.stdout
    assert SECRET not in result.stdout + result.stderr and "PATH=" not in result.stdout
    assert len(result.lines) == 1 and result.lines[0].startswith("drift: "), result.stderr
    support.assert_bounded(result, support.GENERATION)  # check generates to compare
    support.record(f"check: {case}", result, "exit 1: drift names the entry, prints nothing it points at")


# -- the output root itself ---------------------------------------------------------------------


def test_out_at_a_symbolic_link_is_refused_and_leaves_nothing_behind(
    pkg: Path, env: dict[str, str], watched: Watch
) -> None:
    link = pkg.parent / "link"
    link.symlink_to(pkg.name)
    watched.append(pkg)
    watched.append(link)
    result = _generate(link, env)
    _refused(result, "MCG603", "out: a symbolic link", phrase="it is a symbolic link to 'pkg', not a package folder")
    assert sorted(p.name for p in pkg.parent.iterdir()) == ["link", "pkg"]  # no .link.old-PID


@pytest.mark.parametrize(
    ("name", "mode", "what"),
    [("build.sh", 0o755, "an executable file"), ("notes.txt", 0o644, "a regular file")],
    ids=["executable_file", "regular_file"],
)
def test_out_at_a_file_is_refused_not_replaced(
    name: str, mode: int, what: str, tmp_path: Path, env: dict[str, str], watched: Watch
) -> None:
    target = tmp_path / name
    target.write_text("#!/bin/sh\necho build\n")
    target.chmod(mode)
    watched.append(target)
    result = _generate(target, env)
    _refused(result, "MCG603", f"out: {what}", phrase=f"it is {what}, not a package folder")


def test_out_at_a_fifo_is_refused_without_blocking(tmp_path: Path, env: dict[str, str], watched: Watch) -> None:
    fifo = tmp_path / "pkg"
    os.mkfifo(fifo)
    watched.append(fifo)
    _refused(_generate(fifo, env), "MCG603", "out: a FIFO", phrase="it is a FIFO (named pipe)")


def test_a_large_foreign_folder_is_refused_before_anything_is_read(
    tmp_path: Path, env: dict[str, str], watched: Watch
) -> None:
    """`--out /usr`: 20,000 files and a 4 GiB (sparse) file, no generated __init__.py: one look, refused."""
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    for index in range(20_000):
        (foreign / f"f{index}").touch()
    with open(foreign / "big.bin", "wb") as handle:
        handle.truncate(4 << 30)
    watched.append(foreign)
    result = _generate(foreign, env)
    _refused(result, "MCG603", "out: a foreign folder of 20,000 files and 4 GiB", phrase="did not generate")
    assert result.peak_mib < 200


def test_checking_usr_reads_nothing(env: dict[str, str]) -> None:
    result = support.run(["check", "--schema", str(UNIONS), "--out", "/usr"], env=env)
    _refused(result, "MCG603", "check --out /usr", phrase="refusing to check /usr")
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("case", "phrase"),
    [("files_20000", "more than 10,000 files"), ("a_4_gib_file", "more than 67,108,864 bytes")],
)
def test_a_generated_folder_grown_past_what_mcp_codegen_writes_is_refused_unread(
    case: str, phrase: str, pkg: Path, env: dict[str, str], watched: Watch
) -> None:
    data = pkg / "data"
    data.mkdir()
    if case == "files_20000":
        for index in range(20_000):
            (data / f"f{index}").touch()
    else:
        with open(data / "big.bin", "wb") as handle:
            handle.truncate(4 << 30)
    watched.append(pkg)
    result = _generate(pkg, env)
    _refused(result, "MCG606", f"out: generated folder holding {case}", phrase=phrase)
    assert result.peak_mib < 200  # sizes are checked before reading


def test_leftover_old_link_beside_the_output_is_unlinked_not_followed(
    pkg: Path, tmp_path: Path, env: dict[str, str], watched: Watch
) -> None:
    """A `.pkg.old-PID` left beside the output (as a link by an older version): only the link goes."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep me")
    leftover = pkg.parent / f".{pkg.name}.old-99999"
    leftover.symlink_to(victim)
    watched.append(victim)
    schema = tmp_path / "other" / "schema.json"
    schema.parent.mkdir()
    schema.write_text(json.dumps({"$defs": {"A": {"type": "object", "properties": {"a": {"type": "string"}}}}}))
    result = _generate(pkg, env, schema=schema)
    assert result.returncode == 0, result.stderr
    assert not os.path.lexists(leftover)
    support.record("out: leftover .old- link beside it", result, "exit 0: the link removed, its target kept")


# -- inputs ------------------------------------------------------------------------------------


def _input(tmp_path: Path, case: str) -> Path:
    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    path = folder / "schema.json"
    if case == "fifo":
        os.mkfifo(path)
    elif case == "link_to_dev_zero":
        path.symlink_to("/dev/zero")
    elif case == "link_to_proc_self_environ":
        path.symlink_to("/proc/self/environ")
    elif case == "link_out_of_its_folder":
        (tmp_path / "secret.json").write_text(json.dumps({"$defs": {SECRET: {"type": "string"}}}))
        path.symlink_to("../secret.json")
    elif case == "folder":
        path.mkdir()
    return path


INPUTS = {
    "fifo": "a FIFO (named pipe)",
    "link_to_dev_zero": "a symbolic link to '/dev/zero', leading out of",
    "link_to_proc_self_environ": "a symbolic link to '/proc/self/environ', leading out of",
    "link_out_of_its_folder": "a symbolic link to '../secret.json', leading out of",
    "folder": "a folder",
}


@pytest.mark.parametrize("case", sorted(INPUTS))
def test_schema_input_that_is_not_a_regular_file_in_its_folder_is_refused(
    case: str, tmp_path: Path, pkg: Path, env: dict[str, str], watched: Watch
) -> None:
    schema = _input(tmp_path, case)
    watched.append(pkg)
    watched.append(schema.parent)
    result = _generate(pkg, env, schema=schema)
    phrase = f"cannot read {schema}: it is not a regular file, it is {INPUTS[case]}"
    _refused(result, "MCG003", f"input --schema: {case}", phrase=phrase)


def test_a_link_within_its_own_folder_is_an_ordinary_input(tmp_path: Path, env: dict[str, str]) -> None:
    folder = tmp_path / "in"
    (folder / "v2").mkdir(parents=True)
    shutil.copy(UNIONS, folder / "v2" / "schema.json")
    (folder / "schema.json").symlink_to("v2/schema.json")
    result = _generate(tmp_path / "pkg", env, schema=folder / "schema.json")
    assert result.returncode == 0, result.stderr


def test_a_huge_sparse_schema_is_refused_by_its_size_before_reading(
    tmp_path: Path, pkg: Path, env: dict[str, str], watched: Watch
) -> None:
    schema = tmp_path / "huge" / "schema.json"
    schema.parent.mkdir()
    with open(schema, "wb") as handle:
        handle.truncate(4 << 30)
    watched.append(pkg)
    result = _generate(pkg, env, "--max-schema-bytes", "100000", schema=schema)
    line = _refused(
        result, "MCG101", "input --schema: 4 GiB sparse file", phrase="4,294,967,296 bytes, over the limit of 100,000"
    )
    assert "revision huge, at #" in line
    assert result.peak_mib < 200


def test_spec_mirror_entry_linking_out_of_the_mirror_is_refused(
    tmp_path: Path, env: dict[str, str], watched: Watch
) -> None:
    mirror = tmp_path / "mirror"
    (mirror / "draft").mkdir(parents=True)
    (mirror / "draft" / "schema.json").symlink_to("/proc/self/environ")
    watched.append(mirror)
    out = tmp_path / "models"
    result = support.run(
        ["generate", "-r", "draft", "--spec-source", str(mirror), "--out", str(out), "--no-cache"], env=env
    )
    _refused(result, "MCG003", "input: spec mirror entry linking out", phrase="leading out of")
    assert not out.exists()


@pytest.mark.parametrize("flag", ["--from", "--config"])
def test_tools_inputs_that_are_fifos_do_not_block(
    flag: str, tmp_path: Path, env: dict[str, str], watched: Watch
) -> None:
    fifo = tmp_path / ("tools.json" if flag == "--from" else "pyproject.toml")
    os.mkfifo(fifo)
    watched.append(fifo)
    args = ["tools", "--out", str(tmp_path / "tools_pkg")]
    args += [flag, str(fifo)] if flag == "--from" else [flag, str(fifo), "--from", str(UNIONS)]
    result = support.run(args, env=env)
    _refused(result, "MCG003" if flag == "--from" else "MCG010", f"input {flag}: a FIFO", phrase="it is a FIFO")


def test_errata_file_linking_to_a_device_is_refused(
    tmp_path: Path, pkg: Path, env: dict[str, str], watched: Watch
) -> None:
    errata = tmp_path / "errata.json"
    errata.symlink_to("/dev/zero")
    watched.append(pkg)
    result = _generate(pkg, env, "--errata", str(errata))
    _refused(result, "MCG201", "input --errata: a link to /dev/zero", phrase="'/dev/zero', leading out of")


# -- nothing a user wrote is deleted ----------------------------------------------------------------


def test_a_hand_written_file_in_the_output_folder_is_kept_and_the_run_refused(
    pkg: Path, env: dict[str, str], watched: Watch
) -> None:
    (pkg / "helpers.py").write_text("def mine():\n    return 42\n")
    (pkg / "notes").mkdir()
    (pkg / "notes" / "todo.txt").write_text("")
    watched.append(pkg)
    result = _generate(pkg, env)
    _refused(
        result, "MCG607", "delete: hand-written helpers.py", phrase="refusing to remove helpers.py from", generates=True
    )
    assert "(and 1 more: notes/todo.txt)" in result.stderr


def test_a_hand_written_file_in_a_tools_package_is_kept(tmp_path: Path, env: dict[str, str], watched: Watch) -> None:
    listing = tmp_path / "tools.json"
    listing.write_text(json.dumps({"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}))
    out = tmp_path / "server_tools"
    assert support.run(["tools", "--from", str(listing), "--out", str(out)], env=env).returncode == 0
    (out / "client.py").write_text("# my client\n")
    listing.write_text(json.dumps({"tools": [{"name": "sub", "inputSchema": {"type": "object"}}]}))
    watched.append(out)
    result = support.run(["tools", "--from", str(listing), "--out", str(out)], env=env)
    _refused(
        result,
        "MCG607",
        "delete: hand-written file in a tools package",
        phrase="refusing to remove client.py",
        generates=True,
    )


@pytest.fixture
def all_revisions(tmp_path: Path) -> Path:
    out = tmp_path / "generated" / "mcp_models"
    shutil.copytree(GENERATED / "mcp_models", out, ignore=shutil.ignore_patterns("__pycache__"))
    return out


def test_generating_one_revision_into_a_folder_of_six_and_the_surface_needs_prune(
    all_revisions: Path, env: dict[str, str], watched: Watch
) -> None:
    watched.append(all_revisions)
    result = support.run(["generate", "-r", "2025-11-25", "--out", str(all_revisions)], env=env)
    line = _refused(
        result, "MCG605", "delete: -r 2025-11-25 into six revisions", phrase="would remove 6 previously generated"
    )
    assert "draft, surface, v2024_11_05, v2025_03_26, v2025_06_18, v2026_07_28" in line and "--prune" in line


@pytest.mark.slow
@pytest.mark.parametrize("how", ["flag", "config"])
def test_prune_removes_the_other_revisions_and_keeps_the_root_consistent(
    how: str, all_revisions: Path, tmp_path: Path, env: dict[str, str]
) -> None:
    args = ["generate", "-r", "2025-11-25", "--out", str(all_revisions), "--verbose"]
    if how == "flag":
        args.append("--prune")
    else:
        (tmp_path / "pyproject.toml").write_text("[tool.mcp-codegen]\nprune = true\n")
    result = support.run(args, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    # the shared runtime stays with the root: the revision kept imports it
    assert sorted(p.name for p in all_revisions.iterdir()) == [
        "__init__.py", "_runtime", "latest.py", "py.typed", "v2025_11_25"
    ]  # fmt: skip
    assert "  removed v2024_11_05/models.py" in result.stdout
    init = (all_revisions / "__init__.py").read_text()
    assert "`v2025_11_25`" in init and "v2024_11_05" not in init and "v2026_07_28" not in init
    fresh = tmp_path / "fresh" / "mcp_models"
    made = support.run(["generate", "-r", "2025-11-25", "--out", str(fresh)], env=env)
    assert made.returncode == 0 and read_tree(all_revisions) == read_tree(fresh)


def test_prune_never_removes_what_mcp_codegen_did_not_write(
    all_revisions: Path, env: dict[str, str], watched: Watch
) -> None:
    (all_revisions / "draft" / "helpers.py").write_text("x = 1\n")
    watched.append(all_revisions)
    result = support.run(["generate", "-r", "2025-11-25", "--out", str(all_revisions), "--prune"], env=env)
    _refused(result, "MCG607", "delete: --prune with a hand-written file", phrase="refusing to remove draft/helpers.py")
