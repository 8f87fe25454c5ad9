"""JSON Schemas of a tool's inputs and values, described for the models and people who read them.

Importers read less than the schema says: Dify keeps no enum options, reads any ``anyOf`` as a plain string and
keeps a default only as a number or text (true becomes 1.0), and it sends null for every optional body input the
model leaves out. So a description says each field's choices, its default and, where the field may be null, its
kind and what null means; an optional body input admits null (``anyOf`` with ``{"type": "null"}``, never a type
list, which fails Dify's import) and carries its default in its typed branch only, where no importer fills it in.
The runtime gives null the same meaning (toolgen/runtime/values.py).
"""

from __future__ import annotations

import json
import math
from typing import Any, Literal

from toolgen.bounds import MAX_NUMBER
from toolgen.program import FieldSpec
from toolgen.program_values import item_spec
from toolgen.runtime.values import empty_is_unsaid  # the runtime reads "" as the document says

MAX_DESCRIPTION = 700  # GPT Actions' limit for a parameter
NO_CONTROL_CHARACTERS = "^[^\\u0000-\\u0008\\u000B-\\u001F]*$"
EXAMPLES: dict[str, Any] = {
    "date": "2026-12-02",
    "time": "07:30",
    "number": 1.5,
    "integer": 1,
    "boolean": True,
    "string": "example",
    "text": "a note",
}
# What a body input left out or null means: "create" the default (or nothing), "update" the field as it is.
Null = Literal["create", "update"]
_WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "end": ".",
        "join": " ",
        "sep": ", ",
        "choices": "One of: {}.",
        "default": "Default: {}.",
        "create": "Leave out or null for the default.",
        "optional": "Optional: leave out or null for none.",
        "update": "Leave out or null to keep it as it is.",
        "today": "today",
        "next": "the next {}",
        "kinds": {
            "number": "A number.",
            "integer": "A whole number.",
            "boolean": "true or false.",
            "date": "A date, YYYY-MM-DD.",
            "time": "A time, HH:MM.",
            "list": "A list.",
        },
    },
    "zh": {
        "end": "。",
        "join": "",
        "sep": "、",
        "choices": "可选：{}。",
        "default": "默认：{}。",
        "create": "不填或为 null 时取默认值。",
        "optional": "可不填（或为 null）。",
        "update": "不填或为 null 则保持不变。",
        "today": "今天",
        "next": "下一个 {}",
        "kinds": {
            "number": "数字。",
            "integer": "整数。",
            "boolean": "true 或 false。",
            "date": "日期，YYYY-MM-DD。",
            "time": "时间，HH:MM。",
            "list": "一组值。",
        },
    },
}


def plain_default(spec: FieldSpec) -> tuple[bool, Any]:
    """``(True, value)`` when the field's default is a literal of its own type (a boolean's is true or false)."""
    value = spec.default
    if spec.type == "list":  # a list's default is held to its items when the program is validated
        return isinstance(value, list), value if isinstance(value, list) else None
    if spec.type == "boolean":
        fits = isinstance(value, bool)
    elif spec.type in ("number", "integer"):
        fits = isinstance(value, int | float) and not isinstance(value, bool)
        fits = fits and (spec.type == "number" or float(value).is_integer())
    else:  # '$today' and '$next:MM-DD' are resolved per call: a description says them, a schema cannot
        sentinel = spec.type == "date" and isinstance(value, str) and value.startswith("$")
        fits = isinstance(value, str) and not sentinel and (not spec.enum or value in spec.enum)
    return fits, value if fits else None


def example(spec: FieldSpec) -> Any:
    """An example value for a field: its default when it has a plain one, its first choice, else one by type."""
    has_default, default = plain_default(spec)
    if has_default:
        return default
    if spec.type == "list":
        return [example(item_spec(spec))]
    if spec.enum:
        return spec.enum[0]
    value = EXAMPLES[spec.type]
    if spec.type in ("number", "integer") and spec.minimum is not None:
        value = max(value, spec.minimum)
    # a whole number written as one: a model copies the example, and Dify cannot make an integer of "20.0"
    return math.ceil(value) if spec.type == "integer" else value


def _said(value: Any, words: dict[str, Any], kind: str = "date") -> str:
    if kind == "date" and isinstance(value, str) and value.startswith("$"):
        return words["today"] if value == "$today" else words["next"].format(value.removeprefix("$next:"))
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def describe(spec: FieldSpec, lang: str, *, null: Null | None = None, default: bool = True) -> str:
    """The field's label, then (when it may be null) its kind, its choices, its default and what null means."""
    words = _WORDS.get(lang, _WORDS["en"])
    parts: list[str] = []
    if null is not None and spec.type in words["kinds"]:  # Dify reads a null-admitting input as plain text
        parts.append(words["kinds"][spec.type])
    if spec.enum:
        parts.append(words["choices"].format(words["sep"].join(spec.enum)))
    sentinel = spec.type == "date" and isinstance(spec.default, str) and spec.default.startswith("$")
    has_default = sentinel or plain_default(spec)[0]
    if default and has_default and null != "update":
        parts.append(words["default"].format(_said(spec.default, words, spec.type)))
    if null is not None:
        parts.append(words["update" if null == "update" else "create" if has_default else "optional"])
    if spec.label:  # a sentence of its own only when more follow
        parts.insert(0, spec.label.rstrip(".。") + words["end"] if parts else spec.label)
    return words["join"].join(parts)[:MAX_DESCRIPTION]


def field_schema(spec: FieldSpec | str, lang: str = "en", *, default: bool = True) -> dict[str, Any]:
    """JSON Schema for one typed field, with a single ``type`` (importers reject type lists)."""
    if spec == "object":
        return {"type": "object"}
    if isinstance(spec, str):
        spec = FieldSpec(type=spec)  # type: ignore[arg-type]
    kind = spec.type
    schema: dict[str, Any]
    if kind == "list":  # its items' own schema, every item a value of one type (importers need `items`)
        item = field_schema(item_spec(spec), lang, default=False)
        item.pop("description", None)
        schema = {"type": "array", "items": item, "maxItems": spec.max_items}
    elif kind in ("number", "integer", "boolean"):
        schema = {"type": kind}
    elif kind == "date":
        schema = {"type": "string", "format": "date"}
    elif kind == "time":
        schema = {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"}
    else:
        # The runtime refuses control characters other than tab and newline (toolgen/runtime/values.py).
        schema = {"type": "string", "maxLength": spec.max_length, "pattern": NO_CONTROL_CHARACTERS}
    if spec.enum and kind != "list":  # a list's choices are its items'
        schema["enum"] = list(spec.enum)
    if kind in ("number", "integer"):  # the runtime's own bounds when the field sets none (values.py)
        schema["minimum"] = spec.minimum if spec.minimum is not None else -MAX_NUMBER
        schema["maximum"] = spec.maximum if spec.maximum is not None else MAX_NUMBER
    description = describe(spec, lang, default=default)
    if description:
        schema["description"] = description
    has_default, value = plain_default(spec)
    if default and has_default:
        schema["default"] = value
    schema["examples"] = [example(spec)]
    return schema


def body_property(spec: FieldSpec, lang: str, *, null: Null | None) -> dict[str, Any]:
    """One input of a request body: its own schema when required, else that or null, said in its description."""
    if null is None:
        return field_schema(spec, lang)
    typed = field_schema(spec, lang, default=null == "create")
    for annotation in ("description", "examples"):  # said once, beside the branches, where importers read them
        typed.pop(annotation, None)
    branches = [typed, {"type": "null"}]
    if empty_is_unsaid(spec):  # what Dify's model sends for a date, time, number or choice it has no value for
        branches.append(EMPTY)
    return {"anyOf": branches, "description": describe(spec, lang, null=null), "examples": [example(spec)]}


EMPTY: dict[str, Any] = {"type": "string", "maxLength": 0}
