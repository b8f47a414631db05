"""Each marked line must be reported by mypy --strict with the `deprecated` error code and by pyright's
reportDeprecated, and no other (see tests/test_deprecations.py): what schema.ts deprecates as of
2026-07-28 (SEP-2577), carried as PEP 702 on the classes."""
# mypy: enable-error-code="deprecated"
# pyright: reportDeprecated=true

from __future__ import annotations

from mcp_models import v2026_07_28 as r


def misuse() -> None:
    logged = r.LoggingMessageNotification(  # expect-error
        params=r.LoggingMessageNotificationParams(level="info", data={"step": 1}),  # expect-error
    )
    roots = r.ListRootsResult(roots=[r.Root(uri="file:///work")])  # expect-error
    # a deprecated field's inline object type is deprecated with it (ClientCapabilities.sampling)
    capabilities = r.ClientCapabilities(sampling=r.ClientCapabilitiesSampling())  # expect-error
    print(logged, roots, capabilities)
