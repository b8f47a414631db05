"""Elicitation forms: our per-revision `requested_schema` vs the official SDK's `render_elicitation_schema`.

    .venv/bin/python bench/forms_sdk.py

Not a timing: for each form (the seed's three, then one field of each kind), what each side produces,
measured in the same run. The SDK renders a model through pydantic's generic JSON Schema for one
revision; ours is generated per revision. For each side and revision: `ok` (the schema is valid as that
revision's requestedSchema under its pinned schema.json, jsonschema), `ok, ignores K` (valid, but
carries keys K that no PrimitiveSchemaDefinition arm declares (the form's top-level
title aside), so a client drops them: a bound or a
pattern the form then enforces alone), `invalid`, or `refused` (an error raised at declaration).
"""

# No `from __future__ import annotations`: the forms below are local classes, built at once.
import datetime
import enum
import importlib
import json
from collections.abc import Callable
from typing import Annotated, Any, Literal

from _common import spec_source

REVISIONS = {"2025-06-18": "v2025_06_18", "2025-11-25": "v2025_11_25", "2026-07-28": "v2026_07_28"}


def _validator(revision: str) -> Any:
    import jsonschema

    document = json.loads((spec_source() / revision / "schema.json").read_text())
    if revision == "2025-06-18":
        pointer = "#/definitions/ElicitRequest/properties/params/properties/requestedSchema"
    else:
        pointer = "#/$defs/ElicitRequestFormParams/properties/requestedSchema"
    return jsonschema.validators.validator_for(document)({**document, "$ref": pointer})


def _ignored_keys(revision: str, schema: dict[str, Any]) -> list[str]:
    """Keys of a property that the generated PrimitiveSchemaDefinition arm it reads as does not declare."""
    from pydantic import TypeAdapter

    models = importlib.import_module(f"mcp_models.{REVISIONS[revision]}.models")
    adapter: TypeAdapter[Any] = TypeAdapter(models.PrimitiveSchemaDefinition)
    ignored: set[str] = set()
    for prop in schema.get("properties", {}).values():
        parsed = adapter.validate_python(prop)
        ignored |= set(parsed.model_extra or {})
    # the form's own title at the top level (pydantic's model title) is left out: harmless, not a field's loss
    ignored |= {key for key in schema if key not in ("type", "properties", "required", "$schema", "title")}
    return sorted(ignored)


def _verdict(revision: str, make: Callable[[], dict[str, Any]]) -> str:
    try:
        schema = make()
    except (TypeError, ValueError) as exc:
        text = str(exc).replace("Elicitation schema field ", "").replace(", which is not a valid PrimitiveSchemaDefinition", "")
        return f"refused: {text[:64]}"
    if not _validator(revision).is_valid(schema):
        return "invalid"
    ignored = _ignored_keys(revision, schema)
    return f"ok, ignores {','.join(ignored)}" if ignored else "ok"


def cases() -> list[tuple[str, Callable[[Any], Any]]]:
    from pydantic import BaseModel, Field

    class YesNo(enum.StrEnum):
        YES = "yes"
        NO = "no"

    class Address(BaseModel):
        city: str

    def feedback(forms: Any) -> Any:
        class Feedback(BaseModel):
            number: float = Field(ge=0, le=5, title="How good was it?")
            rating: int = Field(ge=1, le=5, title="Rate from 1-5")
            feedback: str | None = Field(None, max_length=500)
            recommend: bool

        return Feedback

    def order(forms: Any) -> Any:
        titles = forms.Titles({"yes": "Of Course", "no": "Nope"}) if forms else "titles"

        class Order(BaseModel):
            meals: int
            note: str
            tip_reminder: Annotated[YesNo, titles]

        return Order

    def user_info(forms: Any) -> Any:
        email_format = forms.Format("email") if forms else "email"

        class UserInfo(BaseModel):
            name: str = Field(min_length=1, max_length=100)
            email: Annotated[str, email_format]
            age: int = Field(ge=0, le=150)
            newsletter: bool = False
            country: Literal["US", "UK", "CA", "AU", "Other"]

        return UserInfo

    def one(annotation: Any, field: Any = ...) -> Callable[[Any], Any]:
        def make(forms: Any) -> Any:
            from pydantic import create_model

            return create_model("OneField", value=(annotation, field))

        return make

    return [
        ("seed: feedback", feedback),
        ("seed: order (titled yes/no)", order),
        ("seed: user info", user_info),
        ("Literal choice", one(Literal["a", "b"])),
        ("StrEnum choice", one(YesNo)),
        ("list[Literal] max 2", one(list[Literal["a", "b", "c"]], Field(max_length=2))),
        ("set[StrEnum]", one(set[YesNo])),
        ("int gt=0", one(int, Field(gt=0))),
        ("float gt=0", one(float, Field(gt=0))),
        ("str pattern", one(str, Field(pattern="^[A-Z]+$"))),
        ("date", one(datetime.date)),
        ("str default", one(str, "x")),
        ("nested model", one(Address)),
        ("list[str]", one(list[str])),
        ("int | str", one(int | str)),
    ]


def main() -> None:
    from mcp.server.elicitation import render_elicitation_schema

    rows: list[tuple[str, str, str, str]] = []
    ok = {"sdk": 0, "ours": 0}
    for name, form in cases():
        for revision, package in REVISIONS.items():
            forms = importlib.import_module(f"mcp_models.{package}.forms")
            sdk = _verdict(revision, lambda: render_elicitation_schema(form(None)))
            ours = _verdict(revision, lambda: forms.requested_schema(form(forms)).model_dump(mode="json"))
            ok["sdk"] += sdk == "ok"
            ok["ours"] += ours == "ok"
            rows.append((name, revision, sdk, ours))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    print("  ".join(h.ljust(w) for h, w in zip(("form", "revision", "SDK render_elicitation_schema", "ours"), widths)))
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)))
    total = len(rows)
    print(f"\nexact, valid schemas (nothing a client would drop): SDK {ok['sdk']}/{total}, ours {ok['ours']}/{total}")
    print("(every other cell of ours is a one-line refusal naming the field and why)")


if __name__ == "__main__":
    main()
