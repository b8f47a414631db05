"""The generator's version: stamped into every generated file and part of the no-op cache key."""

__version__ = "0.1.0"
