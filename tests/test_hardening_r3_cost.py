"""Hardening, round three (issue 24): cost within every limit, errata that cannot grow or crash the
run, and nesting the engine or pydantic cannot recurse through.

- Cost: the engine, black and pydantic spend about a millisecond on every member of the models (a
  property, an arm, an enum value; a class twice that), so 40,000 `true` properties cost 43 s
  within the old limits. `max-members` bounds that count (MCG123) before the engine runs; inputs at
  the default limit generate in a few seconds.
- Errata: an errata file is read like any untrusted input (a regular file, 1 MiB, strict JSON,
  1,000 ops) and checked op by op (MCG201); what each op adds is held to the schema's own limits
  before it runs, so `copy` onto its own source cannot double the schema (MCG202 naming the op);
  a failure is one short line whose hint says what is true (a value that changed upstream, or a
  path this revision's schema does not have).
- Nesting: past ~64 levels the engine (inside one definition) or pydantic (along references, at
  import) ends in a RecursionError whatever --max-depth allows: refused as MCG103, statically
  where the shape is known, and by building the package within 700 frames where it is not.

Each case runs `mcp-codegen` as a real process (tests/bad_input_support.py): exit code, one line
on stderr, CPU time and peak memory, and the output tree unchanged on failure.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codegen.errors import CodegenError
from codegen.limits import (
    DEFAULT_LIMITS,
    INLINE_DEPTH_CEILING,
    TYPE_DEPTH_CEILING,
    Limits,
)
from codegen.schema import errata, load, schemas, wellformed
from codegen.surface.merge import merge

from . import bad_input_support as support
from . import suite

MAX_LINE = 300  # characters of an error line
# Inputs at the default max-members take 3-4 reference generations (generated, formatted and imported);
# this bound leaves room and still tells them from the 43 s (about 30 generations) before.
AT_LIMIT_BOUND = support.Bound(8, "generation")
Schema = dict[str, Any]


def _object(properties: dict[str, Any]) -> Schema:
    return {"type": "object", "properties": properties}


def _one(schema: Any) -> Schema:
    return {"$defs": {"A": schema}}


def _write(path: Path, document: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return support.cli_env(tmp_path / "cache")


def _generate(schema: Path, tmp_path: Path, env: dict[str, str], *extra: str) -> support.Run:
    return support.run(["generate", "-q", "--schema", str(schema), "--out", str(tmp_path / "pkg"), *extra], env=env)


def _refused(result: support.Run, code: str, pointer: str | None = None, *, quoted: str = "") -> str:
    """The one error line, at most MAX_LINE characters beside what it quotes of the command line
    (quoted: a path the user gave, named with its folder)."""
    line = support.assert_one_line_error(result, code, pointer=pointer)
    assert len(line) <= MAX_LINE + 2 * len(quoted), (len(line), line)
    support.assert_bounded(result)
    return line


# -- cost: what the models declare is bounded before the engine runs ----------------------------

N = 40_000
WIDE: dict[str, tuple[Callable[[], Schema], str, str]] = {
    # name: (schema, code, pointer prefix)
    "properties_40000_true": (
        lambda: _one(_object({f"p{i}": True for i in range(N)})),
        "MCG123",
        "#/$defs/A/properties/",
    ),
    "properties_40000_empty": (
        lambda: _one(_object({f"p{i}": {} for i in range(N)})),
        "MCG123",
        "#/$defs/A/properties/",
    ),
    "properties_15000_classes": (
        lambda: _one(_object({f"p{i}": _object({"x": {"type": "string"}}) for i in range(15_000)})),
        "MCG123",
        "#/$defs/A/properties/",
    ),
    "anyof_20000_true": (lambda: _one({"anyOf": [True] * 20_000}), "MCG123", "#/$defs/A/anyOf/"),
    "anyof_20000_empty": (lambda: _one({"anyOf": [{}] * 20_000}), "MCG123", "#/$defs/A/anyOf/"),
    "allof_20000_true": (lambda: _one({"allOf": [True] * 20_000}), "MCG123", "#/$defs/A/allOf/"),
    "enum_40000": (lambda: _one({"enum": [f"v{i}" for i in range(N)]}), "MCG123", "#/$defs/A"),
    "definitions_2000_classes": (
        lambda: {"$defs": {f"D{i}": _object({"x": {"type": "string"}}) for i in range(2_000)}},
        "MCG123",
        "#/$defs/",
    ),
    "pattern_properties_40000": (  # each a member: counted before the patterns are (MCG120)
        lambda: _one({"type": "object", "patternProperties": {f"^p{i}$": {"type": "string"} for i in range(N)}}),
        "MCG123",
        "#/$defs/A/patternProperties/",
    ),
}


@pytest.mark.parametrize("case", sorted(WIDE))
def test_a_wide_schema_within_the_size_limits_is_refused_quickly(
    case: str, tmp_path: Path, env: dict[str, str]
) -> None:
    make, code, pointer = WIDE[case]
    schema = _write(tmp_path / case / "schema.json", make())
    assert schema.stat().st_size < DEFAULT_LIMITS.max_schema_bytes
    result = _generate(schema, tmp_path, env)
    line = _refused(result, code, pointer)
    if code == "MCG123":
        assert "--max-members" in line, line
    support.record(f"cost: {case}", result, "refused before the engine runs")


@pytest.mark.parametrize("case", sorted(c for c in WIDE if WIDE[c][1] == "MCG123"))
def test_the_member_count_stops_where_it_passes_the_limit(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The refusal costs the members counted up to the limit, not the schema's size: the count visits
    at most max-members + 1 schemas and names no more pointers than it visits (the siblings of the
    last one are never spelled out)."""
    make, _, pointer = WIDE[case]
    document = make()
    visited: list[str] = []
    escaped = [0]
    declared, escape = schemas.members_declared, schemas.pointers.escape

    def counting_members(node: Any, at: str, **keywords: Any) -> int:
        visited.append(at)
        return declared(node, at, **keywords)

    def counting_escape(token: str) -> str:
        escaped[0] += 1
        return escape(token)

    monkeypatch.setattr(schemas, "members_declared", counting_members)
    monkeypatch.setattr(schemas.pointers, "escape", counting_escape)
    with pytest.raises(CodegenError) as caught:
        load.check_members(document, "r", DEFAULT_LIMITS)
    assert caught.value.diagnostics[0].code == "MCG123"
    assert caught.value.diagnostics[0].pointer == visited[-1] and visited[-1].startswith(pointer)
    assert len(visited) <= LIMIT + 1, len(visited)
    assert escaped[0] <= len(visited), escaped[0]


def test_a_wide_refusal_comes_before_the_engine_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """generate, tools and diff count members before any stage that walks every member: the
    refusal of 40,000 properties never reaches the loader's checks or the analysis."""
    from codegen import api
    from codegen.analysis import analyze
    from codegen.diff import diff

    def never(*_: Any, **__: Any) -> Any:
        raise AssertionError("a stage past the member count ran")

    monkeypatch.setattr(load, "to_schema_doc", never)
    monkeypatch.setattr(analyze, "analyze", never)
    wide = _object({f"p{i}": True for i in range(N)})
    schema = _write(tmp_path / "wide" / "schema.json", _one(wide))
    listing = _write(tmp_path / "tools.json", {"tools": [{"name": "t", "inputSchema": wide}]})
    for attempt in (
        lambda: api.generate_schema(schema, out=tmp_path / "pkg"),
        lambda: api.generate_tools(out=tmp_path / "tools_pkg", tools_file=listing),
        lambda: diff(str(schema), str(schema)),
    ):
        with pytest.raises(CodegenError) as caught:
            attempt()
        assert caught.value.diagnostics[0].code == "MCG123", caught.value.diagnostics


def test_forty_thousand_required_names_generate_quickly(tmp_path: Path, env: dict[str, str]) -> None:
    """Names in `required` that no property declares become nothing: no member, no cost."""
    schema = _one({**_object({"a": {"type": "string"}}), "required": [f"p{i}" for i in range(N)]})
    result = _generate(_write(tmp_path / "required" / "schema.json", schema), tmp_path, env)
    assert result.returncode == 0, result.stderr
    support.assert_bounded(result)
    support.record("cost: required_40000", result)


def _members(schema: Schema) -> int:
    return sum(schemas.members_declared(node, pointer) for pointer, node in schemas.schema_nodes(schema))


LIMIT = DEFAULT_LIMITS.max_members
# The costliest shapes per member measured, each just within the default max-members: exit 0.
AT_LIMIT: dict[str, Callable[[], Schema]] = {
    "nullable_properties": lambda: _one(_object({f"p{i}": {"type": ["string", "null"]} for i in range(LIMIT - 3)})),
    "inline_classes": lambda: _one(
        _object({f"p{i}": _object({"x": {"type": "string"}}) for i in range((LIMIT - 3) // 3)})
    ),
    "union_of_tagged_classes": lambda: _one(
        {"oneOf": [{**_object({"k": {"const": f"k{i}"}}), "required": ["k"]} for i in range((LIMIT - 3) // 3)]}
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(AT_LIMIT))
def test_the_costliest_shapes_at_the_default_limit_take_a_few_seconds(
    case: str, tmp_path: Path, env: dict[str, str]
) -> None:
    schema = AT_LIMIT[case]()
    assert LIMIT - 4 <= _members(schema) <= LIMIT
    result = _generate(_write(tmp_path / case / "schema.json", schema), tmp_path, env)
    assert result.returncode == 0, result.stderr[-500:]
    support.assert_bounded(result, AT_LIMIT_BOUND)
    support.record(f"cost: at the default max-members, {case}", result, f"{_members(schema):,} members")


def test_max_members_is_a_flag_and_a_setting(tmp_path: Path, env: dict[str, str]) -> None:
    schema = _write(
        tmp_path / "three" / "schema.json", {"$defs": {n: _object({"a": {"type": "string"}}) for n in "ABC"}}
    )
    assert _members(json.loads(schema.read_text())) == 1 + 3 * 3
    flagged = _generate(schema, tmp_path, env, "--max-members", "9")
    assert "more than 9 members" in _refused(flagged, "MCG123", "#/$defs/C/properties/a")
    support.record("cost: --max-members", flagged)
    (tmp_path / "pyproject.toml").write_text("[tool.mcp-codegen]\nmax-members = 9\n")
    configured = support.run(
        ["generate", "-q", "--schema", str(schema), "--out", str(tmp_path / "pkg")], env=env, cwd=tmp_path
    )
    _refused(configured, "MCG123")
    allowed = support.run(
        ["generate", "-q", "--schema", str(schema), "--out", str(tmp_path / "pkg"), "--max-members", "10"],
        env=env,
        cwd=tmp_path,
    )
    assert allowed.returncode == 0, allowed.stderr  # the flag wins over the file
    (tmp_path / "pyproject.toml").write_text("[tool.mcp-codegen]\nmax-members = 0\n")
    bad = support.run(
        ["generate", "-q", "--schema", str(schema), "--out", str(tmp_path / "other")], env=env, cwd=tmp_path
    )
    assert bad.code == "MCG010" and len(bad.lines) == 1 and "max-members" in bad.stderr, bad.stderr


def test_tools_and_diff_are_held_to_the_same_count(tmp_path: Path, env: dict[str, str]) -> None:
    wide = _object({f"p{i}": True for i in range(N)})
    listing = _write(tmp_path / "tools.json", {"tools": [{"name": "t", "inputSchema": wide}]})
    tools = support.run(["tools", "--from", str(listing), "--out", str(tmp_path / "tools_pkg")], env=env)
    _refused(tools, "MCG123", "#/tools/0/inputSchema/properties/")
    support.record("cost: tools, 40,000 properties", tools)
    old = _write(tmp_path / "old" / "schema.json", _one(wide))
    new = _write(
        tmp_path / "new" / "schema.json", _one({**wide, "properties": {**wide["properties"], "p0": {"type": "string"}}})
    )
    with_api = support.run(["diff", str(old), str(new)], env=env)
    assert "--no-python-api" in _refused(with_api, "MCG123")  # diff has no limit flags: its way out
    support.record("cost: diff, 40,000 properties", with_api)
    wire_only = support.run(["diff", str(old), str(new), "--no-python-api"], env=env)
    assert wire_only.returncode == 0 and "p0" in wire_only.stdout, wire_only.stderr[-500:]
    support.assert_bounded(wire_only)
    support.record("cost: diff --no-python-api, 40,000 properties", wire_only)


def test_mcp_revisions_and_their_surface_declare_under_half_the_default_members() -> None:
    documents = []
    for revision in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"):
        raw = json.loads((suite.SPEC / revision / "schema.json").read_text())
        patched = errata.apply_errata(raw, errata.load_errata(revision), revision)
        document = load.to_schema_doc(patched, revision, DEFAULT_LIMITS).document
        assert _members(dict(document)) < LIMIT / 2, revision
        documents.append((revision, document))
    assert _members(merge(documents).document) < LIMIT / 2


# -- errata: what a patch adds is held to the schema's limits, op by op ---------------------------


def _erratum(patch: list[Any], erratum_id: str = "fix") -> dict[str, Any]:
    return {"errata": [{"id": erratum_id, "reason": "r", "upstream": "schema.ts", "patch": patch}]}


def _doubling(times: int) -> list[dict[str, Any]]:
    """`copy` of an array into itself, each guarded by a `test` of the slot it fills: the array
    doubles with every copy (2**30 items after 30)."""
    ops: list[dict[str, Any]] = []
    for i in range(times):
        ops.append({"op": "test", "path": f"/$defs/A/anyOf/{i}", "value": {"type": "string"}})
        ops.append({"op": "copy", "from": "/$defs/A/anyOf", "path": f"/$defs/A/anyOf/{i}"})
    return ops


DEEP_VALUE: Any = "leaf"
for _ in range(300):
    DEEP_VALUE = {"x": DEEP_VALUE}

GROWING: dict[str, tuple[Schema, list[Any], tuple[str, ...], str]] = {
    # name: (schema, patch, extra flags, the limit the line names)
    "copy_onto_itself_30_times": (_one({"anyOf": [{"type": "string"}]}), _doubling(30), (), "--max-subschemas"),
    "copy_past_max_subschemas": (
        _one({"anyOf": [{"type": "string"}]}),
        _doubling(8),
        ("--max-subschemas", "100"),
        "--max-subschemas",
    ),
    "add_past_max_schema_bytes": (
        _one({"type": "string", "description": "d"}),
        [
            {"op": "test", "path": "/$defs/A/description", "value": "d"},
            {"op": "replace", "path": "/$defs/A/description", "value": "x" * 200_000},
        ],
        ("--max-schema-bytes", "100000"),
        "--max-schema-bytes",
    ),
    "add_past_max_depth": (
        _one({"type": "object", "properties": {}}),
        [
            {"op": "test", "path": "/$defs/A/properties", "value": {}},
            {"op": "add", "path": "/$defs/A/properties/deep", "value": DEEP_VALUE},
        ],
        (),
        "--max-depth",
    ),
}


@pytest.mark.parametrize("case", sorted(GROWING))
def test_an_erratum_cannot_grow_the_schema_past_its_limits(case: str, tmp_path: Path, env: dict[str, str]) -> None:
    schema, patch, flags, limit = GROWING[case]
    schema_path = _write(tmp_path / "grow" / "schema.json", schema)
    patch_path = _write(tmp_path / "errata.json", _erratum(patch, case))
    result = _generate(schema_path, tmp_path, env, "--errata", str(patch_path), *flags)
    line = _refused(result, "MCG202")
    assert f"erratum '{case[:31]}" in line and " op #" in line and limit in line, line
    support.record(f"errata: {case}", result, "refused before the op runs")


# -- errata files read as untrusted input: one clear line for every malformed one ----------------

SCHEMA = _one({"type": "object", "description": "d", "properties": {"a": {"type": "string"}}})
GUARD = {"op": "test", "path": "/$defs/A/description", "value": "d"}
MALFORMED: dict[str, tuple[Callable[[], bytes], str, str]] = {
    # name: (errata file bytes, code, text the line holds)
    "top_level_list": (lambda: b"[1, 2]", "MCG201", "must be an object with an `errata` list"),
    "errata_not_a_list": (lambda: b'{"errata": {"a": 1}}', "MCG201", "must be an object with an `errata` list"),
    "erratum_not_an_object": (
        lambda: b'{"errata": [1]}',
        "MCG201",
        "erratum #0 in errata.json is a number, not an object",
    ),
    "id_not_a_string": (
        lambda: json.dumps({"errata": [{"id": ["x"], "reason": "r", "upstream": "u", "patch": [GUARD]}]}).encode(),
        "MCG201",
        "lacks id",
    ),
    "patch_not_a_list": (
        lambda: json.dumps({"errata": [{"id": "x", "reason": "r", "upstream": "u", "patch": {"op": "test"}}]}).encode(),
        "MCG201",
        "lacks patch",
    ),
    "op_not_an_object": (lambda: json.dumps(_erratum([1])).encode(), "MCG201", "op #0 is a number, not an object"),
    "unknown_op": (
        lambda: json.dumps(_erratum([GUARD, {"op": "frob", "path": "/x"}])).encode(),
        "MCG201",
        '`op` "frob"',
    ),
    "op_without_a_path": (
        lambda: json.dumps(_erratum([{"op": "test", "value": 1}])).encode(),
        "MCG201",
        "`path` is missing",
    ),
    "pointer_without_a_slash": (
        lambda: json.dumps(_erratum([{"op": "test", "path": "$defs/A", "value": 1}])).encode(),
        "MCG201",
        "does not start with /",
    ),
    "pointer_with_a_bad_escape": (
        lambda: json.dumps(_erratum([{"op": "test", "path": "/$defs/~2", "value": 1}])).encode(),
        "MCG201",
        "that is not `~0` or `~1`",
    ),
    "test_without_a_value": (
        lambda: json.dumps(_erratum([{"op": "test", "path": "/$defs/A"}])).encode(),
        "MCG201",
        "has no `value`",
    ),
    "copy_without_from": (
        lambda: json.dumps(_erratum([GUARD, {"op": "copy", "path": "/$defs/A/description"}])).encode(),
        "MCG201",
        "`from` is missing",
    ),
    "test_fails": (
        lambda: json.dumps(
            _erratum([{**GUARD, "value": "zzz"}, {"op": "replace", "path": GUARD["path"], "value": 1}])
        ).encode(),
        "MCG202",
        'finds "d", not "zzz" (hint: upstream may have fixed it',
    ),
    "path_into_a_string": (
        lambda: json.dumps(_erratum([{"op": "test", "path": "/$defs/A/description/x", "value": 1}])).encode(),
        "MCG202",
        '/$defs/A/description is a string, with no member "x"',
    ),
    "add_into_a_string": (
        lambda: json.dumps(_erratum([GUARD, {"op": "add", "path": "/$defs/A/description/x", "value": 1}])).encode(),
        "MCG202",
        "/$defs/A/description is a string, which holds no members",
    ),
    "move_into_its_own_child": (
        lambda: json.dumps(
            _erratum([GUARD, {"op": "move", "from": "/$defs/A", "path": "/$defs/A/description"}])
        ).encode(),
        "MCG202",
        "cannot be applied: Cannot move values into their own children",
    ),
    "root_replaced_by_a_string": (
        lambda: json.dumps(
            _erratum([{"op": "test", "path": "", "value": SCHEMA}, {"op": "replace", "path": "", "value": "s"}])
        ).encode(),
        "MCG202",
        "leaves the schema's root a string",
    ),
    "ops_1001": (
        lambda: json.dumps(_erratum([GUARD] * 1001)).encode(),
        "MCG201",
        "1,001 patch ops, over the limit of 1,000",
    ),
    "file_past_1_mib": (
        lambda: json.dumps(_erratum([GUARD] * 30_000)).encode(),
        "MCG201",
        "over the limit of 1,048,576",
    ),
    "empty": (lambda: b"", "MCG201", "errata.json is empty"),
    "not_utf8": (lambda: b'{"errata": [{"id": "\xff\xfe"}]}', "MCG201", "is not UTF-8"),
    "nan": (
        lambda: json.dumps(_erratum([{**GUARD, "value": float("nan")}])).encode(),
        "MCG201",
        "NaN is not a JSON number",
    ),
    "repeated_key": (lambda: b'{"errata": [], "errata": []}', "MCG201", "the key 'errata' appears twice"),
    "integer_of_5000_digits": (
        lambda: (
            b'{"errata": [{"id": "x", "reason": "r", "upstream": "u", "patch": [{"op": "test", "path": "", "value": '
            + b"9" * 5000
            + b"}]}]}"
        ),
        "MCG201",
        "an integer of 5,000 digits",
    ),
    "nested_100000_levels": (lambda: b'{"errata": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "MCG201", "nests deeper"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_errata_file_is_one_clear_line(case: str, tmp_path: Path, env: dict[str, str]) -> None:
    make, code, shown = MALFORMED[case]
    schema = _write(tmp_path / "s" / "schema.json", SCHEMA)
    (tmp_path / "errata.json").write_bytes(make())
    result = _generate(schema, tmp_path, env, "--errata", str(tmp_path / "errata.json"))
    line = _refused(result, code)
    assert shown in line, line
    support.record(f"errata: {case}", result)


@pytest.mark.parametrize("kind", ["link_to_dev_zero", "fifo"])
def test_an_errata_path_that_is_no_regular_file_is_never_read(kind: str, tmp_path: Path, env: dict[str, str]) -> None:
    schema = _write(tmp_path / "s" / "schema.json", SCHEMA)
    path = tmp_path / "errata.json"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    result = _generate(schema, tmp_path, env, "--errata", str(path))
    assert ("FIFO" if kind == "fifo" else "/dev/zero") in _refused(result, "MCG201", quoted=str(path))
    support.record(f"errata: {kind}", result)


def test_a_failed_test_of_a_large_value_is_one_short_line(tmp_path: Path, env: dict[str, str]) -> None:
    """A `test` of the whole document (62,000 characters) prints neither value whole."""
    large = {"$defs": {f"D{i}": {"type": "string", "description": "x" * 600} for i in range(100)}}
    schema = _write(tmp_path / "s" / "schema.json", large)
    patch = _write(
        tmp_path / "errata.json",
        _erratum(
            [{"op": "test", "path": "", "value": {"$defs": {}}}, {"op": "replace", "path": "", "value": {}}], "x" * 500
        ),
    )
    assert len(json.dumps(large)) > 60_000
    result = _generate(schema, tmp_path, env, "--errata", str(patch))
    line = _refused(result, "MCG202", "#")
    assert "upstream may have fixed it" in line, line
    support.record("errata: failed test of the whole schema", result)


def test_a_defs_path_applies_to_a_definitions_schema_and_a_missing_path_says_what_to_do(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """`#/$defs/...` against a draft-07 schema (`definitions`) is read in the schema's own spelling
    (issue 26: one errata file serves 2025-06-18 and 2025-11-25); a path neither spelling has is
    one line whose hint says how to scope the erratum, never that upstream fixed it."""
    schema = _write(tmp_path / "s" / "schema.json", {"definitions": {"A": {"type": "string", "description": "d"}}})
    patch = _write(
        tmp_path / "errata.json",
        _erratum(
            [
                {"op": "test", "path": "/$defs/A/description", "value": "d"},
                {"op": "replace", "path": "/$defs/A/description", "value": "e"},
            ]
        ),
    )
    result = _generate(schema, tmp_path, env, "--errata", str(patch))
    assert result.returncode == 0, result.stderr
    patch = _write(
        tmp_path / "errata.json",
        _erratum(
            [
                {"op": "test", "path": "/$defs/B/description", "value": "d"},
                {"op": "replace", "path": "/$defs/B/description", "value": "e"},
            ]
        ),
    )
    result = _generate(schema, tmp_path, env, "--errata", str(patch))
    line = _refused(result, "MCG202", "#/definitions/B/description")
    assert "has nothing at /definitions/B" in line and "`revisions`" in line and "upstream" not in line, line
    support.record("errata: a path the schema has in neither spelling", result)


def test_a_schema_nested_past_the_parser_is_refused_before_errata_copy_it(tmp_path: Path, env: dict[str, str]) -> None:
    """900 levels parse, but copying them for the errata recursed past Python's limit (MCG999)."""
    text = '{"$defs": {"A": ' + '{"items": ' * 900 + "{}" + "}" * 900 + "}}"
    schema = tmp_path / "deep" / "schema.json"
    schema.parent.mkdir()
    schema.write_text(text)
    for flags in ((), ("--errata", str(_write(tmp_path / "errata.json", _erratum([GUARD]))))):
        result = _generate(schema, tmp_path, env, *flags)
        support.assert_one_line_error(result, "MCG103", pointer="#/$defs/A/")
        support.assert_bounded(result)
    support.record("errata: a schema nested 900 levels", result)


def test_errata_are_applied_op_by_op_on_one_copy() -> None:
    document = {"a": 1, "o": {}}
    patch = (
        {"op": "test", "path": "/a", "value": 1},
        {"op": "replace", "path": "/a", "value": 2},
        {"op": "test", "path": "/o", "value": {}},
        {"op": "add", "path": "/o/k", "value": [1]},
        {"op": "copy", "from": "/o/k", "path": "/o/j"},
    )
    patched = errata.apply_errata(document, (errata.Erratum("e", "r", "u", patch),), "r1")
    assert patched == {"a": 2, "o": {"k": [1], "j": [1]}}
    assert document == {"a": 1, "o": {}}
    with pytest.raises(CodegenError) as caught:
        errata.apply_errata({"a": 1}, (errata.Erratum("e", "r", "u", patch),), "r1")
    assert caught.value.diagnostics[0].message == "erratum 'e' op #2 (`test`): this revision's schema has nothing at /o"


# -- nesting past what the engine or pydantic can recurse through --------------------------------


def _nest(levels: int, wrap: Callable[[Any], Any], leaf: Any) -> Any:
    node = leaf
    for _ in range(levels):
        node = wrap(node)
    return node


def _chain(levels: int, make: Callable[[str], Any], leaf: Any) -> Schema:
    """A_i = make(reference to A_{i+1}), and a leaf."""
    return {"$defs": {**{f"A{i}": make(f"#/$defs/A{i + 1}") for i in range(levels)}, f"A{levels}": leaf}}


STRING = {"type": "string"}
SHAPES: dict[str, Callable[[int], Schema]] = {
    "items": lambda n: _one(_nest(n, lambda x: {"type": "array", "items": x}, STRING)),
    "properties": lambda n: _one(_nest(n, lambda x: _object({"x": x}), STRING)),
    "anyof": lambda n: _one(_nest(n, lambda x: {"anyOf": [x, {"type": "null"}]}, STRING)),
    "additional_properties": lambda n: _one(_nest(n, lambda x: {"type": "object", "additionalProperties": x}, STRING)),
    "ref_chain_properties": lambda n: _chain(n, lambda ref: _object({"x": {"$ref": ref}}), STRING),
    "ref_chain_items": lambda n: _chain(n, lambda ref: {"type": "array", "items": {"$ref": ref}}, STRING),
    "ref_chain_anyof": lambda n: _chain(n, lambda ref: {"anyOf": [{"$ref": ref}, {"type": "null"}]}, STRING),
    "ref_chain_allof": lambda n: _chain(n, lambda ref: {"allOf": [{"$ref": ref}]}, {"type": "object"}),
    "ref_chain_bare": lambda n: _chain(n, lambda ref: {"$ref": ref}, STRING),
    "ref_chain_additional_properties": lambda n: _chain(
        n, lambda ref: {"type": "object", "additionalProperties": {"$ref": ref}}, STRING
    ),
    "ref_chain_nullable_properties": lambda n: _chain(
        n, lambda ref: _object({"x": {"anyOf": [{"$ref": ref}, {"type": "null"}]}}), STRING
    ),
}
DEEP = {f"{shape}_{levels}": (shape, levels) for shape in SHAPES for levels in (97, 190)}
DEEP["ref_chain_nullable_properties_20"] = ("ref_chain_nullable_properties", 20)  # found by building it


@pytest.mark.parametrize("case", sorted(DEEP))
def test_nesting_no_engine_or_import_survives_is_one_clear_line(case: str, tmp_path: Path, env: dict[str, str]) -> None:
    shape, levels = DEEP[case]
    schema = _write(tmp_path / case / "schema.json", SHAPES[shape](levels))
    result = _generate(schema, tmp_path, env, "--max-depth", "400")
    line = support.assert_one_line_error(result, "MCG103")
    assert "no setting goes deeper" in line, line
    support.assert_bounded(result, support.GENERATION)  # some are found by building
    support.record(f"depth: {case} (--max-depth 400)", result)


SHALLOW = {
    "items_60": ("items", 60),
    "anyof_60": ("anyof", 60),
    "ref_chain_properties_40": ("ref_chain_properties", 40),
    "ref_chain_bare_60": ("ref_chain_bare", 60),
    "ref_chain_nullable_properties_10": ("ref_chain_nullable_properties", 10),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(SHALLOW))
def test_nesting_below_the_ceilings_generates(case: str, tmp_path: Path, env: dict[str, str]) -> None:
    shape, levels = SHALLOW[case]
    result = _generate(
        _write(tmp_path / case / "schema.json", SHAPES[shape](levels)), tmp_path, env, "--max-depth", "400"
    )
    assert result.returncode == 0, result.stderr[-500:]
    support.assert_bounded(result)
    support.record(f"depth: {case} (--max-depth 400)", result)


def test_deep_allof_is_merged_not_recursed() -> None:
    """`allOf` members are merged into their parent: 190 levels of them are one type."""
    schema = _one(_nest(190, lambda x: {"allOf": [x]}, STRING))
    wellformed.check_type_depth(load.to_schema_doc(schema, "r", Limits(max_depth=400)).document, "r")


def _depth_error(document: Schema) -> str:
    with pytest.raises(CodegenError) as caught:
        wellformed.check_type_depth(load.to_schema_doc(document, "r", DEFAULT_LIMITS).document, "r")
    return caught.value.diagnostics[0].message


def test_a_loop_counts_once_per_schema_in_it() -> None:
    """A recursive model (a loop through a property) is as deep as its schemas, not infinite; a
    ring of definitions as long as its members."""
    ring = {f"A{i}": _object({"next": {"$ref": f"#/$defs/A{(i + 1) % 80}"}}) for i in range(80)}
    assert _depth_error({"$defs": ring}) == (
        f"types nest 160 levels deep along their references (a definition or class counts 2), over the limit of {TYPE_DEPTH_CEILING}"
    )
    small = {f"A{i}": _object({"next": {"$ref": f"#/$defs/A{(i + 1) % 10}"}}) for i in range(10)}
    wellformed.check_type_depth(load.to_schema_doc({"$defs": small}, "r", DEFAULT_LIMITS).document, "r")


def test_mcp_revisions_nest_under_half_the_ceilings(monkeypatch: pytest.MonkeyPatch) -> None:
    for revision in ("2024-11-05", "2025-11-25", "2026-07-28"):
        raw = json.loads((suite.SPEC / revision / "schema.json").read_text())
        document = load.to_schema_doc(
            errata.apply_errata(raw, errata.load_errata(revision), revision), revision, DEFAULT_LIMITS
        )
        monkeypatch.setattr(wellformed, "INLINE_DEPTH_CEILING", INLINE_DEPTH_CEILING // 2)
        monkeypatch.setattr(wellformed, "TYPE_DEPTH_CEILING", TYPE_DEPTH_CEILING // 2)
        wellformed.check_type_depth(document.document, revision)
        monkeypatch.undo()


def test_a_tool_schema_with_malformed_required_beside_a_ref_is_one_line(tmp_path: Path, env: dict[str, str]) -> None:
    """Found by a long fuzz run (random seed): `required: [[]]` beside a `$ref` reached the
    unenforced-keywords analysis, which flattens before the well-formedness check, and crashed
    (MCG999). Flattening keeps property names only; the check then says what is wrong."""
    listing = tmp_path / "tools.json"
    tools = [
        {"name": "0", "inputSchema": {"type": "object"}},
        {"name": "&", "inputSchema": {"title": "", "required": [[]], "$ref": "#/$defs/A"}},
    ]
    listing.write_text(json.dumps({"tools": tools}))
    out = tmp_path / "tools_pkg"
    result = support.run(["tools", "--from", str(listing), "--out", str(out), "--models", "mcp_models.v2026_07_28"], env=env)
    support.assert_one_line_error(result, "MCG112")
    support.assert_bounded(result)
    assert not out.exists()
    support.record("tools: malformed required beside a $ref (fuzz)", result)
