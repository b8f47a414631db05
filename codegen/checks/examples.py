"""`mcp-codegen examples`: how the generated models fare on every example source of each revision.

Per revision and source (the examples tree, each documentation page): how many examples were found,
how many the revision's own JSON Schema accepts (checked with the jsonschema library, errata
applied), how many the models accept, how many round-trip losslessly, and what was rejected or
could not be routed, with reasons. Examples the schema rejects are reported and kept out of the
model score.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from codegen.schema import errata, load, spec
from codegen.errors import fail


@dataclass
class SourceReport:
    revision: str
    source: str  # "examples" or a page's file name
    title: str = ""  # what the source is: "examples" or the page's title (spec/examples.toml [titles])
    found: int = 0
    routed: int = 0
    schema_valid: int = 0
    accepted: int = 0  # of the schema-valid ones
    lossless: int = 0  # of the schema-valid ones
    schema_rejected: list[dict[str, str]] = field(default_factory=list[dict[str, str]])
    model_rejected: list[dict[str, str]] = field(default_factory=list[dict[str, str]])
    lossy: list[dict[str, str]] = field(default_factory=list[dict[str, str]])
    unrouted: list[dict[str, str]] = field(default_factory=list[dict[str, str]])
    # valid JSON Schema only through an arm the example's own `resultType` rules out (errata contradictions)
    contradicted: list[dict[str, str]] = field(default_factory=list[dict[str, str]])


def report(out: Path, revisions: list[str] | None, spec_source: str | None, docs_source: str | None) -> list[SourceReport]:
    chosen = spec.select(revisions)
    source = spec.resolve_source(spec_source) or str(spec.bundled_spec_source())
    if source.startswith(("http://", "https://")):
        raise fail("MCG801", "`examples` reads a local spec mirror", hint=f"set --spec-source or {spec.SPEC_SOURCE_ENV}")
    reports: list[SourceReport] = []
    # the generated _examples modules find their files through these variables
    with _environment({spec.SPEC_SOURCE_ENV: source, spec.DOCS_SOURCE_ENV: str(spec.resolve_docs_source(docs_source))}):
        for pin in chosen:
            package = _import(out, pin.package)
            if not (out / pin.package / "_examples.py").exists():
                continue  # a revision with no example source
            examples_module = _import(out, f"{pin.package}._examples")
            validator = _SchemaCheck(Path(source), pin.revision)
            validator.contradictions = {
                "examples/" + c.example: c.reason
                for c in errata.load_contradictions(pin.revision)
                if c.decision == "result-type"
            }
            by_source: dict[str, SourceReport] = {}
            for example in examples_module.all_examples():
                name = "examples" if example.origin.startswith("examples/") else example.origin.split("#", 1)[0]
                title = name if name == "examples" else spec.example_page_title(name)
                entry = by_source.setdefault(name, SourceReport(pin.revision, name, title))
                _account(entry, example, examples_module, validator, package)
            reports.extend(by_source[k] for k in sorted(by_source))
    return reports


@contextmanager
def _environment(values: dict[str, str]) -> Generator[None]:
    """Set environment variables for the duration, then put back what was there: a report run inside
    a longer-lived process (a test session) must not change what its later children see."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _account(entry: SourceReport, example: Any, module: ModuleType, validator: _SchemaCheck, package: ModuleType) -> None:
    entry.found += 1
    if example.target is None:
        entry.unrouted.append({"origin": example.origin, "reason": example.reason})
        return
    entry.routed += 1
    definition = _definition_of(example, package)
    problem = validator.first_error(definition, example.value) if definition else None
    if problem is not None:
        entry.schema_rejected.append({"origin": example.origin, "definition": definition or "", "error": problem})
        return
    if example.origin in validator.contradictions:
        entry.contradicted.append({"origin": example.origin, "reason": validator.contradictions[example.origin]})
        return
    entry.schema_valid += 1
    outcome = module.round_trip(example)
    if not outcome.accepted:
        entry.model_rejected.append({"origin": example.origin, "error": outcome.detail})
        return
    entry.accepted += 1
    if outcome.lossless:
        entry.lossless += 1
    else:
        entry.lossy.append({"origin": example.origin, "detail": outcome.detail})


def _definition_of(example: Any, package: ModuleType) -> str | None:
    """The schema definition an example is checked against (None: no single definition)."""
    names: dict[int, str] = {id(getattr(package, n)): n for n in package.__all__}
    if example.target == "message":
        try:
            parsed: object = package.parse_message(example.value)
        except ValueError:
            return "JSONRPCMessage"
        return names.get(id(type(parsed)), "JSONRPCMessage")
    if example.target.startswith("result of "):
        target = package.messages.RESULTS.get(example.target.removeprefix("result of "))
        return names.get(id(target))
    return str(example.target)


class _SchemaCheck:
    contradictions: dict[str, str]  # origin -> why, for examples decided by their resultType

    def __init__(self, source: Path, revision: str) -> None:
        import jsonschema.validators

        self.contradictions = {}
        document = json.loads(load.read_input(source / revision / "schema.json", root=source, revision=revision))
        self.document = errata.apply_errata(document, errata.load_errata(revision), revision)
        self.defs = "$defs" if "$defs" in self.document else "definitions"
        self.cls = jsonschema.validators.validator_for(self.document)

    def first_error(self, definition: str, value: Any) -> str | None:
        import jsonschema.exceptions

        if definition not in self.document[self.defs]:
            return None
        validator = self.cls({**self.document, "$ref": f"#/{self.defs}/{definition}"})
        # types-jsonschema leaves best_match's return type out (it is ValidationError | None)
        found = jsonschema.exceptions.best_match(validator.iter_errors(value))  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        error = cast("jsonschema.exceptions.ValidationError | None", found)
        if error is None:
            return None
        where = "/".join(str(p) for p in error.absolute_path)
        return f"{where or '(root)'}: {error.message[:200]}"


def _import(out: Path, package: str) -> ModuleType:
    root = out.resolve().parent
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        return importlib.import_module(f"{out.name}.{package}")
    except ImportError as exc:
        raise fail("MCG802", f"cannot import the generated package {out.name}.{package}: {exc}", hint="run `mcp-codegen generate` first") from exc


def as_json(reports: list[SourceReport]) -> str:
    return json.dumps([asdict(r) for r in reports], indent=2, sort_keys=True)


def as_text(reports: list[SourceReport]) -> Iterator[str]:
    yield f"{'revision':11} {'source':34} {'found':>5} {'routed':>6} {'schema-ok':>9} {'accepted':>8} {'lossless':>8}"
    for r in reports:
        shown = (r.title or r.source)[:34]
        yield f"{r.revision:11} {shown:34} {r.found:5} {r.routed:6} {r.schema_valid:9} {r.accepted:8} {r.lossless:8}"
    for r in reports:
        for kind, items in (
            ("schema rejects", r.schema_rejected),
            ("models reject", r.model_rejected),
            ("lossy", r.lossy),
            ("unrouted", r.unrouted),
            ("contradicted by its resultType", r.contradicted),
        ):
            for item in items:
                detail = item.get("error") or item.get("reason") or item.get("detail") or ""
                origin = item["origin"]
                if r.title and r.title != r.source and origin.startswith(r.source):
                    origin = f"{r.title} ({origin})"
                yield f"  {r.revision} {kind}: {origin}: {detail}"
