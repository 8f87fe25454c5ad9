"""Typed input checking for tool calls: every value a person sends is checked against its FieldSpec."""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import TYPE_CHECKING, Any

from toolgen.bounds import MAX_NUMBER
from toolgen.program_values import item_spec
from toolgen.runtime.errors import Invalid
from toolgen.runtime.messages import Message

if TYPE_CHECKING:  # the runtime reads programs as views (toolgen/runtime/view.py); pydantic is not imported
    from toolgen.program import FieldSpec

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME = re.compile(r"^([01][0-9]|2[0-3]):[0-5][0-9]$")


def check_number(
    name: str,
    value: Any,
    kind: str,
    minimum: float | None,
    maximum: float | None,
    *,
    from_text: bool = False,
    label: str = "",
) -> float | int:
    """``value`` as a number (``kind`` "number" or "integer") within the bounds, or Invalid saying why not."""
    said = {"name": name, "label": label}
    if from_text and isinstance(value, str):
        try:
            # "30.0" is the whole number 30 (a page or client may write one so), "30.5" is not whole, below
            value = float(value) if kind == "number" or not value.strip().lstrip("+-").isdigit() else int(value)
        except ValueError as e:
            raise Invalid(Message("not_a_kind", kind=kind, **said), details={name: "not a number"}) from e
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Invalid(Message("not_a_kind", kind=kind, **said), details={name: f"expected {kind}"})
    if kind == "integer" and (isinstance(value, float) and not value.is_integer()):
        raise Invalid(Message("not_whole", **said), details={name: "expected integer"})
    if (isinstance(value, float) and not math.isfinite(value)) or abs(value) > MAX_NUMBER:  # isfinite: no huge ints
        raise Invalid(Message("out_of_range", **said), details={name: "out of range"})
    if minimum is not None and value < minimum:
        raise Invalid(Message("too_small", minimum=minimum, **said), details={name: "too small"})
    if maximum is not None and value > maximum:
        raise Invalid(Message("too_large", maximum=maximum, **said), details={name: "too large"})
    return int(value) if kind == "integer" else value


def check_value(name: str, value: Any, spec: FieldSpec, *, from_text: bool = False) -> Any:
    """``value`` converted to the field's type, or Invalid saying what is wrong."""
    said = {"name": name, "label": spec.label}
    if spec.type == "list":
        return _check_list(name, value, spec, said)
    if spec.type in ("number", "integer"):
        return check_number(name, value, spec.type, spec.minimum, spec.maximum, from_text=from_text, label=spec.label)
    if spec.type == "boolean":
        if from_text and isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        if not isinstance(value, bool):
            raise Invalid(Message("not_boolean", **said), details={name: "expected boolean"})
        return value
    if not isinstance(value, str):
        raise Invalid(Message("not_text", **said), details={name: "expected string"})
    if spec.type == "date":
        try:  # the pattern first: fromisoformat alone also takes forms such as 20261231
            return dt.date.fromisoformat(value).isoformat() if _DATE.match(value) else _bad_date(said)
        except ValueError as e:
            raise Invalid(Message("not_date", **said), details={name: "expected YYYY-MM-DD"}) from e
    if spec.type == "time":
        if not _TIME.match(value):
            raise Invalid(Message("not_time", **said), details={name: "expected HH:MM"})
        return value
    if len(value) > spec.max_length:
        raise Invalid(Message("too_long", max_length=spec.max_length, **said), details={name: "too long"})
    if any(ord(c) < 32 and c not in "\n\t" for c in value):
        raise Invalid(Message("control", **said), details={name: "control characters"})
    if spec.enum and value not in spec.enum:
        raise Invalid(Message("not_allowed", choices=list(spec.enum), **said), details={name: "not allowed"})
    return value


def _check_list(name: str, value: Any, spec: FieldSpec, said: dict[str, str]) -> list[Any]:
    """A list input (a JSON array in a body): at most ``max_items`` items, each a value of the item type, held to
    the list's bounds and choices; an item's problem is said with its place ("areas[2]")."""
    if not isinstance(value, list):
        raise Invalid(Message("not_list", **said), details={name: "expected list"})
    if len(value) > spec.max_items:
        raise Invalid(Message("too_many_items", max_items=spec.max_items, **said), details={name: "too many items"})
    each = item_spec(spec)
    checked = []
    for i, item in enumerate(value):
        try:
            checked.append(None if item is None else check_value(f"{name}[{i}]", item, each))
        except Invalid as e:
            problem = next(iter((e.details_value or {}).values()), e.message)
            raise Invalid(e.said or e.message, details={name: f"item {i}: {problem}"}) from e
    return checked


def _bad_date(said: dict[str, str]) -> str:
    raise Invalid(Message("not_date", **said), details={said["name"]: "expected YYYY-MM-DD"})


def _default(spec: FieldSpec, day: dt.date | None) -> Any:
    """The field's default; '$today' and '$next:MM-DD' are resolved against ``day`` (UTC today if None)."""
    if spec.type == "date" and isinstance(spec.default, str) and spec.default.startswith("$"):
        from toolgen.runtime.expressions import next_occurrence

        today = day or dt.datetime.now(dt.UTC).date()
        return today.isoformat() if spec.default == "$today" else next_occurrence(spec.default[6:], today)
    return spec.default


def empty_is_unsaid(spec: FieldSpec) -> bool:
    """Whether "" in this field means "not given", as null does: a field that is not free text (a date, a time, a
    number, a choice without "" among its values), where "" can be nothing else."""
    return spec.type not in ("string", "text") or bool(spec.enum and "" not in spec.enum)


def check_object(
    data: Any,
    fields: dict[str, FieldSpec],
    *,
    partial: bool = False,
    from_text: bool = False,
    optional: set[str] | None = None,
    today: dt.date | None = None,
) -> dict[str, Any]:
    """A whole input object checked: unknown names refused, defaults filled (unless ``partial``), all errors at once.

    ``null`` means "not given", as leaving the field out does: the default or nothing when creating, the field left
    as it is when ``partial`` (an update). Importers send it for every optional input a model leaves out (Dify's
    custom tools do), and the documents say so (toolgen/spec/openapi.py). So does ``""`` for a field that is not
    free text (a date, a time, a number, a choice): Dify's model sends it for the ones it has no value for.
    Fields in ``optional`` are not required even when their spec says so (the operation derives them).
    """
    if not isinstance(data, dict):
        raise Invalid(Message("not_object"))
    problems: dict[str, str] = {name: "unknown field" for name in data if name not in fields}
    result: dict[str, Any] = {}
    for name, spec in fields.items():
        if name in problems:
            continue
        value = data.get(name)
        if value == "" and empty_is_unsaid(spec):
            value = None  # nothing said: no date is "", no choice is "" (the document says so: spec/fields.py)
        if value is None and not partial:
            value = _default(spec, today)
        if value is None:
            if spec.required and not partial and name not in (optional or set()):
                problems[name] = "required"
            continue
        try:
            result[name] = check_value(name, value, spec, from_text=from_text)
        except Invalid as e:
            problems.update(e.details_value or {name: e.message})
    if problems:
        named = [(name, fields[name].label if name in fields else "", problem) for name, problem in problems.items()]
        raise Invalid(Message("invalid_input", problems=named), details=problems)
    return result
