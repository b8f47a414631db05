"""Settings: `[tool.mcp-codegen]` in pyproject.toml, each key also a command-line flag that wins.

Validated strictly: an unknown key or a wrong value is a one-line error naming it.
"""

from __future__ import annotations

import contextlib
import difflib
import math
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, cast

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails

from codegen.config import values
from codegen.errors import CodegenError, Diagnostic, fail, flat
from codegen.analysis.naming import is_import_path
from codegen.limits import DEPTH_CEILING, Limits
from codegen.schema.load import read_input
SECTION = "mcp-codegen"

STARTER = '''
[tool.mcp-codegen]
# Which pinned spec revisions to generate (default: all of spec/manifest.toml).
# revisions = ["2025-11-25", "2026-07-28"]
# Where the package goes, and its import path (for vendoring into your own package).
# out = "src/acme/_mcp"
# package = "acme._mcp"
# Attribute names: "snake" (input_schema, aliases to the wire names) or "wire" (inputSchema).
# field-naming = "snake"
# Unknown keys: "lossless" keeps them (round trips are exact); "ignore" drops them all; "sieve"
# drops the keys the revision does not define but keeps them where the schema allows more keys
# (additionalProperties true, {} or a schema) and in the definitions listed in open-definitions.
# extra-keys = "lossless"
# open-definitions = ["Result", "#/$defs/Tool/properties/inputSchema"]
# Reading: "strict" (default) or "lenient": null read as absent for optional fields, pydantic's
# lax scalars ("1.0" -> 1.0, 1.0 -> 1, true -> 1).
# inbound = "strict"
# A base class of yours for every model (it must subclass pydantic.BaseModel).
# base-class = "acme.models.Base"
# Extra pydantic ConfigDict entries for every model.
# pydantic-config = { frozen = true }
# The pinned schemas ship with mcp-codegen; a local mirror (<revision>/schema.json) serves other
# commits, and a docs folder the pages of `examples`.
# spec-source = "../spec-mirror"
# docs-source = "../docs"
# Your own errata files (JSON Patch, the format of spec/errata/<rev>.json), relative to this file,
# applied on top of the built-in ones; and built-in errata to switch off, by id.
# errata = ["mcp-errata.json"]
# disable-errata = ["json-value-number-null"]
# This project's own pins (the format of mcp-codegen's spec/manifest.toml, relative to this file):
# its revisions replace or extend the shipped pins; `mcp-codegen spec bump` writes here.
# pins = "mcp-spec/pins.toml"
# The formatter of the generated files, after ruff's safe fixes: "black" (line length 100) or
# "ruff" (ruff format with ruff's defaults: `ruff check` and `ruff format --check` clean).
# formatter = "black"
# Make the spec site's relative links in descriptions (/specification/...) absolute.
# absolute-links = false
# The version-spanning `surface` package over the revisions a run generates (two or more): one
# class per definition, send and receive at a negotiated revision (the flag is --no-surface).
# surface = true
# Remove the packages of revisions the output folder holds but a run does not generate
# (without it, such a run is refused; the flag is --prune).
# prune = false
# Limits for untrusted schemas.
# max-schema-bytes = 8388608
# max-depth = 64
# max-definitions = 2000
# max-subschemas = 50000
# max-members = 3000
# Partners' typed tools, one table per server (paths relative to this file): then
# `mcp-codegen tools` and `tools --check` need no flags. Keep the keys above in front of it.
# [tool.mcp-codegen.tools.partner]
# from = "partner-tools.json"   # or: server = "npx -y @acme/partner-server"
# out = "src/acme/partner"
# models = "acme._mcp.v2026_07_28"
'''


class Neighbours(BaseModel):
    """What other tools' tables in the same pyproject.toml say that the output must follow."""

    model_config = ConfigDict(frozen=True)

    line_length: int | None = None  # [tool.ruff] line-length, else [tool.black] line-length
    known_first_party: tuple[str, ...] = ()  # [tool.ruff.lint.isort] (or [tool.ruff.isort]) known-first-party
    src: tuple[str, ...] = (".", "src")  # [tool.ruff] src: where ruff finds first-party modules

    @classmethod
    def of(cls, tool: Mapping[str, Any]) -> Neighbours:
        ruff, black = _table(tool, "ruff"), _table(tool, "black")
        isort = _table(_table(ruff, "lint"), "isort") or _table(ruff, "isort")
        length = next((t["line-length"] for t in (ruff, black) if _in_range(t.get("line-length"))), None)
        return cls(
            line_length=length,
            known_first_party=tuple(k for k in _texts(isort.get("known-first-party")) if k.isidentifier()),
            src=_texts(ruff.get("src")) if "src" in ruff else (".", "src"),
        )


def _table(table: Mapping[str, Any], key: str) -> dict[str, Any]:
    found: object = table.get(key)
    return cast("dict[str, Any]", found) if isinstance(found, dict) else {}


def _texts(value: object) -> tuple[str, ...]:
    return tuple(v for v in cast("list[object]", value) if isinstance(v, str)) if isinstance(value, list) else ()


def _in_range(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 79 <= value <= 320


class ToolsEntry(BaseModel):
    """One partner's tools, `[tool.mcp-codegen.tools.<name>]`: where its tools/list comes from (a
    file, or a server started over stdio), where the package goes and which spec models it imports;
    paths are relative to the pyproject.toml."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    source: str | None = Field(default=None, alias="from")
    server: str | None = None
    out: str
    models: str | None = None

    @field_validator("source", "server", "out", mode="before")
    @classmethod
    def _plain_text(cls, value: object) -> object:
        if isinstance(value, str) and not value.isprintable():
            raise ValueError("holds a control character (a NUL, a line break, …)")
        return value

    @field_validator("models")
    @classmethod
    def _import_path(cls, value: str | None) -> str | None:
        if value is not None and not is_import_path(value):
            raise ValueError(f"{value!r} is not an import path (ASCII identifiers, no keywords)")
        return value

    @model_validator(mode="after")
    def _one_source(self) -> ToolsEntry:
        if (self.source is None) == (self.server is None):
            raise ValueError("give exactly one of `from` (a tools/list file) or `server` (a command)")
        return self


_ENTRY_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    revisions: tuple[str, ...] | None = None
    out: Path | None = None
    package: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
    field_naming: Literal["snake", "wire"] = Field(default="snake", alias="field-naming")
    extra_keys: Literal["lossless", "ignore", "sieve"] = Field(default="lossless", alias="extra-keys")
    open_definitions: tuple[str, ...] = Field(default=(), alias="open-definitions")
    inbound: Literal["strict", "lenient"] = "strict"
    base_class: str | None = Field(
        default=None, alias="base-class", pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$"
    )
    pydantic_config: dict[str, Any] = Field(default_factory=dict, alias="pydantic-config")
    spec_source: str | None = Field(default=None, alias="spec-source")
    docs_source: str | None = Field(default=None, alias="docs-source")
    max_schema_bytes: int | None = Field(default=None, alias="max-schema-bytes", gt=0)
    max_depth: int | None = Field(default=None, alias="max-depth", gt=0, le=DEPTH_CEILING)
    max_definitions: int | None = Field(default=None, alias="max-definitions", gt=0)
    max_subschemas: int | None = Field(default=None, alias="max-subschemas", gt=0)
    max_members: int | None = Field(default=None, alias="max-members", gt=0)
    errata: tuple[str, ...] = ()
    disable_errata: tuple[str, ...] = Field(default=(), alias="disable-errata")
    prune: bool = False  # remove the packages of revisions a run does not generate (else refused)
    surface: bool = True  # the version-spanning package, when a run generates two revisions or more
    pins: str | None = None  # the project's pins file, relative to pyproject.toml
    formatter: Literal["black", "ruff"] = "black"
    absolute_links: bool = Field(default=False, alias="absolute-links")
    # the generated files' line length; by default the same pyproject's [tool.ruff] or [tool.black] one
    line_length: int | None = Field(default=None, alias="line-length", ge=79, le=320)
    # partners' tools, by a name of the project's choosing: `mcp-codegen tools [name]` runs bare
    tools: dict[Annotated[str, StringConstraints(pattern=_ENTRY_NAME)], ToolsEntry] = Field(default_factory=dict)
    # what the same pyproject's other tools say (never a setting of ours: read by load)
    _neighbours: Neighbours = PrivateAttr(default_factory=lambda: Neighbours())

    @property
    def neighbours(self) -> Neighbours:
        return self._neighbours

    def beside(self, neighbours: Neighbours) -> Settings:
        """These settings, read from a pyproject.toml whose other tools say neighbours."""
        self._neighbours = neighbours
        return self

    @field_validator("pydantic_config")
    @classmethod
    def _config_entries(cls, entries: dict[str, Any]) -> dict[str, Any]:
        """Keys of pydantic's ConfigDict whose values have the type pydantic declares, as plain
        literals: both are written into the generated _base.py, so nothing else may reach it (a key
        is code, a value's repr can be)."""
        for key, value in entries.items():
            problem = values.config_problem(key, value)
            if problem is None and not _is_literal(value):
                problem = "must be a string, number, boolean, or a list/table of those"
            if problem is not None:
                raise ValueError(f"{key}: {problem}")
        return entries

    @field_validator("out", "spec_source", "docs_source", "pins", "errata", "revisions", "open_definitions", "disable_errata", mode="before")
    @classmethod
    def _plain_text(cls, value: object) -> object:
        """Paths and names hold no control characters: a NUL cannot reach the file system, a line
        break cannot reach a message."""
        given = value
        items: list[object] = [given]
        if isinstance(value, list | tuple):
            items = list(cast("list[object] | tuple[object, ...]", value))
        for item in items:
            if isinstance(item, str) and not item.isprintable():
                raise ValueError("holds a control character (a NUL, a line break, …)")
        return given

    @field_validator("package", "base_class")
    @classmethod
    def _import_path(cls, value: str | None) -> str | None:
        if value is not None and not is_import_path(value):
            raise ValueError(f"{value!r} is not an import path (ASCII identifiers, no keywords)")
        return value

    @field_validator("package")
    @classmethod
    def _importable_package(cls, value: str | None) -> str | None:
        problem = values.package_problem(value) if value is not None else None
        if problem is not None:
            raise ValueError(problem)
        return value

    def first_party(self, project: Path, out: Path | None) -> tuple[str, ...]:
        """Top-level packages the project's import sorting (ruff's isort rules, from the pyproject
        holding these settings) takes as its own: its known-first-party, and the package's own top
        level when `out` (the output folder as resolved: the config's is relative to project) puts
        it in one of ruff's `src` roots (`src/acme/_mcp` for `acme._mcp`). A function of the
        settings alone: no folder is looked at."""
        found = set(self.neighbours.known_first_party)
        package = (self.package or "mcp_models").split(".")
        if out is not None:
            where = Path(os.path.abspath(out))  # as the caller resolved it (the config's out is the project's)
            parts = where.parts
            if len(parts) > len(package) and list(parts[-len(package) :]) == package:
                root = Path(*parts[: -len(package)])
                roots = {Path(os.path.abspath(project / src)) for src in self.neighbours.src}
                if root in roots:
                    found.add(package[0])
        return tuple(sorted(found))

    def limits(self, base: Limits) -> Limits:
        return base.updated(
            {
                "max_schema_bytes": self.max_schema_bytes,
                "max_depth": self.max_depth,
                "max_definitions": self.max_definitions,
                "max_subschemas": self.max_subschemas,
                "max_members": self.max_members,
            }
        )



def _is_literal(value: Any, depth: int = 0) -> bool:
    """A value whose repr() is a Python literal of the same value (TOML dates and times are not)."""
    if depth > 8:
        return False
    if value is None or isinstance(value, bool | int | str):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_is_literal(v, depth + 1) for v in cast("list[object]", value))
    if isinstance(value, dict):
        return all(
            isinstance(k, str) and _is_literal(v, depth + 1) for k, v in cast("dict[object, object]", value).items()
        )
    return False


def load(path: Path | None = None) -> Settings:
    """Settings from pyproject.toml (the given one, else ./pyproject.toml if it exists)."""
    pyproject = path or Path("pyproject.toml")
    if not os.path.lexists(pyproject):
        if path is not None:
            raise fail("MCG010", f"config file {path} does not exist")
        return Settings()
    data = read_input(pyproject, code="MCG010", hint="the config file is a pyproject.toml")
    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise fail("MCG010", f"cannot read {pyproject}: {flat(str(exc))}") from exc
    except RecursionError:  # arrays or tables nested past what the TOML reader follows
        raise fail("MCG010", f"cannot read {pyproject}: values nested too deeply", hint="a pyproject.toml nests a few levels") from None
    tool: object = raw.get("tool", {})
    found: object = cast("dict[str, object]", tool).get(SECTION, {}) if isinstance(tool, dict) else None
    if not isinstance(found, dict):
        where = "[tool]" if not isinstance(tool, dict) else f"[tool.{SECTION}]"
        raise fail("MCG010", f"{pyproject}: {where} is not a table", pointer=str(pyproject), hint=f"settings go in a [tool.{SECTION}] table")
    section = cast("dict[str, Any]", found)
    wrong = [(key, values.check(key, value)) for key, value in section.items()]
    entries = section.get("pydantic-config")
    if isinstance(entries, dict):
        wrong += [(f"pydantic-config.{k}", values.config_problem(str(k), v)) for k, v in cast("dict[str, Any]", entries).items()]
    entries_of_tools = section.get("tools")
    if isinstance(entries_of_tools, dict):
        wrong += [
            (f"tools.{name}.{key}", values.check_tools_entry(str(key), value))
            for name, entry in cast("dict[str, Any]", entries_of_tools).items()
            if isinstance(entry, dict)
            for key, value in cast("dict[str, Any]", entry).items()
        ]
    if any(problem for _, problem in wrong):
        raise CodegenError(
            *(
                fail(
                    "MCG010", f"[tool.{SECTION}] {key}: {problem}", pointer=str(pyproject), hint=_value_hint(key, section.get(key))
                ).diagnostics[0]
                for key, problem in wrong
                if problem
            )
        )
    neighbours = Neighbours.of(cast("dict[str, Any]", tool))
    try:
        settings = Settings.model_validate(section)
    except ValidationError as exc:
        raise CodegenError(*(_key_error(error, section, pyproject) for error in exc.errors())) from exc
    if settings.line_length is None and neighbours.line_length:
        settings = settings.model_copy(update={"line_length": neighbours.line_length})
    return settings.beside(neighbours)


def _value_hint(key: str, value: object) -> str:
    if key.startswith("pydantic-config."):
        return "pydantic's ConfigDict keys, with values a TOML literal can hold (docs/configuration.md)"
    if key == "revisions" and isinstance(value, str):
        return f'use a TOML array: revisions = ["{value}"]' if value.isprintable() else "use a TOML array of revisions"
    kind = values.KINDS.get(key)
    if isinstance(value, str) and value.lower() in ("true", "false") and kind and kind.expected.startswith("a boolean"):
        return f"write the boolean without quotes: {key} = {value.lower()}"
    return "docs/configuration.md lists every key with its type and range"


def _key_error(error: ErrorDetails, section: dict[str, Any], pyproject: Path) -> Diagnostic:
    """One line per bad key: what is wrong with it, and the likely fix."""
    key = ".".join(str(p) for p in error["loc"])
    top = str(error["loc"][0]) if error["loc"] else ""
    hint = "see `mcp-codegen init` for the keys and their values"
    in_entry = top == "tools" and len(error["loc"]) == 3
    if in_entry and error["loc"][2] == "[key]":
        key = ".".join(str(p) for p in error["loc"][:2])
        return fail(
            "MCG010",
            f"[tool.{SECTION}] {key}: not a name for a tools entry",
            pointer=f"{pyproject}",
            hint="letters, digits, `_`, `.` and `-`, starting with a letter or digit (at most 64)",
        ).diagnostics[0]
    if error["type"] == "extra_forbidden":
        message = "unknown key"
        model = ToolsEntry if in_entry else Settings
        top = str(error["loc"][2]) if in_entry else top
        known = sorted({field.alias or name for name, field in model.model_fields.items()})
        close = difflib.get_close_matches(top, known, n=1, cutoff=0.6)
        if close:
            hint = f"did you mean `{close[0]}`?"
        elif in_entry and top in {field.alias or name for name, field in Settings.model_fields.items()}:
            # TOML: a key written below a [tool.mcp-codegen.tools.<name>] header belongs to that table
            hint = f"`{top}` is a key of [tool.{SECTION}]: write it above the first [tool.{SECTION}.tools.…] table"
    else:
        message = error["msg"].removeprefix("Value error, ")
        if top == "package" and not is_import_path(str(section.get(top))):
            message = f"{section.get(top)!r} is not an import path"
            hint = "dotted Python identifiers, e.g. acme._mcp (a dash is not allowed)"
        elif top == "package":
            hint = "a name of your own, e.g. acme._mcp"
    return fail("MCG010", f"[tool.{SECTION}] {key}: {message}", pointer=f"{pyproject}", hint=hint).diagnostics[0]


def with_flags(settings: Settings, flags: Mapping[str, object]) -> Settings:
    """settings with the command-line flags that were given (not None) taking precedence, validated."""
    given = {k: v for k, v in flags.items() if v is not None}
    try:
        merged = Settings.model_validate({**settings.model_dump(), **given})
        return merged.beside(settings.neighbours)
    except ValidationError as exc:
        diagnostics: list[Diagnostic] = []
        for error in exc.errors():
            name = str(error["loc"][0])
            flag = "--" + name.replace("_", "-")
            message, hint = error["msg"].removeprefix("Value error, "), "see `mcp-codegen generate --help`"
            if name in ("package", "base_class") and not is_import_path(str(given.get(name))):
                message = f"{given.get(name)!r} is not an import path"
                hint = "dotted Python identifiers, e.g. acme._mcp (a dash is not allowed)"
            diagnostics.append(fail("MCG010", f"{flag}: {message}", hint=hint).diagnostics[0])
        raise CodegenError(*diagnostics) from exc


_MAX_PYPROJECT_BYTES = 8 * 1024 * 1024


def write_starter(pyproject: Path) -> bool:
    """Append a commented [tool.mcp-codegen] section; False if the file already has one.

    The file is read and replaced as a regular file only: a symbolic link (it would be written
    through to wherever it points), a FIFO (a read would hang) or a folder is refused, and the new
    text goes in by an atomic rename, so a failed write leaves the old file whole."""
    from codegen import safeio

    try:
        exists = os.path.lexists(pyproject)
        data = safeio.read_regular(pyproject, _MAX_PYPROJECT_BYTES) if exists else b""
        text = data.decode("utf-8")
    except safeio.NotRegular as exc:
        raise fail("MCG010", f"refusing to edit {pyproject}: it is {exc.what}", hint="init edits a regular pyproject.toml file") from None
    except safeio.TooLarge:
        raise fail("MCG010", f"refusing to edit {pyproject}: larger than {_MAX_PYPROJECT_BYTES:,} bytes") from None
    except UnicodeDecodeError:
        raise fail("MCG010", f"refusing to edit {pyproject}: it is not UTF-8 text") from None
    except OSError as exc:
        raise fail("MCG601", f"cannot read {pyproject}: {safeio.reason(exc)}") from exc
    if f"[tool.{SECTION}]" in text:
        return False
    prefix = text.rstrip("\n") + "\n" if text else ""
    updated = prefix + STARTER.lstrip("\n") if not prefix else prefix + STARTER
    mode = os.lstat(pyproject).st_mode & 0o7777 if exists else 0o644
    partial = pyproject.with_name(f".{pyproject.name}.mcp-codegen-{os.getpid()}")
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(updated)
        os.replace(partial, pyproject)
    except OSError as exc:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise fail("MCG601", f"cannot write {pyproject}: {safeio.reason(exc)}", hint="nothing was changed") from exc
    return True
