"""A package that holds its own runtime (a tools package) carries the runtime modules it imports and
those they import, found from the sources; no more, and none missing."""

from __future__ import annotations

import ast

from codegen.emit import runtime
from codegen.resources import runtime_dir


def test_a_package_needs_what_it_imports_and_what_that_imports() -> None:
    assert runtime.needed_by({"_base.py": "from ._runtime.base import ModelBase\n"}) == {"base"}
    # forms reads its answers' problems from elicitation; messages reads JSON with reading and
    # builds tolerant lists, which reading imports again when a text nests deep
    assert runtime.needed_by({"forms.py": "from .._runtime import forms as _forms\n"}) == {"forms", "elicitation"}
    assert runtime.needed_by({"m.py": "from .._runtime.messages import Routes\n"}) == {"messages", "reading", "tolerant"}
    # an import inside a function counts too; an absolute import or another relative one does not
    source = "import _runtime\nfrom .models import X\ndef f():\n    from ._runtime.jsonc import loads\n"
    assert runtime.needed_by({"x.py": source}) == {"jsonc"}
    assert runtime.needed_by({"x.py": "from .models import X\n"}) == frozenset()


def test_the_closure_is_complete_for_every_runtime_module() -> None:
    """Each module's closure holds every sibling it imports anywhere in its text, so the files
    written import (checked by the import of every generated tools package in test_tools*)."""
    names = {path.stem for path in runtime_dir().glob("*.py")}
    for module in names - {"__init__"}:
        needed = runtime.needed_by({"p.py": f"from ._runtime.{module} import x\n"})
        for other in needed:
            tree = ast.parse((runtime_dir() / f"{other}.py").read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.level == 1:
                    siblings = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
                    assert set(siblings) <= needed, (module, other, siblings)


def test_runtime_files_writes_only_what_is_asked_with_the_package_init() -> None:
    files = runtime.runtime_files("# stamp", only={"base"})
    assert sorted(files) == ["_runtime/__init__.py", "_runtime/base.py"]
    assert files["_runtime/base.py"].startswith("# stamp\n")
    assert len(runtime.runtime_files("# stamp")) == len(list(runtime_dir().glob("*.py")))
