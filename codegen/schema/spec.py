"""Pinned spec revisions (spec/manifest.toml) and how their schema bytes are obtained and verified."""

from __future__ import annotations

import contextlib
import hashlib
import os
import tomllib
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from codegen.schema import load
from codegen.errors import CodegenError, fail
from codegen.resources import spec_dir

SPEC_SOURCE_ENV = "MCP_CODEGEN_SPEC_SOURCE"
CACHE_ENV = "MCP_CODEGEN_CACHE"
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
    pins: list[Pin] = []
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


LATEST = "latest"


def latest_released(pins: tuple[Pin, ...] | None = None) -> Pin:
    """The newest released pin: what the generated `latest` alias points at."""
    released = [pin for pin in (pins if pins is not None else load_manifest()) if pin.released]
    if not released:
        raise fail("MCG002", "no released revision is pinned, so there is no `latest`")
    return max(released, key=lambda pin: pin.revision)


def find_revision(name: str) -> Pin:
    """A pinned revision by name, or `latest` (the newest released one)."""
    return latest_released() if name == LATEST else find_pin(name)


def select(revisions: Sequence[str] | None) -> list[Pin]:
    """The pins of the named revisions (in the order given), or all of them; a name twice is an error."""
    pins = load_manifest()
    chosen = [find_pin(r, pins) for r in revisions] if revisions else list(pins)
    if len({p.revision for p in chosen}) != len(chosen):
        raise fail("MCG007", "a revision was given more than once")
    return chosen


def resolve_source(explicit: str | None) -> str | None:
    """The mirror to read from: --spec-source beats the environment variable; None means upstream."""
    return explicit or os.environ.get(SPEC_SOURCE_ENV) or None


def cache_dir() -> Path:
    """Where pulled schemas are kept, by sha256: $MCP_CODEGEN_CACHE, else ~/.cache/mcp-codegen."""
    configured = os.environ.get(CACHE_ENV)
    return Path(configured) if configured else Path.home() / ".cache" / "mcp-codegen"


def cached(pin: Pin) -> Path | None:
    path = cache_dir() / f"{pin.sha256}.json"
    return path if path.is_file() else None


def store(pin: Pin, data: bytes) -> Path:
    """Keep verified bytes in the cache (atomically: a reader never sees half a file)."""
    folder = cache_dir()
    target = folder / f"{pin.sha256}.json"
    partial = target.with_suffix(f".{os.getpid()}.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(data)
        os.replace(partial, target)
    except OSError as exc:
        partial.unlink(missing_ok=True)  # a full disk must not leave half a schema behind
        raise fail(
            "MCG009", f"cannot store {target}: {exc.strerror or exc}", revision=pin.revision, hint=f"set {CACHE_ENV}"
        ) from exc
    return target


def bundled(pin: Pin) -> Path | None:
    """The copy of the pinned schema that ships with mcp-codegen (spec/<revision>/schema.json)."""
    path = spec_dir() / pin.revision / "schema.json"
    return path if path.is_file() else None


def fetch(pin: Pin, source: str | None) -> SchemaSource:
    """The pinned schema's bytes, from a mirror folder/URL, else the copy shipped with mcp-codegen, the
    cache or upstream (in that order); always sha256-verified."""
    if source is None and (copy := bundled(pin)) is not None:
        data = copy.read_bytes()
        verify(pin, data, str(copy))
        return SchemaSource(pin, str(copy), data)
    if source is None and (hit := cached(pin)) is not None:
        data = load.read_input(hit, revision=pin.revision)
        verify(pin, data, str(hit))
        return SchemaSource(pin, str(hit), data)
    if source is None:
        location = pin.upstream_url
        data = _download(location, pin)
        verify(pin, data, location)
        with contextlib.suppress(CodegenError):  # the cache only saves a download next time
            store(pin, data)
        return SchemaSource(pin, location, data)
    if _is_url(source):
        location = f"{source.rstrip('/')}/{pin.revision}/schema.json"
        data = _download(location, pin)
    else:
        path = Path(source) / pin.revision / "schema.json"
        location = str(path)
        data = load.read_input(
            path,
            root=Path(source),
            revision=pin.revision,
            hint=f"the spec source must hold <revision>/schema.json ({SPEC_SOURCE_ENV} or --spec-source)",
        )
    verify(pin, data, location)
    return SchemaSource(pin, location, data)


def verify(pin: Pin, data: bytes, location: str) -> None:
    actual = hashlib.sha256(data).hexdigest()
    if actual != pin.sha256:
        raise fail(
            "MCG004",
            f"sha256 mismatch for {location}: pinned {pin.sha256}, got {actual}",
            revision=pin.revision,
            pointer="#",
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


def bundled_spec_source() -> Path:
    """The spec data shipped with mcp-codegen, laid out as a mirror: <revision>/schema.json and
    <revision>/examples/<TypeName>/*.json."""
    return spec_dir()


def resolve_docs_source(explicit: str | None = None) -> Path:
    """The folder holding the pages of spec/examples.toml: --docs, else $MCP_CODEGEN_DOCS_SOURCE, else the
    copies shipped with mcp-codegen (spec/pages)."""
    configured = explicit or os.environ.get(DOCS_SOURCE_ENV)
    return Path(configured) if configured else spec_dir() / "pages"


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


def bump(revision: str, commit: str, data: bytes, manifest: Path | None = None) -> tuple[Pin, Pin]:
    """Re-pin revision to commit with the sha256 of data: (previous pin, new pin). Rewrites only the
    two lines of that revision's table in the manifest, keeping its comments and layout."""
    manifest_path = manifest or spec_dir() / "manifest.toml"
    previous = find_pin(revision, load_manifest(manifest_path))
    if len(commit) != 40 or any(c not in "0123456789abcdef" for c in commit.lower()):
        raise fail("MCG006", f"commit must be a 40-hex-digit sha, got {commit!r}", revision=revision)
    digest = sha256_hex(data)
    lines = manifest_path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = f'[revisions."{revision}"]'
    inside = False
    for index, line in enumerate(lines):
        if line.startswith("["):
            inside = line.strip() == header
        elif inside and line.startswith("commit = "):
            lines[index] = f'commit = "{commit.lower()}"\n'
        elif inside and line.startswith("sha256 = "):
            lines[index] = f'sha256 = "{digest}"\n'
    manifest_path.write_text("".join(lines), encoding="utf-8")
    if manifest is None:  # the shipped copy follows the pin, so generation stays offline
        copy = spec_dir() / revision / "schema.json"
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(data)
    return previous, find_pin(revision, load_manifest(manifest_path))


def read_unpinned(revision: str, source: str | None, pin: Pin, commit: str) -> tuple[str, bytes]:
    """The bytes of a revision at another commit (for `spec bump`), from a source or upstream."""
    if source is None:
        location = UPSTREAM_RAW.format(repository=pin.repository, commit=commit, path=pin.path)
        return location, _download(location, pin)
    if _is_url(source):
        location = f"{source.rstrip('/')}/{revision}/schema.json"
        return location, _download(location, pin)
    path = Path(source) / revision / "schema.json"
    return str(path), load.read_input(path, root=Path(source), revision=revision)
