"""The revision-independent runtime of the generated packages, as ordinary Python.

`generate` writes these modules once per output root, as `<root>/_runtime/` (output/runtime.py in
the generator), and every revision package and the surface import them relatively
(`from .._runtime import tolerant`): one `Tolerated`, one `MessageError`, one `Titles` for every
revision. So that a copy works under any package (`acme/mcp/_runtime/`) and needs only pydantic,
a module here imports the standard library, pydantic, typing_extensions and its siblings
(relatively), nothing else; what a setting changes is passed in by the revision package.
"""
