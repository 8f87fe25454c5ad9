"""The values a program holds for the person, and what makes each one right: defaults, list items, settings and
starting rows.

A program carries values the person gave in their request (issue 31): a field's default ("30 years"), a list
input's default items ("rooms 18, 12 and 9 m²"), named settings that every expression of the tool reads ("my
roommates are Anna, Ben and Chloe", a follow-up can change them), and starting rows ("chores: dishes, laundry,
vacuuming"). Each is held to what the runtime will accept, when the program is validated, so that nothing the
page or the probe sends back is refused: a default is a value of its field, a list's items are values of its item
type, a starting row is a row the tool's create would store. toolgen/program.py calls these; they read specs by
their attributes only (FieldSpec is defined there).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from types import SimpleNamespace
from typing import Any

DATE_SENTINEL = re.compile(r"\$today|\$next:(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])")
ITEM_TYPES = ("number", "integer", "string")
MAX_SETTINGS = 20
MAX_SEED_ROWS = 50  # of one entity
MAX_SEED_TOTAL = 200
_TIME = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]")


def _is_date(value: str) -> bool:
    try:
        return bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", value)) and dt.date.fromisoformat(value) is not None
    except ValueError:
        return False


def item_spec(spec: Any) -> Any:
    """The spec each item of a list field is held to: its item type, with the list's bounds, choices and length."""
    return SimpleNamespace(
        type=spec.items,
        label=spec.label,
        required=True,
        default=None,
        enum=spec.enum,
        minimum=spec.minimum,
        maximum=spec.maximum,
        max_length=spec.max_length,
    )


def typed_default(kind: Any, default: Any, items: Any = None) -> Any:
    """A default written in another form of its own type, as that type: ``30.0`` for an integer is 30 (a page
    would send "30.0", which an integer refuses), "30" for a number 30, "true" for a boolean true; a list's items
    likewise."""
    if kind == "list" and isinstance(default, list):
        return [typed_default(items, item) for item in default]
    typed = default
    if kind in ("number", "integer") and isinstance(default, str):
        try:
            typed = float(default.strip())
        except ValueError:
            return default  # refused by default_problem, saying why
    if kind == "integer" and isinstance(typed, float) and typed.is_integer():
        typed = int(typed)
    if kind == "boolean" and isinstance(default, str) and default.strip().lower() in ("true", "false"):
        typed = default.strip().lower() == "true"
    return typed


def default_problem(spec: Any) -> str | None:
    """Why ``spec.default`` is not a value of its field (None when it is, or when there is none)."""
    value = spec.default
    if value is None:
        return None
    if spec.type == "list":
        if not isinstance(value, list) or len(value) > spec.max_items:
            return f"the default of a list field is a list of at most {spec.max_items} items"
        for item in value:
            problem = value_problem(item_spec(spec), item)
            if problem:
                return f"an item of the default: {problem}"
        return None
    if spec.type == "date" and isinstance(value, str) and value.startswith("$"):
        return None if DATE_SENTINEL.fullmatch(value) else "a date's '$' default is '$today' or '$next:MM-DD'"
    return value_problem(spec, value)  # on any other field, '$$' is the text it says (a price level)


def value_problem(spec: Any, value: Any) -> str | None:
    """Why ``value`` is not a value of a field of ``spec`` (its type, bounds, choices and length)."""
    kind = spec.type
    if kind in ("number", "integer"):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            return f"{value!r} is not a number"
        if kind == "integer" and not float(value).is_integer():
            return f"{value!r} is not a whole number"
        if (spec.minimum is not None and value < spec.minimum) or (spec.maximum is not None and value > spec.maximum):
            return f"{value!r} is outside the field's minimum and maximum"
        return None
    if kind == "boolean":
        return None if isinstance(value, bool) else f"{value!r} is not true or false"
    if not isinstance(value, str):
        return f"{value!r} is not text"
    if kind == "date":
        return None if _is_date(value) else f"{value!r} is not a date YYYY-MM-DD ('$today' or '$next:MM-DD' too)"
    if kind == "time":
        return None if _TIME.fullmatch(value) else f"{value!r} is not a time HH:MM"
    if spec.enum and value not in spec.enum:
        return f"{value!r} is not one of the field's choices"
    if len(value) > spec.max_length:
        return "the text is longer than the field allows"
    return None


def setting_problem(value: Any) -> str | None:
    """Why ``value`` cannot be a setting: a number, a text, true or false, or a list of numbers or of texts."""
    if isinstance(value, list):
        if len(value) > 50:
            return "a setting's list holds at most 50 items"
        if not all(isinstance(v, str) for v in value) and not all(_number(v) for v in value):
            return "a setting's list is of numbers or of texts, not both"
        return next((p for p in map(setting_problem, value) if p), None)
    if isinstance(value, str):
        return "a setting's text is at most 200 characters" if len(value) > 200 else None
    if isinstance(value, bool) or _number(value):
        return None
    return f"a setting is a number, a text, true or false, or a list of them, not {value!r}"


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def seed_problem(rows: dict[str, list[dict[str, Any]]], entities: dict[str, Any]) -> str | None:
    """Why the starting rows cannot be stored: an unknown entity, too many rows, a row the entity would refuse."""
    from toolgen.runtime.errors import Invalid
    from toolgen.runtime.values import check_object

    if sum(len(r) for r in rows.values()) > MAX_SEED_TOTAL:
        return f"at most {MAX_SEED_TOTAL} starting rows in all"
    for entity, entity_rows in rows.items():
        if entity not in entities:
            return f"starting rows for unknown entity {entity!r}"
        if len(entity_rows) > MAX_SEED_ROWS:
            return f"at most {MAX_SEED_ROWS} starting rows of {entity!r}"
        for i, row in enumerate(entity_rows):
            try:
                check_object(row, entities[entity].fields)
            except Invalid as e:
                return f"starting row {i} of {entity!r}: {e.message}"
    return None
