"""Pinned spec revisions (spec/manifest.toml) and how their schema bytes are obtained and verified."""

from __future__ import annotations

import contextlib
import hashlib
import keyword
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from codegen.schema import load
from codegen.errors import CodegenError, fail
from codegen.resources import spec_dir

SPEC_SOURCE_ENV = "MCP_CODEGEN_SPEC_SOURCE"
CACHE_ENV = "MCP_CODEGEN_CACHE"
UPSTREAM_RAW = "https://raw.githubusercontent.com/{repository}/{commit}/{path}"
TS_NAME = "schema.ts"
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
    # the folder whose <revision>/schema.json is this pin's copy: a project's pins file's folder,
    # or None for the copies shipped with mcp-codegen
    home: str | None = None
    # the sha256 of the TypeScript source (schema.ts) at the same commit, beside the schema: what
    # the spec deprecates lives only there. None: no schema.ts is pinned (no deprecations).
    ts_sha256: str | None = None

    @property
    def ts_path(self) -> str:
        """The upstream path of the schema's TypeScript source: schema.ts beside it."""
        return self.path.rsplit("/", 1)[0] + "/" + TS_NAME if "/" in self.path else TS_NAME

    @property
    def upstream_url(self) -> str:
        return UPSTREAM_RAW.format(repository=self.repository, commit=self.commit, path=self.path)


@dataclass(frozen=True)
class SchemaSource:
    """Where a revision's bytes came from, for messages and headers."""

    pin: Pin
    location: str
    data: bytes


# The project's own pins file (`pins` in [tool.mcp-codegen], or --pins), set once per command by the
# CLI: its revisions replace or extend the pins shipped with mcp-codegen, and `spec bump` writes it.
_project_pins: Path | None = None


def use_project_pins(path: Path | None) -> None:
    global _project_pins
    _project_pins = path


def project_pins() -> Path | None:
    return _project_pins


def load_manifest(path: Path | None = None) -> tuple[Pin, ...]:
    """The pins of a manifest file; without one, the shipped pins overlaid with the project's."""
    if path is not None:
        return _read_pins(path, _manifest_tables(path), home=None)
    shipped = spec_dir() / "manifest.toml"
    tables = _manifest_tables(shipped)
    if _project_pins is None:
        return _read_pins(shipped, tables, home=None)
    # configured before the first `spec bump` created it: nothing pinned by the project yet
    own = _manifest_tables(_project_pins) if os.path.lexists(_project_pins) else {}
    pins = {pin.revision: pin for pin in _read_pins(shipped, tables, home=None)}
    # a project entry may give only what it changes (commit, sha256): the rest comes from the shipped pin
    # ... but not `examples`: the shipped examples are of the shipped commit, so a project pin has
    # examples only when its own entry says so (`spec bump` kept them beside its schema)
    merged = {revision: {**tables.get(revision, {}), "examples": False, **entry} for revision, entry in own.items()}
    for revision, entry in own.items():
        if "commit" in entry and "ts_sha256" not in entry:
            # the shipped schema.ts is another commit's: this pin has none
            merged[revision].pop("ts_sha256", None)
    pins.update({pin.revision: pin for pin in _read_pins(_project_pins, merged, home=str(_project_pins.parent))})
    owners: dict[str, str] = {}
    for pin in pins.values():
        if owners.setdefault(pin.package, pin.revision) != pin.revision:
            raise fail(
                "MCG001",
                f"spec manifest {_project_pins}: revision {pin.revision!r} takes package {pin.package!r}, "
                f"which revision {owners[pin.package]!r} already has",
                revision=pin.revision,
                hint="each revision needs a package of its own",
            )
    return tuple(pins.values())


def _manifest_tables(path: Path) -> dict[str, dict[str, object]]:
    try:
        raw = tomllib.loads(load.read_input(path, code="MCG001").decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise fail("MCG001", f"cannot read spec manifest {path}: {exc}", hint="a TOML file of [revisions.\"<rev>\"] tables") from exc
    revisions: object = raw.get("revisions", {})
    tables: dict[str, dict[str, object]] = {}
    for key, value in cast("dict[object, object]", revisions).items() if isinstance(revisions, dict) else [(None, None)]:
        if not isinstance(value, dict):
            raise fail("MCG001", f"spec manifest {path}: `revisions` must hold one table per revision")
        tables[str(key)] = cast("dict[str, object]", value)
    return tables


# What each value of a pins entry may be. They become paths (<home>/<revision>/schema.json), a
# download address, and Python source (the package is imported by the generated root package), so
# each is checked here, once, for every manifest: the shipped one and a project's.
_PIN_RULES: dict[str, tuple[re.Pattern[str], str]] = {
    "revision": (re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_-]|\.(?!\.)){0,63}"), "letters, digits, '-', '_' and single dots"),
    "package": (re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}"), "a Python identifier (ASCII letters, digits, '_')"),
    "repository": (re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}/[A-Za-z0-9][A-Za-z0-9_.-]{0,99}"), "owner/name"),
    "commit": (re.compile(r"[0-9a-f]{7,40}"), "a hexadecimal git commit"),
    "path": (re.compile(r"(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\.json"), "a relative path to a .json file"),
    "sha256": (re.compile(r"[0-9a-f]{64}"), "64 hexadecimal digits"),
}
# names the generated root package uses itself: a revision package of that name would replace them
_RESERVED_PACKAGES = frozenset({"latest", "surface", "py", "tests"})


def _pin_value(manifest_path: Path, revision: str, key: str, entry: dict[str, object]) -> str:
    raw = revision if key == "revision" else entry.get(key)
    if raw is None:
        raise fail(
            "MCG001",
            f"spec manifest {manifest_path}: entry {revision!r} lacks key {key!r}",
            revision=_shown(revision),
            hint="a revision mcp-codegen does not pin needs package, repository, commit, path and sha256",
        )
    value = raw.lower() if key in ("sha256", "ts_sha256") and isinstance(raw, str) else raw
    pattern, meaning = _PIN_RULES[key] if key in _PIN_RULES else _PIN_RULES["sha256"]
    reserved = key == "package" and (keyword.iskeyword(str(value)) or value in _RESERVED_PACKAGES)
    if not isinstance(value, str) or not pattern.fullmatch(value) or ".." in value.split("/") or reserved:
        raise fail(
            "MCG001",
            f"spec manifest {manifest_path}: {key} of entry {_shown(revision)!r} is {_shown(repr(value))}, not {meaning}"
            + (" that the generated root package leaves free" if reserved else ""),
            revision=_shown(revision),
            hint=f"{key} becomes a path, a download address or Python source, so only {meaning} is taken",
        )
    return value


def _shown(text: str) -> str:
    """A value from a manifest, bounded for a one-line error (printable() escapes it when printed)."""
    return text if len(text) <= 80 else text[:77] + "..."


def _read_pins(manifest_path: Path, tables: dict[str, dict[str, object]], *, home: str | None) -> tuple[Pin, ...]:
    pins: list[Pin] = []
    packages: dict[str, str] = {}
    for revision, entry in tables.items():
        values = {key: _pin_value(manifest_path, revision, key, entry) for key in _PIN_RULES}
        if values["package"] in packages:
            raise fail(
                "MCG001",
                f"spec manifest {manifest_path}: entries {packages[values['package']]!r} and {revision!r} share "
                f"package {values['package']!r}",
                revision=revision,
                hint="each revision needs a package of its own",
            )
        packages[values["package"]] = revision
        ts_sha256 = _pin_value(manifest_path, revision, "ts_sha256", entry) if "ts_sha256" in entry else None
        pins.append(
            Pin(
                **values,
                released=bool(entry.get("released", True)),
                examples=bool(entry.get("examples", False)),
                home=home,
                ts_sha256=ts_sha256,
            )
        )
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
    path = (Path(pin.home) if pin.home else spec_dir()) / pin.revision / "schema.json"
    # anything there is the copy: a link or a special file is refused when read, never passed over
    return path if os.path.lexists(path) else None


def fetch(pin: Pin, source: str | None) -> SchemaSource:
    """The pinned schema's bytes, from a mirror folder/URL, else the copy shipped with mcp-codegen, the
    cache or upstream (in that order); always sha256-verified."""
    if source is None and (copy := bundled(pin)) is not None:
        # a project's pins folder is the user's tree: read it as untrusted input (no link out of the
        # revision's folder, regular files only, size-limited)
        data = load.read_input(copy, revision=pin.revision)
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


def fetch_ts(pin: Pin, source: str | None) -> bytes | None:
    """The pinned schema.ts's bytes (sha256-verified like the schema), or None when the pin has none.
    A mirror folder's <revision>/schema.ts comes first when it has one; else the copy beside the
    pinned schema (shipped, or the project's), the cache, and upstream when nothing is local."""
    if pin.ts_sha256 is None:
        return None
    candidates: list[Path] = []
    if source is not None and not _is_url(source):
        candidates.append(Path(source) / pin.revision / TS_NAME)
    candidates.append((Path(pin.home) if pin.home else spec_dir()) / pin.revision / TS_NAME)
    candidates.append(cache_dir() / f"{pin.ts_sha256}.ts")
    for path in candidates:
        if os.path.lexists(path):
            data = load.read_input(path, revision=pin.revision)
            verify(pin, data, str(path), digest=pin.ts_sha256)
            return data
    if source is not None and not _is_url(source):
        # a mirror folder means offline, as for the schema: its missing schema.ts is the error
        load.read_input(
            candidates[0],
            root=Path(source),
            revision=pin.revision,
            hint=f"the spec source must hold <revision>/{TS_NAME} where the pin has one ({SPEC_SOURCE_ENV} or --spec-source)",
        )
    location = (
        f"{source.rstrip('/')}/{pin.revision}/{TS_NAME}"
        if source is not None and _is_url(source)
        else UPSTREAM_RAW.format(repository=pin.repository, commit=pin.commit, path=pin.ts_path)
    )
    data = _download(location, pin)
    verify(pin, data, location, digest=pin.ts_sha256)
    with contextlib.suppress(CodegenError, OSError):  # the cache only saves a download next time
        target = cache_dir() / f"{pin.ts_sha256}.ts"
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(data)
        os.replace(partial, target)
    return data


def verify(pin: Pin, data: bytes, location: str, *, digest: str | None = None) -> None:
    """data is the pinned file: the schema's sha256, or digest (the schema.ts's)."""
    pinned = digest or pin.sha256
    actual = hashlib.sha256(data).hexdigest()
    if actual != pinned:
        raise fail(
            "MCG004",
            f"sha256 mismatch for {location}: pinned {pinned}, got {actual}",
            revision=pin.revision,
            pointer="#",
            hint="the mirror is not the pinned upstream file; re-pull it or bump the pin with `mcp-codegen spec bump`",
        )


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _is_url(source: str) -> bool:
    return source.startswith(("http://", "https://"))


def _download(url: str, pin: Pin) -> bytes:
    import urllib.error
    import urllib.request  # only here: most runs read local copies

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
    return tuple(_examples_table(path).get("revisions", {}).get(revision, {}).get("pages", ()))


def example_page_title(page: str, path: Path | None = None) -> str:
    """What a documentation page is (its `[titles]` entry in examples.toml), else its file name."""
    title = _examples_table(path).get("titles", {}).get(page)
    return title if isinstance(title, str) else page


def _examples_table(path: Path | None) -> dict[str, Any]:
    examples_path = path or spec_dir() / "examples.toml"
    if not examples_path.exists():
        return {}
    try:
        return tomllib.loads(examples_path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise fail("MCG001", f"cannot read {examples_path}: {exc}") from exc


PINS_HEADER = """\
# This project's MCP spec pins (mcp-codegen): each [revisions."<rev>"] table replaces the pin
# mcp-codegen ships for that revision (keys left out are the shipped ones), or adds a revision.
# `mcp-codegen spec bump` writes here and keeps <rev>/schema.json beside this file.
"""


def bump(
    revision: str,
    commit: str,
    data: bytes,
    pins_file: Path,
    ts: bytes | None = None,
    examples: Mapping[str, bytes] | None = None,
) -> tuple[Pin, Pin]:
    """Re-pin revision to commit with the sha256 of data in the project's pins file (created if
    need be), and keep the schema beside it: (previous pin, new pin). Only the revision's commit,
    sha256, ts_sha256 and examples lines change; the file's comments and layout stay. ts: the
    schema.ts of that commit, kept beside the schema too (without one the pin has none). examples:
    the revision's examples tree at that commit (`<TypeName>/<file>.json` -> bytes), kept beside the
    schema for the generated round-trip tests; None where the source has none. Nothing of
    mcp-codegen's own is written."""
    previous = find_pin(revision, load_manifest())
    if len(commit) != 40 or any(c not in "0123456789abcdef" for c in commit.lower()):
        raise fail("MCG006", f"commit must be a 40-hex-digit sha, got {commit!r}", revision=revision)
    digest = sha256_hex(data)
    values = {"commit": commit.lower(), "sha256": digest} | ({"ts_sha256": sha256_hex(ts)} if ts is not None else {})
    text = load.read_input(pins_file, code="MCG001").decode("utf-8") if pins_file.exists() else PINS_HEADER
    lines = text.splitlines(keepends=True)
    header = f'[revisions."{revision}"]'
    shown = {key: f'"{value}"' for key, value in values.items()} | {"examples": "true" if examples else "false"}
    inside, seen = False, dict.fromkeys(shown, False)
    at = len(lines)
    stale: list[int] = []  # a schema.ts pin of an earlier commit, where this one has none
    for index, line in enumerate(lines):
        if line.startswith("["):
            inside = line.strip() == header
            if inside:
                at = index + 1
        elif inside and line.startswith(("commit = ", "sha256 = ", "ts_sha256 = ", "examples = ")):
            key = line.split(" ", 1)[0]
            if key not in shown:
                stale.append(index)
                continue
            seen[key] = True
            lines[index] = f"{key} = {shown[key]}\n"
    for index in reversed(stale):
        del lines[index]
        at -= at > index
    if header not in (line.strip() for line in lines):
        lines += ["\n" if lines and lines[-1].strip() else "", header + "\n"]
        at = len(lines)
    lines[at:at] = [f"{key} = {shown[key]}\n" for key, done in seen.items() if not done]
    try:
        pins_file.parent.mkdir(parents=True, exist_ok=True)
        pins_file.write_text("".join(lines), encoding="utf-8")
        copy = pins_file.parent / revision / "schema.json"  # generation from these pins stays offline
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(data)
        source_copy = copy.parent / TS_NAME
        if ts is not None:
            source_copy.write_bytes(ts)
        else:
            source_copy.unlink(missing_ok=True)
        _keep_examples(copy.parent / "examples", examples or {})
    except OSError as exc:
        raise fail("MCG009", f"cannot write {pins_file}: {exc.strerror or exc}", revision=revision) from exc
    use_project_pins(pins_file)
    return previous, find_pin(revision, load_manifest())


def _keep_examples(folder: Path, examples: Mapping[str, bytes]) -> None:
    """The examples tree beside a pinned schema made exactly examples: files written, and the
    `<TypeName>/*.json` files an earlier bump kept there that the new commit no longer has removed
    (nothing else in the folder is touched)."""
    for stale in sorted(folder.glob("*/*.json")) if folder.is_dir() else []:
        if f"{stale.parent.name}/{stale.name}" not in examples and stale.is_file() and not stale.is_symlink():
            stale.unlink()
            with contextlib.suppress(OSError):
                stale.parent.rmdir()  # only when empty
    for name, data in sorted(examples.items()):
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


MAX_EXAMPLE_FILES = 2000  # a revision has ~130 today


def read_unpinned_examples(revision: str, source: str | None, limit: int) -> dict[str, bytes] | None:
    """The examples tree of a revision in a mirror folder (`<source>/<revision>/examples/<TypeName>/
    *.json`), each file read as untrusted input of at most limit bytes; None where there is none to
    list (no folder there, or a URL or upstream source: a download cannot list a folder)."""
    if source is None or _is_url(source):
        return None
    root = Path(source) / revision / "examples"
    if not root.is_dir() or root.is_symlink():
        return None
    found = sorted(p for p in root.glob("*/*.json") if _is_name(p.parent.name) and _is_name(p.name))
    if len(found) > MAX_EXAMPLE_FILES:
        raise fail(
            "MCG009",
            f"{root} holds {len(found):,} example files, more than {MAX_EXAMPLE_FILES:,}",
            revision=revision,
            hint="a spec mirror's examples folder holds one folder of JSON files per definition",
        )
    return {
        f"{path.parent.name}/{path.name}": load.read_input(path, root=Path(source), revision=revision, limit=limit)
        for path in found
    }


def _is_name(name: str) -> bool:
    """A file or folder name of an examples tree: printable, no separator, not hidden."""
    return name.isprintable() and not name.startswith(".") and "/" not in name and "\\" not in name


def read_unpinned_ts(revision: str, source: str | None, pin: Pin, commit: str) -> bytes | None:
    """The schema.ts of a revision at another commit (for `spec bump`), from where read_unpinned
    reads the schema: a mirror folder's <revision>/schema.ts (None when it has none), a mirror URL
    or upstream (None when that cannot be had: a schema without TypeScript source pins none)."""
    if source is not None and not _is_url(source):
        path = Path(source) / revision / TS_NAME
        return load.read_input(path, root=Path(source), revision=revision) if os.path.lexists(path) else None
    location = (
        f"{source.rstrip('/')}/{revision}/{TS_NAME}"
        if source is not None
        else UPSTREAM_RAW.format(repository=pin.repository, commit=commit, path=pin.ts_path)
    )
    try:
        return _download(location, pin)
    except CodegenError:
        return None


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
