"""Emit: the engine's input, the engine, our templates, formatting and the import check."""

# The stages of one revision, in order, as reported to a progress display (pipeline.build_revision).
STAGES = ("load", "analyze", "models", "package", "format")
