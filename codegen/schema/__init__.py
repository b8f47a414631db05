"""Schema in: pinned revisions, reading and checking a schema, errata, JSON pointers, work and regex budgets."""
