"""The generated models agree with their JSON Schema on drawn instances and on their mutations."""

from __future__ import annotations

import importlib
import json

import pytest

from codegen.checks import agreement
from codegen.schema import errata

from . import suite
from .conftest import REVISIONS, SPEC

PER_DEFINITION = suite.examples(25)


@pytest.mark.slow
@pytest.mark.parametrize("revision", list(REVISIONS))
def test_models_agree_with_their_schema(revision: str) -> None:
    document = json.loads((SPEC / revision / "schema.json").read_text())
    document = errata.apply_errata(document, errata.load_errata(revision), revision)
    package = importlib.import_module(f"mcp_models.{REVISIONS[revision]}")
    report = agreement.measure(document, revision, package, PER_DEFINITION, derandomize=not suite.LONG)
    assert report.instances >= report.definitions * 20  # at least 20 valid instances per definition on average
    assert report.mutations > report.definitions
    assert report.ratio >= 0.995, report.disagreements[:10]
