"""Pinned revisions: manifest contents, source resolution and sha256 verification."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codegen.schema import spec
from codegen.errors import CodegenError

from .conftest import REVISIONS


def test_manifest_pins_every_revision_with_upstream_coordinates(spec_dir: Path) -> None:
    pins = spec.load_manifest()
    assert [p.revision for p in pins] == list(REVISIONS)
    sources = {s["revision"]: s for s in json.loads((spec_dir / "SOURCES.json").read_text())}
    for pin in pins:
        assert pin.package == REVISIONS[pin.revision]
        assert (pin.repository, pin.commit, pin.path, pin.sha256) == (
            sources[pin.revision]["spec_repo"],
            sources[pin.revision]["spec_commit"],
            sources[pin.revision]["path_in_spec_repo"],
            sources[pin.revision]["sha256"],
        )
        assert pin.upstream_url.startswith("https://raw.githubusercontent.com/modelcontextprotocol/")
        assert pin.upstream_url.endswith(f"/{pin.commit}/{pin.path}")


def test_fetch_from_mirror_verifies_sha256(spec_dir: Path) -> None:
    pin = spec.find_pin("2025-06-18")
    fetched = spec.fetch(pin, str(spec_dir))
    assert spec.sha256_hex(fetched.data) == pin.sha256


def test_sha256_mismatch_names_both_hashes(tmp_path: Path) -> None:
    pin = spec.find_pin("2025-06-18")
    (tmp_path / "2025-06-18").mkdir()
    (tmp_path / "2025-06-18" / "schema.json").write_text('{"$defs": {}}')
    with pytest.raises(CodegenError) as caught:
        spec.fetch(pin, str(tmp_path))
    message = caught.value.diagnostics[0].one_line()
    assert caught.value.diagnostics[0].code == "MCG004"
    assert pin.sha256 in message
    assert spec.sha256_hex(b'{"$defs": {}}') in message


def test_unknown_revision_lists_the_pinned_ones() -> None:
    with pytest.raises(CodegenError) as caught:
        spec.find_pin("1999-01-01")
    diagnostic = caught.value.diagnostics[0]
    assert diagnostic.code == "MCG002"
    assert "2026-07-28" in (diagnostic.hint or "")


def test_missing_mirror_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CodegenError) as caught:
        spec.fetch(spec.find_pin("draft"), str(tmp_path))
    assert caught.value.diagnostics[0].code == "MCG003"


def test_source_resolution_prefers_the_flag_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(spec.SPEC_SOURCE_ENV, "/from/env")
    assert spec.resolve_source("/from/flag") == "/from/flag"
    assert spec.resolve_source(None) == "/from/env"
    monkeypatch.delenv(spec.SPEC_SOURCE_ENV)
    assert spec.resolve_source(None) is None


def test_url_source_is_downloaded_and_verified(spec_dir: Path, tmp_path: Path) -> None:
    import functools
    import http.server
    import threading

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(spec_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        pin = spec.find_pin("2025-06-18")
        fetched = spec.fetch(pin, url)
        assert fetched.location == f"{url}/2025-06-18/schema.json"
        assert spec.sha256_hex(fetched.data) == pin.sha256
        with pytest.raises(CodegenError) as caught:
            spec.fetch(pin, url + "/missing")
        assert caught.value.diagnostics[0].code == "MCG005"
    finally:
        server.shutdown()
