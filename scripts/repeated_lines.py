"""How much of the generated revision packages repeats across them: the figure of issue 37.

    .venv/bin/python scripts/repeated_lines.py [ROOT]   (ROOT: generated/mcp_models by default)

Over the non-model files of each revision package (every .py but models.py and tests/), a long line
is a stripped line of 30 characters or more; a long line "repeats" when the same text stands in
the non-model files of two or more packages, and each of its occurrences in those packages counts.
Also printed: the total lines of ROOT's .py files (the shared `_runtime/` included, counted once),
and the lines of Python inside the Jinja templates of templates/package/. With --by-kind, the
repeated lines by what holds them (a table, an import, a typed signature, a class, ...), per file.
"""

from __future__ import annotations

import argparse
import ast
import re
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LONG = 30
_PACKAGE = re.compile(r"^(v\d{4}_\d{2}_\d{2}|draft)$")


def long_lines(package: Path) -> list[str]:
    """The long lines of a package's non-model files, in file order."""
    found: list[str] = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package)
        if path.name == "models.py" or relative.parts[0] == "tests":
            continue
        found += [s for line in path.read_text(encoding="utf-8").splitlines() if len(s := line.strip()) >= LONG]
    return found


def repeated(root: Path) -> int:
    """Occurrences of long lines that stand in two or more revision packages."""
    packages = sorted(p for p in root.iterdir() if p.is_dir() and _PACKAGE.match(p.name))
    per_package = [long_lines(p) for p in packages]
    holders = Counter(line for lines in per_package for line in set(lines))
    return sum(1 for lines in per_package for line in lines if holders[line] >= 2)


def _kinds(text: str) -> dict[int, str]:
    """What each line of a module belongs to, by its top-level statement (a TYPE_CHECKING block's
    by the statement inside it)."""
    kinds: dict[int, str] = {}

    def mark(node: ast.stmt, kind: str) -> None:
        for number in range(node.lineno, (node.end_lineno or node.lineno) + 1):
            kinds.setdefault(number, kind)

    def kind_of(node: ast.stmt) -> str:
        if isinstance(node, ast.Import | ast.ImportFrom):
            return "import"
        if isinstance(node, ast.FunctionDef):
            return "function"
        if isinstance(node, ast.ClassDef):
            return "class"
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            return "docstring"
        if isinstance(node, ast.Assign | ast.AnnAssign):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            return "__all__" if isinstance(target, ast.Name) and target.id == "__all__" else "table or binding"
        return "other"

    for node in ast.parse(text).body:
        if isinstance(node, ast.If):  # `if TYPE_CHECKING:` ... `else:`
            for inner in node.body:
                kind = kind_of(inner)
                mark(inner, {"function": "typed signature", "table or binding": "type alias"}.get(kind, kind))
            for inner in node.orelse:
                mark(inner, kind_of(inner))
        else:
            mark(node, kind_of(node))
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("#"):
            kinds[number] = "header comment"
    return kinds


def repeated_by_kind(root: Path) -> Counter[tuple[str, str]]:
    """The repeated occurrences of `repeated`, by (file name, kind of statement holding them)."""
    packages = sorted(p for p in root.iterdir() if p.is_dir() and _PACKAGE.match(p.name))
    per_package: list[list[tuple[str, str, str]]] = []
    for package in packages:
        found: list[tuple[str, str, str]] = []
        for path in sorted(package.rglob("*.py")):
            if path.name == "models.py" or path.relative_to(package).parts[0] == "tests":
                continue
            text = path.read_text(encoding="utf-8")
            kinds = _kinds(text)
            for number, line in enumerate(text.splitlines(), 1):
                if len(stripped := line.strip()) >= LONG:
                    found.append((path.name, kinds.get(number, "other"), stripped))
        per_package.append(found)
    holders = Counter(line for found in per_package for line in {entry[2] for entry in found})
    return Counter((name, kind) for found in per_package for name, kind, line in found if holders[line] >= 2)


def total_lines(root: Path) -> int:
    return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in root.rglob("*.py"))


def template_python_lines(folder: Path) -> tuple[int, int]:
    """(all lines, lines holding Jinja) of the package templates."""
    lines = [line for path in sorted(folder.glob("*.jinja2")) for line in path.read_text(encoding="utf-8").splitlines()]
    return len(lines), sum(1 for line in lines if "{{" in line or "{%" in line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, default=REPO / "generated" / "mcp_models")
    parser.add_argument("--by-kind", action="store_true", help="the repeated lines by file and statement kind")
    args = parser.parse_args()
    lines, jinja = template_python_lines(REPO / "templates" / "package")
    print(f"long lines (>= {LONG} chars) repeated across revision packages' non-model files: {repeated(args.root)}")
    print(f"total lines of {args.root.name} (.py): {total_lines(args.root)}")
    print(f"lines of templates/package/*.jinja2: {lines} ({jinja} of them with Jinja)")
    if args.by_kind:
        counts = repeated_by_kind(args.root)
        totals: Counter[str] = Counter()
        for (_, kind), count in counts.items():
            totals[kind] += count
        print("repeated, by kind: " + ", ".join(f"{kind} {count}" for kind, count in totals.most_common()))
        for (name, kind), count in counts.most_common():
            print(f"{count:6}  {name}: {kind}")


if __name__ == "__main__":
    main()
