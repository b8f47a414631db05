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
    return {
        "__init__.py": render("revision_init.py.jinja2", header=header, revision=revision, exports=exports),
        "_base.py": render("_base.py.jinja2", header=header, base_class=BASE_CLASS),
    }


def root_files(revisions: Sequence[ir.Revision], header: str) -> dict[str, str]:
    return {
        "__init__.py": render("root_init.py.jinja2", header=header, revisions=revisions),
        "py.typed": "",
    }
