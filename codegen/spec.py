"""Pinned spec revisions (spec/manifest.toml) and how their schema bytes are obtained and verified."""

from __future__ import annotations

import hashlib
import os
import tomllib
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from .errors import CodegenError, fail
from .resources import spec_dir

SPEC_SOURCE_ENV = "MCP_CODEGEN_SPEC_SOURCE"
UPSTREAM_RAW = "https://raw.githubusercontent.com/{repository}/{commit}/{path}"
_DOWNLOAD_TIMEOUT_S = 30


@dataclass(frozen=True)
class Pin:
    revision: str
    package: str
    repository: str
    commit: str
    path: str
    sha256: str
    released: bool
    examples: bool

    @property
    def upstream_url(self) -> str:
        return UPSTREAM_RAW.format(repository=self.repository, commit=self.commit, path=self.path)


@dataclass(frozen=True)
class SchemaSource:
    """Where a revision's bytes came from, for messages and headers."""

    pin: Pin
    location: str
    data: bytes


def load_manifest(path: Path | None = None) -> tuple[Pin, ...]:
    manifest_path = path or spec_dir() / "manifest.toml"
    try:
        raw = tomllib.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise fail("MCG001", f"cannot read spec manifest {manifest_path}: {exc}") from exc
    pins = []
    for revision, entry in raw.get("revisions", {}).items():
        try:
            pins.append(
                Pin(
                    revision=revision,
                    package=str(entry["package"]),
                    repository=str(entry["repository"]),
                    commit=str(entry["commit"]),
                    path=str(entry["path"]),
                    sha256=str(entry["sha256"]).lower(),
                    released=bool(entry.get("released", True)),
                    examples=bool(entry.get("examples", False)),
                )
            )
        except KeyError as exc:
            raise fail(
                "MCG001", f"spec manifest entry {revision!r} lacks key {exc}", revision=revision
            ) from exc
    return tuple(pins)


def find_pin(revision: str, pins: tuple[Pin, ...] | None = None) -> Pin:
    pins = pins if pins is not None else load_manifest()
    for pin in pins:
        if pin.revision == revision:
            return pin
    known = ", ".join(p.revision for p in pins)
    raise fail(
        "MCG002",
        f"unknown revision {revision!r}",
        revision=revision,
        hint=f"pinned revisions are: {known}",
    )


def resolve_source(explicit: str | None) -> str | None:
    """The mirror to read from: --spec-source beats the environment variable; None means upstream."""
    return explicit or os.environ.get(SPEC_SOURCE_ENV) or None


def fetch(pin: Pin, source: str | None) -> SchemaSource:
    """The pinned schema's bytes, from a mirror folder/URL or upstream, always sha256-verified."""
    if source is None:
        location = pin.upstream_url
        data = _download(location, pin)
    elif _is_url(source):
        location = f"{source.rstrip('/')}/{pin.revision}/schema.json"
        data = _download(location, pin)
    else:
        path = Path(source) / pin.revision / "schema.json"
        location = str(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise fail(
                "MCG003",
                f"cannot read {path}: {exc.strerror or exc}",
                revision=pin.revision,
                hint=f"the spec source must hold <revision>/schema.json ({SPEC_SOURCE_ENV} or --spec-source)",
            ) from exc
    verify(pin, data, location)
    return SchemaSource(pin, location, data)


def verify(pin: Pin, data: bytes, location: str) -> None:
    actual = hashlib.sha256(data).hexdigest()
    if actual != pin.sha256:
        raise fail(
            "MCG004",
            f"sha256 mismatch for {location}: pinned {pin.sha256}, got {actual}",
            revision=pin.revision,
            hint="the mirror is not the pinned upstream file; re-pull it or bump the pin with `mcp-codegen spec bump`",
        )


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _is_url(source: str) -> bool:
    return source.startswith(("http://", "https://"))


def _download(url: str, pin: Pin) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=_DOWNLOAD_TIMEOUT_S) as response:  # noqa: S310
            data: bytes = response.read()
            return data
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        raise CodegenError(
            *fail(
                "MCG005",
                f"cannot download {url}: {getattr(exc, 'reason', exc)}",
                revision=pin.revision,
                hint=f"offline? point --spec-source or {SPEC_SOURCE_ENV} at a local mirror folder",
            ).diagnostics
        ) from exc


DOCS_SOURCE_ENV = "MCP_CODEGEN_DOCS_SOURCE"


def example_pages(revision: str, path: Path | None = None) -> tuple[str, ...]:
    """The documentation pages (relative to a docs folder) whose JSON blocks are examples of revision."""
    examples_path = path or spec_dir() / "examples.toml"
    if not examples_path.exists():
        return ()
    try:
        raw = tomllib.loads(examples_path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise fail("MCG001", f"cannot read {examples_path}: {exc}") from exc
    return tuple(raw.get("revisions", {}).get(revision, {}).get("pages", ()))
