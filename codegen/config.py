"""Settings: `[tool.mcp-codegen]` in pyproject.toml, each key also a command-line flag that wins.

Validated strictly: an unknown key or a wrong value is a one-line error naming it.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import fail
from .limits import DEPTH_CEILING, Limits
from .load import read_input

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
# Unknown keys: "lossless" keeps them (round trips are exact); "ignore" drops them.
# extra-keys = "lossless"
# A base class of yours for every model (it must subclass pydantic.BaseModel).
# base-class = "acme.models.Base"
# Extra pydantic ConfigDict entries for every model.
# pydantic-config = { frozen = true }
# A local mirror of the spec (<revision>/schema.json), and docs pages for `examples`.
# spec-source = "../shared/spec"
# docs-source = "../docs"
# Remove the packages of revisions the output folder holds but a run does not generate
# (without it, such a run is refused; the flag is --prune).
# prune = false
# Limits for untrusted schemas.
# max-schema-bytes = 8388608
# max-depth = 64
# max-definitions = 2000
# max-subschemas = 50000
'''


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    revisions: tuple[str, ...] | None = None
    out: Path | None = None
    package: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
    field_naming: Literal["snake", "wire"] = Field(default="snake", alias="field-naming")
    extra_keys: Literal["lossless", "ignore"] = Field(default="lossless", alias="extra-keys")
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
    prune: bool = False  # remove the packages of revisions a run does not generate (else refused)

    def limits(self, base: Limits) -> Limits:
        return base.updated(
            {
                "max_schema_bytes": self.max_schema_bytes,
                "max_depth": self.max_depth,
                "max_definitions": self.max_definitions,
                "max_subschemas": self.max_subschemas,
            }
        )



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
        raise fail("MCG010", f"cannot read {pyproject}: {exc}") from exc
    section = raw.get("tool", {}).get(SECTION, {})
    try:
        return Settings.model_validate(section)
    except ValidationError as exc:
        error = exc.errors()[0]
        key = ".".join(str(p) for p in error["loc"])
        message = "unknown key" if error["type"] == "extra_forbidden" else error["msg"]
        raise fail(
            "MCG010",
            f"[tool.{SECTION}] {key}: {message}",
            pointer=f"{pyproject}",
            hint="see `mcp-codegen init` for the keys and their values",
        ) from exc


def with_flags(settings: Settings, flags: dict[str, Any]) -> Settings:
    """settings with the command-line flags that were given (not None) taking precedence, validated."""
    given = {k: v for k, v in flags.items() if v is not None}
    try:
        return Settings.model_validate({**settings.model_dump(), **given})
    except ValidationError as exc:
        error = exc.errors()[0]
        flag = "--" + str(error["loc"][0]).replace("_", "-")
        raise fail("MCG010", f"{flag}: {error['msg']}", hint="see `mcp-codegen generate --help`") from exc


def write_starter(pyproject: Path) -> bool:
    """Append a commented [tool.mcp-codegen] section; False if the file already has one."""
    text = pyproject.read_text(encoding="utf-8") if pyproject.exists() else ""
    if f"[tool.{SECTION}]" in text:
        return False
    prefix = text.rstrip("\n") + "\n" if text else ""
    pyproject.write_text(prefix + STARTER.lstrip("\n") if not prefix else prefix + STARTER, encoding="utf-8")
    return True
