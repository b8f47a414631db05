"""Known upstream schema defects, fixed by RFC 6902 JSON Patches kept as data in spec/errata/<rev>.json.

Every changing op must be guarded by a `test` op on the same value, so that when upstream fixes the
defect the `test` fails and generation stops, asking for the erratum to be retired.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonpatch
import jsonpointer as rfc6901

from codegen.schema import load
from codegen.errors import fail
from codegen.resources import spec_dir
from codegen.schema.jsontypes import is_array, is_object


@dataclass(frozen=True)
class Erratum:
    id: str
    reason: str
    upstream: str
    patch: tuple[dict[str, Any], ...]


def errata_path(revision: str) -> Path:
    return spec_dir() / "errata" / f"{revision}.json"


def load_errata(revision: str, path: Path | None = None) -> tuple[Erratum, ...]:
    """The errata of a pinned revision (spec/errata/<rev>.json), or of an explicit errata file."""
    path = path or errata_path(revision)
    if not os.path.lexists(path):
        if path != errata_path(revision):
            raise fail("MCG201", f"errata file {path} does not exist", revision=revision)
        return ()
    data = load.read_input(path, code="MCG201", revision=revision)
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise fail("MCG201", f"cannot read errata file {path.name}: {exc}", revision=revision) from exc
    entries = raw.get("errata") if is_object(raw) else None
    if not is_array(entries):
        raise fail("MCG201", f"{path.name} must be an object with an `errata` list", revision=revision)
    errata: list[Erratum] = []
    for index, entry in enumerate(entries):
        missing = [k for k in ("id", "reason", "upstream", "patch") if not entry.get(k)]
        if missing:
            raise fail(
                "MCG201",
                f"erratum #{index} in {path.name} lacks {', '.join(missing)}",
                revision=revision,
            )
        erratum = Erratum(str(entry["id"]), str(entry["reason"]), str(entry["upstream"]), tuple(entry["patch"]))
        _check_guarded(erratum, revision)
        errata.append(erratum)
    return tuple(errata)


@dataclass(frozen=True)
class Selection:
    """Which errata a build applies: a pinned revision's built-in ones (but those switched off by
    id), then the user's own files in order."""

    builtin: str | None  # the pinned revision whose spec/errata/<rev>.json applies, or None
    files: tuple[Path, ...] = ()
    disabled: frozenset[str] = frozenset()

    def errata(self, revision: str) -> tuple[Erratum, ...]:
        chosen = [e for e in load_errata(self.builtin) if e.id not in self.disabled] if self.builtin else []
        for path in self.files:
            chosen.extend(load_errata(revision, path))
        return tuple(chosen)

    def fingerprint(self) -> str:
        """What the selection applies, for the run cache: the user files' bytes and the ids off."""
        digest = hashlib.sha256(json.dumps([self.builtin, sorted(self.disabled)]).encode())
        for path in self.files:
            digest.update(load.read_input(path, code="MCG201", revision=self.builtin or "errata"))
        return digest.hexdigest()


def builtin_ids(revision: str) -> frozenset[str]:
    return frozenset(e.id for e in load_errata(revision))


@dataclass(frozen=True)
class Contradiction:
    """A spec example its own schema rejects, and what we decided about it."""

    example: str  # "<TypeName>/<file>.json" under the revision's examples folder
    decision: str  # "schema": the models reject it like the schema does; "result-type": the schema accepts
    # it only through an arm its own `resultType` rules out, so the models reject it
    reason: str


def load_contradictions(revision: str) -> tuple[Contradiction, ...]:
    path = errata_path(revision)
    if not path.exists():
        return ()
    raw = json.loads(path.read_text(encoding="utf-8"))
    return tuple(
        Contradiction(str(c["example"]), str(c["decision"]), str(c["reason"])) for c in raw.get("contradictions", ())
    )


def apply_errata(document: dict[str, Any], errata: tuple[Erratum, ...], revision: str) -> dict[str, Any]:
    """A patched copy of document; a failed `test` means upstream changed and the erratum must go."""
    patched = copy.deepcopy(document)
    for erratum in errata:
        try:
            patched = jsonpatch.JsonPatch(list(erratum.patch)).apply(patched)
        except jsonpatch.JsonPatchTestFailed as exc:
            raise fail(
                "MCG202",
                f"erratum {erratum.id!r} no longer matches the upstream schema ({exc})",
                revision=revision,
                pointer=_first_test_pointer(erratum),
                hint=f"upstream may have fixed it: check {erratum.upstream} and retire the erratum",
            ) from exc
        except (jsonpatch.JsonPatchException, rfc6901.JsonPointerException) as exc:
            raise fail(
                "MCG202",
                f"erratum {erratum.id!r} cannot be applied: {exc}",
                revision=revision,
                pointer=_first_test_pointer(erratum),
                hint="the schema's layout changed; rewrite or retire the erratum",
            ) from exc
    return patched


def _check_guarded(erratum: Erratum, revision: str) -> None:
    tested: set[str] = set()
    for op in erratum.patch:
        kind, path = op.get("op"), op.get("path")
        if not isinstance(path, str):
            raise fail("MCG201", f"erratum {erratum.id!r} has an op without a path", revision=revision)
        if kind == "test":
            tested.add(path)
            continue
        if kind == "add":  # guarded by a test of the parent or of anything inside it
            parent = path.rsplit("/", 1)[0]
            guarded = any(t == parent or t.startswith(parent + "/") for t in tested)
        else:
            guarded = path in tested
        if not guarded:
            raise fail(
                "MCG201",
                f"erratum {erratum.id!r}: `{kind}` at {path} is not preceded by a `test` op",
                revision=revision,
                hint="guard every change with a `test` of the upstream value so a fix upstream is noticed",
            )


def _first_test_pointer(erratum: Erratum) -> str | None:
    for op in erratum.patch:
        if op.get("op") == "test":
            return "#" + str(op.get("path", ""))
    return None
