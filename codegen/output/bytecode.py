"""Bytecode under __pycache__ checked against the sources `check` verified: Python writes a .pyc
whenever it imports the package (the vendored tests, a type checker's plugin, the project's own
suite), and a .pyc compiled from the very sources the check found up to date is not drift. One
that is not (an older source, another file, a hand-made .pyc) still is: Python may run it instead
of the checked source.

A .pyc is compared, not trusted: its code object is read back and compared with a fresh compile of
the checked source (same optimisation level), in a child interpreter, since unmarshalling bytes
from a folder anyone could write is not something this process does. Bytecode of another Python
(another cache tag or magic number) cannot be compared, and stays drift.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from collections.abc import Mapping
from typing import cast

# Reads [[pyc base64, source, optimisation]] on stdin; prints one verdict per item, 1 or 0.
_COMPARE = r"""
import base64, importlib.util, json, marshal, sys
verdicts = []
for pyc_b64, source, level in json.load(sys.stdin):
    pyc = base64.b64decode(pyc_b64)
    try:
        ok = pyc[:4] == importlib.util.MAGIC_NUMBER and len(pyc) > 16
        ok = ok and marshal.loads(pyc[16:]) == compile(source, "<checked>", "exec", dont_inherit=True, optimize=level)
    except Exception:
        ok = False
    verdicts.append(1 if ok else 0)
print(json.dumps(verdicts))
"""


def source_of(rel: str) -> tuple[str, int] | None:
    """(the source's relative path, the optimisation level) a .pyc of this interpreter stands for:
    `pkg/__pycache__/models.cpython-311.opt-1.pyc` -> (`pkg/models.py`, 1); None for another
    interpreter's bytecode or a name the import system does not write."""
    folder, found, name = ("/" + rel).rpartition("/__pycache__/")
    folder = folder.removeprefix("/")
    if not found or "/" in name or not name.endswith(".pyc"):
        return None
    parts = name[: -len(".pyc")].split(".")
    tag = sys.implementation.cache_tag
    if len(parts) == 2 and parts[1] == tag:
        level = 0
    elif len(parts) == 3 and parts[1] == tag and parts[2] in ("opt-1", "opt-2"):
        level = int(parts[2][-1])
    else:
        return None
    module = f"{folder}/{parts[0]}.py" if folder else f"{parts[0]}.py"
    return module, level


def compiled_from(bytecode: Mapping[str, bytes], sources: Mapping[str, str]) -> frozenset[str]:
    """The .pyc files (relative paths) whose code is exactly a compile of their source in sources."""
    items: list[tuple[str, str, int]] = []
    for rel in sorted(bytecode):
        found = source_of(rel)
        if found is not None and found[0] in sources:
            items.append((rel, sources[found[0]], found[1]))
    if not items:
        return frozenset()
    payload = json.dumps([[base64.b64encode(bytecode[rel]).decode("ascii"), source, level] for rel, source, level in items])
    try:
        done = subprocess.run(  # noqa: S603 - this interpreter, isolated, with a fixed script
            [sys.executable, "-I", "-c", _COMPARE], input=payload, capture_output=True, text=True, check=False, timeout=300
        )
        verdicts: object = json.loads(done.stdout) if done.returncode == 0 else []
    except (OSError, subprocess.TimeoutExpired, ValueError):
        verdicts = []
    said = cast("list[object]", verdicts) if isinstance(verdicts, list) else []
    if len(said) != len(items):
        return frozenset()  # nothing verified: all of it stays drift
    return frozenset(rel for (rel, _, _), verdict in zip(items, said, strict=True) if verdict == 1)
