"""A deployed tool's program, read without pydantic: attribute views over the JSON the platform validated.

The package's program.json is ``ToolProgram.model_dump_json()`` of a program that passed every check in
toolgen/program.py before it was deployed, with every field written out (defaults included). Validating it again
in each new tool process would cost most of the cold start (building pydantic's validators), so the runtime
reads it as views with the same attribute names instead. SHAPE says which fields hold nested objects; a test
derives the same from the pydantic models, so the two cannot drift apart.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolgen.program import ToolProgram

# For each kind of object, the fields holding nested objects: one, a list of them, or a map of name -> object.
SHAPE: dict[str, dict[str, tuple[str, str]]] = {
    "program": {
        "entities": ("map", "entity"),
        "operations": ("list", "operation"),
        "ui": ("one", "plain"),
        "limits": ("one", "plain"),
        "provenance": ("one", "plain"),
        "migrations": ("list", "plain"),
        "settings": ("map", "plain"),
    },
    "entity": {"fields": ("map", "field")},
    "operation": {"inputs": ("map", "field")},
    "field": {},
    "plain": {},
}
VERSIONS = (1, 2)  # toolgen/program.py LANGUAGE_VERSION: every version a deployed program may be written in


class View:
    """Read-only attributes of one object of a program."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.__dict__.update(values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a program view is read-only")

    def __repr__(self) -> str:
        return f"View({self.__dict__!r})"


def _view(data: dict[str, Any], kind: str) -> View:
    values = dict(data)
    for name, (how, inner) in SHAPE[kind].items():
        if name not in values:
            continue
        if how == "one":
            values[name] = _view(values[name], inner)
        elif how == "list":
            values[name] = [_view(item, inner) for item in values[name]]
        else:
            values[name] = {key: _view(item, inner) for key, item in values[name].items()}
    return View(values)


def load(path: str | Path) -> ToolProgram:
    """The program in ``path`` (written by the platform) as views; ValueError for anything else."""
    data = json.loads(Path(path).read_text())
    if not isinstance(data, dict) or data.get("version") not in VERSIONS or not data.get("operations"):
        raise ValueError(f"{path} is not a ToolProgram written by this platform (versions {VERSIONS})")
    return _view(data, "program")  # type: ignore[return-value]  # read like one: the same attributes
