"""Who a change breaks, from the relation of old to new values and who sends the definition.

The rules (README, "Diffing revisions", states them too):

- widened (the new schema accepts values the old one rejected: a union arm, an enum value, a
  property no longer required, a looser type, an object opened) breaks the parties that *receive*
  the definition: a receiver validating against the old schema rejects what new senders send;
- narrowed (values the old schema accepted are now rejected: a new required property, a removed
  arm or enum value, a tighter type, an object closed) breaks the parties that *send* it: their
  existing messages are now invalid;
- changed (neither covers the other: a different `const`, an unrelated type) breaks both;
- compatible (only optional members of open objects added or removed) and equivalent (the same
  values, written differently: an inline object now a `$ref`) break nobody;
- a definition that no message carries (an abstract base such as `Request`) breaks nobody on the
  wire; description changes are informational and only listed with --descriptions.

Severity: breaking when the change breaks a party; compatible when values change but nobody
breaks; informational otherwise.
"""

from __future__ import annotations

from codegen.diff.direction import Directions, receivers_of
from codegen.diff.relation import CHANGED, EQUIVALENT, NARROWED, WIDENED
from codegen.diff.report import BREAKING, COMPATIBLE, INFORMATIONAL, WIRE, Change
from codegen.diff.structure import Found
def wire_change(
    found: Found, subject: str, senders: frozenset[str], methods: frozenset[str], *, carried: bool = True
) -> Change:
    receivers = receivers_of(senders)
    breaks = breaks_for(found.relation, senders, receivers)
    if found.relation is None or not carried:
        severity, breaks = INFORMATIONAL, frozenset[str]()
    elif breaks:
        severity = BREAKING
    else:
        severity = INFORMATIONAL if found.relation == EQUIVALENT else COMPATIBLE
    return Change(
        axis=WIRE,
        kind=found.kind,
        subject=subject,
        path=found.path,
        summary=found.summary,
        severity=severity,
        relation=found.relation,
        old=found.old,
        new=found.new,
        breaks=tuple(sorted(breaks)),
        senders=tuple(sorted(senders)),
        receivers=tuple(sorted(receivers)),
        methods=tuple(sorted(methods)),
        details=found.details,
    )


def breaks_for(relation: str | None, senders: frozenset[str], receivers: frozenset[str]) -> frozenset[str]:
    if relation == WIDENED:
        return receivers
    if relation == NARROWED:
        return senders
    if relation == CHANGED:
        return senders | receivers
    return frozenset()


def methods_carrying(name: str, *directions: Directions) -> frozenset[str]:
    return frozenset(m for d in directions for m, info in d.methods.items() if name in info.definitions)
