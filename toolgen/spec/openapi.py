"""OpenAPI 3.1 documents for generated tools, shaped to import cleanly (DESIGN.md section 8).

Rules kept here: every operation has an operationId; parameters are declared per operation (never at path
level) with a single ``type``; request bodies are one inline ``application/json`` object schema (no ``$ref``,
no ``allOf``, no arrays) whose optional inputs may be null and whose update bodies declare no defaults (fields.py
says why); every array says its items; descriptions stay within GPT Actions' limits (300 per endpoint, 700 per
parameter).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from toolgen.bounds import FIGURE_ROWS
from toolgen.cursor import MAX_TOKEN, PATTERN
from toolgen.errors import StageError
from toolgen.program import (
    AggregateOp,
    ComputeOp,
    CreateOp,
    DeleteOp,
    FetchOp,
    FieldSpec,
    GetOp,
    ListOp,
    ToolProgram,
    UpdateOp,
)
from toolgen.spec.fields import MAX_DESCRIPTION, Null, body_property, describe, example, field_schema

# A figure (metric, computed field or output) is a number, a date or label, a yes/no, a list (settle's
# transfers), a table of constants, or null (no rows yet); anyOf keeps each branch a single type. The list says
# its items, of any kind: openapi-python-client drops a whole response over an array that does not.
FIGURE = {
    "anyOf": [
        {"type": "number"},
        {"type": "string"},
        {"type": "boolean"},
        {"type": "array", "items": {}},
        {"type": "object"},
        {"type": "null"},
    ]
}
PERIOD_KEYS = {  # how the runtime names a series' periods (toolgen/runtime/periods.py)
    "day": "The day, as 2026-12-06",
    "week": "The ISO week (Monday to Sunday) and its year, as 2026-W49",
    "month": "The month, as 2026-12",
    "year": "The year, as 2026",
}
EMPTY_OR_TOKEN = PATTERN.replace("+$", "*$")  # a page token (toolgen/cursor.py), or nothing

ERRORS = {
    "400": "The request is malformed",
    "401": "Missing or invalid bearer token",
    "403": "This tool belongs to someone else",
    "404": "No such route or row",
    "409": "The row changed meanwhile (try again), or the person keeps as many rows as the tool allows",
    "422": "A field is missing or invalid",
    "502": "The outside source failed or answered something unexpected",
}


def _object(fields: dict[str, FieldSpec], lang: str, *, null: Null, optional: Iterable[str] = ()) -> dict[str, Any]:
    """A request body: required inputs as they are, every other one may be null ("not given", said in its words)."""
    required = [] if null == "update" else [n for n, s in fields.items() if _required(s) and n not in optional]
    schema: dict[str, Any] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            name: body_property(spec, lang, null=None if name in required else null) for name, spec in fields.items()
        },
    }
    if required:
        schema["required"] = required
    return schema


def _required(spec: FieldSpec) -> bool:
    return spec.required and spec.default is None


def _row(program: ToolProgram, entity: str, computed: dict[str, str] | None = None) -> dict[str, Any]:
    fields = program.entities[entity].fields
    schema: dict[str, Any] = {"type": "object", "additionalProperties": False}
    schema["properties"] = {
        "id": {"type": "string"},
        **{name: field_schema(spec, program.ui.lang) for name, spec in fields.items()},
        **{name: FIGURE for name in computed or {}},
        "created_at": {"type": "string", "format": "date-time"},
        "updated_at": {"type": "string", "format": "date-time"},
    }
    schema["required"] = ["id", "created_at"]
    return schema


def _json(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    sample = {name: prop["examples"][0] for name, prop in schema["properties"].items() if "examples" in prop}
    return {"required": True, "content": {"application/json": {"schema": schema, "example": sample}}}


def _id_param() -> dict[str, Any]:
    return {"name": "id", "in": "path", "required": True, "description": "The row's id", "schema": {"type": "string"}}


def _query_params(inputs: dict[str, FieldSpec], lang: str, *, optional: bool = False) -> list[dict[str, Any]]:
    # A filter takes no default (left out, it filters nothing); Dify reads a parameter's description, not its schema's.
    return [
        {
            "name": name,
            "in": "query",
            "required": not optional and _required(spec),
            "description": describe(spec, lang, default=not optional) or name,
            "schema": field_schema(spec, lang, default=not optional),
            "example": example(spec),
        }
        for name, spec in inputs.items()
    ]


def _filters(program: ToolProgram, op: ListOp | AggregateOp) -> list[dict[str, Any]]:
    """A list's or figures' query: its equality filters, then its inputs (optional, each with its default)."""
    fields = program.entities[op.entity].fields
    filters = _query_params({name: fields[name] for name in op.filters}, program.ui.lang, optional=True)
    return filters + _query_params(op.inputs, program.ui.lang)


def _create(program: ToolProgram, op: CreateOp) -> tuple[dict[str, Any], dict[str, Any]]:
    body = _object(program.entities[op.entity].fields, program.ui.lang, null="create", optional=set(op.derive))
    return {"requestBody": _body(body)}, {"201": _json("The stored row", _row(program, op.entity))}


def _list(program: ToolProgram, op: ListOp) -> tuple[dict[str, Any], dict[str, Any]]:
    limit = {
        "name": "limit",
        "in": "query",
        "required": False,
        "description": "At most this many rows in one page",
        "schema": {"type": "integer", "minimum": 1, "maximum": op.limit, "default": op.limit},
    }
    following = {
        "name": "next",
        "in": "query",
        "required": False,
        "description": "The `next` of the previous answer, as it was given (any other token is refused, 422); left "
        "out, empty or null: the first page",
        # empty allowed: what a model sends for an optional input it has no value for (Dify), read as not given
        "schema": {"type": "string", "maxLength": MAX_TOKEN, "pattern": EMPTY_OR_TOKEN},
    }
    items = {"type": "array", "items": _row(program, op.entity, op.computed)}
    token = {  # anyOf, never a type list: Dify's import fails on one (fields.py)
        "anyOf": [{"type": "string"}, {"type": "null"}],
        "description": "Pass as `next` for the following page; null when this page is the last",
    }
    schema = {"type": "object", "properties": {"items": items, "next": token}, "required": ["items", "next"]}
    return {"parameters": [limit, following, *_filters(program, op)]}, {"200": _json("A page of rows", schema)}


def _aggregate(program: ToolProgram, op: AggregateOp) -> tuple[dict[str, Any], dict[str, Any]]:
    metrics = {"type": "object", "properties": {m: FIGURE for m in op.metrics}}
    newest = {
        "type": "integer",
        "description": f"present when there are more rows than this: the figures are over the newest {FIGURE_ROWS}",
    }
    if op.series:
        period = {
            "type": "object",
            "properties": {
                "key": {"type": "string", "description": PERIOD_KEYS[op.series]},
                "start": {"type": "string", "format": "date", "description": "The period's first day"},
                "metrics": metrics,
            },
            "required": ["key", "start", "metrics"],
        }
        said = f"Each {op.series} from the first with rows to the current one, oldest first"
        series = {"type": "array", "items": period, "description": f"{said}, at most {op.series_count}"}
        schema = {"type": "object", "properties": {"series": series, "newest": newest}, "required": ["series"]}
    elif op.group_by:
        group = {"type": "object", "properties": {"key": {"type": "string"}, "metrics": metrics}}
        schema = {"type": "object", "properties": {"groups": {"type": "array", "items": group}, "newest": newest}}
    else:
        schema = {"type": "object", "properties": {"metrics": metrics, "newest": newest}}
    params = _filters(program, op)
    return ({"parameters": params} if params else {}), {"200": _json("Figures over the stored rows", schema)}


def _compute(op: ComputeOp, lang: str) -> tuple[dict[str, Any], dict[str, Any]]:
    request = (
        {"parameters": _query_params(op.inputs, lang)}
        if op.method == "GET"
        else {"requestBody": _body(_object(op.inputs, lang, null="create"))}
    )
    outputs = {"type": "object", "properties": {o: FIGURE for o in op.outputs}}
    return request, {"200": _json("The computed values", outputs)}


def _fetch(program: ToolProgram, op: FetchOp) -> tuple[dict[str, Any], dict[str, Any]]:
    lang = program.ui.lang
    request = {"parameters": _query_params(op.inputs, lang)} if op.inputs else {}
    if op.outputs:
        props = {**{n: field_schema(s, lang) for n, s in op.inputs.items()}, **{o: FIGURE for o in op.outputs}}
        return request, {
            "200": _json("Figures from the source's answer", {"type": "object", "properties": props}),
            "502": {"$ref": "#/components/responses/E502"},
        }
    labels = program.labels  # what a ranked "value" is: "Highest temperature ..."
    described = {
        f: {**field_schema(t), **({"description": labels[f][:MAX_DESCRIPTION]} if f in labels else {})}
        for f, t in op.fields.items()
    }
    row = {"type": "object", "properties": described}
    schema = {"type": "object", "properties": {"items": {"type": "array", "items": row}}}
    return request, {
        "200": _json("Ranked results from the source", schema),
        "502": {"$ref": "#/components/responses/E502"},
    }


def _operation(program: ToolProgram, op: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"operationId": op.id, "summary": (op.summary or op.id)[:300]}
    doc["description"] = (op.summary or program.description or program.title)[:300]
    if isinstance(op, CreateOp):
        request, responses = _create(program, op)
    elif isinstance(op, ListOp):
        request, responses = _list(program, op)
    elif isinstance(op, GetOp):
        request, responses = {"parameters": [_id_param()]}, {"200": _json("The row", _row(program, op.entity))}
    elif isinstance(op, UpdateOp):
        # No defaults and every input nullable: what a caller leaves out or sends as null stays as it is.
        body = {**_object(program.entities[op.entity].fields, program.ui.lang, null="update"), "minProperties": 1}
        request = {"parameters": [_id_param()], "requestBody": _body(body)}
        responses = {"200": _json("The changed row", _row(program, op.entity))}
    elif isinstance(op, DeleteOp):
        request, responses = {"parameters": [_id_param()]}, {"204": {"description": "Deleted"}}
    elif isinstance(op, AggregateOp):
        request, responses = _aggregate(program, op)
    elif isinstance(op, ComputeOp):
        request, responses = _compute(op, program.ui.lang)
    else:
        request, responses = _fetch(program, op)
    for code in ERRORS:
        if code == "502" or (code == "409" and not isinstance(op, CreateOp | UpdateOp)):
            continue  # only a fetch reaches outside (it declares its own 502); only writes of rows conflict
        responses.setdefault(code, {"$ref": f"#/components/responses/E{code}"})
    return {**doc, **request, "responses": responses}


def build_spec(program: ToolProgram, server_url: str) -> dict[str, Any]:
    """The tool's OpenAPI 3.1 document, served from ``server_url``."""
    paths: dict[str, dict[str, Any]] = {
        "/": {
            "get": {
                "operationId": "describeTool",
                "summary": "Describe this tool",
                "description": "The tool's title, operations and defaults.",
                "responses": {
                    "200": _json("What this tool offers", {"type": "object"}),
                    "401": {"$ref": "#/components/responses/E401"},
                },
            }
        },
    }
    for op in program.operations:
        paths.setdefault(op.path, {})[op.method.lower()] = _operation(program, op)
    error = {
        "type": "object",
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        "required": ["code", "message"],
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": program.title,
            "version": f"{program.version}.0.0",
            "description": (program.description or program.title)[:300],
        },
        "servers": [{"url": server_url}],
        "paths": paths,
        "components": {
            "schemas": {"Error": error},
            "responses": {
                f"E{code}": _json(text, {"$ref": "#/components/schemas/Error"}) for code, text in ERRORS.items()
            },
            "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearerAuth": []}],
    }


def validate_spec(spec: dict[str, Any]) -> None:
    """Raise StageError unless ``spec`` is a valid OpenAPI document."""
    try:
        validate(spec)
    except OpenAPIValidationError as e:
        raise StageError("specify", f"invalid OpenAPI document: {e.message}") from e
