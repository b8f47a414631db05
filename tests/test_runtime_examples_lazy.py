"""The runtime's `examples` (the spec examples as round-trip checks) and `lazy` (a package's names
loaded on first use), unit-tested directly on small modules built here."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType

import pytest
from pydantic import BaseModel

from codegen.runtime.examples import Example, Examples, model_definitions, page_blocks
from codegen.runtime.lazy import lazy_names


def _models() -> ModuleType:
    models = ModuleType("fake_models")

    class Point(BaseModel):
        x: int
        y: int

    class Named(BaseModel):
        name: str
        note: str | None = None

    for cls in (Point, Named):
        cls.__module__, cls.__qualname__ = models.__name__, cls.__name__  # as if defined at the top
        setattr(models, cls.__name__, cls)
    models.Alias = Point  # an alias: not a definition of its own
    models.BaseModel = BaseModel  # imported: not defined here
    return models


def _examples(tmp_path: Path, **overrides: object) -> Examples:
    settings: dict[str, object] = {
        "revision": "2099-01-01",
        "package_dir": tmp_path,
        "models": _models(),
        "messages": None,
        "spec_env": "NO_SUCH_SPEC_ENV_FOR_TESTS",
        "docs_env": "NO_SUCH_DOCS_ENV_FOR_TESTS",
        "has_tree": True,
        "pages": (),
    }
    return Examples(**{**settings, **overrides})  # type: ignore[arg-type]


def test_definitions_are_the_classes_a_models_module_defines_not_aliases_or_imports() -> None:
    assert model_definitions(_models()) == ("Named", "Point")


def test_a_fragment_goes_to_the_definition_whose_required_keys_it_has(tmp_path: Path) -> None:
    examples = _examples(tmp_path)
    (tmp_path / "page.md").write_text('```json\n{"x": 1, "y": 2}\n```\n```json\n{"name": "n", "zzz": 1}\n```\n```json\n[1]\n```\n')
    found = _examples(tmp_path, pages=("page.md",)).page_examples(tmp_path)
    assert [(e.origin, e.target) for e in found] == [("page.md#block-0", "Point"), ("page.md#block-1", "Named"), ("page.md#block-2", None)]
    outcome = examples.round_trip(found[1])
    assert outcome.accepted and not outcome.lossless and outcome.dropped == ("/zzz",)
    assert examples.round_trip(found[0]).lossless


def test_a_message_without_method_tables_is_left_unrouted(tmp_path: Path) -> None:
    (tmp_path / "page.md").write_text('```json\n{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n```\n')
    [example] = _examples(tmp_path, pages=("page.md",)).page_examples(tmp_path)
    assert example.target is None and "no method tables" in example.reason


def test_examples_trees_come_from_the_pins_folder_when_the_environment_names_none(tmp_path: Path) -> None:
    pins = tmp_path / "pins" / "2099-01-01" / "examples" / "Point"
    pins.mkdir(parents=True)
    (pins / "one.json").write_text(json.dumps({"x": 1, "y": 2}))
    (tmp_path / "pkg").mkdir()
    examples = _examples(tmp_path / "pkg", pinned="../pins")
    assert [e.origin for e in examples.all_examples()] == ["examples/Point/one.json"]
    assert examples.round_trip(Example("x", {"x": 1}, "Point")).accepted is False


def test_page_blocks_read_jsonc_and_keep_what_is_not_json() -> None:
    values = page_blocks('```jsonc\n{"a": 1, // note\n}\n```\n```json\n{nope\n```\n')
    assert values[0] == {"a": 1} and type(values[1]).__name__ == "_Unparsed"


def test_lazy_names_load_once_from_their_submodule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "lazy_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "models.py").write_text("class Thing: ...\nclass Inner: ...\n")
    (package / "other.py").write_text("VALUE = 7\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import lazy_pkg

    namespace = vars(lazy_pkg)
    getattr_, dir_ = lazy_names("lazy_pkg", namespace, ["Thing", "Outer", "VALUE"], elsewhere={".other": ["VALUE"]}, renamed={"Outer": "Inner"})
    assert getattr_("Thing") is sys.modules["lazy_pkg.models"].Thing and namespace["Thing"] is getattr_("Thing")
    assert getattr_("Outer").__name__ == "Inner" and getattr_("VALUE") == 7
    assert getattr_("other") is sys.modules["lazy_pkg.other"]  # a submodule, on first use
    with pytest.raises(AttributeError, match="has no attribute 'missing'"):
        getattr_("missing")
    assert {"Thing", "Outer", "VALUE"} <= set(dir_())
    for name in [n for n in sys.modules if n.startswith("lazy_pkg")]:
        monkeypatch.delitem(sys.modules, name)
