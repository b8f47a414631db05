"""Run the bad-input corpus and print its table: case -> exit code, error code, time, peak memory.

    .venv/bin/python scripts/bad_input_table.py

The figures are each case's own `mcp-codegen` process (wall and CPU seconds, ru_maxrss), as the
tests measure them (tests/bad_input_support.py); the tests' own assertions run too, and a failing
one fails this script.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TESTS = sorted(
    str(p.relative_to(REPO)) for pattern in ("test_bad_input*.py", "test_hardening_*.py") for p in (REPO / "tests").glob(pattern)
)


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        rows_file = Path(scratch) / "rows.jsonl"
        tests = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--bad-input-table", str(rows_file), *TESTS],
            cwd=REPO,
            check=False,
        )
        rows = [json.loads(line) for line in rows_file.read_text().splitlines()] if rows_file.exists() else []
    print()
    print("| # | case | exit | error code | wall s | CPU s | peak MiB | note |")
    print("|---|------|------|------------|--------|-------|----------|------|")
    for index, row in enumerate(rows, 1):
        print(
            f"| {index} | {row['case']} | {row['exit']} | {row['code'] or '—'} | {row['seconds']:.2f} | "
            f"{row['cpu_seconds']:.2f} | {row['peak_mib']:.0f} | {row['note']} |"
        )
    errors = [r for r in rows if r["exit"] == 2]
    print(
        f"\n{len(rows)} cases: {len(errors)} refused with exit 2, {len(rows) - len(errors)} valid (exit 0); "
        f"max wall {max((r['seconds'] for r in rows), default=0):.2f} s, "
        f"max CPU {max((r['cpu_seconds'] for r in rows), default=0):.2f} s, "
        f"max peak {max((r['peak_mib'] for r in rows), default=0):.0f} MiB"
    )
    return tests.returncode


if __name__ == "__main__":
    sys.exit(main())
