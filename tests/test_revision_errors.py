"""Errors that name the revision (issue 25, point 4).

A message refused at the negotiated revision for a key or value another pinned revision defines
says so in one line: on the surface's receive path (a RevisionError with `defined_in`) and through
each revision package's opt-in `history` module (`explain*`, `foreign_keys`).

The keys are enumerated from `mcp-codegen diff` (codegen.diff): every property it lists as added
between 2024-11-05 and each later revision, and every property removed between two consecutive
ones. Every MCP object is open (no definition of any pinned schema says `additionalProperties:
false`), so a revision's own models keep another revision's key, whatever its value, as an unknown
key: what refuses it is the surface, where the value fits no revision's type for that key. Those
refusals are the errors checked here; the keys kept are what `foreign_keys` reports on request.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import TypeAdapter, ValidationError

from codegen.diff import diff
from codegen.schema import pointers, schemas

from . import cpu_bound
from . import surface_support as support
from .conftest import GENERATED, REPO, REVISIONS

REVS = list(REVISIONS)  # oldest first, the draft last
OLDEST = REVS[0]
CANDIDATES: tuple[object, ...] = (None, True, 7, "x", [], {})  # a value of each JSON type
DATA = Path(__file__).parent / "data" / "revision_errors"


# --- the keys, from the diff --------------------------------------------------------------------


@dataclass(frozen=True)
class Key:
    definition: str  # the surface's name of the definition
    path: tuple[str, ...]  # members from the definition to the object holding the key ("[]": items)
    key: str


def _changed_keys(old: str, new: str, kind: str) -> Iterator[tuple[Key, bool]]:
    """The keys the diff of old -> new lists as `kind` ("added" / "removed"): its direct property
    changes and those it folds into a member's details ("a.b: property added (optional)"). The
    bool: whether the place is inside a union arm written inline (no place other revisions share)."""
    for change in diff(old, new, python_api=False).changes:
        definition = support.surface_name(change.subject)
        if change.kind == f"property-{kind}":
            *path, key = change.path
            yield Key(definition, tuple(path), key), any(p.startswith("<") for p in path)
        for detail in change.details:
            where, _, summary = detail.partition(": ")
            if summary.startswith(f"property {kind}"):
                *inner, key = where.split(".")
                path = (*change.path, *inner)
                yield Key(definition, tuple(path), key), any(p.startswith("<") for p in path)


@cache
def added_keys() -> dict[Key, str]:
    """Every key added after 2024-11-05 -> the first revision whose diff from 2024-11-05 lists it."""
    found: dict[Key, str] = {}
    for revision in REVS[1:]:
        for key, inline_arm in _changed_keys(OLDEST, revision, "added"):
            if not inline_arm:
                found.setdefault(key, revision)
    return found


@cache
def removed_keys() -> dict[Key, str]:
    """Every key a revision removed -> the last revision that defines it."""
    found: dict[Key, str] = {}
    for before, after in zip(REVS, REVS[1:], strict=False):
        for key, inline_arm in _changed_keys(before, after, "removed"):
            if not inline_arm:
                found.setdefault(key, before)
    return found


# --- schemas: places and minimal instances ------------------------------------------------------


def _deref(document: dict[str, Any], node: Any) -> Any:
    for _ in range(32):
        if isinstance(node, dict) and isinstance(node.get("$ref"), str):
            node = pointers.resolve(document, pointers.canonical(node["$ref"]))
    if isinstance(node, dict) and isinstance(node.get("allOf"), list):
        node = schemas.flatten_all_of(node, lambda ref: pointers.resolve(document, pointers.canonical(ref)))
    return node


def place(revision: str, key: Key) -> dict[str, Any] | None:
    """The object schema holding key's place in revision (its definition found through the surface
    merge: renamed, or written inline in an older revision), or None where it has no such object."""
    origin = support.place(revision, key.definition)
    if origin is None:
        return None
    document = support.document(revision)
    node = _deref(document, pointers.resolve(document, origin))
    for token in key.path:
        if not isinstance(node, dict):
            return None
        if token == "[]":
            node = node.get("items")
        elif token == "*":
            node = node.get("additionalProperties")
        else:
            node = (node.get("properties") or {}).get(token)
        node = _deref(document, node)
    return node if isinstance(node, dict) and isinstance(node.get("properties"), dict) else None


def minimal(document: dict[str, Any], schema: Any, depth: int = 0) -> Any:
    """A small instance of schema: required properties only, the first arm, the first enum value."""
    schema = _deref(document, schema)
    if not isinstance(schema, dict) or depth > 12:
        return {}
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list):
        return schema["enum"][0]
    for keyword in ("anyOf", "oneOf"):
        if isinstance(schema.get(keyword), list):
            return minimal(document, schema[keyword][0], depth + 1)
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties") or {}
        return {k: minimal(document, properties.get(k, {}), depth + 1) for k in schema.get("required") or ()}
    if kind == "array":
        return [minimal(document, schema.get("items", {}), depth + 1) for _ in range(schema.get("minItems", 0))]
    if kind == "string":
        return "x" * max(1, schema.get("minLength", 1))
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    return {"boolean": False, "null": None}.get(str(kind), {})


def carrying(revision: str, key: Key, value: object) -> dict[str, Any] | None:
    """A minimal instance of key's definition at revision with the path to the key filled in and
    the key set to value; None where the instance without the key is not valid at revision."""
    document = support.document(revision)
    origin = support.place(revision, key.definition)
    assert origin is not None
    schema = _deref(document, pointers.resolve(document, origin))
    root = minimal(document, schema)
    here: Any = root
    for token in key.path:
        if not isinstance(here, dict | list):
            return None
        schema = _deref(document, schema.get("items") if token == "[]" else (schema.get("properties") or {}).get(token))
        if token == "[]":
            if not here:
                here.append(minimal(document, schema))
            here = here[0]
        else:
            here = here.setdefault(token, minimal(document, schema))
    if not isinstance(here, dict):
        return None
    if not support.accepts(revision, origin, root):
        return None
    here[key.key] = value
    return root


def refused_everywhere(key: Key) -> list[object]:
    """The values (one of each JSON type) no revision's schema takes for key (each revision that
    defines it, or types every key there): none where some revision takes any JSON value there."""
    schemas_of = []
    for revision in REVS:
        holder = place(revision, key)
        if holder is None:
            continue
        # a revision without the key that types every other key there (`additionalProperties`
        # given) takes what that schema takes: 2024-11-05's Result holds any `resultType`
        typed = holder["properties"].get(key.key, holder.get("additionalProperties", False))
        if typed is not False:
            document = support.document(revision)
            schemas_of.append(jsonschema.Draft202012Validator({"$defs": document["$defs"], "allOf": [typed]}))
    return [v for v in CANDIDATES if not any(s.is_valid(v) for s in schemas_of)]


def valid_value(key: Key, revision: str) -> object:
    holder = place(revision, key)
    assert holder is not None
    return minimal(support.document(revision), holder["properties"][key.key])


# --- the packages -------------------------------------------------------------------------------


def history(revision: str) -> Any:
    return importlib.import_module(f"mcp_models.{REVISIONS[revision]}.history")


def own_class(revision: str, key: Key) -> Any | None:
    """The revision's class of key's definition (as the surface's send and receive find it)."""
    shape = support.surface()._tables.SHAPES.get(key.definition, {}).get(revision)
    if shape is None or shape.model is None:
        return None
    return getattr(importlib.import_module(f"mcp_models.{REVISIONS[revision]}.models"), shape.model)


def one_line(text: str) -> bool:
    return "\n" not in text and "\r" not in text and len(text) <= 300 and text.isprintable()


@dataclass
class Counts:
    pairs: int = 0  # (key, revision without it) where the place exists
    kept_by_revision: int = 0  # the revision's own models keep the key (any value)
    named_when_kept: int = 0  # foreign_keys() names it and its first revision
    refused_by_surface: int = 0  # a value no revision takes: RevisionError naming key and revision
    any_value: int = 0  # some revision takes any JSON value there: never refused
    no_instance: int = 0  # no valid instance of the place could be built (none expected)


def check_key(key: Key, revision: str, counts: Counts, *, first: str | None = None, last: str | None = None) -> None:
    """key carried at revision (which lacks it): kept by the revision's models, named by
    foreign_keys, and, with a value no revision takes, refused by the surface in one line that
    names the key and its first (or last) revision."""
    surface = support.surface()
    own = own_class(revision, key)
    defining = first or last
    assert defining is not None
    valid = carrying(revision, key, valid_value(key, defining))
    if own is None or valid is None:
        counts.no_instance += 1
        return
    counts.pairs += 1
    kept = TypeAdapter(own).validate_python(valid)
    counts.kept_by_revision += 1
    named = [e for e in history(revision).foreign_keys(kept) if e.subject == f"`{key.key}`"]
    assert named, (key, revision)
    assert all(e.path.endswith("/" + key.key) for e in named)
    assert all((first is None or e.defined_in[0] == first) and (last is None or e.defined_in[-1] == last) for e in named)
    counts.named_when_kept += 1
    surface.parse_as(getattr(surface, key.definition), valid, protocol_version=revision)  # kept there too
    refused = refused_everywhere(key)
    if not refused:
        counts.any_value += 1
        return
    wrong = carrying(revision, key, refused[0])
    assert wrong is not None
    TypeAdapter(own).validate_python(wrong)  # still kept by the revision's own models
    with pytest.raises(surface.RevisionError) as caught:
        surface.parse_as(getattr(surface, key.definition), wrong, protocol_version=revision)
    text = str(caught.value)
    assert f"`{key.key}` is defined " in text and f"this session negotiated {revision}" in text, text
    assert (first is None or caught.value.defined_in[0] == first) and (last is None or caught.value.defined_in[-1] == last), text
    assert str(first or last) in text and one_line(text), text
    counts.refused_by_surface += 1


COUNTS: dict[str, Counts] = {}


def test_every_key_added_after_2024_11_05_is_named_at_each_older_revision() -> None:
    counts = COUNTS.setdefault("added", Counts())
    keys = added_keys()
    assert len(keys) >= 50  # the diff lists them (63 when written)
    for key, first in keys.items():
        for revision in REVS[: REVS.index(first)]:
            holder = place(revision, key)
            if holder is None or key.key in holder["properties"]:
                continue  # the place does not exist there, or the key already did
            check_key(key, revision, counts, first=first)
    print("added keys:", len(keys), counts)
    assert counts.no_instance == 0 and counts.pairs >= 150  # 177 when written
    assert counts.kept_by_revision == counts.named_when_kept == counts.pairs
    assert counts.refused_by_surface + counts.any_value == counts.pairs
    assert counts.refused_by_surface >= 0.9 * counts.pairs


def test_every_key_removed_later_says_up_to_the_last_revision_defining_it() -> None:
    counts = COUNTS.setdefault("removed", Counts())
    keys = removed_keys()
    assert keys
    for key, last in keys.items():
        for revision in REVS[REVS.index(last) + 1 :]:
            holder = place(revision, key)
            if holder is None or key.key in holder["properties"]:
                continue
            check_key(key, revision, counts, last=last)
    print("removed keys:", len(keys), counts)
    assert counts.no_instance == 0 and counts.pairs >= 5
    assert counts.refused_by_surface + counts.any_value == counts.pairs


def test_a_removed_key_reads_defined_up_to() -> None:
    surface = support.surface()
    raw = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"roots": [], "_meta": 5}})
    with pytest.raises(surface.RevisionError) as caught:
        surface.parse_result("roots/list", json.loads(raw)["result"], protocol_version="2026-07-28")
    assert str(caught.value).startswith("/_meta: `_meta` is defined up to 2025-11-25; this session negotiated 2026-07-28")


# --- values: methods and content types ----------------------------------------------------------


def _union_revisions(method: str, side: str) -> list[str]:
    row = support.surface().METHODS[method]
    return [revision for revision in REVS if side in row.senders.get(revision, ())]


def test_a_method_another_revision_defines_is_named_in_both_paths() -> None:
    surface = support.surface()
    explained = 0
    for method, row in sorted(surface.METHODS.items()):
        for side in ("client", "server"):
            having = _union_revisions(method, side)
            if not having:
                continue
            union = f"{side.title()}{row.kind.title()}"
            for revision in REVS:
                own = getattr(importlib.import_module(f"mcp_models.{REVISIONS[revision]}"), union, None)
                if revision in having or own is None:
                    continue
                message = {"method": method, "params": {}}
                with pytest.raises(ValidationError) as refused:
                    TypeAdapter(own).validate_python(message)
                found = history(revision).explain(refused.value, own)
                assert found is not None and found.subject == f"method `{method}`", (method, revision)
                assert found.defined_in[0] == having[0] and revision not in found.defined_in
                assert one_line(str(found)) and f"revision {revision}" in str(found)
                with pytest.raises(surface.RevisionError) as caught:
                    surface.parse_as(getattr(surface, union), message, protocol_version=revision)
                text = str(caught.value)
                where = f"{found.path}: " if found.path else ""  # a union's tag, or a lone class's `method`
                assert text == f"{where}method `{method}` is {found.span}; this session negotiated {revision}", text
                assert caught.value.defined_in == found.defined_in and one_line(text)
                explained += 1
    print("methods explained:", explained)
    assert explained >= 40


def _content_types(revision: str) -> set[str]:
    document = support.document(revision)
    items = _deref(document, pointers.resolve(document, "#/$defs/CallToolResult/properties/content/items"))
    arms = [_deref(document, arm) for arm in items.get("anyOf") or items.get("oneOf") or [items]]
    nested = [a for a in arms if "anyOf" in a or "oneOf" in a]
    arms += [_deref(document, arm) for a in nested for arm in a.get("anyOf") or a.get("oneOf")]
    return {arm["properties"]["type"]["const"] for arm in arms if "properties" in arm}


def test_a_content_type_another_revision_defines_is_named_in_both_paths() -> None:
    surface = support.surface()
    having = {revision: _content_types(revision) for revision in REVS}
    explained = 0
    for content_type in sorted(set().union(*having.values())):
        first = next(r for r in REVS if content_type in having[r])
        for revision in REVS:
            if content_type in having[revision]:
                continue
            body = {"content": [{"type": content_type}], "resultType": "complete"}
            package = importlib.import_module(f"mcp_models.{REVISIONS[revision]}")
            with pytest.raises(ValidationError) as refused:
                package.parse_result("tools/call", json.dumps(body))
            found = history(revision).explain_result(refused.value, "tools/call")
            assert found is not None and found.subject == f"type `{content_type}`" and found.defined_in[0] == first
            assert found.path == "/content/0"
            raw = json.dumps({"jsonrpc": "2.0", "id": 3, "result": body})
            with pytest.raises(ValidationError) as refused_message:
                package.parse_message(raw, {3: "tools/call"})
            assert history(revision).explain_message(refused_message.value, raw, {3: "tools/call"}) == found.__class__(
                "/result/content/0", found.subject, found.defined_in
            )
            with pytest.raises(surface.RevisionError) as caught:
                surface.parse_message(raw, protocol_version=revision, pending={3: "tools/call"})
            assert str(caught.value) == (
                f"/result/content/0: type `{content_type}` is {found.span}; this session negotiated {revision}"
            )
            assert isinstance(caught.value.__cause__, ValidationError)
            explained += 1
    print("content types explained:", explained)
    assert explained >= 3  # audio before 2025-03-26, resource_link before 2025-06-18


def test_a_refusal_no_other_revision_explains_stays_a_validation_error() -> None:
    surface = support.surface()
    raw = json.dumps({"jsonrpc": "2.0", "id": 3, "result": {"content": [], "isError": "yes"}})
    with pytest.raises(ValidationError):
        surface.parse_message(raw, protocol_version="2025-06-18", pending={3: "tools/call"})
    with pytest.raises(ValidationError) as refused:
        importlib.import_module("mcp_models.v2025_06_18").parse_message(raw, {3: "tools/call"})
    assert history("2025-06-18").explain_message(refused.value, raw, {3: "tools/call"}) is None


def test_hostile_keys_in_the_path_are_escaped_and_the_line_bounded() -> None:
    surface = support.surface()
    hostile = "\u202e\x1b[31m\nx" * 40
    request = {"method": "elicitation/create", "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {}}}}
    body = {"resultType": "input_required", "inputRequests": {hostile: {**request, "jsonrpc": 5}}}
    with pytest.raises(surface.RevisionError) as caught:
        surface.parse_result("tools/call", body, protocol_version="2026-07-28")
    text = str(caught.value)
    assert one_line(text) and "`jsonrpc` is defined only in 2025-11-25" in text and "\\u202e" in text, text
    kept = importlib.import_module("mcp_models.v2026_07_28").parse_result("tools/call", {**body, "inputRequests": {hostile: {**request, "jsonrpc": "2.0"}}})
    (named,) = history("2026-07-28").foreign_keys(kept)
    assert one_line(str(named)) and named.subject == "`jsonrpc`" and named.defined_in[-1] == "2025-11-25"


# --- cost, typing, documentation ----------------------------------------------------------------


def _nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def test_foreign_keys_costs_time_linear_in_the_depth() -> None:
    """Issue 36, finding 2: foreign_keys walked a path copied at every level (depth squared: 5,000
    levels 0.25 s, 20,000 levels 3.9 s). Four times the depth now costs about four times the CPU,
    measured in the same test (sixteen times was the quadratic walk's)."""
    own = importlib.import_module("mcp_models.v2026_07_28")
    walk = history("2026-07-28").foreign_keys

    def cost(depth: int) -> float:
        body = {"resultType": "complete", "content": [], "structuredContent": _nested(depth)}
        result = own.CallToolResult.model_validate(body)
        measured = cpu_bound.measure(lambda: [walk(result) for _ in range(5)][0])
        assert measured.raised is None and measured.value == [], measured.raised
        return measured.cpu_seconds

    shallow, deep = cost(5_000), cost(20_000)
    assert deep <= 8 * shallow, f"20,000 levels took {deep:.3f} s, 5,000 levels {shallow:.3f} s"


def test_a_bounded_walk_shows_the_pointer_as_explain_does() -> None:
    """The walk carries each pointer cut to what is shown: the same line as the whole path gives."""
    module = importlib.import_module("mcp_models._runtime.history")  # the engine every history.py runs
    hostile = ["a/b~c", "\u202e\n" * 30, "x" * 500, "", "~1", *[str(n) for n in range(40)]]
    for size in range(len(hostile) + 1):
        path = ""
        for token in hostile[:size]:
            path = module._step(path, token)
        assert module._shown(path) == module._pointer(hostile[:size]), size


def test_the_valid_path_never_imports_history() -> None:
    """Explaining is only done on a refusal: reading valid messages at every revision, through the
    surface and the revision packages, never imports a history module."""
    script = """
import json, sys
from mcp_models import surface
import mcp_models
for revision in mcp_models.PROTOCOL_VERSIONS:
    raw = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "hi"}], "resultType": "complete"}})
    surface.parse_message(raw, protocol_version=revision, pending={1: "tools/call"})
    mcp_models.revision_module(revision).parse_message(raw, {1: "tools/call"})
loaded = sorted(name for name in sys.modules if name.endswith(".history"))
print(json.dumps(loaded))
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=GENERATED, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == []


def test_the_helper_types_both_ways_under_mypy_and_pyright() -> None:
    files = [DATA / "history_ok.py", DATA / "history_misuse.py"]
    expected = {n for n, line in enumerate(files[1].read_text().splitlines(), 1) if "# expect-error" in line}
    assert len(expected) >= 4
    mypy = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *map(str, files)],
        capture_output=True, text=True, cwd=REPO, check=False,
    )  # fmt: skip
    mypy_lines = {int(line.split(":")[1]) for line in mypy.stdout.splitlines() if ": error:" in line and "history_misuse" in line}
    assert "history_ok.py" not in mypy.stdout and mypy_lines == expected, mypy.stdout
    pyright = subprocess.run(
        [str(Path(sys.executable).parent / "pyright"), "--outputjson", *map(str, files)],
        capture_output=True, text=True, cwd=REPO, check=False,
    )  # fmt: skip
    report = json.loads(pyright.stdout)
    assert report["summary"]["filesAnalyzed"] == 2
    errors = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    assert not [d for d in errors if d["file"].endswith("history_ok.py")], errors
    assert {d["range"]["start"]["line"] + 1 for d in errors} == expected, errors
