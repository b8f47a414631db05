"""Every generated package is imported and used once before it is written: a package that formats
and type-checks can still fail on first use (a pattern pydantic refuses, a name the engine spelled
in a way Python cannot import). The files are written to a scratch folder and a separate Python
process, under CPU and memory limits, imports every module and builds the validator of every model
and type alias, as the package's users will; any failure is MCG404, and nothing is written.

A separate process, not this one: the package is code produced from untrusted input, its import
must not touch the generator's own modules, and its cost is bounded by the limits of that process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from .errors import fail

CPU_SECONDS = 300
MEMORY_BYTES = 4 << 30

_SCRIPT = r"""
import importlib, pkgutil, sys
from typing_extensions import TypeAliasType
from pydantic import BaseModel, TypeAdapter
root, name, optional = sys.argv[1], sys.argv[2], set(sys.argv[3:])
sys.path.insert(0, root)
def load(module_name):
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:  # the spec models a tools package imports, when not installed here
        if (exc.name or "").split(".")[0] in optional:
            return None
        raise
package = load(name)
names = [info.name for info in pkgutil.walk_packages(package.__path__, name + ".")] if package else []
skipped = (".tests", "._examples")
modules = [package] + [load(n) for n in names if not any(s in n for s in skipped)]
for module in modules:
    if module is None:
        continue
    for attribute in sorted(getattr(module, "__all__", ())):
        value = getattr(module, attribute)
        if isinstance(value, type) and issubclass(value, BaseModel):
            value.model_rebuild(force=True)
            value.__pydantic_validator__
        elif isinstance(value, TypeAliasType):
            TypeAdapter(value)
"""


PACKAGE = "mcp_codegen_smoke"  # the packages import themselves relatively: any name will do


def check(files: Mapping[str, str], *, revision: str | None = None, optional: tuple[str, ...] = ()) -> None:
    """Import the package made of files (paths relative to it) and build its validators; MCG404 if
    that fails, naming the last line of the error. optional: top-level packages it imports that
    may be missing here (a tools package's spec models); modules needing them are skipped."""
    with tempfile.TemporaryDirectory(prefix="mcp-codegen-smoke-") as scratch:
        root = Path(scratch) / PACKAGE
        for relative, text in files.items():
            path = root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONSTARTUP"}
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        try:
            done = subprocess.run(  # noqa: S603 - our own interpreter and script
                [sys.executable, "-c", _SCRIPT, scratch, PACKAGE, *optional],
                capture_output=True,
                text=True,
                env=env,
                preexec_fn=_limits,
                timeout=CPU_SECONDS * 2,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise fail("MCG404", "importing the generated package did not finish", revision=revision) from exc
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        raise fail(
            "MCG404",
            "the generated package fails when imported and used: " + (lines[-1] if lines else f"exit {done.returncode}"),
            revision=revision,
            hint="a defect of the generator for this schema: please report it with the schema",
        )


def _limits() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
