"""What two correctness promises cost on the paths issue 23 times: the same work with the promise
kept (as shipped) and with it relaxed, against the same peer, in the same run, interleaved.

    .venv/bin/python bench/promises.py [--rounds 11] [--repeat 100] [--build-repeat 1000]

The promises, and how each is relaxed here (never in a shipped package):
- non-finite numbers refused: parse_message and parse_envelope scan the text for NaN, Infinity and
  numbers past a double before they read it, because pydantic-core's JSON reader accepts all three
  and a value of any JSON (`arguments`, `structuredContent`, an unknown key) would keep them.
  "no scan" is the same call with that scan switched off, in this process only;
- lossless reading: every model keeps the keys it does not know (pydantic's extra="allow").
  "extra-keys=sieve" is the 2026-07-28 package generated with `--extra-keys sieve` into a temporary
  folder: it keeps unknown keys only where the schema allows more keys, and drops them elsewhere
  (pydantic's extra="ignore"), which is what the SDK's generated models do.

The peer is the official SDK's generated mcp_types._v2026_07_28 (its hand-written models too for
the build), read and built exactly as bench/parse.py and bench/build.py do.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from _common import Timing, interleaved, message_corpus, ratio, spec_source, table
from parse import sdk_generated_messages, sdk_generated_typed
from pydantic import TypeAdapter

from build import ours_from, sdk_generated, sdk_handwritten

REVISION = "2026-07-28"
RELAXED_PACKAGE = "mcp_relaxed"


def relaxed_package(folder: Path) -> ModuleType:
    """The 2026-07-28 models generated with --extra-keys sieve into folder, imported."""
    command = [
        sys.executable, "-m", "codegen", "generate", "--revision", REVISION, "--out", str(folder / RELAXED_PACKAGE),
        "--package", RELAXED_PACKAGE, "--extra-keys", "sieve", "--spec-source", str(spec_source()), "--quiet",
    ]  # fmt: skip
    # run from the folder: the project's own [tool.mcp-codegen] settings do not apply
    subprocess.run(command, check=True, cwd=folder)
    sys.path.insert(0, str(folder))
    return importlib.import_module(f"{RELAXED_PACKAGE}.v2026_07_28")


@contextmanager
def non_finite_scan(package: ModuleType, *, on: bool) -> Iterator[None]:
    """The package's pre-read scan for non-finite numbers, on or off while the block runs."""
    messages = package.messages
    scan = messages._may_hold_non_finite
    if not on:
        messages._may_hold_non_finite = lambda _raw: False
    try:
        yield
    finally:
        messages._may_hold_non_finite = scan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument(
        "--repeat", type=int, default=100, help="passes over the corpus per round"
    )
    parser.add_argument(
        "--build-repeat", type=int, default=1000, help="message sets built per round"
    )
    args = parser.parse_args()

    import mcp_types._v2026_07_28 as sdk_gen
    from mcp_models import v2026_07_28 as ours

    corpus = message_corpus(REVISION)
    raws = [sample.raw for sample in corpus]
    pending = [
        (
            {json.loads(s.raw)["id"]: s.method}
            if s.kind == "response" and s.method
            else None
        )
        for s in corpus
    ]
    work = Path(tempfile.mkdtemp(prefix="bench-promises-"))
    atexit.register(shutil.rmtree, work, ignore_errors=True)
    relaxed = relaxed_package(work)

    # A relaxed package must read, build and dump the same messages to the same wire JSON.
    for package in (ours, relaxed):
        with non_finite_scan(package, on=False):
            for index, raw in enumerate(raws):
                if json.loads(
                    package.parse_message(raw, pending[index]).model_dump_json()
                ) != json.loads(raw):
                    sys.exit(
                        f"{package.__name__} reads {corpus[index].name} other than its wire JSON"
                    )
    if ours_from(relaxed)() != ours_from(ours)():
        sys.exit("the extra-keys=sieve package builds other wire JSON than ours")

    def over_corpus(read: Callable[[int, bytes], Any]) -> Callable[[], int]:
        # every contender is called as read(index, raw), one frame over its own call, as in parse.py
        def run() -> int:
            for _ in range(args.repeat):
                for index, raw in enumerate(raws):
                    read(index, raw)
            return args.repeat * len(raws)

        return run

    def scanning(
        package: ModuleType, read: Callable[[int, bytes], Any], *, scan: bool
    ) -> Callable[[], int]:
        """over_corpus(read) with package's scan for non-finite numbers on or off."""
        timed = over_corpus(read)

        def run() -> int:
            with non_finite_scan(package, on=scan):
                return timed()

        return run

    def typed(index: int, raw: bytes) -> Any:
        return ours.parse_message(raw, pending[index])

    def envelope(_index: int, raw: bytes) -> Any:
        return ours.parse_envelope(raw)

    def built(build: Callable[[], list[bytes]]) -> Callable[[], int]:
        def run() -> int:
            for _ in range(args.build_repeat):
                build()
            return args.build_repeat * 4

        return run

    def dumped(models: list[Any]) -> Callable[[], int]:
        def run() -> int:
            for _ in range(args.repeat):
                for model in models:
                    model.model_dump_json(by_alias=True, exclude_unset=True)
            return args.repeat * len(models)

        return run

    sdk_typed = sdk_generated_typed(corpus, sdk_gen)
    sdk_envelope = TypeAdapter(sdk_gen.JSONRPCMessage)

    benches: dict[str, dict[str, Callable[[], int]]] = {
        "typed parse_message": {
            "as shipped": scanning(ours, typed, scan=True),
            "no scan": scanning(ours, typed, scan=False),
            "sdk-generated": over_corpus(sdk_typed),
        },
        "parse_envelope": {
            "as shipped": scanning(ours, envelope, scan=True),
            "no scan": scanning(ours, envelope, scan=False),
            "sdk-generated": over_corpus(
                lambda _index, raw: sdk_envelope.validate_json(raw)
            ),
        },
        "build + dump": {
            "as shipped": built(ours_from(ours)),
            "extra-keys=sieve": built(ours_from(relaxed)),
            "sdk-generated": built(sdk_generated),
            "sdk-handwritten": built(sdk_handwritten),
        },
        "dump, the same call": {
            "as shipped": dumped(
                [ours.parse_message(raw, pending[i]) for i, raw in enumerate(raws)]
            ),
            "extra-keys=sieve": dumped(
                [relaxed.parse_message(raw, pending[i]) for i, raw in enumerate(raws)]
            ),
            "sdk-generated": dumped(sdk_generated_messages(corpus, sdk_gen)),
        },
    }
    flat = {
        f"{bench}/{who}": run
        for bench, contenders in benches.items()
        for who, run in contenders.items()
    }
    results: dict[str, Timing] = interleaved(flat, rounds=args.rounds)

    print(
        f"corpus: {len(raws)} JSON-RPC messages from the {REVISION} spec examples; {args.rounds} interleaved rounds"
    )
    print()
    rows = [
        (
            "path",
            "contender",
            "median ops/s",
            "spread (min..max)",
            "/ sdk-generated",
            "/ sdk-handwritten",
        )
    ]
    for bench, contenders in benches.items():
        peer = results[f"{bench}/sdk-generated"]
        handwritten = results.get(f"{bench}/sdk-handwritten")
        for who in contenders:
            if who.startswith("sdk-"):
                continue
            mine = results[f"{bench}/{who}"]
            rows.append((
                bench, who, f"{mine.median:,.0f}", mine.spread(), f"{ratio(mine, peer):.2f}x",
                f"{ratio(mine, handwritten):.2f}x" if handwritten is not None else "",
            ))  # fmt: skip
    print(table(rows))
    print()
    print(
        "targets of issue 23, as shipped: typed >= 3.8x; parse_envelope >= 2.0x; build >= 1.0x both;"
        " the same-call dump >= 1.0x"
    )


if __name__ == "__main__":
    main()
