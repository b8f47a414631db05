"""Building messages on the pydantic of the running interpreter (scripts/test-floor.sh runs it on the
lowest supported one): every message of tests/typing/building_ok.py, built by keyword, must dump
exactly its hand-written wire JSON and read back to the same, with warnings as errors."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "generated"))  # after PYTHONPATH: another generation may be tried first


def main() -> int:
    import pydantic

    from tests.typing import building_ok

    warnings.simplefilter("error")
    builders = [getattr(building_ok, name) for name in sorted(vars(building_ok)) if name.startswith("build_")]
    built = wrong = 0
    for build in builders:
        for model, wire in build():
            built += 1
            again = type(model).model_validate_json(model.model_dump_json())
            if model.model_dump(mode="json") != wire or json.loads(model.model_dump_json()) != wire:
                wrong += 1
                print(f"{build.__name__}: {type(model).__name__} dumps other JSON than written", file=sys.stderr)
            elif again.model_dump(mode="json") != wire:
                wrong += 1
                print(f"{build.__name__}: {type(model).__name__} does not read back", file=sys.stderr)
    print(f"pydantic {pydantic.VERSION}: {built} messages built by keyword, {wrong} wrong")
    return 1 if wrong or not built else 0


if __name__ == "__main__":
    sys.exit(main())
