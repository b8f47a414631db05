"""The surface package against the per-revision packages it spans, in the same run.

    .venv/bin/python bench/surface.py [--rounds 9] [--repeat 20] [--revision 2025-11-25]

- receive: the revision's spec-example messages (2026-07-28's examples, those the revision's own
  schema takes), read at that revision: `surface.parse_message(raw, protocol_version=R)` (the
  revision's exact check, then the surface's object) vs `R.parse_message(raw)`;
- send: the received objects to wire JSON at that revision: `surface.send(obj, R)` (sieve, the
  revision's model, dump) vs `obj.model_dump_json()` on the revision's own objects;
- a long tools/list: the corpus's tools/list result with its tools repeated to --tools (renamed
  apart), as a server with many tools answers it, received and sent as above;
- import: cold `import` of the surface plus its names, vs the revision package plus its names, in
  fresh interpreters (alternating);
- the floors, what no exact surface can beat, in the same run: receive's two validations alone
  (the revision's `parse_message`, then the surface class's validator on the same text, nothing
  else) and send's three steps alone (the surface's dump, the revision class's `validate_json`
  of it, the revision object's dump), each against the same peer.

Ratios are ours / peer: below 1.0 the surface is slower. It pays by design for a second
validation (the revision's exact one, then its own) and a walk of the object on each side.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import subprocess
import sys

from _common import REPO, interleaved, message_corpus, ratio, table

PROBE = r"""
import sys, time, json
sys.path.insert(0, {generated!r})
import pydantic
t0 = time.perf_counter()
import {module} as package
names = [getattr(package, n) for n in ("CallToolRequest", "CallToolResult", "Tool", "parse_message")]
print(json.dumps(time.perf_counter() - t0))
"""


def _import_seconds(module: str) -> float:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(generated=str(REPO / "generated"), module=module)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return float(json.loads(done.stdout))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--revision", default="2026-07-28")
    parser.add_argument("--tools", type=int, default=50)
    args = parser.parse_args()
    revision = args.revision
    surface = importlib.import_module("mcp_models.surface")
    package = importlib.import_module(f"mcp_models.{surface.wire.PACKAGES[revision]}")
    corpus = []
    for sample in message_corpus("2026-07-28"):
        pending = {json.loads(sample.raw).get("id"): sample.method} if sample.method else None
        try:
            package.parse_message(sample.raw, pending=pending)
        except ValueError:
            continue  # not a message of this revision
        corpus.append((sample.raw, pending))
    received = [surface.parse_message(raw, protocol_version=revision, pending=p) for raw, p in corpus]
    own = [package.parse_message(raw, pending=p) for raw, p in corpus]
    for ours, theirs in zip(received, own, strict=True):  # like is compared with like
        assert json.loads(surface.send(ours, revision)) == json.loads(theirs.model_dump_json())

    long_list = _long_tools_list(corpus, args.tools)
    engine = surface.wire._surface  # the floors call the engine's own class lookups
    models = [engine._surface_class_of(revision, type(exact).__name__) for exact in own]
    validators = [model.__pydantic_validator__ for model in models if model is not None]
    own_classes = [engine._own_class(type(obj).__name__, revision) for obj in received]
    # the floors need each message's surface class and revision class (2026-07-28's corpus has
    # them; an older revision reads a response as a generic ResultResponse[...])
    floors = len(validators) == len(corpus) and all(own_classes)

    def receive_floor() -> int:
        for _ in range(args.repeat):
            for (raw, pending), validator in zip(corpus, validators, strict=True):
                package.parse_message(raw, pending=pending)
                validator.validate_json(raw)
        return args.repeat * len(corpus)

    def send_floor() -> int:
        for _ in range(args.repeat):
            for obj, own_class in zip(received, own_classes, strict=True):
                text = obj.__pydantic_serializer__.to_json(obj)
                own_class.model_validate_json(text).model_dump_json()
        return args.repeat * len(received)

    def receive_list_surface() -> int:
        raw, pending = long_list
        for _ in range(max(1, args.repeat // 4)):
            surface.parse_message(raw, protocol_version=revision, pending=pending)
        return max(1, args.repeat // 4)

    def receive_list_revision() -> int:
        raw, pending = long_list
        for _ in range(max(1, args.repeat // 4)):
            package.parse_message(raw, pending=pending)
        return max(1, args.repeat // 4)

    list_received = surface.parse_message(long_list[0], protocol_version=revision, pending=long_list[1])
    list_own = package.parse_message(long_list[0], pending=long_list[1])
    assert json.loads(surface.send(list_received, revision)) == json.loads(list_own.model_dump_json())

    def send_list_surface() -> int:
        for _ in range(max(1, args.repeat // 4)):
            surface.send(list_received, revision)
        return max(1, args.repeat // 4)

    def send_list_revision() -> int:
        for _ in range(max(1, args.repeat // 4)):
            list_own.model_dump_json()
        return max(1, args.repeat // 4)

    def receive_surface() -> int:
        for _ in range(args.repeat):
            for raw, pending in corpus:
                surface.parse_message(raw, protocol_version=revision, pending=pending)
        return args.repeat * len(corpus)

    def receive_revision() -> int:
        for _ in range(args.repeat):
            for raw, pending in corpus:
                package.parse_message(raw, pending=pending)
        return args.repeat * len(corpus)

    def send_surface() -> int:
        for _ in range(args.repeat):
            for message in received:
                surface.send(message, revision)
        return args.repeat * len(received)

    def send_revision() -> int:
        for _ in range(args.repeat):
            for message in own:
                message.model_dump_json()
        return args.repeat * len(own)

    timings = interleaved(
        {"receive surface": receive_surface, "receive revision": receive_revision,
         "send surface": send_surface, "send revision": send_revision,
         "receive list surface": receive_list_surface, "receive list revision": receive_list_revision,
         "send list surface": send_list_surface, "send list revision": send_list_revision,
         **({"receive floor surface": receive_floor, "send floor surface": send_floor} if floors else {})},
        args.rounds,
    )  # fmt: skip
    imports: dict[str, list[float]] = {"surface": [], "revision": []}
    for _ in range(args.rounds):
        imports["surface"].append(_import_seconds("mcp_models.surface"))
        imports["revision"].append(_import_seconds(f"mcp_models.{surface.wire.PACKAGES[revision]}"))
    rows = [("layer", "surface", f"{revision} package", "ratio surface/revision")]
    for layer, label in (("receive", "receive"), ("send", "send"), ("receive list", f"receive tools/list of {args.tools}"), ("send list", f"send tools/list of {args.tools}")):
        ours, peer = timings[f"{layer} surface"], timings[f"{layer} revision"]
        rows.append((f"{label} (msg/s)", f"{ours.median:,.0f}", f"{peer.median:,.0f}", f"{ratio(ours, peer):.2f}x"))
    for layer, label in (("receive", "receive floor: two validations alone"), ("send", "send floor: dump, validate, dump")):
        if not floors:
            rows.append((f"{label} (msg/s)", "n/a", "", "a message without its classes"))
            continue
        ours, peer = timings[f"{layer} floor surface"], timings[f"{layer} revision"]
        rows.append((f"{label} (msg/s)", f"{ours.median:,.0f}", f"{peer.median:,.0f}", f"{ratio(ours, peer):.2f}x"))
    ours_import, peer_import = statistics.median(imports["surface"]), statistics.median(imports["revision"])
    rows.append(("import + names (ms)", f"{ours_import * 1000:.1f}", f"{peer_import * 1000:.1f}", f"{ours_import / peer_import:.2f}x (time)"))
    print(f"{len(corpus)} messages of {revision}, {args.rounds} rounds x {args.repeat}")
    print(table(rows))
    return 0


def _long_tools_list(corpus: list[tuple[bytes, dict[object, str] | None]], tools: int) -> tuple[bytes, dict[object, str]]:
    """The corpus's tools/list result with its tools repeated to `tools`, each renamed apart."""
    for raw, pending in corpus:
        if pending and "tools/list" in pending.values():
            message = json.loads(raw)
            if message.get("result", {}).get("tools"):
                given = message["result"]["tools"]
                message["result"]["tools"] = [
                    {**given[index % len(given)], "name": f"tool_{index}"} for index in range(tools)
                ]
                return json.dumps(message, indent=2).encode(), pending
    raise SystemExit("the corpus has no tools/list result with tools")


if __name__ == "__main__":
    raise SystemExit(main())
