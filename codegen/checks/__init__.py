"""Checks beside generation: outputSchema validation, agreement with JSON Schema, spec examples."""
