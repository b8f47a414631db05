"""`mcp-codegen diff A B`: what changed between two spec revisions, in MCP's own terms.

Definitions added, removed, renamed (a removed and an added definition with the same shape of
properties) and changed (properties added, removed or retyped, required keys, `const`/`enum`
values, openness; descriptions ignored), and the methods added and removed with who sends them.
A and B are pinned revisions or schema.json paths. (Direction-aware breaking/compatible
classification and the HTML report are not built yet.)
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from . import analyze, errata, ir, load, schemas, spec
from .limits import DEFAULT_LIMITS

_IGNORED = frozenset({"description", "title", "$comment", "examples"})
RENAME_SIMILARITY = 0.7


@dataclass
class DefinitionChange:
    name: str
    properties_added: list[str] = field(default_factory=list)
    properties_removed: list[str] = field(default_factory=list)
    properties_retyped: list[str] = field(default_factory=list)
    now_required: list[str] = field(default_factory=list)
    now_optional: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)  # union arms, enum/const values, openness, …


@dataclass
class Diff:
    old: str
    new: str
    methods_added: list[dict[str, Any]] = field(default_factory=list)
    methods_removed: list[dict[str, Any]] = field(default_factory=list)
    definitions_added: list[str] = field(default_factory=list)
    definitions_removed: list[str] = field(default_factory=list)
    definitions_renamed: list[dict[str, str]] = field(default_factory=list)
    definitions_changed: list[DefinitionChange] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (
            self.methods_added or self.methods_removed or self.definitions_added or self.definitions_removed
            or self.definitions_renamed or self.definitions_changed
        )  # fmt: skip

    def as_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True)


def _load(which: str, spec_source: str | None) -> tuple[str, load.SchemaDoc, ir.Revision]:
    path = Path(which)
    if path.suffix == ".json" and path.is_file():
        data, label, patches = path.read_bytes(), path.parent.name or path.stem, ()
    else:
        pin = spec.find_pin(which)
        data, label, patches = spec.fetch(pin, spec.resolve_source(spec_source)).data, pin.revision, errata.load_errata(which)
    raw = errata.apply_errata(load.parse_json(data, label, DEFAULT_LIMITS), patches, label)
    doc = load.to_schema_doc(raw, label, DEFAULT_LIMITS)
    return label, doc, analyze.analyze(doc, package="diff", sha256=spec.sha256_hex(data))


def _essential(node: Any) -> Any:
    """A schema without annotations, for comparing shape."""
    if isinstance(node, dict):
        return {k: _essential(v) for k, v in sorted(node.items()) if k not in _IGNORED}
    if isinstance(node, list):
        return [_essential(v) for v in node]
    return node


def _properties(schema: Any) -> tuple[dict[str, Any], set[str]]:
    if not isinstance(schema, dict):
        return {}, set()
    return dict(schema.get("properties") or {}), set(schema.get("required") or ())


def _constants(schema: Any) -> frozenset[str]:
    return frozenset(json.dumps(node["const"]) for _, node in schemas.all_subschemas(schema) if "const" in node)


def _similarity(a: Any, b: Any) -> float:
    pa, ra = _properties(a)
    pb, rb = _properties(b)
    if _constants(a) != _constants(b):  # other tags (`method`, `type`, an error `code`): other things
        return 0.0
    keys_a = set(pa) | {f"!{k}" for k in ra} | {f"{k}={json.dumps(_essential(v), sort_keys=True)}" for k, v in pa.items()}
    keys_b = set(pb) | {f"!{k}" for k in rb} | {f"{k}={json.dumps(_essential(v), sort_keys=True)}" for k, v in pb.items()}
    if not keys_a and not keys_b:
        return 1.0 if _essential(a) == _essential(b) else 0.0
    return len(keys_a & keys_b) / len(keys_a | keys_b)


def _change(name: str, old: Any, new: Any) -> DefinitionChange | None:
    if _essential(old) == _essential(new):
        return None
    change = DefinitionChange(name)
    po, ro = _properties(old)
    pn, rn = _properties(new)
    change.properties_added = sorted(set(pn) - set(po))
    change.properties_removed = sorted(set(po) - set(pn))
    change.properties_retyped = sorted(k for k in set(po) & set(pn) if _essential(po[k]) != _essential(pn[k]))
    change.now_required = sorted((rn - ro) & set(pn))
    change.now_optional = sorted((ro - rn) & set(po))
    rest_old = {k: v for k, v in _essential(old).items() if k not in ("properties", "required")} if isinstance(old, dict) else old
    rest_new = {k: v for k, v in _essential(new).items() if k not in ("properties", "required")} if isinstance(new, dict) else new
    if rest_old != rest_new:
        if isinstance(rest_old, dict) and isinstance(rest_new, dict):
            keys = sorted(k for k in set(rest_old) | set(rest_new) if rest_old.get(k) != rest_new.get(k))
            change.other = [f"{k} changed" for k in keys]
        else:
            change.other = ["schema changed"]
    return change


def diff(a: str, b: str, *, spec_source: str | None = None) -> Diff:
    old_label, old_doc, old_ir = _load(a, spec_source)
    new_label, new_doc, new_ir = _load(b, spec_source)
    result = Diff(old_label, new_label)
    old_defs: Mapping[str, Any] = old_doc.defs
    new_defs: Mapping[str, Any] = new_doc.defs
    removed = sorted(set(old_defs) - set(new_defs))
    added = sorted(set(new_defs) - set(old_defs))
    for name in list(removed):
        best = max(
            added,
            key=lambda candidate: (
                _similarity(old_defs[name], new_defs[candidate]),
                len(os.path.commonprefix([name, candidate])),  # JSONRPCError -> JSONRPCErrorResponse
                -abs(len(candidate) - len(name)),
                candidate,
            ),
            default=None,
        )
        if best is not None and _similarity(old_defs[name], new_defs[best]) >= RENAME_SIMILARITY:
            result.definitions_renamed.append({"from": name, "to": best})
            removed.remove(name)
            added.remove(best)
    result.definitions_added, result.definitions_removed = added, removed
    for name in sorted(set(old_defs) & set(new_defs)):
        change = _change(name, old_defs[name], new_defs[name])
        if change is not None:
            result.definitions_changed.append(change)
    old_methods = {m.method: m for m in old_ir.methods.methods}
    new_methods = {m.method: m for m in new_ir.methods.methods}
    result.methods_added = [
        {"method": m, "kind": new_methods[m].kind, "senders": list(new_methods[m].senders)}
        for m in sorted(set(new_methods) - set(old_methods))
    ]
    result.methods_removed = [
        {"method": m, "kind": old_methods[m].kind, "senders": list(old_methods[m].senders)}
        for m in sorted(set(old_methods) - set(new_methods))
    ]
    return result


def as_text(result: Diff) -> list[str]:
    lines = [f"{result.old} -> {result.new}"]
    for label, items in (("methods added", result.methods_added), ("methods removed", result.methods_removed)):
        for item in items:
            senders = "/".join(item["senders"]) or "embedded"
            lines.append(f"  {label}: {item['method']} ({item['kind']}, sent by {senders})")
    if result.definitions_added:
        lines.append(f"  definitions added ({len(result.definitions_added)}): {', '.join(result.definitions_added)}")
    if result.definitions_removed:
        lines.append(f"  definitions removed ({len(result.definitions_removed)}): {', '.join(result.definitions_removed)}")
    for rename in result.definitions_renamed:
        lines.append(f"  renamed: {rename['from']} -> {rename['to']}")
    for change in result.definitions_changed:
        parts = [
            f"+{', +'.join(change.properties_added)}" if change.properties_added else "",
            f"-{', -'.join(change.properties_removed)}" if change.properties_removed else "",
            f"retyped {', '.join(change.properties_retyped)}" if change.properties_retyped else "",
            f"now required {', '.join(change.now_required)}" if change.now_required else "",
            f"now optional {', '.join(change.now_optional)}" if change.now_optional else "",
            "; ".join(change.other),
        ]
        lines.append(f"  changed {change.name}: {'; '.join(p for p in parts if p)}")
    return lines
