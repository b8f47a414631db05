"""The spec's own examples as round-trip checks: the part no revision changes. A revision package's
_examples.py builds one `Examples` from its models module, its messages module (when the revision
has method tables) and where its examples are; its shipped tests call that object.

Each JSON-RPC message is routed by the method tables (a result through the request of the same id
earlier on its page); any other block is a fragment, routed to the most specific definition whose
required keys it has and which accepts it.
"""

from __future__ import annotations

import importlib
import json
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo

from . import jsonc

__all__ = ["Example", "Examples", "Outcome", "page_blocks"]

_FENCE = re.compile(r"```jsonc?[^\n]*\n(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class Example:
    origin: str  # "examples/Tool/with-no-parameters.json" or "<page>#block-3"
    value: Any
    target: (
        str | None
    )  # the definition (or "result of <method>") it is checked against; None: unrouted
    reason: str = ""  # why it is unrouted


@dataclass(frozen=True)
class Outcome:
    accepted: bool
    lossless: bool
    detail: str = ""
    dropped: tuple[str, ...] = ()
    """JSON pointers of the keys the dump left out (the rest of the dump equals the input)."""
    changed: tuple[str, ...] = ()
    """JSON pointers where the dump holds another value than the input (never expected)."""


@dataclass(frozen=True)
class _Unparsed:
    text: str


def page_blocks(text: str) -> list[Any]:
    """The JSON values of a page: its ```json / ```jsonc blocks, or for a page rendered to plain
    text, the objects that start a line."""
    values: list[Any] = []
    fenced = _FENCE.findall(text)
    for block in fenced:
        try:
            values.extend(jsonc.loads_all(block))
        except ValueError:
            values.append(_Unparsed(block))
    if not fenced:
        decoder = json.JSONDecoder()
        cleaned = jsonc.strip(text)
        position = 0
        while (start := cleaned.find("\n{", position)) != -1:
            try:
                value, position = decoder.raw_decode(cleaned, start + 1)
                values.append(value)
            except ValueError:
                position = start + 2
    return values


def model_definitions(models: ModuleType) -> tuple[str, ...]:
    """The names of the model classes a generated models module defines (not those it imports),
    sorted: the definitions a fragment may be routed to."""
    return tuple(
        sorted(
            name
            for name, value in vars(models).items()
            if isinstance(value, type)
            and issubclass(value, BaseModel)
            and value.__module__ == models.__name__
            and value.__qualname__ == name  # not an alias (`EmptyResult = Result`)
        )
    )


class Examples:
    """Where one revision's examples are and how each round-trips through its models."""

    def __init__(
        self,
        *,
        revision: str,
        package_dir: Path,
        models: ModuleType,
        messages: ModuleType | None,
        spec_env: str,
        docs_env: str,
        has_tree: bool,
        pages: Sequence[str],
        pinned: str | None = None,
        quiet_union_dumps: bool = False,
    ) -> None:
        self.revision = revision
        self.package_dir = package_dir
        self.models = models
        self.messages = messages
        self.spec_env = spec_env
        self.docs_env = docs_env
        self.has_tree = has_tree
        self.pages = tuple(pages)
        self.pinned = pinned  # the project's pins folder, relative to the package (`spec bump`)
        self.quiet_union_dumps = (
            quiet_union_dumps  # pydantic before 2.13 warns spuriously on bare unions
        )
        self._definitions: tuple[str, ...] | None = None
        self._adapters: dict[str, TypeAdapter[Any]] = {}

    @property
    def definitions(self) -> tuple[str, ...]:
        if self._definitions is None:
            self._definitions = model_definitions(self.models)
        return self._definitions

    def sources(self) -> tuple[Path | None, Path | None]:
        """(spec source, docs folder): the environment's, else for examples trees the project's pins
        folder when `spec bump` kept one, else the spec data shipped with mcp-codegen if it is
        installed beside this package (the generator's data, so nothing is copied into it)."""
        spec = os.environ.get(self.spec_env)
        docs = os.environ.get(self.docs_env)
        shipped = _shipped_spec_data()
        if not spec and self.pinned is not None:  # never the shipped examples of another commit
            spec = str(self.package_dir / self.pinned)
        return (
            Path(spec) if spec else shipped,
            Path(docs) if docs else (shipped / "pages" if shipped is not None else None),
        )

    def tree_examples(self, spec_source: Path) -> list[Example]:
        root = spec_source / self.revision / "examples"
        return [
            Example(
                f"examples/{path.parent.name}/{path.name}",
                json.loads(path.read_bytes()),
                path.parent.name,
            )
            for path in sorted(root.glob("*/*.json"))
        ]

    def page_examples(self, docs_source: Path) -> list[Example]:
        examples: list[Example] = []
        for page in self.pages:
            pending: dict[Any, str] = {}
            for index, value in enumerate(
                page_blocks((docs_source / page).read_text(encoding="utf-8"))
            ):
                origin = f"{page}#block-{index}"
                if isinstance(value, _Unparsed):
                    examples.append(
                        Example(
                            origin,
                            None,
                            None,
                            "not JSON, even allowing comments and trailing commas",
                        )
                    )
                elif (
                    isinstance(value, dict)
                    and cast("dict[str, Any]", value).get("jsonrpc") == "2.0"
                ):
                    examples.append(self._message(origin, cast("dict[str, Any]", value), pending))
                else:
                    examples.append(self._fragment(origin, value))
        return examples

    def all_examples(self) -> Iterator[Example]:
        spec, docs = self.sources()
        if self.has_tree and spec is not None:
            yield from self.tree_examples(spec)
        if self.pages and docs is not None:
            yield from self.page_examples(docs)

    def round_trip(self, example: Example) -> Outcome:
        """Validate, dump as users do (`model_dump(mode="json")`: wire names, absent fields left
        out) and compare with the input."""
        assert example.target is not None
        try:
            if example.target == "message" or example.target.startswith("result of "):
                if self.messages is None:
                    return Outcome(False, False, "no method tables")
                if example.target == "message":
                    parsed: Any = self.messages.parse_message(example.value)
                else:
                    parsed = self.messages.parse_result(
                        example.target.removeprefix("result of "), example.value
                    )
                dumped = parsed.model_dump(mode="json")
            else:
                adapter = self._adapter(example.target)
                parsed = adapter.validate_python(example.value)
                dumped = (
                    parsed.model_dump(mode="json")
                    if isinstance(parsed, BaseModel)
                    else adapter.dump_python(
                        parsed, mode="json", warnings=not self.quiet_union_dumps
                    )
                )
        except (ValidationError, ValueError) as exc:
            return Outcome(False, False, " ".join(str(exc).split())[:300])
        if _canonical(dumped) == _canonical(example.value):
            return Outcome(True, True)
        dropped: list[str] = []
        changed: list[str] = []
        _compare(example.value, dumped, "", dropped, changed)
        left_out, differ = ", ".join(dropped) or "none", ", ".join(changed) or "none"
        lost = f"keys left out: {left_out}; values changed: {differ}"
        return Outcome(
            True,
            False,
            f"{lost}; dumped {_canonical(dumped)[:200]}",
            tuple(dropped),
            tuple(changed),
        )

    def _message(self, origin: str, value: dict[str, Any], pending: dict[Any, str]) -> Example:
        if self.messages is None:
            return Example(origin, value, None, "this revision has no method tables")
        if "method" in value and "id" in value:
            pending[value["id"]] = value["method"]
        if "result" in value:
            method = pending.get(value.get("id"))
            if method is None:
                return Example(
                    origin,
                    value,
                    None,
                    "a result with no request of the same id before it on the page",
                )
            return Example(origin, value["result"], f"result of {method}")
        return Example(origin, value, "message")

    def _adapter(self, name: str) -> TypeAdapter[Any]:
        if name not in self._adapters:
            self._adapters[name] = TypeAdapter(getattr(self.models, name))
        return self._adapters[name]

    def _keys(self, name: str) -> tuple[frozenset[str], frozenset[str]]:
        """(required, declared) wire keys of a model definition."""
        fields: dict[str, FieldInfo] = (
            getattr(getattr(self.models, name), "model_fields", None) or {}
        )
        declared = {f.alias or key: f.is_required() for key, f in fields.items()}
        return frozenset(k for k, required in declared.items() if required), frozenset(declared)

    def _fragment(self, origin: str, value: Any) -> Example:
        """The model definition that fits a fragment best: it has every required key of it, and
        either declares every key of the fragment or requires at least one; the most required keys
        win, then the most declared ones, then the name."""
        if not isinstance(value, dict):
            return Example(origin, value, None, "a fragment that is not an object")
        keys = frozenset(cast("dict[str, Any]", value))
        fits: list[tuple[int, int, str]] = []
        for name in self.definitions:
            required, declared = self._keys(name)
            if not required <= keys or not (required or keys <= declared):
                continue
            try:
                self._adapter(name).validate_python(value)
            except ValidationError:
                continue
            fits.append((-len(required), -len(keys & declared), name))
        if not fits:
            return Example(origin, value, None, "a fragment no definition fits")
        return Example(origin, value, min(fits)[2])


def _shipped_spec_data() -> Path | None:
    try:  # by name: the models never need mcp-codegen, only these tests can use its data
        resources = importlib.import_module("codegen.resources")
        return Path(resources.spec_dir())
    except (ImportError, AttributeError, FileNotFoundError):
        return None


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _compare(given: Any, dumped: Any, pointer: str, dropped: list[str], changed: list[str]) -> None:
    """Where the dump differs from the input: keys it left out, values it changed."""
    if isinstance(given, dict) and isinstance(dumped, dict):
        given_keys = cast("dict[str, object]", given)
        dumped_keys = cast("dict[str, object]", dumped)
        for key, value in given_keys.items():
            here = f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}"
            if key not in dumped_keys:
                dropped.append(here)
            else:
                _compare(value, dumped_keys[key], here, dropped, changed)
        changed.extend(f"{pointer}/{key}" for key in dumped_keys if key not in given_keys)
        return
    if isinstance(given, list) and isinstance(dumped, list):
        given_items = cast("list[object]", given)
        dumped_items = cast("list[object]", dumped)
        if len(given_items) == len(dumped_items):
            for index, (value, again) in enumerate(zip(given_items, dumped_items)):
                _compare(value, again, f"{pointer}/{index}", dropped, changed)
            return
    if _canonical(given) != _canonical(dumped):
        changed.append(pointer or "/")
