"""The only importer of jinja2: the files around the engine's models module, rendered from the IR."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from . import ir
from .dcg import BASE_CLASS
from .resources import templates_dir


@cache
def _environment():  # type: ignore[no-untyped-def]
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir() / "package")),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )


def render(template: str, **context: object) -> str:
    return str(_environment().get_template(template).render(**context))


def revision_files(revision: ir.Revision, header: str, order: Sequence[str]) -> dict[str, str]:
    """The package files of one revision other than models.py, by path relative to the package.

    order: the models module's names in definition order (exports follow it).
    """
    by_name = {e.name: e for e in revision.entities}
    exports = [(by_name[name].export_name, name) for name in order]
    files = {
        "__init__.py": render("revision_init.py.jinja2", header=header, revision=revision, exports=exports),
        "_base.py": render("_base.py.jinja2", header=header, base_class=BASE_CLASS),
    }
    structural = structural_module(revision, header)
    if structural is not None:
        files["_structural.py"] = structural
    return files


def structural_module(revision: ir.Revision, header: str) -> str | None:
    """_structural.py: the rule tables of the revision's structurally discriminated unions."""
    unions = [e for e in revision.entities if e.dispatch is not None]
    if not unions:
        return None
    views = []
    for union in unions:
        assert union.dispatch is not None
        rules = [
            (revision.name_of(rule.arm), repr(tuple((p.op, p.path, p.values) for p in rule.predicates)))
            for rule in union.dispatch.rules
        ]
        views.append(
            {
                "name": union.name,
                "rules": rules,
                "closed_keys": repr(dict(union.dispatch.closed_keys)),
                "message": repr(_union_message(union, revision)),
            }
        )
    return render("_structural.py.jinja2", header=header, unions=views)


def _union_message(union: ir.Entity, revision: ir.Revision) -> str:
    """One short line saying how the arms are told apart."""
    assert union.dispatch is not None
    parts = []
    for rule in union.dispatch.rules:
        tests = [_describe(p) for p in rule.predicates if not (p.op == "has" and _pinned(p, rule))]
        parts.append(f"{revision.name_of(rule.arm)} ({', '.join(tests) or 'otherwise'})")
    return f"cannot tell which {union.export_name} this is: expected " + "; ".join(parts)


def _pinned(predicate: ir.Predicate, rule: ir.Rule) -> bool:
    return any(p.op == "eq" and p.path == predicate.path for p in rule.predicates)


def _describe(predicate: ir.Predicate) -> str:
    path = ".".join(predicate.path)
    values = " | ".join(repr(v) for v in predicate.values)
    if predicate.op == "has":
        return f"has {path}"
    if predicate.op == "is":
        return f"a JSON {values.strip(chr(39))}"
    if predicate.op == "eq":
        return f"{path} = {values}"
    return f"{path} = {values} or absent"


def root_files(revisions: Sequence[ir.Revision], header: str) -> dict[str, str]:
    return {
        "__init__.py": render("root_init.py.jinja2", header=header, revisions=revisions),
        "py.typed": "",
    }
