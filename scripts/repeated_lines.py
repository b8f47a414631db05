"""How much of the generated revision packages repeats across them: the figure of issue 37.

    .venv/bin/python scripts/repeated_lines.py [ROOT]   (ROOT: generated/mcp_models by default)

Over the non-model files of each revision package (every .py but models.py and tests/), a long line
is a stripped line of 30 characters or more; a long line "repeats" when the same text stands in
the non-model files of two or more packages, and each of its occurrences in those packages counts.
Also printed: the total lines of ROOT's .py files (the shared `_runtime/` included, counted once),
and the lines of Python inside the Jinja templates of templates/package/.
"""

from __future__ import annotations

import argparse
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


def total_lines(root: Path) -> int:
    return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in root.rglob("*.py"))


def template_python_lines(folder: Path) -> tuple[int, int]:
    """(all lines, lines holding Jinja) of the package templates."""
    lines = [line for path in sorted(folder.glob("*.jinja2")) for line in path.read_text(encoding="utf-8").splitlines()]
    return len(lines), sum(1 for line in lines if "{{" in line or "{%" in line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, default=REPO / "generated" / "mcp_models")
    args = parser.parse_args()
    lines, jinja = template_python_lines(REPO / "templates" / "package")
    print(f"long lines (>= {LONG} chars) repeated across revision packages' non-model files: {repeated(args.root)}")
    print(f"total lines of {args.root.name} (.py): {total_lines(args.root)}")
    print(f"lines of templates/package/*.jinja2: {lines} ({jinja} of them with Jinja)")


if __name__ == "__main__":
    main()
