"""Known upstream schema defects, fixed by RFC 6902 JSON Patches kept as data in spec/errata/<rev>.json.

Every changing op must be guarded by a `test` op on the same value, so that when upstream fixes the
defect the `test` fails and generation stops, asking for the erratum to be retired.

A project's own errata apply to every revision it builds unless an erratum names its `revisions`;
a path written for the other spelling of the definitions folder (`/$defs/...` for a schema that
keeps `definitions`, as revisions before 2025-11-25 do, or the reverse) is read in the schema's own.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


from codegen.schema import load
from codegen.errors import CodegenError, fail, flat
from codegen.limits import DEFAULT_LIMITS, DEPTH_CEILING, Limits
from codegen.resources import spec_dir
from codegen.schema.jsontypes import is_array, is_object, json_type


@dataclass(frozen=True)
class Erratum:
    id: str
    reason: str
    upstream: str
    patch: tuple[dict[str, Any], ...]
    revisions: tuple[str, ...] | None = None  # the revisions it applies to; None: every one built

    def applies_to(self, revision: str) -> bool:
        return self.revisions is None or revision in self.revisions


def errata_path(revision: str) -> Path:
    return spec_dir() / "errata" / f"{revision}.json"


# An errata file is read whole and every op applied in turn, so both are bounded: the shipped files
# hold ~2 KB and two ops per erratum. What the ops add to the schema is bounded by the schema's own
# limits (apply_errata), so no patch makes a document the loader would refuse.
MAX_ERRATA_BYTES = 1 << 20
MAX_OPS = 1_000  # ops in one errata file, all errata together
_OPS = ("add", "remove", "replace", "move", "copy", "test")
_TAKES_VALUE = frozenset({"add", "replace", "test"})
_TAKES_FROM = frozenset({"move", "copy"})
_FORMAT_HINT = (
    "an errata file is {\"errata\": [{\"id\", \"reason\", \"upstream\", \"patch\": [JSON Patch ops], "
    "optional \"revisions\": [names]}]}, "
    "as in spec/errata/<revision>.json"
)


def load_errata(revision: str, path: Path | None = None) -> tuple[Erratum, ...]:
    """The errata of a pinned revision (spec/errata/<rev>.json), or of an explicit errata file; MCG201
    for a file that is not one (read as untrusted input: a regular file, bounded, strict JSON)."""
    path = path or errata_path(revision)
    if not os.path.lexists(path):
        if path != errata_path(revision):
            raise fail("MCG201", f"errata file {path} does not exist", revision=revision)
        return ()
    name = _clip(path.name)
    raw = _decode(_read(path, revision), name, revision)
    entries = raw.get("errata") if is_object(raw) else None
    if not is_array(entries):
        raise fail("MCG201", f"{name} must be an object with an `errata` list", revision=revision, hint=_FORMAT_HINT)
    ops = sum(len(entry["patch"]) for entry in entries if is_object(entry) and is_array(entry.get("patch")))
    if ops > MAX_OPS:
        raise fail(
            "MCG201",
            f"{name} holds {ops:,} patch ops, over the limit of {MAX_OPS:,}",
            revision=revision,
            hint="an erratum fixes one upstream defect in a few ops; is this the right file?",
        )
    errata = tuple(_erratum(entry, f"erratum #{index} in {name}", revision) for index, entry in enumerate(entries))
    for erratum in errata:
        _check_guarded(erratum, revision)
    return errata


def _read(path: Path, revision: str) -> bytes:
    what = f"errata file {_clip(path.name)}"
    return load.read_input(path, code="MCG201", revision=revision, limit=MAX_ERRATA_BYTES, what=what)


def _decode(data: bytes, name: str, revision: str) -> Any:
    """The errata file's JSON, read as strictly as a schema (no NaN, repeated keys or endless digits)."""
    if not data.strip():
        raise fail("MCG201", f"errata file {name} is empty", revision=revision, hint=_FORMAT_HINT)
    try:
        return load.strict_loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        why = f"it is not UTF-8 ({exc.reason} at byte {exc.start})"
    except json.JSONDecodeError as exc:
        why = f"{exc.msg} (line {exc.lineno}, column {exc.colno})"
    except load.NotJSON as exc:
        why = str(exc)
    except RecursionError:
        why = "it nests deeper than the JSON parser reads"
    raise fail("MCG201", f"errata file {name} is not valid JSON: {why}", revision=revision, hint="standard JSON only (RFC 8259)")


def _erratum(entry: Any, where: str, revision: str) -> Erratum:
    if not is_object(entry):
        raise fail("MCG201", f"{where} is {json_type(entry)}, not an object", revision=revision, hint=_FORMAT_HINT)
    missing = [k for k in ("id", "reason", "upstream") if not (isinstance(entry.get(k), str) and entry[k])]
    if not (is_array(entry.get("patch")) and entry["patch"]):
        missing.append("patch")
    if missing:
        raise fail(
            "MCG201",
            f"{where} lacks {', '.join(missing)}",
            revision=revision,
            hint="id, reason and upstream are non-empty strings; patch is a non-empty list of JSON Patch ops",
        )
    label = f"erratum {_clip(entry['id'])!r}"
    patch = tuple(_op(op, f"{label} op #{index}", revision) for index, op in enumerate(entry["patch"]))
    return Erratum(entry["id"], entry["reason"], entry["upstream"], patch, _scope(entry, label, revision))


def _scope(entry: dict[str, Any], label: str, revision: str) -> tuple[str, ...] | None:
    """The erratum's `revisions`, if it names them: a non-empty list of revision names."""
    if "revisions" not in entry:
        return None
    names = entry["revisions"]
    if not (is_array(names) and names and all(isinstance(n, str) and n for n in names)):
        raise fail(
            "MCG201",
            f"{label} has `revisions` {_preview(names)}, not a list of revision names",
            revision=revision,
            hint='name the revisions it applies to, e.g. "revisions": ["2025-06-18"]; leave it out to apply to every one',
        )
    return tuple(names)


def _op(op: Any, where: str, revision: str) -> dict[str, Any]:
    """op, if it is a JSON Patch operation (RFC 6902) this module applies; else MCG201 naming it."""

    def bad(problem: str) -> Exception:
        hint = "ops are {\"op\": " + "|".join(_OPS) + ", \"path\": a JSON pointer, ...} (RFC 6902)"
        return fail("MCG201", f"{where} {problem}", revision=revision, hint=hint)

    if not is_object(op):
        raise bad(f"is {json_type(op)}, not an object")
    kind = op.get("op")
    if kind not in _OPS:
        raise bad(f"has `op` {_preview(kind)}, not one of {', '.join(_OPS)}")
    for key in ("path", "from") if kind in _TAKES_FROM else ("path",):
        problem = _pointer_problem(op.get(key))
        if problem:
            raise bad(f"(`{kind}`): `{key}` {problem}")
    if kind in _TAKES_VALUE and "value" not in op:
        raise bad(f"(`{kind}`) has no `value`")
    return op


def _pointer_problem(pointer: Any) -> str | None:
    """Why pointer is not a JSON pointer (RFC 6901), or None."""
    if not isinstance(pointer, str):
        return "is missing" if pointer is None else f"is {json_type(pointer)}, not a JSON pointer"
    if pointer and not pointer.startswith("/"):
        return f"{_preview(pointer)} does not start with /"
    if any(not part.startswith(("0", "1")) for part in pointer.split("~")[1:]):
        return f"{_preview(pointer)} has a `~` that is not `~0` or `~1`"
    return None


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
            chosen.extend(e for e in load_errata(revision, path) if e.applies_to(revision))
        return tuple(chosen)


    def fingerprint(self) -> str:
        """What the selection applies, for the run cache: the user files' bytes and the ids off."""
        digest = hashlib.sha256(json.dumps([self.builtin, sorted(self.disabled)]).encode())
        for path in self.files:
            digest.update(_read(path, self.builtin or "errata"))
        return digest.hexdigest()


def check_scopes(files: Sequence[Path], known: frozenset[str], label: str) -> None:
    """MCG201 for an erratum of the user's files that names a revision no pin has (a typo would
    otherwise leave it silently unapplied). Read once a run: every revision gets the same files."""
    for path in files:
        for erratum in load_errata(label, path):
            unknown = [name for name in erratum.revisions or () if name not in known]
            if unknown:
                raise fail(
                    "MCG201",
                    f"erratum {_clip(erratum.id)!r} in {_clip(path.name)} names revision {_preview(unknown[0])}, which no pin has",
                    revision=label,
                    hint=f"pinned revisions: {_clip(', '.join(sorted(known)), 120)}",
                )


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


def apply_errata(
    document: dict[str, Any], errata: tuple[Erratum, ...], revision: str, limits: Limits = DEFAULT_LIMITS
) -> dict[str, Any]:
    """A patched copy of document (document itself when there is no erratum); a failed `test`
    means upstream changed and the erratum must go.

    The document is held to limits before it is copied, and so is what each op adds (its value, or
    the subtree a `copy` duplicates), before the op runs: a patch cannot grow the schema past what
    the loader accepts (a `copy` of a subtree onto itself, repeated, doubles it each time)."""
    load.check_limits(document, revision, limits)
    if not errata:
        return document
    patched: Any = json.loads(json.dumps(document))  # nesting checked above: no recursion runs deep
    size = _Size.of(patched)
    for erratum in errata:
        for index, written in enumerate(erratum.patch):
            op = _in_layout(written, patched)
            size = size.plus(_growth(patched, op), erratum, index, revision, limits)
            op = _refs_in_layout(op, written)
            patched = _apply_op(patched, op, erratum, index, revision)
        if not is_object(patched):
            raise fail(
                "MCG202",
                f"erratum {_clip(erratum.id)!r} leaves the schema's root {json_type(patched)}, not an object",
                revision=revision,
                pointer="#",
                hint="an erratum changes parts of the schema; it cannot replace or remove the root",
            )
    root: dict[str, Any] = patched  # an object: checked after each erratum
    return root


@dataclass(frozen=True)
class _Size:
    """How much of the limits a JSON value takes: objects (max-subschemas), compact JSON bytes
    (max-schema-bytes, counted without string escapes) and nesting (max-depth)."""

    objects: int
    bytes: int
    depth: int = 0

    @staticmethod
    def of(value: Any) -> _Size:
        objects = size = depth = 0
        stack: list[tuple[Any, int]] = [(value, 1)]
        while stack:
            node, level = stack.pop()
            if is_object(node) or is_array(node):
                depth = max(depth, level)  # containers, as the loader counts nesting
            if is_object(node):
                objects += 1
                size += 1 + sum(len(key) + 4 for key in node)  # {"key":,}
                stack.extend((child, level + 1) for child in node.values())
            elif is_array(node):
                size += 1 + len(node)
                stack.extend((child, level + 1) for child in node)
            else:
                size += len(node) + 2 if isinstance(node, str) else len(json.dumps(node))
        return _Size(objects, size, depth)

    def plus(self, more: _Size, erratum: Erratum, index: int, revision: str, limits: Limits) -> _Size:
        """This size with more added, refused (MCG202, naming the op) once past a limit."""
        total = _Size(self.objects + more.objects, self.bytes + more.bytes)
        over = total.past(limits, more.depth)
        if over is not None:
            op = erratum.patch[index]
            raise fail(
                "MCG202",
                f"erratum {_clip(erratum.id)!r} op #{index} (`{op['op']}`) would make the schema {over}",
                revision=revision,
                pointer=_where(op["path"]),
                hint="a patch is held to the schema's limits; a `copy` onto its own source doubles it",
            )
        return total

    def past(self, limits: Limits, depth: int) -> str | None:
        """Which limit this size (reaching depth) passes, in words, or None."""
        if self.objects > limits.max_subschemas:
            return f"hold more than {limits.max_subschemas:,} objects (--max-subschemas)"
        if self.bytes > limits.max_schema_bytes:
            return f"hold more than {limits.max_schema_bytes:,} bytes (--max-schema-bytes)"
        deepest = min(limits.max_depth, DEPTH_CEILING)
        return f"nest past {deepest} levels (--max-depth)" if depth > deepest else None


_SPELLINGS = {"$defs": "definitions", "definitions": "$defs"}


def _respelling(op: dict[str, Any], document: Any) -> tuple[str, str] | None:
    """(the definitions folder op was written for, the document's own) where they differ, else None."""
    heads = [_tokens(op[key])[0] for key in ("path", "from") if key in op and _tokens(op[key])]
    written = heads[0] if heads else None
    if written not in _SPELLINGS or not is_object(document):
        return None
    own = _SPELLINGS[written]
    return (written, own) if written not in document and own in document else None


def _in_layout(op: dict[str, Any], document: Any) -> dict[str, Any]:
    """op with its pointers in the document's spelling of the definitions folder, where it was
    written in the other one; op itself otherwise."""
    change = _respelling(op, document)
    if change is None:
        return op
    return {key: _respelled(value, *change) if key in ("path", "from") else value for key, value in op.items()}


def _refs_in_layout(op: dict[str, Any], written: dict[str, Any]) -> dict[str, Any]:
    """op's value with its `$ref`s moved as _in_layout moved its pointers (run once the value is
    known to be within the limits, so the walk is bounded)."""
    if op is written or "value" not in op:
        return op
    heads = [(_tokens(written[key])[0], _tokens(op[key])[0]) for key in ("path", "from") if key in op and _tokens(op[key])]
    return {**op, "value": _with_refs_respelled(op["value"], *heads[0])}


def _respelled(pointer: str, written: str, own: str) -> str:
    head = "/" + written
    return "/" + own + pointer[len(head) :] if pointer == head or pointer.startswith(head + "/") else pointer


def _with_refs_respelled(value: Any, written: str, own: str) -> Any:
    """value with every `$ref` into the written definitions folder pointed into the document's own."""
    if is_object(value):
        return {
            key: (
                "#" + _respelled(item[1:], written, own)
                if key == "$ref" and isinstance(item, str) and item.startswith("#/")
                else _with_refs_respelled(item, written, own)
            )
            for key, item in value.items()
        }
    if is_array(value):
        return [_with_refs_respelled(item, written, own) for item in value]
    return value


def _growth(document: Any, op: dict[str, Any]) -> _Size:
    """What op adds to document: its value, or the subtree a `copy` duplicates; its depth counted
    from the root. A source that is not there adds nothing (the op fails, and says so)."""
    kind, path = op["op"], op["path"]
    if kind in ("add", "replace"):
        added = _Size.of(op["value"])
    elif kind == "copy":
        found, source = _resolve(document, op["from"])
        added = _Size.of(source) if found else _Size(0, 0)
    else:
        return _Size(0, 0)
    return _Size(added.objects, added.bytes, added.depth + len(_tokens(path)))


def _apply_op(document: Any, op: dict[str, Any], erratum: Erratum, index: int, revision: str) -> Any:
    """document with op applied (in place where it can be), or MCG202 saying what did not match."""
    # imported here: a run that applies no erratum (the no-op) never loads the patch library
    import jsonpatch
    import jsonpointer as rfc6901

    try:
        return jsonpatch.JsonPatch([op]).apply(document, in_place=True)
    except (jsonpatch.JsonPatchException, rfc6901.JsonPointerException, RecursionError) as exc:
        raise _mismatch(document, op, erratum, index, revision, exc) from exc


def _mismatch(
    document: Any, op: dict[str, Any], erratum: Erratum, index: int, revision: str, exc: Exception
) -> CodegenError:
    """Why op does not fit document, in one bounded line with a true hint: a tested value that
    differs (upstream changed it), a path this revision's schema does not have (its layout
    differs), or what the patch library said, cut short (its messages can hold the whole schema)."""
    kind, path = op["op"], op["path"]
    label = f"erratum {_clip(erratum.id)!r} op #{index} (`{kind}`)"
    for pointer, container in _needed(op):
        gap = _missing(document, pointer, container=container)
        if gap is not None:
            return fail("MCG202", f"{label}: {gap}", revision=revision, pointer=_where(pointer), hint=_MISSING_PATH_HINT)
    import jsonpatch

    if isinstance(exc, jsonpatch.JsonPatchTestFailed):
        found = _resolve(document, path)[1]
        return fail(
            "MCG202",
            f"{label} finds {_preview(found)}, not {_preview(op['value'])}",
            revision=revision,
            pointer=_where(path),
            hint=f"upstream may have fixed it: check {_clip(erratum.upstream, 40)} and retire the erratum"
            + ("" if erratum.revisions else "; or list the revisions it is for in its `revisions`"),
        )
    why = "the values it copies or compares nest too deeply" if isinstance(exc, RecursionError) else flat(str(exc))
    return fail(
        "MCG202",
        f"{label} cannot be applied: {_clip(why, 80)}",
        revision=revision,
        pointer=_where(path),
        hint="rewrite the op for this revision's schema, or retire the erratum",
    )


def _needed(op: dict[str, Any]) -> list[tuple[str, bool]]:
    """The pointers op must find in the document, each with whether it must hold members: its
    source, and its target (for the ops that create the target, its parent: an object or array)."""
    creates = op["op"] in ("add", "copy", "move") and op["path"] != ""
    target = (_parent(op["path"]), True) if creates else (op["path"], False)
    return [(op["from"], False), target] if op["op"] in _TAKES_FROM else [target]


def _tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]] if pointer else []


def _parent(pointer: str) -> str:
    return pointer.rsplit("/", 1)[0] if pointer else pointer


def _resolve(document: Any, pointer: str) -> tuple[bool, Any]:
    """(True, the value at pointer) or (False, None)."""
    node = document
    for token in _tokens(pointer):
        step = _step(node, token)
        if step is None:
            return False, None
        node = step[0]
    return True, node


def _step(node: Any, token: str) -> tuple[Any] | None:
    if is_object(node):
        return (node[token],) if token in node else None
    if is_array(node) and token.isdigit() and (token == "0" or not token.startswith("0")) and int(token) < len(node):
        return (node[int(token)],)
    return None


def _missing(document: Any, pointer: str, *, container: bool = False) -> str | None:
    """Where pointer leaves document, in words ("nothing at /definitions"), or None if it resolves
    (to an object or array, when container)."""
    node, walked = document, ""
    for token in _tokens(pointer):
        step = _step(node, token)
        if step is None:
            if not is_object(node) and not is_array(node):
                return f"{_clip(walked or '/', 48)} is {json_type(node)}, with no member {_preview(token)}"
            return f"this revision's schema has nothing at {_clip(walked + '/' + token.replace('~', '~0').replace('/', '~1'), 60)}"
        node = step[0]
        walked += "/" + token.replace("~", "~0").replace("/", "~1")
    if container and not (is_object(node) or is_array(node)):
        return f"{_clip(walked or '/', 48)} is {json_type(node)}, which holds no members"
    return None


# A path the schema lacks in either spelling of its definitions folder (ops are read in the
# schema's own spelling before they run): most often an erratum meant for other revisions.
_MISSING_PATH_HINT = "if it is for other revisions, list them in its `revisions`; else fix or retire it"


def _where(pointer: str) -> str:
    return "#" + _clip(pointer, 64)


def _clip(text: str, limit: int = 32) -> str:
    """text cut to limit characters (with an ellipsis), so a long id, path or value keeps an error line short."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _preview(value: Any) -> str:
    """A value as an error line quotes it: compact JSON, cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = json_type(value)
    return _clip(text, 32)


def _check_guarded(erratum: Erratum, revision: str) -> None:
    tested: set[str] = set()
    for op in erratum.patch:  # each checked by _op: a known kind with a JSON pointer at `path`
        kind, path = op["op"], op["path"]
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
                f"erratum {_clip(erratum.id)!r}: `{kind}` at {_clip(path, 64)} is not preceded by a `test` op",
                revision=revision,
                hint="guard every change with a `test` of the upstream value so a fix upstream is noticed",
            )
