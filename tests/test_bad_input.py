"""The bad-input corpus: every hostile or broken input is one clear error, at bounded cost, and
nothing in the output is lost.

Each error case runs `mcp-codegen generate` as a real process into an output folder that already
holds a generated tree — a copy of the committed generated/mcp_models, or a vendored package
(`--package acme._mcp`), alternately — and asserts: exit 2, exactly one line on stderr with the
error code, the revision, the JSON pointer and a hint, no traceback, at most 2 s and 500 MB for the
process, and both trees byte-identical afterwards (hashed), with no staging folder left behind.

tests/cases/bad_input/<case>/schema.json holds the small cases and expected.txt their exact line
(refresh with UPDATE_EXPECTED=1 and review the diff); `ok_*` cases are valid input, for which the
models are asserted instead. Huge inputs are written at test time. I/O faults (unwritable folders,
a full disk, signals, concurrent runs) are in tests/test_bad_input_faults.py.
"""

from __future__ import annotations

import http.server
import importlib
import json
import os
import shutil
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from codegen import generate_schema
from codegen.output.tree import read_tree

from . import bad_input_support as support
from .conftest import GENERATED, SPEC

CASES = Path(__file__).parent / "cases" / "bad_input"
UPDATE = os.environ.get("UPDATE_EXPECTED") == "1"
ALL = sorted(p.name for p in CASES.iterdir() if (p / "schema.json").is_file())
ERRORS = [c for c in ALL if not c.startswith("ok_")]
VALID = [c for c in ALL if c.startswith("ok_")]


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("schema-cache")


@pytest.fixture(scope="session")
def targets(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path) -> dict[str, Path]:
    """Output folders holding real trees: a copy of generated/mcp_models and a vendored package."""
    root = tmp_path_factory.mktemp("targets")
    generated = root / "generated" / "mcp_models"
    shutil.copytree(GENERATED / "mcp_models", generated, ignore=shutil.ignore_patterns("__pycache__"))
    vendored = root / "vendor" / "src" / "acme" / "_mcp"
    shutil.copytree(support.vendored_acme(tmp_path_factory), vendored, ignore=shutil.ignore_patterns("__pycache__"))
    return {"generated": generated, "vendored": vendored}


@pytest.fixture
def unchanged(targets: dict[str, Path]) -> Iterator[None]:
    """Both trees hashed before the test and again after it: they must be byte-identical."""
    before = {name: support.tree_digest(path) for name, path in targets.items()}
    yield
    for name, path in targets.items():
        assert support.tree_digest(path) == before[name], f"the {name} tree changed"
        assert support.leftovers(path) == [], support.leftovers(path)


def _generate(schema: Path, out: Path, cache: Path, *extra: str, cwd: Path | None = None) -> support.Run:
    return support.run(
        ["generate", "--schema", str(schema), "--out", str(out), *extra], env=support.cli_env(cache), cwd=cwd
    )


@pytest.mark.parametrize("case", ERRORS)
def test_bad_schema_is_one_clear_error(case: str, targets: dict[str, Path], cache_dir: Path, unchanged: None) -> None:
    out = targets["generated" if ERRORS.index(case) % 2 == 0 else "vendored"]
    result = _generate(CASES / case / "schema.json", out, cache_dir)
    line = support.assert_one_line_error(result, result.code or "MCG???", revision=case, pointer="#")
    support.assert_bounded(result)
    expected = CASES / case / "expected.txt"
    if UPDATE:
        expected.write_text(line + "\n", encoding="utf-8")
    assert line == expected.read_text(encoding="utf-8").strip()
    support.record(case, result)


# -- huge inputs, written at test time ------------------------------------------------------------


def _deep(levels: int) -> str:
    return '{"$defs": {"A": ' + '{"type": "object", "properties": {"x": ' * levels + "{}" + "}}" * levels + "}}"


HUGE = {
    # name: (text, error code, pointer)
    "nesting_10000_levels": (lambda: _deep(10_000), "MCG103", "#"),
    "nesting_100_levels": (lambda: _deep(100), "MCG103", "#/$defs/A" + "/properties/x" * 31),
    "definitions_50000": (
        lambda: json.dumps(
            {"$defs": {f"D{i}": {"type": "object", "properties": {"a": {"type": "string"}}} for i in range(50_000)}}
        ),
        "MCG107",
        "#/$defs",
    ),
    "description_10_mb": (
        lambda: json.dumps({"$defs": {"A": {"type": "string", "description": "x" * (10 * 1024 * 1024)}}}),
        "MCG101",
        "#",
    ),
    "anyof_100000_arms": (
        lambda: json.dumps({"$defs": {"A": {"anyOf": [{"type": "object"}] * 100_000}}}),
        "MCG109",
        "#/$defs/A/anyOf/",
    ),
    # in-place references nest like containers (the engine recurses); 999 links stay within the
    # default max-members (1,999 are refused by the member count first, MCG123)
    "allof_chain_of_999_definitions": (
        lambda: json.dumps(
            {
                "$defs": {
                    **{f"A{i}": {"allOf": [{"$ref": f"#/$defs/A{i + 1}"}]} for i in range(999)},
                    "A999": {"type": "object"},
                }
            }
        ),
        "MCG103",
        "#/$defs/A0",
    ),
}


@pytest.mark.parametrize("case", sorted(HUGE))
def test_huge_input_is_refused_within_bounds(
    case: str, tmp_path: Path, targets: dict[str, Path], cache_dir: Path, unchanged: None
) -> None:
    make, code, pointer = HUGE[case]
    schema = tmp_path / case / "schema.json"
    schema.parent.mkdir()
    schema.write_text(make(), encoding="utf-8")
    result = _generate(schema, targets["generated"], cache_dir)
    support.assert_one_line_error(result, code, revision=case, pointer=pointer)
    support.assert_bounded(result)
    support.record(case, result)


class _Recorder(http.server.BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        type(self).requests.append(self.path)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b'{"type": "string"}')

    def log_message(self, *args: Any) -> None:
        pass


def test_a_remote_ref_is_never_fetched(
    tmp_path: Path, targets: dict[str, Path], cache_dir: Path, unchanged: None
) -> None:
    """SSRF: a server that answers every request sees none."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/internal/schema.json"
        schema = tmp_path / "remote_ref_to_a_listening_server" / "schema.json"
        schema.parent.mkdir()
        schema.write_text(json.dumps({"$defs": {"A": {"type": "object", "properties": {"b": {"$ref": url}}}}}))
        result = _generate(schema, targets["vendored"], cache_dir)
    finally:
        server.shutdown()
        thread.join()
    support.assert_one_line_error(
        result, "MCG111", revision="remote_ref_to_a_listening_server", pointer="#/$defs/A/properties/b/$ref"
    )
    assert _Recorder.requests == []
    support.record("remote_ref_to_a_listening_server", result, "no request reached the server")


# -- pinned revisions --------------------------------------------------------------------------


def test_sha256_mismatch(tmp_path: Path, targets: dict[str, Path], cache_dir: Path, unchanged: None) -> None:
    mirror = tmp_path / "mirror"
    (mirror / "draft").mkdir(parents=True)
    original = (SPEC / "draft" / "schema.json").read_bytes()
    (mirror / "draft" / "schema.json").write_bytes(original.replace(b'"Tool"', b'"Tool "', 1))
    result = support.run(
        ["generate", "-r", "draft", "--spec-source", str(mirror), "--out", str(targets["generated"]), "--no-cache"],
        env=support.cli_env(cache_dir),
    )
    line = support.assert_one_line_error(result, "MCG004", revision="draft", pointer="#")
    assert "sha256 mismatch" in line
    support.assert_bounded(result)
    support.record("sha256_mismatch", result)


def test_unknown_revision(targets: dict[str, Path], cache_dir: Path, unchanged: None) -> None:
    result = support.run(
        ["generate", "-r", "2099-01-01", "--out", str(targets["vendored"])], env=support.cli_env(cache_dir)
    )
    line = support.assert_one_line_error(result, "MCG002", revision="2099-01-01")
    assert "2026-07-28" in line  # the hint lists the pinned revisions
    support.assert_bounded(result)
    support.record("unknown_revision", result)


# -- limits are settings: flags and config ----------------------------------------------------


THREE_DEFINITIONS = {"$defs": {name: {"type": "object", "properties": {"a": {"type": "string"}}} for name in "ABC"}}


def test_limits_from_the_command_line(
    tmp_path: Path, targets: dict[str, Path], cache_dir: Path, unchanged: None
) -> None:
    schema = tmp_path / "three" / "schema.json"
    schema.parent.mkdir()
    schema.write_text(json.dumps(THREE_DEFINITIONS))
    result = _generate(schema, targets["generated"], cache_dir, "--max-definitions", "2")
    line = support.assert_one_line_error(result, "MCG107", revision="three", pointer="#/$defs")
    assert "over the limit of 2" in line and "--max-definitions" in line
    support.record("limit_from_flag", result)
    deep = _generate(schema, targets["generated"], cache_dir, "--max-depth", "3")
    support.assert_one_line_error(deep, "MCG103", revision="three", pointer="#/$defs/A/properties")  # the first
    bad = _generate(schema, targets["generated"], cache_dir, "--max-depth", "0")
    assert bad.code == "MCG010" and bad.returncode == 2 and len(bad.lines) == 1 and "--max-depth" in bad.stderr
    support.record("limit_value_invalid", bad)
    past_ceiling = _generate(schema, targets["generated"], cache_dir, "--max-depth", "401")
    assert (
        past_ceiling.code == "MCG010"
        and len(past_ceiling.lines) == 1
        and "less than or equal to 400" in past_ceiling.stderr
    )
    allowed = _generate(schema, tmp_path / "three_pkg", cache_dir, "--max-definitions", "3", "--max-depth", "5")
    assert allowed.returncode == 0, allowed.stderr


def test_limits_from_the_config_file(
    tmp_path: Path, targets: dict[str, Path], cache_dir: Path, unchanged: None
) -> None:
    schema = tmp_path / "three" / "schema.json"
    schema.parent.mkdir()
    schema.write_text(json.dumps(THREE_DEFINITIONS))
    (tmp_path / "pyproject.toml").write_text("[tool.mcp-codegen]\nmax-definitions = 2\nmax-subschemas = 100\n")
    result = _generate(schema, targets["vendored"], cache_dir, cwd=tmp_path)
    support.assert_one_line_error(result, "MCG107", revision="three", pointer="#/$defs")
    support.record("limit_from_config", result)
    overridden = _generate(schema, tmp_path / "three_pkg", cache_dir, "--max-definitions", "3", cwd=tmp_path)
    assert overridden.returncode == 0, overridden.stderr  # the flag wins over the file
    (tmp_path / "pyproject.toml").write_text("[tool.mcp-codegen]\nmax-subschemas = -5\n")
    bad = _generate(schema, targets["vendored"], cache_dir, cwd=tmp_path)
    assert bad.code == "MCG010" and bad.returncode == 2 and len(bad.lines) == 1 and "max-subschemas" in bad.stderr


# -- valid inputs: success, exact models, and the previous tree replaced as a whole -------------


@pytest.fixture(scope="session")
def previous_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated package (from another schema) that each valid case's output folder starts with."""
    return support.unions_package(tmp_path_factory)


@pytest.mark.parametrize("case", VALID)
def test_valid_input_generates_exact_models(
    case: str, tmp_path: Path, previous_tree: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = f"bad_input_{case}"
    out = tmp_path / "cli" / package
    shutil.copytree(previous_tree, out, ignore=shutil.ignore_patterns("__pycache__"))
    result = _generate(CASES / case / "schema.json", out, cache_dir)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    support.assert_bounded(result, support.GENERATION)  # a whole generation
    assert (CASES / case / "expected.txt").read_text(encoding="utf-8").strip() == "ok"
    # the previous tree is gone as a whole: out holds exactly what a fresh generation holds
    fresh = tmp_path / "fresh" / package
    generate_schema(CASES / case / "schema.json", out=fresh)
    assert read_tree(out) == read_tree(fresh)
    assert support.leftovers(out) == []
    monkeypatch.syspath_prepend(str(out.parent))
    models = importlib.import_module(package)
    try:
        CHECKS[case](models)
    finally:
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]
    support.record(case, result, "valid: exit 0, models asserted")


def _round_trip(model: Any, payload: dict[str, Any]) -> Any:
    instance = model.model_validate(payload)
    assert instance.model_dump(mode="json") == payload
    assert model.model_validate_json(json.dumps(payload)).model_dump(mode="json") == payload
    return instance


def _check_attributes(model: Any, expected: dict[str, str]) -> None:
    """wire name -> attribute name, and every wire name round-trips."""
    assert {name if f.alias is None else f.alias: name for name, f in model.model_fields.items()} == expected
    instance = _round_trip(model, {wire: f"<{wire}>" for wire in expected})
    for wire, attribute in expected.items():
        assert getattr(instance, attribute) == f"<{wire}>"


def _keywords(models: Any) -> None:
    _check_attributes(
        models.Keywords,
        {"class": "class_", "def": "def_", "from": "from_", "import": "import_", "lambda": "lambda_", "None": "none",
         "True": "true", "async": "async_", "await": "await_", "match": "match", "type": "type", "print": "print"},
    )  # fmt: skip


def _dunders(models: Any) -> None:
    _check_attributes(
        models.Dunders,
        {
            "__init__": "init",
            "__class__": "class_",
            "__dict__": "dict_",
            "__version__": "version",
            "_private": "private",
        },
    )
    instance = models.Dunders.model_validate({"__class__": "x"})
    assert type(instance) is models.Dunders  # __class__ was not shadowed


def _basemodel_attributes(models: Any) -> None:
    _check_attributes(
        models.Attrs,
        {"model_config": "model_config_", "model_fields": "model_fields_", "model_dump": "field_model_dump",
         "model_validate": "field_model_validate", "model_extra": "model_extra_", "dict": "dict_", "json": "json_",
         "copy": "copy_", "schema": "schema_", "validate": "validate_", "construct": "construct_", "fields": "fields"},
    )  # fmt: skip
    instance = models.Attrs.model_validate({"model_dump": "shadow?"})
    assert instance.model_dump(mode="json") == {"model_dump": "shadow?"}  # the methods still work


def _non_identifiers(models: Any) -> None:
    _check_attributes(
        models.Odd,
        {"kebab-case": "kebab_case", "1st": "field_1st", "dotted.name": "dotted_name", "$ref": "ref", "@type": "type",
         "slash/name": "slash_name", "tilde~name": "tilde_name", 'quote"d': "quote_d", "back\\slash": "back_slash",
         "new\nline": "new_line", "with space": "with_space"},
    )  # fmt: skip


def _non_ascii(models: Any) -> None:
    model = getattr(models, "Größe")  # exported under its spec name
    _check_attributes(model, {"ünïcödé": "unicode", "名前": "field", "ＡＢＣ": "abc"})


def _empty_name(models: Any) -> None:
    _check_attributes(models.Blank, {"": "field", "b": "b"})
    with pytest.raises(ValidationError):
        models.Blank.model_validate({"b": "required key '' is missing"})


def _enum_mixing_types(models: Any) -> None:
    for value in ("a", 2, True, None):
        assert _round_trip(models.Holder, {"value": value}).value == value
    for wrong in ("b", 3, False, 2.5, [2], {"a": 1}, "2"):
        with pytest.raises(ValidationError):
            models.Holder.model_validate({"value": wrong})


def _const_every_literal_type(models: Any) -> None:
    good = {"s": "x", "i": 7, "b": False, "n": None}
    _round_trip(models.Consts, good)
    for key, wrong in (("s", "y"), ("i", 8), ("i", "7"), ("b", True), ("b", "false"), ("n", 0), ("n", "")):
        with pytest.raises(ValidationError):
            models.Consts.model_validate({**good, key: wrong})


def _recursion(models: Any) -> None:
    from pydantic import TypeAdapter

    tree = {"children": ["leaf", {"children": []}, {"children": ["x"]}]}
    _round_trip(models.Node, tree)
    with pytest.raises(ValidationError):
        models.Node.model_validate({"children": [5]})
    assert TypeAdapter(models.Expr).validate_python("leaf") == "leaf"


def _plain_a(models: Any) -> None:
    _round_trip(models.A, {"a": "x"})


def _remote_id(models: Any) -> None:
    _round_trip(models.A, {"b": "x"})
    with pytest.raises(ValidationError):
        models.A.model_validate({"b": 1})


def _dynamic_ref(models: Any) -> None:
    _round_trip(models.Tree, {"value": "a", "next": {"value": "b", "next": {"value": "c"}}})
    with pytest.raises(ValidationError):
        models.Tree.model_validate({"next": {"value": 1}})


def _engine_directives(models: Any) -> None:
    """The engine's directives in a schema (imports, base classes, OpenAPI's nullable and
    discriminator) are ignored: the module imports only what every generated module imports."""
    import ast

    tree = ast.parse(Path(models.__file__).with_name("models.py").read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 0}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert imported <= {"__future__", "typing", "typing_extensions", "pydantic", "pydantic_core"}, imported
    _round_trip(models.Directed, {"kind": "a", "path": "/tmp", "hook": "h", "proc": "p"})
    with pytest.raises(ValidationError):
        models.Directed.model_validate({"kind": "a", "maybe": None})  # `nullable` is not JSON Schema


CHECKS = {
    "ok_engine_directives_ignored": _engine_directives,
    "ok_keyword_names": _keywords,
    "ok_dunder_names": _dunders,
    "ok_basemodel_attribute_names": _basemodel_attributes,
    "ok_non_identifier_names": _non_identifiers,
    "ok_non_ascii_names": _non_ascii,
    "ok_empty_property_name": _empty_name,
    "ok_enum_mixing_types": _enum_mixing_types,
    "ok_const_every_literal_type": _const_every_literal_type,
    "ok_recursion_with_a_base_case": _recursion,
    "ok_utf8_bom": _plain_a,
    "ok_remote_id_local_refs": _remote_id,
    "ok_local_dynamic_ref": _dynamic_ref,
}


def test_every_valid_case_has_its_checks() -> None:
    assert sorted(CHECKS) == VALID


def test_the_corpus_is_large_enough() -> None:
    assert len(ERRORS) + len(HUGE) >= 30


@pytest.mark.xfail(
    strict=True,
    reason="pydantic's Literal finds a value by Python equality, so Literal[True] takes JSON 1 and "
    "Literal[False] takes 0, strict mode or not; the generator emits such Literals as they are",
)
def test_boolean_literals_refuse_integers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "bad_input_bool_literals"
    generate_schema(CASES / "ok_const_every_literal_type" / "schema.json", out=out)
    monkeypatch.syspath_prepend(str(tmp_path))
    models = importlib.import_module(out.name)
    good = {"s": "x", "i": 7, "b": False, "n": None}
    with pytest.raises(ValidationError):
        models.Consts.model_validate_json(json.dumps({**good, "b": 0}))
