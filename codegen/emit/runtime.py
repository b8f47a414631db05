"""The shared runtime (codegen/runtime/) as files of the output, once per output root: its modules
read as text, each behind the generated-file header (so `output` knows it wrote them), never
imported by the generator."""

from __future__ import annotations

from codegen.resources import runtime_dir

FOLDER = "_runtime"
IN_ROOT = f"..{FOLDER}"  # how a package of an output root imports it: the root holds it
INSIDE = f".{FOLDER}"  # how a package generated on its own (generate_schema) imports it: it holds it


def runtime_files(stamp: str) -> dict[str, str]:
    """The runtime's modules by path from the folder that holds FOLDER, unformatted: stamp, then
    the module's text as the repository has it."""
    modules = sorted(runtime_dir().glob("*.py"))
    return {f"{FOLDER}/{path.name}": f"{stamp}\n{path.read_text(encoding='utf-8')}" for path in modules}
