"""Must type-check cleanly under mypy --strict with the `deprecated` error code and pyright's
reportDeprecated (see tests/test_deprecations.py): nothing here is deprecated, in the revision that
deprecates logging, sampling and roots or in the one before it."""
# mypy: enable-error-code="deprecated"
# pyright: reportDeprecated=true

from __future__ import annotations

from mcp_models import v2025_11_25 as before
from mcp_models import v2026_07_28 as r


def uses() -> None:
    tool = r.Tool(name="get_weather", input_schema=r.ToolInputSchema())
    capabilities = r.ClientCapabilities(elicitation=r.ClientCapabilitiesElicitation())
    # the same definitions, one revision earlier, are not deprecated there
    logged = before.LoggingMessageNotification(params=before.LoggingMessageNotificationParams(level="info", data=1))
    roots = before.ListRootsResult(roots=[before.Root(uri="file:///work")])
    print(tool, capabilities, logged, roots)
