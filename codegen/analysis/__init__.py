"""Analysis: the typed IR and the passes that fill it (names, unions, method tables)."""
