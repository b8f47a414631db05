"""Agreement between the generated models and their JSON Schema, per revision (a longer run than CI's).

    .venv/bin/python scripts/agreement.py [--per-definition 20]
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "generated"))
sys.path.insert(0, str(REPO))

from codegen.checks import agreement
from codegen.schema import errata
from codegen import spec  # noqa: E402
def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-definition", type=int, default=20)
    parser.add_argument("-r", "--revision", action="append")
    args = parser.parse_args()
    source = Path(os.environ.get(spec.SPEC_SOURCE_ENV) or REPO / "spec")
    print(f"{'revision':11} {'defs':>5} {'instances':>9} {'agreed':>7} {'mutations':>9} {'rejected':>8} {'agreement':>9}")
    for pin in spec.load_manifest():
        if args.revision and pin.revision not in args.revision:
            continue
        document = json.loads((source / pin.revision / "schema.json").read_text())
        document = errata.apply_errata(document, errata.load_errata(pin.revision), pin.revision)
        package = importlib.import_module(f"mcp_models.{pin.package}")
        r = agreement.measure(document, pin.revision, package, args.per_definition)
        print(
            f"{r.revision:11} {r.definitions:5} {r.instances:9} {r.instances_agreed:7} {r.mutations:9} "
            f"{r.mutations_agreed:8} {r.ratio:9.4%}"
        )
        for d in r.disagreements:
            print(f"    {d['definition']}: {d['kind']}: {d['instance']} {d['error']}")


if __name__ == "__main__":
    main()
