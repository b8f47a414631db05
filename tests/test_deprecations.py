"""Issue 38, part 2: what the spec's TypeScript source (schema.ts, pinned beside each schema.json)
deprecates, carried into the models.

- the reader (codegen/schema/tsdoc.py): JSDoc `@deprecated` on declarations and members, its
  refusals (MCG131: a schema.ts it cannot read; MCG132: a tag naming nothing in schema.json);
- the pins: schema.ts of the schema's commit, sha256-verified (MCG004) like the schema;
- what each revision carries: 21 tags at 2026-07-28 and the draft, none before; PEP 702 on classes
  (static only), `Field(deprecated=...)` on fields (a warning when read as an attribute, `deprecated`
  in the JSON Schema), the text in docstrings;
- reading and writing stay exact: parsing and dumping a message that holds deprecated things
  neither changes it nor warns;
- the typing files (tests/typing/deprecated_*.py) under both checkers;
- `diff` lists what a revision newly deprecates, informational, with the spec's words.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegen.diff import diff
from codegen.emit.pipeline import build_revision
from codegen.errors import CodegenError
from codegen.limits import DEFAULT_LIMITS
from codegen.schema import spec, tsdoc

from . import suite
from .conftest import REPO
from .typing_checkers import TYPING, expected_errors, mypy_errors, pyright_errors

SEP_2577 = (
    "Deprecated as of protocol version 2026-07-28 (SEP-2577). Remains in the specification for at least "
    "twelve months; see the deprecated features registry."
)
# the 21 tags of schema/2026-07-28/schema.ts (and the draft's), by where they land in schema.json
DEFINITIONS = {
    "CreateMessageRequest", "CreateMessageRequestParams", "CreateMessageResult", "ListRootsRequest",
    "ListRootsResult", "LoggingLevel", "LoggingMessageNotification", "LoggingMessageNotificationParams",
    "ModelHint", "ModelPreferences", "Root", "SamplingMessage", "SamplingMessageContentBlock", "ToolChoice",
    "ToolResultContent", "ToolUseContent",
}  # fmt: skip
FIELDS = {
    ("ClientCapabilities", "roots"), ("ClientCapabilities", "sampling"), ("ServerCapabilities", "logging"),
    ("CreateMessageRequestParams", "includeContext"), ("RequestMetaObject", "io.modelcontextprotocol/logLevel"),
}  # fmt: skip
ALIASES = {"LoggingLevel", "SamplingMessageContentBlock"}  # type aliases: no PEP 702, the docstring says it


def _source(text: str) -> tsdoc.Source:
    return tsdoc.read(text.encode(), "test")


def _refused(text: str | bytes) -> str:
    with pytest.raises(CodegenError) as caught:
        tsdoc.read(text if isinstance(text, bytes) else text.encode(), "test")
    (diagnostic,) = caught.value.diagnostics
    return f"{diagnostic.code}: {diagnostic.message}"


# -- the reader -------------------------------------------------------------------------------------------

READER_SAMPLE = """
/* Plain comment: no tag here. @deprecated is not JSDoc */
export const LATEST = "2026-07-28"; // a { in a comment
/**
 * A thing.
 *
 * @deprecated Use {@link Other | the other thing} instead,
 * as of 2099 (SEP-1).
 *
 * @category things
 */
export interface Thing extends Base, Generic<string, number> {
  /**
   * A key with a slash.
   * @deprecated Gone soon.
   */
  "io.x/level"?: string;
  /** @deprecated */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  empty?: {};
  kept: "a { b" | `c } d`;
  nested: {
    /** @deprecated Inner. */
    inner?: number;
    [key: string]: unknown;
  };
}

/** Not deprecated, though its member is below. */
export interface Base {
  /** @deprecated From the base. */
  shared?: string;
  /**
   * @deprecated Declared again in Thing? No: Thing inherits it.
   */
  other?: string;
}

/**
 * @deprecated A union.
 */
export type Choice = "a" | "b";

/** @deprecated Orphaned: a brace follows, not a declaration. */
{
}
"""


def test_the_reader_finds_each_tag_on_the_declaration_after_it() -> None:
    source = _source(READER_SAMPLE)
    tags = {tag.path: tag.message for tag in source.tags}
    assert tags == {
        ("Thing",): "Use the other thing instead, as of 2099 (SEP-1).",
        ("Thing", "io.x/level"): "Gone soon.",
        ("Thing", "empty"): tsdoc.DEFAULT_MESSAGE,
        ("Thing", "nested", "inner"): "Inner.",
        ("Base", "shared"): "From the base.",
        ("Base", "other"): "Declared again in Thing? No: Thing inherits it.",
        ("Choice",): "A union.",
    }
    assert [tag.line for tag in source.tags][:2] == [4, 13]
    assert source.bases["Thing"] == ("Base", "Generic")
    assert source.members["Thing"] == {"io.x/level", "empty", "kept", "nested"}


def test_tags_land_on_definitions_properties_inherited_copies_and_loose_keys() -> None:
    defs = {
        "Thing": {"type": "object", "properties": {
            "io.x/level": {"type": "string"}, "empty": {"type": "object"}, "kept": {"type": "string"},
            "nested": {"type": "object", "properties": {"inner": {"type": "number"}}},
            "shared": {"type": "string"},  # flattened from Base, as schema.json writes `extends`
        }},
        "Base": {"type": "object", "properties": {"shared": {"type": "string"}}},  # no `other`
        "Choice": {"enum": ["a", "b"]},
    }  # fmt: skip
    placed = tsdoc.place(_source(READER_SAMPLE), defs, "test")
    assert set(placed.at) == {
        "#/$defs/Thing",
        "#/$defs/Thing/properties/io.x~1level",
        "#/$defs/Thing/properties/empty",
        "#/$defs/Thing/properties/nested/properties/inner",
        "#/$defs/Base/properties/shared",
        "#/$defs/Thing/properties/shared",
        "#/$defs/Choice",
    }
    # a key neither Base nor Thing declares as a property: kept on its owners, for their docstrings
    assert placed.loose == (
        ("#/$defs/Base", "other", "Declared again in Thing? No: Thing inherits it."),
        ("#/$defs/Thing", "other", "Declared again in Thing? No: Thing inherits it."),
    )
    assert placed.count == 9


def test_a_member_an_interface_declares_again_keeps_its_own_tag() -> None:
    source = _source(
        "export interface A { /** @deprecated old */ x?: string; }\n"
        "export interface B extends A { x?: string; }\n"
    )
    defs = {name: {"type": "object", "properties": {"x": {"type": "string"}}} for name in ("A", "B")}
    assert set(tsdoc.place(source, defs, "test").at) == {"#/$defs/A/properties/x"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/** @deprecated x */\nexport interface A {", "MCG131: schema.ts line 2: a `{` is never closed"),
        ("export interface A {}\n}", "MCG131: schema.ts line 2: a `}` closes nothing"),
        ("/** @deprecated x\nexport interface A {}", "MCG131: schema.ts line 1: a comment is never closed"),
        ('export type A = "a\n;', "MCG131: schema.ts line 1: a string literal is never closed"),
        ("export type A = {" * 65 + "}" * 65, "MCG131: schema.ts line 1: braces nest deeper than 64"),
        (b"export type A = '\xff';", "MCG131: schema.ts is not UTF-8 text (invalid start byte at byte 17)"),
    ],
    ids=["unclosed-brace", "stray-brace", "unclosed-comment", "unclosed-string", "too-deep", "not-utf8"],
)
def test_a_schema_ts_that_cannot_be_read_is_one_line_with_a_code(text: str | bytes, expected: str) -> None:
    assert _refused(text) == expected


def test_a_tag_on_a_name_schema_json_does_not_define_is_refused() -> None:
    source = _source("\n/** @deprecated gone */\nexport interface Ghost {}\n")
    with pytest.raises(CodegenError) as caught:
        tsdoc.place(source, {"Other": {"type": "object"}}, "test")
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.code == "MCG132"
    assert diagnostic.message == "schema.ts line 2: @deprecated on `Ghost`, which schema.json does not define"


# pieces a schema.ts is made of, shuffled into any order: the reader names declarations or refuses
# with MCG131, never a traceback, whatever the text
_PIECES = st.sampled_from([
    "/**", "*/", " * @deprecated x\n", "/*", "//", "\n", "{", "}", '"', "'", "`", "\\", "export ",
    "interface ", "type ", "A", "b?: ", "'k'?:", ";", "=", "|", "extends B ", "<T>", " ", "\xff", "é",
])  # fmt: skip


@settings(max_examples=suite.examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(pieces=st.lists(_PIECES, max_size=40))
def test_the_reader_reads_or_refuses_any_text(pieces: list[str]) -> None:
    text = "".join(pieces)
    try:
        source = tsdoc.read(text.encode("utf-8", "surrogatepass"), "test")
    except CodegenError as exc:
        assert [d.code for d in exc.diagnostics] == ["MCG131"]
        return
    assert all(tag.path and tag.message for tag in source.tags)
    with pytest.raises(CodegenError) if source.tags else contextlib.nullcontext():
        tsdoc.place(source, {}, "test")  # every tag names something schema.json must define


# -- the pins ---------------------------------------------------------------------------------------------


def test_every_revision_pins_its_schema_ts_from_the_schemas_commit() -> None:
    sources = {entry["revision"]: entry for entry in json.loads((REPO / "spec" / "SOURCES.json").read_text())}
    for pin in spec.load_manifest():
        data = spec.fetch_ts(pin, None)
        assert data is not None and hashlib.sha256(data).hexdigest() == pin.ts_sha256, pin.revision
        assert pin.ts_path == f"schema/{pin.revision}/schema.ts"
        entry = sources[pin.revision]
        assert (entry["spec_commit"], entry["ts_path_in_spec_repo"], entry["ts_sha256"]) == (
            pin.commit, pin.ts_path, pin.ts_sha256,
        )  # fmt: skip


def test_a_schema_ts_that_does_not_match_its_pin_is_refused(tmp_path: Path) -> None:
    (tmp_path / "2026-07-28").mkdir()
    (tmp_path / "2026-07-28" / "schema.ts").write_bytes(b"export interface X {}\n")
    with pytest.raises(CodegenError) as caught:
        spec.fetch_ts(spec.find_pin("2026-07-28"), str(tmp_path))
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.code == "MCG004" and "schema.ts" in diagnostic.message


def test_a_mirror_without_the_pinned_schema_ts_falls_back_to_the_shipped_copy_never_the_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin = spec.find_pin("2026-07-28")
    monkeypatch.setattr(spec, "_download", lambda *args: pytest.fail("no download from a mirror folder"))
    assert spec.fetch_ts(pin, str(tmp_path)) == (REPO / "spec" / "2026-07-28" / "schema.ts").read_bytes()
    monkeypatch.setattr(spec, "spec_dir", lambda: tmp_path / "nothing-shipped")
    monkeypatch.setenv(spec.CACHE_ENV, str(tmp_path / "empty-cache"))
    with pytest.raises(CodegenError) as caught:
        spec.fetch_ts(pin, str(tmp_path))
    assert "schema.ts" in caught.value.diagnostics[0].one_line()


def test_spec_bump_reads_the_schema_ts_beside_the_mirrors_schema(tmp_path: Path) -> None:
    pin = spec.find_pin("draft")
    (tmp_path / "draft").mkdir()
    assert spec.read_unpinned_ts("draft", str(tmp_path), pin, "c" * 40) is None
    (tmp_path / "draft" / "schema.ts").write_bytes(b"export type A = string;\n")
    assert spec.read_unpinned_ts("draft", str(tmp_path), pin, "c" * 40) == b"export type A = string;\n"


def test_bump_pins_the_commits_schema_ts_and_a_commit_without_one_pins_none(tmp_path: Path) -> None:
    pins_file = tmp_path / "pins" / "pins.toml"
    try:
        _, pinned = spec.bump("draft", "a" * 40, b'{"$defs": {}}', pins_file, b"export interface A {}\n")
        assert pinned.ts_sha256 == hashlib.sha256(b"export interface A {}\n").hexdigest()
        assert spec.fetch_ts(pinned, None) == b"export interface A {}\n"
        _, bare = spec.bump("draft", "b" * 40, b'{"$defs": {}}', pins_file)
        # the shipped schema.ts is another commit's: not inherited, and the project's copy is gone
        assert bare.ts_sha256 is None and spec.fetch_ts(bare, None) is None
        assert "ts_sha256" not in pins_file.read_text() and not (pins_file.parent / "draft" / "schema.ts").exists()
    finally:
        spec.use_project_pins(None)


# -- what each revision carries ---------------------------------------------------------------------------


def _placed(revision: str) -> tsdoc.Deprecations:
    pin = spec.find_pin(revision)
    data = spec.fetch_ts(pin, None)
    assert data is not None
    document = json.loads(spec.fetch(pin, None).data)
    defs = document.get("$defs") or document["definitions"]  # draft-07 revisions keep `definitions`
    return tsdoc.place(tsdoc.read(data, revision), defs, revision)


@pytest.mark.parametrize(
    ("revision", "count"),
    [("2024-11-05", 0), ("2025-03-26", 0), ("2025-06-18", 0), ("2025-11-25", 0), ("2026-07-28", 21), ("draft", 21)],
)
def test_the_tags_each_revision_carries(revision: str, count: int) -> None:
    placed = _placed(revision)
    assert placed.count == count and placed.loose == ()
    if count:
        definitions = {p.split("/")[2] for p in placed.at if "/properties/" not in p}
        fields = {(p.split("/")[2], p.split("/")[-1].replace("~1", "/")) for p in placed.at if "/properties/" in p}
        assert (definitions, fields) == (DEFINITIONS, FIELDS)
        assert sum(text == SEP_2577 for text in placed.at.values()) == 20  # includeContext's is SEP-2596's


def _deprecated_classes(package: str) -> set[str]:
    import importlib

    models = importlib.import_module(f"mcp_models.{package}.models")
    return {name for name in models.__all__ if isinstance(cls := getattr(models, name), type) and hasattr(cls, "__deprecated__")}


def test_pep_702_on_each_deprecated_class_and_the_inline_objects_of_deprecated_places() -> None:
    hoisted = {"ClientCapabilitiesSampling", "ListRootsRequestParams"}  # sampling's object; roots/list's params
    for package in ("v2026_07_28", "draft"):
        assert _deprecated_classes(package) == (DEFINITIONS - ALIASES) | hoisted
    for package in ("v2024_11_05", "v2025_03_26", "v2025_06_18", "v2025_11_25", "surface"):
        assert _deprecated_classes(package) == set(), package


def test_the_packages_own_uses_are_not_reported_and_only_where_something_is_deprecated() -> None:
    """Every module of a package that deprecates something (and latest.py, which re-exports one)
    tells both checkers that its own references to those classes are not uses."""
    settings = '# pyright: reportDeprecated=false\n# mypy: disable-error-code="deprecated"\n'
    root = REPO / "generated" / "mcp_models"
    for package in ("v2026_07_28", "draft"):
        modules = sorted((root / package).rglob("*.py"))
        assert modules and all(settings in path.read_text() for path in modules), package
    assert settings in (root / "latest.py").read_text()
    for package in ("v2024_11_05", "v2025_03_26", "v2025_06_18", "v2025_11_25", "surface"):
        assert not [path for path in (root / package).rglob("*.py") if "reportDeprecated" in path.read_text()], package


def test_the_text_is_in_the_docstrings_of_classes_aliases_and_fields() -> None:
    source = (REPO / "generated" / "mcp_models" / "v2026_07_28" / "models.py").read_text()
    from mcp_models.v2026_07_28 import models

    assert models.LoggingMessageNotification.__deprecated__ == SEP_2577
    assert "Deprecated as of protocol version 2026-07-28 (SEP-2577)." in (models.Root.__doc__ or "")
    # an alias cannot carry PEP 702: its docstring (below it in the module) says it
    alias = source[source.index("LoggingLevel = TypeAliasType(") :]
    assert "Deprecated as of protocol version 2026-07-28" in alias[: alias.index("\n\n\n")]
    field = source[source.index("    logging: JSONObject | MISSING = Field(") :]
    assert "Deprecated as of protocol version 2026-07-28" in field[: field.index('    """\n    ', 200) + 400]


def test_a_tag_on_a_key_with_no_property_is_in_the_owning_class_docstring() -> None:
    schema = {"$defs": {"Meta": {"type": "object", "properties": {"a": {"type": "string"}}}}}
    ts = b"export interface Meta {\n  a?: string;\n  /** @deprecated Use a. */\n  'x/b'?: string;\n}\n"
    data = json.dumps(schema).encode()
    built = build_revision(
        "tiny", "tiny", data, hashlib.sha256(data).hexdigest(), limits=DEFAULT_LIMITS, use_errata=False, ts=ts
    )
    models = built.files["models.py"]
    assert "Deprecated key `x/b`: Use a." in models
    assert "@deprecated(" not in models and "deprecated=" not in models  # nothing else is deprecated


# -- reading and writing stay exact -----------------------------------------------------------------------

MESSAGES = {
    # a request whose _meta holds the deprecated capabilities and log level
    "request": {
        "jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"_meta": {
            "io.modelcontextprotocol/clientCapabilities": {"roots": {}, "sampling": {"tools": {}}},
            "io.modelcontextprotocol/logLevel": "info",
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        }},
    },
    "notification": {
        "jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "error", "logger": "db", "data": {"error": "refused"}},
    },
}  # fmt: skip


@pytest.mark.parametrize("package", ["v2026_07_28", "draft"])
@pytest.mark.parametrize("kind", sorted(MESSAGES))
def test_a_message_with_deprecated_parts_reads_and_writes_exactly_and_silently(package: str, kind: str) -> None:
    import importlib

    revision = importlib.import_module(f"mcp_models.{package}")
    wire = MESSAGES[kind]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        message = revision.parse_message(json.dumps(wire))
        assert message.model_dump(mode="json", by_alias=True) == wire
        assert json.loads(message.model_dump_json(by_alias=True)) == wire
        assert type(message).model_validate_json(message.model_dump_json(by_alias=True)) == message
        repr(message)
        revision.history.foreign_keys(message)


def test_reading_a_deprecated_field_as_an_attribute_warns_with_the_spec_text() -> None:
    from mcp_models.v2026_07_28 import ClientCapabilities, CreateMessageRequestParams

    capabilities = ClientCapabilities.model_validate({"roots": {}, "elicitation": {}})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert capabilities.roots == {}
        assert capabilities.elicitation is not None  # not deprecated: no warning
    assert [(w.category, str(w.message)) for w in caught] == [(DeprecationWarning, SEP_2577)]
    schema = ClientCapabilities.model_json_schema()["properties"]
    assert schema["roots"]["deprecated"] is True and "deprecated" not in schema["elicitation"]
    params = CreateMessageRequestParams.model_json_schema()["properties"]
    assert params["includeContext"]["deprecated"] is True


def test_building_a_deprecated_class_does_not_warn_at_run_time() -> None:
    from mcp_models.v2026_07_28 import LoggingMessageNotification, LoggingMessageNotificationParams

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # PEP 702 with category=None: for the type checkers only
        built = LoggingMessageNotification(params=LoggingMessageNotificationParams(level="info", data=1))
    assert built.model_dump(mode="json")["method"] == "notifications/message"


# -- the type checkers ------------------------------------------------------------------------------------

CHECKERS = [mypy_errors, pyright_errors]


@pytest.mark.parametrize("checker", CHECKERS, ids=["mypy", "pyright"])
def test_both_checkers_report_each_deprecated_use_and_nothing_else(checker: Callable[[Path], set[int]]) -> None:
    path = TYPING / "deprecated_misuse.py"
    expected = expected_errors(path)
    assert len(expected) == 4
    assert checker(path) == expected


@pytest.mark.parametrize("checker", CHECKERS, ids=["mypy", "pyright"])
def test_both_checkers_pass_code_that_uses_nothing_deprecated(checker: Callable[[Path], set[int]]) -> None:
    assert checker(TYPING / "deprecated_ok.py") == set()


# -- diff -------------------------------------------------------------------------------------------------


def test_diff_lists_each_newly_deprecated_item_with_the_spec_words() -> None:
    report = diff("2025-11-25", "2026-07-28", python_api=False)
    listed = {(c.subject, c.path): c for c in report.changes if c.kind == "deprecated"}
    assert set(listed) == {(name, ()) for name in DEFINITIONS} | {(name, (key,)) for name, key in FIELDS}
    assert {c.severity for c in listed.values()} == {"informational"}
    assert listed[("Root", ())].summary == SEP_2577
    assert listed[("CreateMessageRequestParams", ("includeContext",))].summary.startswith(
        'deprecated: The `"thisServer"` and `"allServers"` values are deprecated as of protocol version 2025-11-25'
    )
    # the same tags on both sides: nothing new; back again: each one no longer deprecated
    assert not [c for c in diff("2026-07-28", "draft", python_api=False).changes if "deprecated" in c.kind]
    back = diff("2026-07-28", "2025-11-25", python_api=False)
    assert len([c for c in back.changes if c.kind == "undeprecated"]) == 20  # RequestMetaObject is gone there


def test_a_side_without_schema_ts_lists_no_deprecation_changes_either_way(tmp_path: Path) -> None:
    schema = json.loads((REPO / "spec" / "2026-07-28" / "schema.json").read_text())
    schema["$defs"]["Extra"] = {"type": "object", "properties": {}}
    path = tmp_path / "mine" / "schema.json"
    path.parent.mkdir()
    path.write_text(json.dumps(schema))
    for old, new in (("2025-11-25", str(path)), (str(path), "2026-07-28"), ("2026-07-28", str(path))):
        report = diff(old, new, python_api=False)
        assert not [c for c in report.changes if "deprecated" in c.kind], (old, new)
