"""Calls to a tool as Dify's custom tools make them, built from the tool's OpenAPI document.

Dify's import and call code is not on PyPI, so this reproduces what it does, from langgenius/dify:
- `api/core/tools/utils/parser.py` (import): one input per operation parameter and per top-level body property;
  its type is number, boolean or string from a single `type` (anything else, an `anyOf` too, is a string); its
  default is the schema's top-level `default`; an enum's choices are not kept.
- `api/core/tools/custom_tool/tool.py`, `do_http_request` (call): a query parameter is the model's value, else
  the schema's default, else left out; every declared body property is sent: the model's value converted by the
  property's schema (`_convert_body_property_type`; for an `anyOf`, the first branch that converts), else its
  default, else null. (Newer releases leave such a property out instead of sending null; for a tool, that is
  the same call with the field absent, which every other test makes.)

The "model" is the test: it fills the inputs it names, each given as the type Dify told it (a string for a
string input, which is what every optional body input is, since the documents make those `anyOf` with null).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Call:
    """One HTTP call: what Dify sends for an operation."""

    method: str
    path: str
    query: dict[str, str]
    body: dict[str, Any] | None


@dataclass(frozen=True)
class Input:
    """One input of an imported operation, as Dify's parser reads it."""

    name: str
    where: str  # "path", "query" or "body"
    kind: str  # "number", "boolean" or "string": what the model is told
    required: bool
    schema: dict[str, Any]


def _kind(schema: dict[str, Any]) -> str:
    kind = schema.get("type")
    return "number" if kind in ("integer", "number") else kind if kind in ("boolean", "string") else "string"


def inputs(operation: dict[str, Any]) -> list[Input]:
    """The operation's inputs as Dify imports them."""
    found = [
        Input(p["name"], p["in"], _kind(p.get("schema", {})), bool(p.get("required")), p.get("schema", {}))
        for p in operation.get("parameters", [])
    ]
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    required = body.get("required", [])
    found += [
        Input(name, "body", _kind(prop), name in required, prop) for name, prop in body.get("properties", {}).items()
    ]
    return found


def model_value(item: Input, value: Any) -> Any:
    """``value`` as a model gives it for an input of Dify's type: a string input gets text."""
    if item.kind == "string" and not isinstance(value, str):
        return json.dumps(value)  # true, 1.5: what a model writes for a value it is asked for as text
    return value


def _any_of(branches: Iterable[dict[str, Any]], value: Any) -> Any:
    """Dify's `_convert_body_property_any_of`: the first branch whose type converts the value."""
    for branch in branches:
        kind = branch.get("type")
        try:
            if kind in ("integer", "int"):
                return int(value)
            if kind == "number":
                return float(value) if "." in str(value) else int(value)
            if kind == "string":
                return str(value)
            if kind == "boolean":
                if str(value).lower() in ("true", "1"):
                    return True
                if str(value).lower() in ("false", "0"):
                    return False
                continue
            if kind == "null" and not value:
                return None
        except ValueError:
            continue
    return value


def _convert(schema: dict[str, Any], value: Any) -> Any:
    """Dify's `_convert_body_property_type`: a body value converted by its property's schema."""
    kind = schema.get("type")
    try:
        if kind in ("integer", "int"):
            return int(value)
        if kind == "number":
            return float(value) if "." in str(value) else int(value)
        if kind == "string":
            return str(value)
        if kind == "boolean":
            return bool(value)
        if "anyOf" in schema:
            return _any_of(schema["anyOf"], value)
    except ValueError:
        return value
    return value


def _query_text(value: Any) -> str:
    # httpx writes a query value: true/false for booleans, str() for the rest
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def build_call(path: str, method: str, operation: dict[str, Any], given: dict[str, Any]) -> Call:
    """What Dify sends when the model calls ``operation`` with ``given`` (its inputs by name, as the model wrote them).

    A required input the model left out is an error in Dify before anything is sent; here, too.
    """
    query: dict[str, str] = {}
    body: dict[str, Any] = {}
    for item in inputs(operation):
        if item.name in given:
            value = given[item.name]
        elif item.required and "default" not in item.schema:
            raise ValueError(f"Dify refuses the call: missing required parameter {item.name}")
        elif item.where == "body":
            value = item.schema.get("default")  # null when the property declares no default
        else:
            value = item.schema.get("default", "")
        if item.where == "path":
            path = path.replace("{" + item.name + "}", str(value))
        elif item.where == "query" and value != "":
            query[item.name] = _query_text(value)
        elif item.where == "body":
            body[item.name] = _convert(item.schema, value) if item.name in given else value
    return Call(method.upper(), path, query, body if "requestBody" in operation else None)
