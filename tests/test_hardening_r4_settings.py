"""Hardening, round four (issue 36): a setting's value is checked like its key, and output is
printed under any locale.

- Every key of `[tool.mcp-codegen]` takes the type docs/configuration.md writes down, as TOML gives
  it: a wrong type is refused (MCG010, one line naming key, expected and got), never coerced.
- `base-class` must name a pydantic model class; `package` a name the package can be imported
  under; `pydantic-config` values the type pydantic declares, and not the keys the generator owns.
- `open-definitions` naming a definition that generates no model is said, never refused as a typo.
- A locale whose encoding cannot show `→` (ISO-8859-1, ASCII) escapes it: `diff`, `check` and
  `tools --check` keep their exit codes and print their reports.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from codegen import config
from codegen.config import values
from codegen.errors import CodegenError

from . import bad_input_support as support
from .conftest import REPO

WRONG: dict[str, tuple[str, str]] = {
    # case: (the TOML line, what the error line must say after the key)
    "max_depth_string": ('max-depth = "64"', 'max-depth: expected an integer from 1 to 400, got "64" (a string)'),
    "max_depth_float": ("max-depth = 3000.0", "max-depth: expected an integer from 1 to 400, got 3000.0 (a float)"),
    "max_depth_boolean": ("max-depth = true", "max-depth: expected an integer from 1 to 400, got true (a boolean)"),
    "max_depth_past_the_ceiling": ("max-depth = 401", "max-depth: expected an integer from 1 to 400, got 401"),
    "max_depth_zero": ("max-depth = 0", "max-depth: expected an integer from 1 to 400, got 0"),
    "max_members_negative": ("max-members = -5", "max-members: expected an integer of at least 1, got -5"),
    "max_schema_bytes_string": ('max-schema-bytes = "8MiB"', 'max-schema-bytes: expected an integer of at least 1, got "8MiB"'),
    "max_definitions_array": ("max-definitions = [1]", "max-definitions: expected an integer of at least 1, got an array"),
    "max_subschemas_float": ("max-subschemas = 1e3", "max-subschemas: expected an integer of at least 1, got 1000.0 (a float)"),
    "surface_string": ('surface = "false"', 'surface: expected a boolean (true or false), got "false" (a string)'),
    "prune_word": ('prune = "no"', 'prune: expected a boolean (true or false), got "no" (a string)'),
    "absolute_links_integer": ("absolute-links = 1", "absolute-links: expected a boolean (true or false), got 1 (an integer)"),
    "out_empty": ('out = ""', 'out: expected a non-empty string: a folder, relative to this pyproject.toml, got "" (an empty string)'),
    "out_integer": ("out = 5", "out: expected a non-empty string"),
    "pins_empty": ('pins = ""', 'pins: expected a non-empty string'),
    "spec_source_table": ("spec-source = { a = 1 }", "spec-source: expected a non-empty string: a folder or an https URL, got a table"),
    "docs_source_boolean": ("docs-source = false", "docs-source: expected a non-empty string: a folder, got false (a boolean)"),
    "package_empty": ('package = ""', 'package: expected a non-empty string: a dotted import path, got ""'),
    "base_class_integer": ("base-class = 7", "base-class: expected a non-empty string: module.Class, got 7 (an integer)"),
    "revisions_string": ('revisions = "2025-11-25"', 'revisions: expected an array of revision names (strings), got "2025-11-25"'),
    "revisions_empty_name": ('revisions = [""]', "revisions: expected an array of revision names (strings), got an array"),
    "revisions_numbers": ("revisions = [2025]", "revisions: expected an array of revision names (strings), got an array"),
    "errata_string": ('errata = "mine.json"', 'errata: expected an array of file paths (strings)'),
    "disable_errata_table": ("disable-errata = { x = 1 }", "disable-errata: expected an array of erratum ids (strings), got a table"),
    "open_definitions_string": ('open-definitions = "Result"', "open-definitions: expected an array of definition names"),
    "field_naming_camel": ('field-naming = "camel"', 'field-naming: expected one of "snake", "wire", got "camel" (a string)'),
    "extra_keys_boolean": ("extra-keys = true", 'extra-keys: expected one of "lossless", "ignore", "sieve", got true (a boolean)'),
    "inbound_case": ('inbound = "Strict"', 'inbound: expected one of "strict", "lenient", got "Strict" (a string)'),
    "formatter_integer": ("formatter = 1", 'formatter: expected one of "black", "ruff", got 1 (an integer)'),
    "line_length_short": ("line-length = 60", "line-length: expected an integer from 79 to 320, got 60 (an integer)"),
    "line_length_string": ('line-length = "100"', 'line-length: expected an integer from 79 to 320, got "100" (a string)'),
    "pydantic_config_integer": ("pydantic-config = 5", "pydantic-config: expected a table of pydantic ConfigDict entries, got 5"),
    "pydantic_config_frozen_yes": ('pydantic-config = { frozen = "yes" }', 'pydantic-config.frozen: expected a boolean, got "yes" (a string)'),
    "pydantic_config_negative_length": (
        "pydantic-config = { str_max_length = -1 }",
        "pydantic-config.str_max_length: expected an integer of at least 0, got -1",
    ),
    "pydantic_config_title_integer": ("pydantic-config = { title = 5 }", "pydantic-config.title: expected a string, got 5 (an integer)"),
    "pydantic_config_alias_generator": (
        'pydantic-config = { alias_generator = "x" }',
        "pydantic-config.alias_generator: takes Python objects",
    ),
    "pydantic_config_literal": (
        'pydantic-config = { ser_json_bytes = "hexadecimal" }',
        'pydantic-config.ser_json_bytes: expected one of "utf8", "base64", "hex", got "hexadecimal"',
    ),
    "pydantic_config_strict_false": ("pydantic-config = { strict = false }", "pydantic-config.strict: set by the generator itself"),
    "pydantic_config_allow_inf_nan": (
        "pydantic-config = { allow_inf_nan = true }",
        "pydantic-config.allow_inf_nan: set by the generator itself: JSON has no NaN",
    ),
    "pydantic_config_defer_build": ("pydantic-config = { defer_build = false }", "pydantic-config.defer_build: set by the generator"),
    "pydantic_config_date": (
        "pydantic-config = { title = 1979-05-27 }",
        "pydantic-config.title: expected a string, got a date or time",
    ),
    "package_stdlib": ('package = "os"', "package: 'os' would shadow 'os', a module of Python's standard library"),
    "package_stdlib_dotted": ('package = "json.mcp"', "package: 'json.mcp' would shadow 'json'"),
    "package_main": ('package = "__main__"', "package: '__main__' has a part Python reserves"),
    "package_dunder_part": ('package = "acme.__init__"', "package: 'acme.__init__' has a part Python reserves"),
    "package_pydantic": ('package = "pydantic.mcp"', "package: 'pydantic.mcp' would shadow 'pydantic', which the generated models import"),
}


def _load(tmp_path: Path, line: str) -> config.Settings:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(f"[tool.mcp-codegen]\n{line}\n", encoding="utf-8")
    return config.load(pyproject)


@pytest.mark.parametrize("case", sorted(WRONG))
def test_a_wrong_value_is_refused_in_one_line_naming_key_expected_and_got(case: str, tmp_path: Path) -> None:
    line, said = WRONG[case]
    with pytest.raises(CodegenError) as caught:
        _load(tmp_path, line)
    diagnostics = caught.value.diagnostics
    assert len(diagnostics) == 1 and diagnostics[0].code == "MCG010", diagnostics
    assert f"[tool.mcp-codegen] {said}" in diagnostics[0].message, diagnostics[0].message


@pytest.mark.parametrize(
    "line",
    [
        'max-depth = 400', "max-depth = 1", "max-members = 100000", 'surface = false', "prune = true",
        'out = "src/acme/_mcp"', 'package = "acme._mcp"', 'package = "mcp_models"', 'base-class = "acme.base.Base"',
        'revisions = ["2025-11-25"]', 'field-naming = "wire"', 'formatter = "ruff"', "line-length = 100",
        "pydantic-config = { frozen = true, str_max_length = 100000, str_min_length = 0, title = \"T\" }",
        'pydantic-config = { ser_json_bytes = "hex", cache_strings = "keys", use_enum_values = true }',
        'pydantic-config = { cache_strings = false }',
    ],
)  # fmt: skip
def test_a_right_value_of_each_type_is_taken(line: str, tmp_path: Path) -> None:
    _load(tmp_path, line)


def test_several_wrong_values_are_one_line_each(tmp_path: Path) -> None:
    with pytest.raises(CodegenError) as caught:
        _load(tmp_path, 'max-depth = "64"\nsurface = "false"\npydantic-config = { frozen = "yes", title = 5 }')
    keys = [d.message.split(":")[0] for d in caught.value.diagnostics]
    assert keys == [f"[tool.mcp-codegen] {k}" for k in ("max-depth", "surface", "pydantic-config.frozen", "pydantic-config.title")]


def test_the_command_refuses_a_wrong_value_with_exit_2_and_one_line(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.mcp-codegen]\nmax-depth = "64"\n', encoding="utf-8")
    result = support.run(["generate", "-q", "--out", str(tmp_path / "out")], env=support.cli_env(tmp_path / "c"), cwd=tmp_path)
    line = support.assert_one_line_error(result, "MCG010")
    assert 'max-depth: expected an integer from 1 to 400, got "64" (a string)' in line
    assert not (tmp_path / "out").exists()
    support.assert_bounded(result)


def test_line_length_defaults_to_the_same_pyprojects_ruff_then_black(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.black]\nline-length = 110\n[tool.ruff]\nline-length = 120\n[tool.mcp-codegen]\n")
    assert config.load(pyproject).line_length == 120
    pyproject.write_text("[tool.black]\nline-length = 110\n[tool.mcp-codegen]\n")
    assert config.load(pyproject).line_length == 110
    pyproject.write_text("[tool.ruff]\nline-length = 120\n[tool.mcp-codegen]\nline-length = 90\n")
    assert config.load(pyproject).line_length == 90  # its own setting wins
    pyproject.write_text("[tool.mcp-codegen]\n")
    assert config.load(pyproject).line_length is None  # the formatter's own: black's 100, ruff's 88


def test_docs_write_down_each_setting_with_the_type_it_is_checked_against() -> None:
    """docs/configuration.md's table lists every key the settings model has, each with the type
    and range config/values.py checks: the reference and the check cannot drift apart."""
    table = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| ([^|]+?) \|", table, flags=re.MULTILINE))
    fields = {field.alias or name for name, field in config.Settings.model_fields.items()}
    assert set(rows) == fields == set(values.KINDS), (set(rows) ^ fields, fields ^ set(values.KINDS))
    for key, kind in values.KINDS.items():
        assert rows[key] == kind.expected, (key, rows[key], kind.expected)


# -- base-class: a pydantic model class, checked before any work ---------------------------------


@pytest.mark.parametrize(
    ("base", "said"),
    [
        ("typing.Any", "got typing.Any"),
        ("builtins.object", "got builtins.object (a class that is not)"),
        ("json.JSONDecoder", "got json.JSONDecoder (a class that is not)"),
        ("pathlib.Path", "got pathlib.Path (a class that is not)"),
        ("os.system", "got os.system (not a class)"),
        ("os.path.sep", "got os.path.sep (not a class)"),
        ("pydantic.NotAThing", "module pydantic has no NotAThing"),
        ("collections.OrderedDict", "got collections.OrderedDict (a class that is not)"),
    ],
)
def test_a_base_class_that_is_no_pydantic_model_is_refused_before_generating(base: str, said: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = support.run(["generate", "-q", "-r", "2025-11-25", "--base-class", base, "--out", str(out)], env=support.cli_env(tmp_path / "c"))
    line = support.assert_one_line_error(result, "MCG010")
    assert said in line, line
    assert "report" not in line  # a setting's mistake, not the generator's bug
    assert not out.exists()
    support.assert_bounded(result)


def test_a_base_class_in_the_projects_tree_must_be_defined_there(tmp_path: Path) -> None:
    """Not importable where mcp-codegen runs (a src/ layout): its module is read, never run."""
    (tmp_path / "src" / "acme").mkdir(parents=True)
    (tmp_path / "src" / "acme" / "__init__.py").write_text("")
    (tmp_path / "src" / "acme" / "base.py").write_text("from pydantic import BaseModel\n\nclass Other(BaseModel):\n    pass\n")
    out = tmp_path / "src" / "acme" / "_mcp"
    result = support.run(
        ["generate", "-q", "-r", "2025-11-25", "--base-class", "acme.base.AcmeBase", "--out", str(out), "--package", "acme._mcp"],
        env=support.cli_env(tmp_path / "c"),
    )
    line = support.assert_one_line_error(result, "MCG010")
    assert "base.py defines no AcmeBase" in line, line
    assert not out.exists()


# -- open-definitions: a definition that generates no model is never a typo ----------------------


@pytest.mark.slow
def test_open_definitions_naming_an_alias_is_noted_not_refused(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mcp-codegen]\nextra-keys = "sieve"\nopen-definitions = ["MetaObject", "EmptyResult", "Result"]\n', encoding="utf-8"
    )
    result = support.run(
        ["generate", "-r", "2026-07-28", "--out", str(tmp_path / "out"), "--no-cache"], env=support.cli_env(tmp_path / "c"), cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    notes = [line for line in result.stderr.splitlines() if line.startswith("note: open-definitions")]
    assert any("'MetaObject' generates no model class (a type alias, open already" in n for n in notes), notes
    assert any("'EmptyResult' generates no model class (another name for Result" in n for n in notes), notes
    assert not any(n.startswith("note: open-definitions entry 'Result'") for n in notes) and len(notes) == 2
    (tmp_path / "pyproject.toml").write_text('[tool.mcp-codegen]\nextra-keys = "sieve"\nopen-definitions = ["MetaObjekt"]\n')
    typo = support.run(["generate", "-q", "-r", "2026-07-28", "--out", str(tmp_path / "typo")], env=support.cli_env(tmp_path / "c"), cwd=tmp_path)
    line = support.assert_one_line_error(typo, "MCG010")
    assert "names no definition" in line and "did you mean 'MetaObject'?" in line, line
    support.assert_bounded(typo, support.GENERATION)  # said before the builds start


# -- output under any locale ---------------------------------------------------------------------

LOCALES = ["iso-8859-1", "ascii"]


@pytest.mark.parametrize("encoding", LOCALES)
def test_diff_prints_under_a_locale_that_cannot_show_an_arrow(encoding: str, tmp_path: Path) -> None:
    env = support.cli_env(tmp_path / "c", PYTHONIOENCODING=encoding)
    result = support.run(["diff", "2025-11-25", "2026-07-28", "--no-python-api"], env=env)
    assert result.returncode == 0, result.stderr
    assert "MCG999" not in result.stderr and result.stderr == ""
    assert "2025-11-25 \\u2192 2026-07-28" in result.stdout.splitlines()[0], result.stdout[:200]
    gated = support.run(["diff", "2025-11-25", "2026-07-28", "--no-python-api", "--fail-on", "breaking"], env=env)
    assert gated.returncode == 1 and gated.stdout == result.stdout


@pytest.mark.parametrize("encoding", LOCALES)
def test_check_of_a_drifted_tree_reports_drift_under_any_locale(
    encoding: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tree = tmp_path / "_mcp"
    shutil.copytree(support.vendored_acme(tmp_path_factory), tree)
    models = tree / "v2026_07_28" / "models.py"
    models.write_text(models.read_text(encoding="utf-8") + "# édité → à la main\n", encoding="utf-8")
    env = support.cli_env(tmp_path / "c", PYTHONIOENCODING=encoding)
    args = ["check", "-r", "2025-11-25", "-r", "2026-07-28", "--out", str(tree), "--package", "acme._mcp", "--verbose"]
    result = support.run(args, env=env)
    assert result.returncode == 1, result.stderr[-800:]
    assert "MCG999" not in result.stderr and "drift:" in result.stderr
    assert " \\u2192 " in result.stdout, result.stdout[-800:]  # the drifted line, shown in the diff


@pytest.mark.parametrize("encoding", LOCALES)
def test_tools_check_reports_per_tool_under_any_locale(encoding: str, tmp_path: Path) -> None:
    listing = tmp_path / "tools.json"
    tools: list[dict[str, Any]] = [{"name": "météo→demain", "description": "Prévision", "inputSchema": {"type": "object", "properties": {"v": {"type": "string"}}}}]
    listing.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    out = tmp_path / "tools_pkg"
    env = support.cli_env(tmp_path / "c", PYTHONIOENCODING=encoding)
    made = support.run(["tools", "--from", str(listing), "--out", str(out), "--models", "mcp_models.v2026_07_28"], env=env)
    assert made.returncode == 0, made.stderr
    tools[0]["inputSchema"]["required"] = ["v"]
    listing.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    checked = support.run(["tools", "--from", str(listing), "--out", str(out), "--models", "mcp_models.v2026_07_28", "--check"], env=env)
    assert checked.returncode == 1, checked.stderr
    assert "MCG999" not in checked.stderr
    # the test reads the bytes as UTF-8: what the locale can show (é in ISO-8859-1) is its own byte there
    first = checked.stdout.splitlines()[0]
    assert first.startswith('tool "m') and '\\u2192demain": input schema changed (breaking' in first, checked.stdout
