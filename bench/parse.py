"""Parse and dump throughput of a mixed JSON-RPC corpus (the 2026-07-28 spec examples):
mcp_models.v2026_07_28 vs the official SDK's generated mcp_types._v2026_07_28 and its hand-written
mcp_types, and vs "limit" (bench/limit.py: plain pydantic models of the same corpus, hand-written,
every union tagged in pydantic-core or by the smallest callable), measured in the same process,
interleaved.

    .venv/bin/python bench/parse.py [--rounds 15]

Layers:
- envelope: bytes -> the JSON-RPC envelope model (request / notification / response / error)
- typed: bytes -> the typed model of the message; a response typed by the method of the request it
  answers (both sides get that method: results do not say which request they answer)
- dump: typed model -> JSON bytes, wire names, unset fields left out
- dispatch/<union>: bytes -> the schema's dispatch union through a plain `TypeAdapter(...).validate_json`
  (what an SDK's dispatch tables call): ClientRequest over the requests, ServerNotification over the
  notifications, ServerResult over the responses' `result` members
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from _common import Sample, interleaved, message_corpus, ratio, table

from pydantic import TypeAdapter

REVISION = "2026-07-28"
VERSION = "2026-07-28"


def sdk_generated_typed(corpus: list[Sample], sdk_gen: ModuleType) -> Callable[[int, bytes], Any]:
    """The typed read of corpus[index] with what the SDK's generated package offers: its
    ClientRequest / notification unions, and for a response the envelope plus its ServerResult union
    (it has no method table). bench/promises.py times the same reader."""
    requests = TypeAdapter(sdk_gen.ClientRequest)
    notifications = TypeAdapter(sdk_gen.ServerNotification | sdk_gen.ClientNotification)
    errors = TypeAdapter(sdk_gen.JSONRPCErrorResponse)
    server_result = TypeAdapter(sdk_gen.ServerResult)
    result_response = TypeAdapter(sdk_gen.JSONRPCResultResponse)

    def read(index: int, raw: bytes) -> Any:
        sample = corpus[index]
        if sample.kind == "request":
            return requests.validate_json(raw)
        if sample.kind == "notification":
            return notifications.validate_json(raw)
        if sample.kind == "response":
            envelope = result_response.validate_json(raw)
            return envelope, server_result.validate_python(json.loads(raw)["result"])
        return errors.validate_json(raw)

    return read


def sdk_generated_messages(corpus: list[Sample], sdk_gen: ModuleType) -> list[Any]:
    """Each whole message as the SDK's generated package holds one, for the dumps: a response as the
    method's own response class where the SDK generated one, else as its envelope (whose `result` is
    its generic Result), not the typed result alone, which is not a message (ours dumps the whole
    response)."""
    read = sdk_generated_typed(corpus, sdk_gen)
    result_response = TypeAdapter(sdk_gen.JSONRPCResultResponse)
    messages = []
    for index, sample in enumerate(corpus):
        if sample.kind != "response":
            messages.append(read(index, sample.raw))
            continue
        response_class = getattr(sdk_gen, sample.name.split("/")[0], None)
        adapter = TypeAdapter(response_class) if response_class is not None else result_response
        messages.append(adapter.validate_json(sample.raw))
    return messages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=20, help="passes over the corpus per round")
    args = parser.parse_args()

    import mcp_types
    import mcp_types._v2026_07_28 as sdk_gen
    from mcp_types import jsonrpc as sdk_jsonrpc
    from mcp_types import methods as sdk_methods

    import limit

    from mcp_models import v2026_07_28 as ours

    corpus = message_corpus(REVISION)
    pending = [({json.loads(s.raw)["id"]: s.method} if s.kind == "response" and s.method else None) for s in corpus]

    # --- envelope layer
    our_envelope = TypeAdapter(ours.JSONRPCMessage)
    sdk_gen_envelope = TypeAdapter(sdk_gen.JSONRPCMessage)
    sdk_envelope = sdk_jsonrpc.jsonrpc_message_adapter

    # --- typed layer
    def our_typed(index: int, raw: bytes) -> Any:
        return ours.parse_message(raw, pending[index])

    gen_server_result = TypeAdapter(sdk_gen.ServerResult)

    def gen_response_parser(type_name: str) -> Callable[[bytes], Any]:
        # The method's own response class where the SDK generated one; else the envelope plus the
        # ServerResult union for the result (the SDK's generated package has no method table).
        if hasattr(sdk_gen, type_name):
            return TypeAdapter(getattr(sdk_gen, type_name)).validate_json
        return lambda raw: gen_server_result.validate_python(json.loads(raw)["result"])

    gen_responses = {
        sample.method: gen_response_parser(sample.name.split("/")[0])
        for sample in corpus
        if sample.kind == "response" and sample.method
    }

    sdk_gen_typed = sdk_generated_typed(corpus, sdk_gen)

    def sdk_gen_tables_typed(index: int, raw: bytes) -> Any:
        # The same, but given our method table for responses: the method's own response class.
        sample = corpus[index]
        if sample.kind == "response":
            return gen_responses[sample.method](raw)
        return sdk_gen_typed(index, raw)

    def sdk_typed(index: int, raw: bytes) -> Any:
        sample = corpus[index]
        envelope = sdk_envelope.validate_json(raw)
        if sample.kind == "request":
            return sdk_methods.parse_client_request(envelope.method, VERSION, envelope.params)
        if sample.kind == "notification":
            if envelope.method in {m for (m, _v) in sdk_methods.SERVER_NOTIFICATIONS}:
                return sdk_methods.parse_server_notification(envelope.method, VERSION, envelope.params)
            return sdk_methods.parse_client_notification(envelope.method, VERSION, envelope.params)
        if sample.kind == "response":
            return sdk_methods.parse_server_result(sample.method, VERSION, envelope.result)
        return envelope

    def limit_typed(index: int, raw: bytes) -> Any:
        sample = corpus[index]
        return limit.typed(sample.kind, sample.method, raw)

    # Everyone must read the whole corpus before anything is timed.
    for label, fn in (
        ("ours", our_typed),
        ("limit", limit_typed),
        ("sdk generated", sdk_gen_typed),
        ("sdk generated + tables", sdk_gen_tables_typed),
        ("sdk hand-written", sdk_typed),
    ):
        for index, sample in enumerate(corpus):
            try:
                fn(index, sample.raw)
            except Exception as exc:  # noqa: BLE001 - report and stop: a benchmark of failures means nothing
                sys.exit(f"{label} cannot parse {sample.name}: {type(exc).__name__}: {str(exc)[:200]}")

    def batch(fn: Callable[[int, bytes], Any]) -> Callable[[], int]:
        raws = [s.raw for s in corpus]

        def run() -> int:
            for _ in range(args.repeat):
                for index, raw in enumerate(raws):
                    fn(index, raw)
            return args.repeat * len(raws)

        return run

    def batch_of(adapter: TypeAdapter[Any], raws: list[bytes]) -> Callable[[], int]:
        validate = adapter.validate_json

        def run() -> int:
            for _ in range(args.repeat):
                for raw in raws:
                    validate(raw)
            return args.repeat * len(raws)

        return run

    def envelope_batch(adapter: TypeAdapter[Any]) -> Callable[[], int]:
        return batch(lambda _index, raw: adapter.validate_json(raw))

    our_models = [our_typed(i, s.raw) for i, s in enumerate(corpus)]
    gen_models = sdk_generated_messages(corpus, sdk_gen)
    limit_models = [limit_typed(i, s.raw) for i, s in enumerate(corpus)]

    def dump_batch(models: list[Any], **options: bool) -> Callable[[], int]:
        def run() -> int:
            for _ in range(args.repeat):
                for model in models:
                    model.model_dump_json(**options)
            return args.repeat * len(models)

        return run

    # --- dispatch unions, as an SDK's tables call them
    def result_member(raw: bytes) -> bytes:
        return json.dumps(json.loads(raw)["result"]).encode()

    dispatch_corpora = {
        "ClientRequest": [s.raw for s in corpus if s.kind == "request"],
        "ServerNotification": [s.raw for s in corpus if s.kind == "notification"],
        "ServerResult": [result_member(s.raw) for s in corpus if s.kind == "response"],
    }
    dispatch_batches: dict[str, Callable[[], int]] = {}
    for union, raws in dispatch_corpora.items():
        for who, module in (("ours", ours), ("sdk-generated", sdk_gen)):
            adapter: TypeAdapter[Any] = TypeAdapter(getattr(module, union))
            for raw in raws:
                adapter.validate_json(raw)  # every side reads every message before anything is timed
            dispatch_batches[f"dispatch-{union}/{who}"] = batch_of(adapter, raws)

    kinds = {k: sum(1 for s in corpus if s.kind == k) for k in ("request", "notification", "response", "error")}
    print(f"corpus: {len(corpus)} JSON-RPC messages from the {REVISION} spec examples {kinds}")
    print(f"mcp_types {getattr(mcp_types, '__version__', '?')}; {args.rounds} interleaved rounds x {args.repeat} passes")
    print()

    results = interleaved(
        {
            "envelope/ours": batch(lambda _index, raw: ours.parse_envelope(raw)),
            "envelope/ours-typeadapter": envelope_batch(our_envelope),
            "envelope/sdk-generated": envelope_batch(sdk_gen_envelope),
            "envelope/sdk-handwritten": envelope_batch(sdk_envelope),
            "envelope/limit": envelope_batch(limit.ENVELOPE),
            "typed/ours": batch(our_typed),
            "typed/sdk-generated": batch(sdk_gen_typed),
            "typed/sdk-generated+our-result-table": batch(sdk_gen_tables_typed),
            "typed/sdk-handwritten": batch(sdk_typed),
            "typed/limit": batch(limit_typed),
            # each side's lossless call: ours leaves absent (MISSING) fields out and dumps wire names by default
            "dump/ours": dump_batch(our_models),
            "dump/sdk-generated": dump_batch(gen_models, by_alias=True, exclude_unset=True),
            "dump/limit": dump_batch(limit_models, by_alias=True, exclude_unset=True),
            # the very same call on both sides
            "dump-same-call/ours": dump_batch(our_models, by_alias=True, exclude_unset=True),
            "dump-same-call/sdk-generated": dump_batch(gen_models, by_alias=True, exclude_unset=True),
            **dispatch_batches,
        },
        rounds=args.rounds,
    )
    rows = [("layer", "contender", "median msg/s", "spread (min..max)", "ours / this")]
    for key, timing in results.items():
        layer, who = key.split("/")
        if who.startswith("ours-"):
            layer, who = layer, who
        mine = results[f"{layer}/ours"]
        rows.append(
            (
                layer,
                who,
                f"{timing.median:,.0f}",
                timing.spread(),
                "" if who == "ours" else f"{ratio(mine, timing):.2f}x",
            )
        )
    print(table(rows))
    print()
    print("ours / sdk-generated and ours / limit (medians of per-round ratios):")
    for layer, mine in (
        ("envelope: parse_envelope", "envelope/ours"),
        ("envelope: TypeAdapter(JSONRPCMessage)", "envelope/ours-typeadapter"),
        ("typed: parse_message", "typed/ours"),
        ("dump", "dump/ours"),
    ):
        kind = mine.split("/")[0]
        sdk, bound = results[f"{kind}/sdk-generated"], results[f"{kind}/limit"]
        print(f"  {layer:40} {ratio(results[mine], sdk):.2f}x sdk   {ratio(results[mine], bound):.2f}x limit")
    print("  dump, the same call on both sides         " f"{ratio(results['dump-same-call/ours'], results['dump-same-call/sdk-generated']):.2f}x sdk")
    for union in dispatch_corpora:
        mine, sdk = results[f"dispatch-{union}/ours"], results[f"dispatch-{union}/sdk-generated"]
        print(f"  {'dispatch: TypeAdapter(' + union + ')':40} {ratio(mine, sdk):.2f}x sdk")
    print()
    print(
        "targets (issue 23): typed >= 3.8x sdk-generated and >= 0.85x limit; parse_envelope >= 2.0x;"
        " TypeAdapter(JSONRPCMessage) >= 1.6x; dispatch unions >= 3x; dump, same call >= 1.0x"
    )


if __name__ == "__main__":
    main()
