"""A deployed tool's program views: the same shape and the same values as the validated ToolProgram."""

from __future__ import annotations

import typing

import pydantic
import pytest

from tests.helpers import ARCHETYPE_PROMPTS
from toolgen import program as models
from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.runtime import view

KIND = {"ToolProgram": "program", "Entity": "entity", "FieldSpec": "field", "UiHints": "plain"}
KIND |= {"Limits": "plain", "Provenance": "plain", "Migration": "plain", "Setting": "plain"}


def _nested(annotation: typing.Any) -> tuple[str, str] | None:
    """("one" | "list" | "map", kind) when a field holds program objects."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, pydantic.BaseModel):
        return "one", KIND.get(annotation.__name__, "operation")
    if origin is list and _nested(args[0]):
        return "list", _nested(args[0])[1]  # type: ignore[index]
    if origin is dict and _nested(args[1]):
        return "map", _nested(args[1])[1]  # type: ignore[index]
    if origin is typing.Annotated or str(origin) in ("typing.Union", "<class 'types.UnionType'>"):
        found = [n for n in map(_nested, args) if n]
        return found[0] if found else None
    return None


def test_the_views_shape_is_the_one_the_models_have():
    derived: dict[str, dict[str, tuple[str, str]]] = {}
    classes = [c for c in vars(models).values() if isinstance(c, type) and issubclass(c, models.Strict)]
    for cls in classes:
        kind = KIND.get(cls.__name__, "operation" if cls.__name__.endswith("Op") else None)
        if kind is None:
            continue
        for name, info in cls.model_fields.items():
            nested = _nested(info.annotation)
            if nested:
                derived.setdefault(kind, {})[name] = nested
    assert {k: v for k, v in view.SHAPE.items() if v} == derived


def _data(value: typing.Any) -> typing.Any:
    if isinstance(value, view.View):
        return {k: _data(v) for k, v in vars(value).items()}
    if isinstance(value, list):
        return [_data(v) for v in value]
    if isinstance(value, dict):
        return {k: _data(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("archetype", sorted(ARCHETYPE_PROMPTS))
def test_every_archetypes_program_reads_back_as_views_with_the_same_values(archetype, tmp_path):
    prompt = ARCHETYPE_PROMPTS[archetype]
    program = OfflinePlanner().plan(prompt, classify(prompt), []).program
    (tmp_path / "program.json").write_text(program.model_dump_json(indent=1))
    loaded = view.load(tmp_path / "program.json")
    assert _data(loaded) == program.model_dump(mode="json")
    assert [op.kind for op in loaded.operations] == [op.kind for op in program.operations]
    first = next(iter(loaded.entities.values()), None)
    if first is not None:
        assert all(isinstance(spec, view.View) for spec in first.fields.values())
    with pytest.raises(AttributeError, match="read-only"):
        loaded.title = "changed"  # type: ignore[misc]


def test_anything_but_a_platform_program_is_refused(tmp_path):
    (tmp_path / "program.json").write_text('{"version": 99, "operations": [{}]}')
    with pytest.raises(ValueError, match="not a ToolProgram"):
        view.load(tmp_path / "program.json")
