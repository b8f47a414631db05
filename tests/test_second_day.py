"""An SDK author's second day (issue 26): settings off the default path and the commands' words.

Each test names the numbered point of the issue it proves.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codegen.cli import app

from . import bad_input_support as support
from .conftest import REPO

UNIONS = support.UNIONS
runner = CliRunner()


def _project(tmp_path: Path, settings: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(f"[tool.mcp-codegen]\n{settings}", encoding="utf-8")
    return tmp_path


# -- 10. settings that match nothing are errors ------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "phrase"),
    [
        ('revisions = ["2025-06-18"]\nout = "m"\nextra-keys = "sieve"\nopen-definitions = ["Toool"]\n', "'Toool' names no definition"),
        ('revisions = ["2025-06-18"]\nout = "m"\nopen-definitions = ["Tool"]\n', "it only applies to the sieve"),
        ('revisions = ["2025-06-18"]\nout = "m"\npins = "no/such/pins.toml"\n', "pins file no/such/pins.toml does not exist"),
        ('revisions = ["2025-06-18"]\nout = "m"\nbase-class = "nowhere.models.Base"\n', "module nowhere.models cannot be imported"),
    ],
    ids=["open_definitions_typo", "open_definitions_without_sieve", "pins_missing", "base_class_missing"],
)
def test_a_setting_that_matches_nothing_is_one_line_error(settings: str, phrase: str, tmp_path: Path) -> None:
    project = _project(tmp_path, settings)
    result = support.run(["generate", "-q", "--no-surface"], env=support.cli_env(tmp_path / "c"), cwd=project)
    line = support.assert_one_line_error(result, "MCG010")
    assert phrase in line, line
    assert not (project / "m").exists()
    if "Toool" in phrase:
        assert "did you mean 'Tool'?" in line


def test_a_base_class_module_in_the_projects_source_tree_is_found(tmp_path: Path) -> None:
    """A src/ layout not installed where mcp-codegen runs: the module file is there, so it is fine."""
    (tmp_path / "src" / "acme").mkdir(parents=True)
    (tmp_path / "src" / "acme" / "__init__.py").write_text("")
    (tmp_path / "src" / "acme" / "base.py").write_text("from pydantic import BaseModel\n\nclass Base(BaseModel):\n    pass\n")
    project = _project(tmp_path, 'revisions = ["2025-06-18"]\nout = "src/acme/_mcp"\npackage = "acme._mcp"\nbase-class = "acme.base.Base"\n')
    result = support.run(["generate", "-q", "--no-surface"], env=support.cli_env(tmp_path / "c"), cwd=project)
    assert result.returncode == 0, result.stderr


# -- 11. docs and commands that mislead ---------------------------------------------------------------


def test_check_of_a_missing_folder_is_one_line_not_a_diff(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", "--schema", str(UNIONS), "--out", str(tmp_path / "does" / "not" / "exist")])
    assert result.exit_code == 1
    assert "does not exist; generating with the same settings creates it" in result.output
    assert result.output.count("\n") < 10 and "/dev/null" not in result.output


@pytest.mark.parametrize("command", ["generate", "check", "tools"])
def test_help_shows_plain_metavars_and_no_prune_where_it_means_nothing(command: str) -> None:
    shown = runner.invoke(app, [command, "--help"], terminal_width=200).output
    assert "list[" not in shown and "<list" not in shown
    assert ("--prune" in shown) == (command == "generate")


def test_tools_errors_and_drift_name_the_tools_command(tmp_path: Path) -> None:
    listing = tmp_path / "tools.json"
    listing.write_text(json.dumps({"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}))
    out = tmp_path / "add_tools"
    args = ["tools", "--from", str(listing), "--out", str(out), "--models", "mcp_models.v2026_07_28"]
    env = {**support.cli_env(tmp_path / "c"), "PYTHONPATH": str(REPO / "generated")}
    assert support.run(args, env=env).returncode == 0
    (out / "__init__.py").write_text((out / "__init__.py").read_text() + "\n# edited\n")
    drift = support.run([*args, "--check"], env=env)
    assert drift.returncode == 1 and "run `mcp-codegen tools --from … --out … --models mcp_models.v2026_07_28`" in drift.stderr
    listing.write_text(json.dumps({"tools": [{"name": 3}]}))
    bad = support.run(args, env=env)
    line = support.assert_one_line_error(bad, bad.code or "MCG???", revision="tools/list")
    assert "(from tools/list" in line and "revision tools/list" not in line


def test_spec_list_says_where_each_schema_is_read_from() -> None:
    shown = runner.invoke(app, ["spec", "list"]).output
    assert "not cached" not in shown
    assert all(line.split()[-1] in ("shipped", "(unreleased)") for line in shown.splitlines() if line.strip())


def test_examples_names_documentation_pages_by_what_they_are() -> None:
    shown = runner.invoke(app, ["examples", "-r", "2025-11-25"]).output
    assert "SEP-1330 (enum schemas)" in shown and "client pages 2025-11-25" in shown
    assert not any(line.split()[1].endswith(".txt") for line in shown.splitlines()[1:3])


def test_the_ci_snippet_installs_something_an_index_could_serve() -> None:
    commands = (REPO / "docs" / "commands.md").read_text()
    assert "pip install mcp-models-codegen &&" not in commands
    models = (REPO / "docs" / "models.md").read_text()
    assert "`mcp-codegen generate --verbose` lists, per revision, every union it could not discriminate" in models



# -- 4. the surface reads a valid 2025-11-25 task response -----------------------------------------


def test_the_surface_reads_a_task_response_its_revision_reads() -> None:
    from mcp_models import surface
    from mcp_models import v2025_11_25

    raw = (
        b'{"result":{"task":{"taskId":"t1","status":"working","createdAt":"2025-11-25T00:00:00Z",'
        b'"lastUpdatedAt":"2025-11-25T00:00:00Z","ttl":1000}},"jsonrpc":"2.0","id":20}'
    )
    exact = v2025_11_25.parse_message(raw, pending={20: "tools/call"})
    assert type(exact.result).__name__ == "CreateTaskResult"  # type: ignore[union-attr]
    message = surface.parse_message(raw, protocol_version="2025-11-25", pending={20: "tools/call"})
    assert type(message.result) is surface.CreateTaskResult  # type: ignore[union-attr]
    assert json.loads(surface.send(message, "2025-11-25")) == json.loads(raw)
    # a complete result to the same request still comes back as the surface's own response class
    complete = b'{"result":{"content":[]},"jsonrpc":"2.0","id":21}'
    typed = surface.parse_message(complete, protocol_version="2025-11-25", pending={21: "tools/call"})
    assert type(typed.result) is surface.CallToolResult  # type: ignore[union-attr]


# -- 7. vendored tests under every extra-keys mode --------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["ignore", "sieve"])
def test_vendored_round_trips_pass_under_every_extra_keys_mode_and_name_what_was_dropped(mode: str, tmp_path: Path) -> None:
    import subprocess
    import sys

    out = tmp_path / f"pkg_{mode}"
    made = support.run(
        ["generate", "-q", "--extra-keys", mode, "--no-surface", "-r", "2025-11-25", "--out", str(out), "--package", out.name],
        env=support.cli_env(tmp_path / "c"),
    )
    assert made.returncode == 0, made.stderr
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", out.name], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert tests.returncode == 0 and " passed" in tests.stdout, tests.stdout[-2000:]
    import importlib

    sys.path.insert(0, str(tmp_path))
    try:
        examples = importlib.import_module(f"{out.name}.v2025_11_25._examples")
        example = examples.Example(origin="made up", value={"content": [], "isError": False, "vendor": 1}, target="CallToolResult")
        outcome = examples.round_trip(example)
        assert outcome.accepted and outcome.dropped == ("/vendor",) and outcome.changed == ()
        assert "keys left out: /vendor" in outcome.detail
    finally:
        sys.path.remove(str(tmp_path))


# -- 13. building what the spec defaults; readable links ----------------------------------------------


def test_a_result_built_without_result_type_says_complete_and_reading_still_requires_it() -> None:
    from pydantic import ValidationError

    from mcp_models.v2026_07_28 import CallToolResult, InputRequiredResult, ListToolsResult

    assert json.loads(CallToolResult(content=[]).model_dump_json()) == {"content": [], "resultType": "complete"}
    assert CallToolResult(content=[], result_type="other").result_type == "other"  # given: kept
    assert json.loads(ListToolsResult(tools=[], cache_scope="public", ttl_ms=0).model_dump_json())["resultType"] == "complete"
    with pytest.raises(ValidationError, match="resultType"):
        CallToolResult.model_validate({"content": []})
    with pytest.raises(ValidationError, match="resultType"):
        InputRequiredResult()  # told apart by resultType: never "complete" by default


def test_docstrings_read_typedoc_links_as_text() -> None:
    from mcp_models.v2026_07_28 import ListToolsResult, models

    source = Path(models.__file__).read_text(encoding="utf-8")
    assert "{@link" not in source
    assert "`ListToolsRequest` (`tools/list`)" in source
    assert ListToolsResult.__doc__ is not None


# -- 12. messages other implementations send --------------------------------------------------------

_PACKAGES = ["v2024_11_05", "v2025_03_26", "v2025_06_18", "v2025_11_25", "v2026_07_28", "draft", "surface"]


def _readers(package: str) -> dict[str, object]:
    """Every way a package reads one message: its parse_* functions on text and on a dict, and the
    transport's TypeAdapter over JSONRPCMessage."""
    import importlib

    from pydantic import TypeAdapter

    messages = importlib.import_module(f"mcp_models.{package}.messages")
    models = importlib.import_module(f"mcp_models.{package}.models")
    adapter = TypeAdapter(models.JSONRPCMessage)
    return {
        "parse_message(text)": messages.parse_message,
        "parse_message(dict)": lambda raw: messages.parse_message(json.loads(raw)),
        "parse_message(pending)": lambda raw: messages.parse_message(raw, pending={1: "ping", "1": "ping"}),
        "parse_envelope(text)": messages.parse_envelope,
        "parse_envelope(dict)": lambda raw: messages.parse_envelope(json.loads(raw)),
        "TypeAdapter(JSONRPCMessage)": adapter.validate_json,
    }


@pytest.mark.parametrize("package", _PACKAGES)
@pytest.mark.parametrize("message_id", ["null", "[1]", '{"n":1}', "true", "1.5"])
def test_a_method_with_an_id_that_is_not_one_is_a_notification_everywhere(package: str, message_id: str) -> None:
    """The schema reads a message whose `id` is not a string or integer as a notification carrying
    an extra key; every reader of every revision agrees, and the extra key survives a dump."""
    raw = f'{{"jsonrpc":"2.0","id":{message_id},"method":"ping"}}'
    for reader, read in _readers(package).items():
        message = read(raw)  # type: ignore[operator]
        assert type(message).__name__ == "JSONRPCNotification", (package, reader)
        assert json.loads(message.model_dump_json(by_alias=True, exclude_unset=True)) == json.loads(raw), reader


@pytest.mark.parametrize("package", _PACKAGES)
def test_a_response_with_both_result_and_error_is_read_as_the_schema_allows(package: str) -> None:
    """{result, error}: where the result is not one the revision accepts (2026-07-28 requires
    `resultType`), the message is an error response with an extra key; where both are valid the
    readers agree on the revision's order. Either way nothing is refused and nothing is lost."""
    raw = '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":-32000,"message":"boom"}}'
    for reader, read in _every_reader(package).items():
        message = read(raw)  # type: ignore[operator]
        assert type(message).__name__ in ERROR_ENVELOPES, (package, reader)  # an error response first
        assert json.loads(message.model_dump_json(by_alias=True, exclude_unset=True)) == json.loads(raw), reader


ERROR_ENVELOPES = {"JSONRPCError", "JSONRPCErrorResponse"}


def _every_reader(package: str) -> dict[str, object]:
    """_readers, and the other paths that route a message: the adapters' Python mode, the response
    union's adapter, and the surface's wire reader at each revision."""
    import importlib

    from pydantic import TypeAdapter

    readers = _readers(package)
    models = importlib.import_module(f"mcp_models.{package}.models")
    readers["TypeAdapter(JSONRPCMessage).python"] = lambda raw: TypeAdapter(models.JSONRPCMessage).validate_python(json.loads(raw))
    responses = getattr(models, "JSONRPCResponse", None)
    if responses is not None and not isinstance(responses, type):  # a union of responses (2025-03-26 on)
        readers["TypeAdapter(JSONRPCResponse)"] = TypeAdapter(responses).validate_json
    if package != "surface":
        wire = importlib.import_module("mcp_models.surface.wire")
        revision = package[1:].replace("_", "-") if package.startswith("v") else package
        readers["surface.wire.parse_message"] = lambda raw: wire.parse_message(raw, protocol_version=revision)
    return readers


@pytest.mark.parametrize("package", _PACKAGES)
def test_a_message_with_error_is_an_error_response_first(package: str) -> None:
    """Issue 36, finding 4: another implementation's error response with an extra `result` the
    revision's results would refuse (2026-07-28 requires resultType) is schema-valid as an error
    response; every reader reads it as one, keeps the extra key, and dumps it back unchanged."""
    raw = '{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid"},"result":{"data":"ignored"}}'
    for reader, read in _every_reader(package).items():
        message = read(raw)  # type: ignore[operator]
        assert type(message).__name__ in ERROR_ENVELOPES, (package, reader)
        assert message.error.code == -32600 and message.model_extra == {"result": {"data": "ignored"}}, reader
        assert json.loads(message.model_dump_json(by_alias=True, exclude_unset=True)) == json.loads(raw), reader


@pytest.mark.parametrize("package", _PACKAGES)
@pytest.mark.parametrize(
    "raw",
    [
        '{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"Invalid"},"result":"ignored"}',
        '{"jsonrpc":"2.0","id":1,"error":{"message":"Invalid"},"result":[{}]}',
        '{"jsonrpc":"1.0","id":1,"error":{"code":-32600,"message":"Invalid"},"result":{}}',
        '{"jsonrpc":"2.0","id":[1],"error":{"code":-32600,"message":"Invalid"},"result":{}}',
    ],
)
def test_an_invalid_error_response_stays_refused(package: str, raw: str) -> None:
    """Routing `error` first weakens no refusal: a message valid neither as an error response nor
    as a success response is refused by every reader."""
    for reader, read in _every_reader(package).items():
        with pytest.raises(ValueError):
            read(raw)  # type: ignore[operator]
        assert reader


# -- 2. errata scoped per revision and per pointer style ---------------------------------------------


def _guarded(path: str, test: object, op: dict[str, object]) -> list[dict[str, object]]:
    return [{"op": "test", "path": path, "value": test}, op]


def _errata_project(tmp_path: Path, errata: list[dict[str, object]], revisions: str) -> Path:
    (tmp_path / "errata.json").write_text(json.dumps({"errata": errata}), encoding="utf-8")
    return _project(tmp_path, f'revisions = {revisions}\nout = "m"\nerrata = ["errata.json"]\n')


def test_one_errata_file_serves_revisions_of_both_layouts_and_scopes_by_revision(tmp_path: Path) -> None:
    """A `/$defs/...` erratum applies to 2025-06-18 (which keeps `definitions`) as to 2025-11-25; one
    naming its `revisions` applies there only, its `$ref` values moved with it."""
    everywhere = {
        "id": "tool-name",
        "reason": "r",
        "upstream": "u",
        "patch": _guarded(
            "/$defs/Tool/properties/name/type",
            "string",
            {"op": "add", "path": "/$defs/Tool/properties/name/minLength", "value": 1},
        ),
    }
    scoped = {
        "id": "old-only",
        "reason": "r",
        "upstream": "u",
        "revisions": ["2025-06-18"],
        "patch": _guarded(
            "/$defs/Tool/properties/name/type",
            "string",
            {"op": "add", "path": "/$defs/Tool/properties/icon", "value": {"$ref": "#/$defs/TextContent"}},
        ),
    }
    project = _errata_project(tmp_path, [everywhere, scoped], '["2025-06-18", "2025-11-25"]')
    result = support.run(["generate", "-q", "--no-surface"], env=support.cli_env(tmp_path / "c"), cwd=project)
    assert result.returncode == 0, result.stderr
    old = (project / "m" / "v2025_06_18" / "models.py").read_text(encoding="utf-8").split("class Tool(", 1)[1]
    new = (project / "m" / "v2025_11_25" / "models.py").read_text(encoding="utf-8").split("class Tool(", 1)[1]
    assert "min_length=1" in old[:4000] and "min_length=1" in new[:4000]
    assert "icon: TextContent" in old[:6000] and "icon:" not in new[:6000]


@pytest.mark.parametrize(
    ("revisions", "code", "phrase"),
    [
        (["2025-6-18"], "MCG201", 'names revision "2025-6-18", which no pin has'),
        ("2025-06-18", "MCG201", "not a list of revision names"),
        ([], "MCG201", "not a list of revision names"),
    ],
    ids=["typo", "not_a_list", "empty"],
)
def test_an_errata_scope_that_names_nothing_is_one_line_error(
    revisions: object, code: str, phrase: str, tmp_path: Path
) -> None:
    erratum = {
        "id": "e",
        "reason": "r",
        "upstream": "u",
        "revisions": revisions,
        "patch": _guarded("/$defs/Tool/type", "object", {"op": "add", "path": "/$defs/Tool/title", "value": "T"}),
    }
    project = _errata_project(tmp_path, [erratum], '["2025-06-18"]')
    result = support.run(["generate", "-q", "--no-surface"], env=support.cli_env(tmp_path / "c"), cwd=project)
    line = support.assert_one_line_error(result, code)
    assert phrase in line and len(line) <= 300, line
    assert not (project / "m").exists()


def test_an_erratum_for_another_revision_says_how_to_scope_it_in_one_short_line(tmp_path: Path) -> None:
    """An unscoped erratum on a definition 2025-06-18 lacks: one line, the pointer in the schema's own
    spelling, a hint naming `revisions`, never "upstream may have fixed it"."""
    erratum = {
        "id": "new-only",
        "reason": "r",
        "upstream": "u",
        "patch": _guarded(
            "/$defs/InputRequiredResult/properties/requestState",
            {"type": "string"},
            {"op": "add", "path": "/$defs/InputRequiredResult/properties/x", "value": {"type": "string"}},
        ),
    }
    project = _errata_project(tmp_path, [erratum], '["2025-06-18", "2026-07-28"]')
    result = support.run(["generate", "-q", "--no-surface"], env=support.cli_env(tmp_path / "c"), cwd=project)
    line = support.assert_one_line_error(result, "MCG202", pointer="#/definitions/InputRequiredResult/properties/requestState")
    assert "`revisions`" in line and "upstream" not in line and len(line) <= 300, (len(line), line)
    erratum["revisions"] = ["2026-07-28"]
    project = _errata_project(tmp_path, [erratum], '["2025-06-18", "2026-07-28"]')
    result = support.run(["generate", "-q", "--no-surface"], env=support.cli_env(tmp_path / "c"), cwd=project)
    assert result.returncode == 0, result.stderr


# -- 11. the docs' sample output is what the command prints -----------------------------------------


def test_the_diff_page_sample_is_what_the_command_prints_today() -> None:
    """Every line of docs/diff.md's sample run (but the `...` elisions) appears in the real output, in
    order, so the page's figures cannot go stale again."""
    page = (REPO / "docs" / "diff.md").read_text(encoding="utf-8")
    sample = page.split("```\n$ mcp-codegen diff ", 1)[1].split("```", 1)[0]
    arguments, *lines = sample.splitlines()
    result = runner.invoke(app, ["diff", *arguments.split()])
    assert result.exit_code in (0, 1), result.output
    printed = result.output.splitlines()
    position = 0
    for line in lines:
        if line.strip() == "...":
            continue
        assert line in printed[position:], (line, "not printed (after the previous line)")
        position = printed.index(line, position) + 1


# -- 6. typing traps on the everyday path -------------------------------------------------------------


@pytest.mark.parametrize("package", _PACKAGES)
def test_empty_result_is_the_result_class_under_its_spec_name(package: str) -> None:
    """EmptyResult (a schema that only names Result) is callable, usable with isinstance, and what
    parse_result gives for ping where the revision has it."""
    import importlib

    models = importlib.import_module(f"mcp_models.{package}.models")
    messages = importlib.import_module(f"mcp_models.{package}.messages")
    empty = models.EmptyResult()
    assert isinstance(empty, models.Result) and isinstance(models.Result(), models.EmptyResult)
    if "ping" in messages.RESULTS:
        assert isinstance(messages.parse_result("ping", b"{}"), models.EmptyResult)


def test_an_alias_whose_model_refers_back_to_it_still_imports(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A schema that only names a model which refers back to it (the long fuzz run made one): the
    model is written first, so the name stays a type alias and the module imports; without the
    cycle it is the plain alias again."""
    from .test_fuzz import _build, _load

    schema = "https://json-schema.org/draft/2020-12/schema"
    cycle = {"type": "object", "properties": {"x": {"$ref": "#/$defs/EmptyResult"}}}
    document = {"$schema": schema, "$defs": {"Result": cycle, "EmptyResult": {"$ref": "#/$defs/Result"}}}
    built = _build(json.dumps(document).encode())
    assert "EmptyResult = Result" not in built.files["models.py"].splitlines()
    _load(built.files, tmp_path_factory)
    document["$defs"]["Result"] = {"type": "object", "properties": {"x": {"type": "string"}}}
    built = _build(json.dumps(document).encode())
    assert "EmptyResult = Result" in built.files["models.py"].splitlines()
    _load(built.files, tmp_path_factory)


# -- 3. a form declared once, read by every revision package and the surface ------------------------

_FORM_PACKAGES = ["v2025_06_18", "v2025_11_25", "v2026_07_28", "draft", "surface"]


@pytest.mark.parametrize("markers", _FORM_PACKAGES)
def test_a_form_declared_once_is_read_by_every_package(markers: str) -> None:
    """A form annotated with one package's Titles and Format gives each package's requestedSchema,
    and each package's elicit_request gives a message its own parse_message reads back."""
    import importlib
    from typing import Annotated, Literal

    from pydantic import BaseModel, Field

    declared = importlib.import_module(f"mcp_models.{markers}.forms")

    class Signup(BaseModel):
        email: Annotated[str, declared.Format("email")]
        plan: Annotated[Literal["free", "pro"], declared.Titles({"free": "Free", "pro": "Pro"})]
        name: str = Field(min_length=1, title="Name")

    for package in _FORM_PACKAGES:
        forms = importlib.import_module(f"mcp_models.{package}.forms")
        messages = importlib.import_module(f"mcp_models.{package}.messages")
        schema = json.loads(forms.requested_schema(Signup).model_dump_json(by_alias=True, exclude_unset=True))
        assert schema["properties"]["email"]["format"] == "email", package
        plan = schema["properties"]["plan"]
        titles = {o["const"]: o["title"] for o in plan["oneOf"]} if "oneOf" in plan else dict(zip(plan["enum"], plan["enumNames"], strict=True))
        assert titles == {"free": "Free", "pro": "Pro"}, package
        if getattr(forms, "input_required", None) is not None and package != "surface":
            continue  # 2026-07-28 on: the request travels inside an InputRequiredResult, without an id
        request = forms.elicit_request(Signup, "Sign up?", id=9)
        if package == "surface":  # the surface's models leave the envelope to send, per revision
            from mcp_models import surface

            wire = json.loads(surface.send(request, "2025-11-25"))
        else:
            wire = json.loads(request.model_dump_json(by_alias=True))
        assert wire["jsonrpc"] == "2.0" and wire["id"] == 9 and wire["method"] == "elicitation/create", (package, wire)
        back = messages.parse_message(json.dumps(wire))
        assert json.loads(back.model_dump_json(by_alias=True)) == wire, package


def test_a_foreign_annotation_is_named_by_what_it_is() -> None:
    from typing import Annotated

    from pydantic import BaseModel

    from mcp_models.v2026_07_28.forms import FormError, requested_schema

    class Marker:
        titles = {"a": "A"}

    class Odd(BaseModel):
        pick: Annotated[str, Marker()]

    with pytest.raises(FormError) as caught:
        requested_schema(Odd)
    assert str(caught.value) == "Odd.pick: Marker: not a keyword MCP forms carry"
