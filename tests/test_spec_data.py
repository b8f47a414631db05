"""The pinned spec data shipped in spec/: provenance of every file, offline generation, the vendored
round trips reading it without any environment variable."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from codegen import api
from codegen.errors import CodegenError
from codegen.schema import spec

from .conftest import REPO

DATA = REPO / "spec"
HAND_WRITTEN = {"manifest.toml", "examples.toml", "README.md", "provenance.json", "SOURCES.json"}


def _provenance() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((DATA / "provenance.json").read_text(encoding="utf-8"))
    return loaded


def test_every_shipped_data_file_has_provenance_and_matches_its_sha256() -> None:
    record = _provenance()
    listed = {entry["path"]: entry["sha256"] for entry in record["files"] + record["pages"]}
    on_disk = {
        path.relative_to(DATA).as_posix()
        for path in DATA.rglob("*")
        if path.is_file() and path.name not in HAND_WRITTEN and "errata" not in path.parts
    }
    assert on_disk == set(listed)
    for name, digest in listed.items():
        assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == digest, name
    for entry in record["files"]:
        assert entry["repository"] == "modelcontextprotocol/modelcontextprotocol"
        assert len(entry["commit"]) == 40 and entry["upstream_path"].startswith("schema/")


def test_shipped_schemas_are_the_pinned_ones() -> None:
    record = {entry["path"]: entry for entry in _provenance()["files"]}
    for pin in spec.load_manifest():
        copy = spec.bundled(pin)
        assert copy is not None and copy == DATA / pin.revision / "schema.json"
        assert spec.sha256_hex(copy.read_bytes()) == pin.sha256
        entry = record[f"{pin.revision}/schema.json"]
        assert (entry["commit"], entry["upstream_path"]) == (pin.commit, pin.path)


def test_example_pages_named_in_examples_toml_are_shipped() -> None:
    pages = {page for pin in spec.load_manifest() for page in spec.example_pages(pin.revision)}
    assert pages and all((DATA / "pages" / page).is_file() for page in pages)
    assert spec.resolve_docs_source(None) == DATA / "pages" or os.environ.get(spec.DOCS_SOURCE_ENV)


def _no_network(*args: object, **kwargs: object) -> object:
    raise AssertionError("no download may happen: the pinned schemas ship with mcp-codegen")


def test_generate_reads_the_shipped_schemas_with_no_source_and_no_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(spec.SPEC_SOURCE_ENV, raising=False)
    monkeypatch.setenv(spec.CACHE_ENV, str(tmp_path / "empty-cache"))
    monkeypatch.setattr(urllib.request, "urlopen", _no_network)
    fetched = spec.fetch(spec.find_pin("2025-11-25"), spec.resolve_source(None))
    assert Path(fetched.location) == DATA / "2025-11-25" / "schema.json"
    result = api.generate(["2024-11-05"], out=tmp_path / "out", use_cache=False, jobs_count=1)
    assert (tmp_path / "out" / "v2024_11_05" / "models.py").is_file()
    assert result.in_sync


def test_a_shipped_schema_that_does_not_match_the_pin_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "spec"
    (copy / "2024-11-05").mkdir(parents=True)
    (copy / "2024-11-05" / "schema.json").write_bytes(b"{}")
    monkeypatch.setattr(spec, "spec_dir", lambda: copy)
    with pytest.raises(CodegenError) as caught:
        spec.fetch(spec.find_pin("2024-11-05", spec.load_manifest(DATA / "manifest.toml")), None)
    assert caught.value.diagnostics[0].code == "MCG004"


def test_vendored_round_trips_run_with_no_environment_variable(tmp_path: Path) -> None:
    """The generated tests find the examples through the installed mcp-codegen's data."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCP_CODEGEN_")}
    env["PYTHONPATH"] = str(REPO / "generated")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
         str(REPO / "generated" / "mcp_models" / "v2025_11_25" / "tests")],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "skipped" not in summary, summary


def test_bump_writes_the_projects_pins_and_schema_copy_and_nothing_shipped(tmp_path: Path) -> None:
    pins_file = tmp_path / "mcp-spec" / "pins.toml"
    shipped = _digest(DATA)
    new_bytes = b'{"$defs": {}}'
    try:
        previous, pinned = spec.bump("draft", "a" * 40, new_bytes, pins_file)
        assert previous.sha256 != pinned.sha256 == hashlib.sha256(new_bytes).hexdigest()
        assert pinned.home == str(pins_file.parent) and pinned.package == previous.package  # the rest inherited
        assert (pins_file.parent / "draft" / "schema.json").read_bytes() == new_bytes
        assert spec.fetch(pinned, None).data == new_bytes  # offline generation follows the new pin
        assert f'commit = "{"a" * 40}"' in pins_file.read_text(encoding="utf-8")
        # a second bump rewrites the same two lines, keeping the rest of the file
        pins_file.write_text(pins_file.read_text(encoding="utf-8") + "# kept\n", encoding="utf-8")
        spec.bump("draft", "b" * 40, new_bytes + b" ", pins_file)
        text = pins_file.read_text(encoding="utf-8")
        assert text.count("commit = ") == 1 and "b" * 40 in text and "# kept" in text
    finally:
        spec.use_project_pins(None)
    assert _digest(DATA) == shipped


def _digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


@pytest.mark.slow
def test_a_projects_pins_errata_and_disabled_erratum_all_take_effect(tmp_path: Path) -> None:
    """A user project bumps a revision into its own pins file (from a mirror holding the new commit),
    then generates offline from it with its own erratum on top and a built-in erratum switched off;
    the installed tool's spec data is untouched throughout."""
    from codegen.resources import spec_dir

    from .bad_input_support import cli_env, run

    project = tmp_path / "project"
    project.mkdir()
    (project / "mine.json").write_text(
        json.dumps(
            {
                "errata": [
                    {
                        "id": "short-implementation-names",
                        "reason": "test",
                        "upstream": "test",
                        "patch": [
                            {"op": "test", "path": "/$defs/Implementation/properties/name/type", "value": "string"},
                            {"op": "add", "path": "/$defs/Implementation/properties/name/maxLength", "value": 3},
                        ],
                    }
                ]
            }
        ),
        encoding="utf-8",
    )
    (project / "pyproject.toml").write_text(
        "[tool.mcp-codegen]\n"
        'revisions = ["2026-07-28"]\nout = "models"\npins = "mcp-spec/pins.toml"\n'
        'errata = ["mine.json"]\ndisable-errata = ["json-value-number-null"]\n',
        encoding="utf-8",
    )
    # the "upstream commit" to move to: the pinned schema plus one definition
    mirror = tmp_path / "mirror" / "2026-07-28"
    mirror.mkdir(parents=True)
    document = json.loads((DATA / "2026-07-28" / "schema.json").read_text(encoding="utf-8"))
    document["$defs"]["ProjectPinnedThing"] = {"type": "object", "properties": {"x": {"type": "integer"}}}
    mirror_bytes = json.dumps(document, indent=2).encode()
    (mirror / "schema.json").write_bytes(mirror_bytes)
    tool_spec = spec_dir()
    before = _digest(tool_spec)
    env = cli_env(tmp_path / "cache")
    env.pop("MCP_CODEGEN_SPEC_SOURCE", None)  # the project's own copy is what generate must read

    refused = run(["spec", "bump", "2026-07-28", "--commit", "c" * 40], env=env, cwd=tmp_path)
    assert refused.returncode == 2 and refused.lines[0].startswith("error[MCG013]"), refused.stderr

    bumped = run(
        ["spec", "bump", "2026-07-28", "--commit", "c" * 40, "--spec-source", str(mirror.parent)], env=env, cwd=project
    )
    assert bumped.returncode == 0, bumped.stderr
    assert "definitions: 1 added, 0 removed, 0 changed" in bumped.stdout, bumped.stdout
    assert (project / "mcp-spec" / "2026-07-28" / "schema.json").read_bytes() == mirror_bytes

    listed = run(["spec", "list", "--json"], env=env, cwd=project)
    rows = {row["revision"]: row for row in json.loads(listed.stdout)}
    assert rows["2026-07-28"]["pinned-by"] == "project" and rows["2026-07-28"]["commit"] == "c" * 40
    assert rows["2025-11-25"]["pinned-by"] == "mcp-codegen"

    generated = run(["generate", "-q"], env=env, cwd=project)  # no spec source: the project's copy
    assert generated.returncode == 0, generated.stderr
    models = (project / "models" / "v2026_07_28" / "models.py").read_text(encoding="utf-8")
    assert "class ProjectPinnedThing(" in models  # the project's pin
    assert "max_length=3" in models  # the project's erratum
    json_value = models.split("\nJSONValue = ", 1)[1].split("\n\n", 1)[0]
    assert "StrictFloat" not in json_value  # json-value-number-null switched off
    assert run(["check", "-q"], env=env, cwd=project).returncode == 0
    assert _digest(tool_spec) == before


def test_a_projects_pinned_copy_is_read_as_untrusted_input(tmp_path: Path) -> None:
    """The project's pins folder is the user's tree: its schema.json as a link leading out of it, or a
    FIFO, is a one-line error (exit 2) before anything is read from it, never followed or blocked on."""
    from .bad_input_support import cli_env, run

    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text(
        '[tool.mcp-codegen]\nrevisions = ["2026-07-28"]\nout = "models"\npins = "mcp-spec/pins.toml"\n',
        encoding="utf-8",
    )
    mirror = tmp_path / "mirror" / "2026-07-28"
    mirror.mkdir(parents=True)
    (mirror / "schema.json").write_bytes((DATA / "2026-07-28" / "schema.json").read_bytes())
    env = cli_env(tmp_path / "cache")
    env.pop("MCP_CODEGEN_SPEC_SOURCE", None)
    bumped = run(
        ["spec", "bump", "2026-07-28", "--commit", "d" * 40, "--spec-source", str(mirror.parent)], env=env, cwd=project
    )
    assert bumped.returncode == 0, bumped.stderr
    copy = project / "mcp-spec" / "2026-07-28" / "schema.json"
    secret = tmp_path / "secret.txt"
    secret.write_text("TOKEN=hunter2\n", encoding="utf-8")
    copy.unlink()
    copy.symlink_to(secret)
    linked = run(["generate", "-q"], env=env, cwd=project)
    assert linked.returncode == 2 and len(linked.lines) == 1, linked.stderr
    assert linked.lines[0].startswith("error[MCG003]") and "hunter2" not in linked.stderr
    copy.unlink()
    os.mkfifo(copy)
    fifo = run(["generate", "-q"], env=env, cwd=project)
    assert fifo.returncode == 2 and len(fifo.lines) == 1 and fifo.lines[0].startswith("error[MCG003]"), fifo.stderr
    assert not (project / "models").exists()
