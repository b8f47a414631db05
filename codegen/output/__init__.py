"""Output: the file set on disk (atomic write, check, drift), the no-op cache, worker processes."""
