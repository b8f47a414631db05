"""Emit: the engine's input, the engine, our templates, formatting and the import check."""
