"""Hardening round three: the drift check cannot be fooled or made unpassable, settings never become
paths or code, nothing a user wrote is deleted, nothing printed is forged.

Each case runs `mcp-codegen` as a real process (tests/bad_input_support.py: exit code, one escaped
line, CPU time and memory of the child) and hashes the trees involved before and after.
"""

from __future__ import annotations

import importlib.util
import json
import marshal
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from codegen.output.tree import read_tree

from . import bad_input_support as support
from .conftest import REPO

UNIONS = support.UNIONS


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return support.cli_env(tmp_path / "cache")


@pytest.fixture
def pkg(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> Path:
    out = tmp_path / "out" / "pkg"
    shutil.copytree(support.unions_package(tmp_path_factory), out, ignore=shutil.ignore_patterns("__pycache__"))
    return out


class Watch:
    def __init__(self) -> None:
        self.before: dict[Path, str] = {}

    def append(self, path: Path) -> None:
        self.before[path] = support.tree_digest(path)

    def verify(self) -> None:
        for path, digest in self.before.items():
            assert support.tree_digest(path) == digest, f"{path} changed"


@pytest.fixture
def watched() -> Iterator[Watch]:
    watch = Watch()
    yield watch
    watch.verify()


def _check(out: Path, env: dict[str, str], *extra: str, schema: Path = UNIONS) -> support.Run:
    return support.run(["check", "--schema", str(schema), "--out", str(out), *extra], env=env)


def _generate(out: Path, env: dict[str, str], *extra: str, schema: Path = UNIONS, cwd: Path | None = None) -> support.Run:
    return support.run(["generate", "--schema", str(schema), "--out", str(out), *extra], env=env, cwd=cwd)


def _unchecked_pyc(code: str) -> bytes:
    """A .pyc Python runs without looking at its source (PEP 552: hash-based, check_source off)."""
    flags = (1).to_bytes(4, "little")  # hash-based, not checked against the source
    return importlib.util.MAGIC_NUMBER + flags + b"\0" * 8 + marshal.dumps(compile(code, "planted", "exec"))


# -- the drift check -------------------------------------------------------------------------------


def test_planted_bytecode_is_drift_although_every_source_matches(pkg: Path, env: dict[str, str], watched: Watch) -> None:
    """A pull request commits __pycache__/__init__.<tag>.pyc beside an untouched package: importing
    runs the planted code, and `check` says so (exit 1) instead of "up to date"."""
    cache = pkg / "__pycache__"
    cache.mkdir()
    planted = cache / f"__init__.{sys.implementation.cache_tag}.pyc"
    planted.write_bytes(_unchecked_pyc("PLANTED = 'other code ran'\n"))
    imported = subprocess.run(
        [sys.executable, "-c", "import pkg; print(getattr(pkg, 'PLANTED', 'source ran'))"],
        cwd=pkg.parent,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPYCACHEPREFIX"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert imported.stdout.strip() == "other code ran"  # the attack works on an unguarded tree
    watched.append(pkg)
    result = _check(pkg, env)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"bytecode (not shown): {planted}: not compiled from the checked source, and Python may run it" in result.stdout
    assert result.stderr.startswith(f"drift: {pkg} holds bytecode not compiled from its sources; remove its __pycache__")
    assert "up to date" not in result.stdout and "differs (1 file)" in result.stdout
    support.assert_bounded(result, support.GENERATION)
    support.record("check: planted unchecked-hash .pyc", result, "exit 1: bytecode is drift")
    # a working tree's own bytecode, for the pre-commit hook only
    assert _check(pkg, env, "--ignore-bytecode").returncode == 0


def test_bytecode_python_wrote_from_the_checked_sources_is_no_drift(pkg: Path, env: dict[str, str], watched: Watch) -> None:
    """Importing the package (its tests, the project's suite) writes __pycache__: bytecode compiled
    from the very sources `check` verified, at every optimisation level, is up to date; bytecode
    of an older source is still drift, named per file, and the last line says what removes it."""
    plain = {k: v for k, v in os.environ.items() if k not in ("PYTHONPYCACHEPREFIX", "PYTHONDONTWRITEBYTECODE")}
    for level in ("", "-O", "-OO"):
        command = [sys.executable, *([level] if level else []), "-c", "import pkg, pkg.models"]
        subprocess.run(command, cwd=pkg.parent, env=plain, capture_output=True, check=True)
    written = sorted(p.name for p in pkg.rglob("*.pyc"))
    assert any(".opt-1." in n for n in written) and any(".opt-2." in n for n in written) and len(written) >= 6, written
    watched.append(pkg)
    clean = _check(pkg, env)
    assert clean.returncode == 0, clean.stdout[-2000:] + clean.stderr
    assert "bytecode (not shown)" not in clean.stdout and clean.stdout.rstrip().endswith("up to date")
    # a .pyc of another source at the same place: not compiled from the checked one
    models = pkg / "models.py"
    stale = pkg / "__pycache__" / f"models.{sys.implementation.cache_tag}.pyc"
    stale.write_bytes(stale.read_bytes()[:16] + marshal.dumps(compile(models.read_text() + "\nX = 1\n", "m", "exec")))
    watched.append(pkg)  # check reads, never writes: the tree as it is now
    drifted = _check(pkg, env)
    assert drifted.returncode == 1
    assert [line for line in drifted.stdout.splitlines() if line.startswith("bytecode")] == [
        f"bytecode (not shown): {stale}: not compiled from the checked source, and Python may run it instead of the"
        " source; remove the __pycache__ folders (Python rebuilds them)"
    ]
    assert "differs (1 file)" in drifted.stdout and "remove its __pycache__ folders" in drifted.stderr
    # another Python's bytecode is not compared: drift, said so
    other = pkg / "__pycache__" / "models.cpython-399.pyc"
    other.write_bytes(stale.read_bytes())
    stale.unlink()
    watched.append(pkg)
    assert f"{other}: not this Python's (not compared)" in _check(pkg, env).stdout


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("models.cpython-311-x86_64-linux-gnu.so", b"\x7fELF\x02\x01\x01" + b"\0" * 64),
        ("helpers.pyc", _unchecked_pyc("X = 1\n")),
        ("notes.bin", b"\x00\x01binary"),
    ],
    ids=["extension_module", "sourceless_pyc", "binary_file"],
)
def test_importable_or_binary_files_are_drift_named_not_dumped(
    name: str, data: bytes, pkg: Path, env: dict[str, str], watched: Watch
) -> None:
    (pkg / name).write_bytes(data)
    watched.append(pkg)
    result = _check(pkg, env)
    assert result.returncode == 1
    assert f"not generated (binary, not shown): {pkg / name}:" in result.stdout
    assert ("Python may import it" in result.stdout) == name.endswith((".so", ".pyc"))
    assert "\x00" not in result.stdout and "ELF" not in result.stdout
    support.record(f"check: {name}", result, "exit 1: named, content not shown")


def _definitions(count: int) -> dict[str, object]:
    return {
        "$defs": {
            f"Thing{index}": {
                "type": "object",
                "description": f"Definition {index} of a large project schema.",
                "properties": {"name": {"type": "string"}, "size": {"type": "integer", "minimum": 0}},
                "required": ["name"],
            }
            for index in range(count)
        }
    }


@pytest.mark.slow
def test_a_large_schema_package_checks_clean_here_and_in_a_clone_of_another_name(tmp_path: Path, env: dict[str, str]) -> None:
    """150 definitions: __init__.py far past 4 KB is still the tool's own; the output does not depend
    on the name of the folder the repository is cloned into."""
    project = tmp_path / "acme-sdk"
    (project / "spec").mkdir(parents=True)
    (project / "spec" / "schema.json").write_text(json.dumps(_definitions(150)))
    args = ("--schema", "spec/schema.json", "--out", "src/acme/_mcp")
    made = support.run(["generate", *args], env=env, cwd=project)
    assert made.returncode == 0, made.stderr
    assert (project / "src" / "acme" / "_mcp" / "__init__.py").stat().st_size > 4_096  # ~4 KB once broke check
    for folder in (project, tmp_path / "a-clone-named-otherwise"):
        if folder != project:
            shutil.copytree(project, folder)
        checked = support.run(["check", *args], env=env, cwd=folder)
        assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr
        assert "up to date" in checked.stdout
        again = support.run(["generate", *args], env=env, cwd=folder)
        assert again.returncode == 0 and "0 written" in again.stdout, again.stdout + again.stderr
    assert read_tree(project / "src") == read_tree(tmp_path / "a-clone-named-otherwise" / "src")
    support.record("check: 150-definition --schema package, cloned elsewhere", checked, "exit 0 in both clones")


@pytest.mark.slow
def test_a_thirty_tool_package_checks_clean(tmp_path: Path, env: dict[str, str]) -> None:
    tools = [
        {
            "name": f"tool_{index}",
            "description": f"Tool number {index}.",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}},
            "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
        }
        for index in range(30)
    ]
    listing = tmp_path / "tools.json"
    listing.write_text(json.dumps({"tools": tools}))
    out = tmp_path / "clone" / "tools_pkg"
    args = ["--from", str(listing), "--out", str(out), "--models", "mcp_models.v2026_07_28"]
    tools_env = {**env, "PYTHONPATH": str(REPO / "generated")}
    made = support.run(["tools", *args], env=tools_env)
    assert made.returncode == 0, made.stderr
    assert (out / "__init__.py").stat().st_size > 4_096
    checked = support.run(["tools", *args, "--check"], env=tools_env)
    assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr
    support.record("tools --check: 30 tools", checked, "exit 0")


def test_check_regenerates_whatever_the_run_cache_says(pkg: Path, tmp_path: Path, env: dict[str, str]) -> None:
    """A tampered tree plus a run record that vouches for it (a restored CI cache): `check` still
    generates and reports the drift; generate believes no record others could have written."""
    made = _generate(pkg, env)  # records the run in env's cache
    assert made.returncode == 0, made.stderr
    (pkg / "models.py").write_text((pkg / "models.py").read_text() + "\nimport os  # planted\n")
    for record in Path(env["MCP_CODEGEN_CACHE"], "runs").glob("*.json"):
        data = json.loads(record.read_text())
        data["files"] = {rel: __import__("hashlib").sha256(body).hexdigest() for rel, body in read_tree(pkg).items()}
        record.write_text(json.dumps(data))
        record.chmod(0o666)  # anyone could have written it
    checked = _check(pkg, env)
    assert checked.returncode == 1 and "+import os  # planted" not in checked.stdout and "-import os  # planted" in checked.stdout
    regenerated = _generate(pkg, env)
    assert regenerated.returncode == 0 and "1 written" in regenerated.stdout, regenerated.stdout
    assert "planted" not in (pkg / "models.py").read_text()
    support.record("check: tampered tree vouched for by a run record", checked, "exit 1: check never reads the cache")


@pytest.mark.slow
def test_a_fifo_in_the_run_cache_does_not_hang(tmp_path: Path, env: dict[str, str]) -> None:
    args = ["generate", "-q", "-r", "2025-06-18", "--no-surface", "--out", str(tmp_path / "models")]
    first = support.run(args, env=env)
    assert first.returncode == 0, first.stderr
    records = list(Path(env["MCP_CODEGEN_CACHE"], "runs").glob("*.json"))
    assert records
    for record in records:
        record.unlink()
        os.mkfifo(record)
    again = support.run(args, env=env, timeout=60)
    assert again.returncode == 0, again.stderr
    support.assert_bounded(again, support.GENERATION)
    support.record("run cache: a FIFO as the record", again, "exit 0: not read, the run generates")


def test_a_file_name_cannot_forge_lines_in_the_drift_report(pkg: Path, env: dict[str, str]) -> None:
    (pkg / "evil\n+++ forged (fresh generation)\n@@ -0,0 +1 @@").write_text("x\n")
    result = _check(pkg, env)
    assert result.returncode == 1
    assert not any(line.startswith("+++ forged") for line in result.stdout.splitlines())
    assert "evil\\n+++ forged" in result.stdout
    support.record("check: a file name holding line breaks", result, "exit 1: the name escaped")


# -- settings that would become paths or code -------------------------------------------------------


def _pins(tmp_path: Path, entry: dict[str, str], revision: str = "2099-01-01") -> Path:
    pins = tmp_path / "pins.toml"
    lines = [f'[revisions."{revision}"]'] + [f"{key} = {json.dumps(value)}" for key, value in entry.items()]
    pins.write_text("\n".join(lines) + "\n")
    return pins


GOOD_PIN = {
    "package": "v2099_01_01",
    "repository": "acme/spec",
    "commit": "0123456789abcdef0123456789abcdef01234567",
    "path": "schema/schema.json",
    "sha256": "0" * 64,
}


@pytest.mark.parametrize(
    ("revision", "key", "value"),
    [
        ("2099-01-01", "package", ".."),
        ("2099-01-01", "package", "/tmp/elsewhere"),
        ("2099-01-01", "package", "os; import sys"),
        ("2099-01-01", "package", "latest"),
        ("2099-01-01", "package", "class"),
        ("2099-01-01", "package", "v2025_11_25"),
        ("../../etc", "package", "v2099_01_01"),
        ("2099-01-01", "path", "../../secret.json"),
        ("2099-01-01", "sha256", "not-a-digest"),
    ],
    ids=["package_dotdot", "package_absolute", "package_code", "package_reserved", "package_keyword",
         "package_taken", "revision_path", "path_escapes", "sha256_not_hex"],  # fmt: skip
)
def test_a_pins_value_that_would_become_a_path_or_code_is_refused(
    revision: str, key: str, value: str, tmp_path: Path, env: dict[str, str], watched: Watch
) -> None:
    out = tmp_path / "project" / "models"
    out.parent.mkdir()
    (out.parent / "keep.txt").write_text("mine")
    watched.append(out.parent)
    pins = _pins(tmp_path, {**GOOD_PIN, key: value}, revision)
    result = support.run(["generate", "--pins", str(pins), "-r", "2025-11-25", "--out", str(out)], env=env)
    line = support.assert_one_line_error(result, "MCG001")
    assert f"{'revision' if revision != '2099-01-01' else key}" in line
    support.assert_bounded(result)
    support.record(f"pins: {key} {value!r}", result)


def test_init_neither_writes_through_a_link_nor_blocks_on_a_fifo(tmp_path: Path, env: dict[str, str], watched: Watch) -> None:
    victim = tmp_path / "victim.toml"
    victim.write_text("[project]\nname = 'other'\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").symlink_to(victim)
    watched.append(victim)
    linked = support.run(["init"], env=env, cwd=project)
    assert "refusing to edit pyproject.toml: it is a symbolic link" in support.assert_one_line_error(linked, "MCG010")
    (project / "pyproject.toml").unlink()
    os.mkfifo(project / "pyproject.toml")
    fifo = support.run(["init"], env=env, cwd=project, timeout=30)
    assert "it is a FIFO" in support.assert_one_line_error(fifo, "MCG010")
    support.assert_bounded(fifo)
    support.record("init: pyproject.toml a link / a FIFO", fifo)


def test_init_adds_the_section_to_a_regular_file_keeping_its_mode(tmp_path: Path, env: dict[str, str]) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[project]\nname = 'acme'\n")
    pyproject.chmod(0o640)
    result = support.run(["init"], env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert pyproject.read_text().startswith("[project]\nname = 'acme'\n\n[tool.mcp-codegen]")
    assert pyproject.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "pyproject.toml"] or sorted(
        p.name for p in tmp_path.iterdir()
    ) == ["pyproject.toml"]


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("tool = 1\n", "[tool] is not a table"),
        ('[tool]\n"mcp-codegen" = "x"\n', "[tool.mcp-codegen] is not a table"),
        ("x = " + "[" * 5000 + "]" * 5000 + "\n", "cannot read"),
        ('[tool.mcp-codegen]\nout = "a\\u0000b"\n', "out"),
        ('[tool.mcp-codegen]\nerrata = ["ok.json", "line\\nbreak.json"]\n', "errata"),
    ],
    ids=["tool_not_a_table", "section_not_a_table", "deep_arrays", "nul_in_out", "line_break_in_errata"],
)
def test_a_malformed_pyproject_is_one_line(text: str, phrase: str, tmp_path: Path, env: dict[str, str]) -> None:
    (tmp_path / "pyproject.toml").write_text(text)
    result = support.run(["generate", "-q"], env=env, cwd=tmp_path)
    line = support.assert_one_line_error(result, "MCG010", hint=False)
    assert phrase in line and "\x00" not in line
    support.assert_bounded(result)
    support.record(f"pyproject: {phrase}", result)


# -- nothing a user wrote is deleted ----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["old", "staging", "trash"])
def test_a_users_folder_named_like_a_leftover_is_not_deleted(kind: str, pkg: Path, env: dict[str, str], watched: Watch) -> None:
    mine = pkg.parent / f".{pkg.name}.{kind}-4242"
    mine.mkdir()
    (mine / "notes.txt").write_text("my notes")
    watched.append(mine)
    watched.append(pkg)
    (pkg / "models.py").write_text((pkg / "models.py").read_text() + "\n# changed\n")  # so the run writes
    watched.before[pkg] = support.tree_digest(pkg)
    result = _generate(pkg, env)
    line = support.assert_one_line_error(result, "MCG607")
    assert "named like a leftover" in line and "notes.txt" in line
    support.record(f"out: a user's .{kind}- folder beside it", result)


def test_a_hand_written_file_in_pycache_is_not_deleted(pkg: Path, env: dict[str, str], watched: Watch) -> None:
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / "notes.txt").write_text("mine")
    (pkg / "models.py").write_text((pkg / "models.py").read_text() + "\n# changed\n")
    watched.append(pkg)
    result = _generate(pkg, env)
    assert "__pycache__/notes.txt" in support.assert_one_line_error(result, "MCG607")
    support.record("out: a hand-written file in __pycache__", result)


def test_other_tools_caches_move_into_the_new_tree_and_bytecode_goes(pkg: Path, env: dict[str, str]) -> None:
    (pkg / ".mypy_cache").mkdir()
    (pkg / ".mypy_cache" / "notes.txt").write_text("mine")
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / f"models.{sys.implementation.cache_tag}.pyc").write_bytes(_unchecked_pyc("X = 1\n"))
    (pkg / "models.py").write_text((pkg / "models.py").read_text() + "\n# changed\n")
    result = _generate(pkg, env)
    assert result.returncode == 0, result.stderr
    assert (pkg / ".mypy_cache" / "notes.txt").read_text() == "mine"
    assert not (pkg / "__pycache__").exists()
    assert support.leftovers(pkg) == []


def test_a_half_removed_previous_tree_is_never_restored(pkg: Path, env: dict[str, str]) -> None:
    """A run killed while removing the tree it replaced leaves `.pkg.trash-PID`; the user removes
    the output folder; the next run generates afresh and drops the trash."""
    trash = pkg.parent / f".{pkg.name}.trash-4242"
    shutil.copytree(pkg, trash)
    (trash / "__init__.py").unlink()  # half removed
    shutil.rmtree(pkg)
    result = _generate(pkg, env)
    assert result.returncode == 0, result.stderr
    assert (pkg / "__init__.py").is_file() and not trash.exists()


def test_a_cached_run_still_cleans_a_dead_runs_staging_folder(pkg: Path, env: dict[str, str]) -> None:
    assert _generate(pkg, env).returncode == 0  # recorded
    staging = pkg.parent / f".{pkg.name}.staging-4242-00ff00ff"
    shutil.copytree(pkg, staging)
    again = _generate(pkg, env)
    assert again.returncode == 0, again.stderr
    assert not staging.exists()


# -- numbers the wire readers keep or refuse ------------------------------------------------------

HUGE = ["1e400", "-1E+999", "1" + "0" * 320 + ".5", "2e308"]


@pytest.mark.parametrize("package", ["v2024_11_05", "v2025_06_18", "v2026_07_28", "draft", "surface"])
def test_every_parse_entry_point_refuses_a_number_a_double_cannot_hold(package: str) -> None:
    module = importlib.import_module(f"mcp_models.{package}")
    result = '{"content": [], "structuredContent": {"x": [NUMBER]}, "_meta": {"n": NUMBER}}'
    if package in ("v2026_07_28", "draft", "surface"):
        result = result.replace('{"content"', '{"resultType": "complete", "content"')
    for number in HUGE:
        body = result.replace("NUMBER", number)
        message = f'{{"jsonrpc": "2.0", "id": 1, "result": {body}}}'
        kwargs = {"protocol_version": "2026-07-28"} if package == "surface" else {}
        for call in (
            lambda: module.parse_message(message, pending={1: "tools/call"}, **kwargs),
            lambda: module.parse_result("tools/call", body, **kwargs),
        ):
            with pytest.raises(ValueError, match="does not fit a double"):  # MessageError (the surface: the revision's)
                call()
        if package != "surface":
            with pytest.raises(module.MessageError, match="does not fit a double"):
                module.parse_envelope(message)
    # the largest doubles and long exponents that fit are kept, value for value
    body = result.replace("NUMBER", "1.7976931348623157e308").replace('"n": 1.79', '"n": 1e-400, "m": 1.79')
    parsed = module.parse_result("tools/call", body, **({"protocol_version": "2026-07-28"} if package == "surface" else {}))
    assert parsed.model_dump(mode="json", by_alias=True)["structuredContent"] == {"x": [1.7976931348623157e308]}
