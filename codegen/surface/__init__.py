"""The version-spanning surface: one model per definition over every generated revision, and the
per-revision send and receive that keep each session's wire exact."""
