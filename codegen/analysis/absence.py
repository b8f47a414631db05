"""What the spec says an absent required property means.

2026-07-28 requires `resultType` in every result, and its description says a result without it
(from a peer of an earlier revision) is to be read as `"complete"`. Reading stays as the schema
says (the property is required); building in Python may leave it out and gets the stated value,
and the surface applies it when sending to a revision that requires it. Each mapping is used only
where the schema's own words state it, so a later spec that stops saying so stops the mapping.
"""

from __future__ import annotations

from typing import Any

from codegen.schema.jsontypes import is_object

# (property, the value its absence means, a word the description must use)
SPEC_STATED: tuple[tuple[str, str, str], ...] = (("resultType", "complete", "absent"),)


def stated(key: str, schema: Any) -> str | None:
    """The value the description of property `key` (its schema) says its absence means, if any."""
    description = schema.get("description") if is_object(schema) else None
    if not isinstance(description, str):
        return None
    for name, value, word in SPEC_STATED:
        if name == key and f'"{value}"' in description and word in description:
            return value
    return None

