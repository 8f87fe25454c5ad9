"""Build artefacts: the per-tool package (a few KB) and the base layer's zip.

Zips are deterministic (fixed timestamps, sorted names), so the same program always gives the same CodeSha256
and an unchanged tool is never re-uploaded.
"""

from __future__ import annotations

import importlib.util
import io
import zipfile
from collections.abc import Iterable
from pathlib import Path

from toolgen.paths import ROOT, TOOL_HANDLER
from toolgen.program import ToolProgram

_EPOCH = (1980, 1, 1, 0, 0, 0)
# What the base layer carries from the source tree, under python/ (Lambda puts /opt/python on sys.path).
LAYER_SOURCES = ("toolgen", "ui_templates", "functions/tool")
# The tool runtime's third-party modules: layers/base/requirements.txt, as imported (tests/unit/test_layer.py).
RUNTIME_MODULES = ("jmespath", "simpleeval")


def zip_files(files: Iterable[tuple[str, bytes]]) -> bytes:
    """A deterministic zip of (name, content) pairs."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, content)
    return buffer.getvalue()


def tool_package(program: ToolProgram, *, inline_runtime: bool = False) -> bytes:
    """The tool's own package: the shared handler and its program (and the runtime itself, where no layer is
    applied: LocalStack Community)."""
    files = [("app.py", TOOL_HANDLER.read_bytes()), ("program.json", program.model_dump_json(indent=1).encode())]
    return zip_files([*files, *(runtime_files() if inline_runtime else [])])


def _tree(folder: Path, under: str) -> list[tuple[str, bytes]]:
    """Every file under ``folder`` as (``under``/relative path, content), sources only (no bytecode)."""
    return [
        (f"{under}/{path.relative_to(folder).as_posix()}", path.read_bytes())
        for path in sorted(folder.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    ]


def runtime_files(prefix: str = "") -> list[tuple[str, bytes]]:
    """What a tool's handler imports, as files under ``prefix``: toolgen (without the embedded default) and the
    runtime's requirements, taken from wherever this process imports them (the source tree, the layer, a venv)."""
    files = [f for f in _tree(ROOT / "toolgen", f"{prefix}toolgen") if not f[0].startswith(f"{prefix}toolgen/local/")]
    for module in RUNTIME_MODULES:
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            raise RuntimeError(f"the tool runtime needs {module}, which this environment does not have")
        origin = Path(spec.origin)
        if spec.submodule_search_locations:  # a package: its folder
            files += _tree(origin.parent, f"{prefix}{module}")
        else:
            files.append((f"{prefix}{origin.name}", origin.read_bytes()))
    return files


def layer_files(root: Path = ROOT) -> list[tuple[str, bytes]]:
    """The base layer's files from the source tree (dependencies come from layers/base/requirements.txt)."""
    return [file for source in LAYER_SOURCES for file in _tree(root / source, f"python/{source}")]


def layer_zip(root: Path = ROOT) -> bytes:
    """The base layer as a zip (used by the embedded default; `make layer` builds the full one)."""
    return zip_files(layer_files(root))
