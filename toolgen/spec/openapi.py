"""OpenAPI 3.1 documents for generated tools, shaped to import cleanly (DESIGN.md section 8).

Rules kept here: every operation has an operationId; parameters are declared per operation (never at path
level) with a single ``type``; request bodies are one inline ``application/json`` object schema (no ``$ref``,
no ``allOf``, no arrays); descriptions stay within GPT Actions' limits (300 per endpoint, 700 per parameter).
"""

from __future__ import annotations

from typing import Any

from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

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

# A metric is a number, a date (last(date)) or null (no rows yet); anyOf keeps each branch a single type.
METRIC_VALUE = {"anyOf": [{"type": "number"}, {"type": "string"}, {"type": "null"}]}
ERRORS = {
    "400": "The request is malformed",
    "401": "Missing or invalid bearer token",
    "403": "This tool belongs to someone else",
    "404": "No such route or row",
    "422": "A field is missing or invalid",
}


def field_schema(spec: FieldSpec | str) -> dict[str, Any]:
    """JSON Schema for one typed field, with a single ``type`` (importers reject type lists)."""
    if isinstance(spec, str):
        spec = FieldSpec(type=spec)  # type: ignore[arg-type]
    kind = spec.type
    schema: dict[str, Any]
    if kind in ("number", "integer", "boolean"):
        schema = {"type": kind}
    elif kind == "date":
        schema = {"type": "string", "format": "date"}
    elif kind == "time":
        schema = {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"}
    else:
        schema = {"type": "string", "maxLength": spec.max_length}
    if spec.enum:
        schema["enum"] = list(spec.enum)
    if spec.minimum is not None:
        schema["minimum"] = spec.minimum
    if spec.maximum is not None:
        schema["maximum"] = spec.maximum
    if spec.label:
        schema["description"] = spec.label[:700]
    if spec.default is not None and not (isinstance(spec.default, str) and spec.default.startswith("$")):
        schema["default"] = spec.default
    return schema


def _object(fields: dict[str, FieldSpec], *, for_create: bool) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {name: field_schema(spec) for name, spec in fields.items()},
    }
    required = [n for n, s in fields.items() if s.required and s.default is None] if for_create else []
    if required:
        schema["required"] = required
    return schema


def _row(program: ToolProgram, entity: str) -> dict[str, Any]:
    schema = _object(program.entities[entity].fields, for_create=False)
    schema["properties"] = {
        "id": {"type": "string"},
        **schema["properties"],
        "created_at": {"type": "string", "format": "date-time"},
        "updated_at": {"type": "string", "format": "date-time"},
    }
    schema["required"] = ["id", "created_at"]
    return schema


def _json(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _id_param() -> dict[str, Any]:
    return {"name": "id", "in": "path", "required": True, "description": "The row's id", "schema": {"type": "string"}}


def _query_params(inputs: dict[str, FieldSpec]) -> list[dict[str, Any]]:
    params = []
    for name, spec in inputs.items():
        schema = field_schema(spec)
        params.append(
            {
                "name": name,
                "in": "query",
                "required": spec.required and spec.default is None,
                "description": (spec.label or name)[:700],
                "schema": schema,
            }
        )
    return params


def _operation(program: ToolProgram, op: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"operationId": op.id, "summary": (op.summary or op.id)[:300]}
    doc["description"] = (op.summary or program.description or program.title)[:300]
    responses: dict[str, Any] = {}
    if isinstance(op, CreateOp):
        body = _object(program.entities[op.entity].fields, for_create=True)
        doc["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
        responses["201"] = _json("The stored row", _row(program, op.entity))
    elif isinstance(op, ListOp):
        doc["parameters"] = [
            {
                "name": "limit",
                "in": "query",
                "required": False,
                "description": "At most this many rows",
                "schema": {"type": "integer", "minimum": 1, "maximum": op.limit, "default": op.limit},
            },
        ]
        items = {"type": "array", "items": _row(program, op.entity)}
        responses["200"] = _json(
            "Rows, sorted", {"type": "object", "properties": {"items": items}, "required": ["items"]}
        )
    elif isinstance(op, GetOp):
        doc["parameters"] = [_id_param()]
        responses["200"] = _json("The row", _row(program, op.entity))
    elif isinstance(op, UpdateOp):
        doc["parameters"] = [_id_param()]
        body = _object(program.entities[op.entity].fields, for_create=False)
        doc["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
        responses["200"] = _json("The changed row", _row(program, op.entity))
    elif isinstance(op, DeleteOp):
        doc["parameters"] = [_id_param()]
        responses["204"] = {"description": "Deleted"}
    elif isinstance(op, AggregateOp):
        metrics = {"type": "object", "properties": {m: METRIC_VALUE for m in op.metrics}}
        if op.group_by:
            group = {"type": "object", "properties": {"key": {"type": "string"}, "metrics": metrics}}
            schema = {"type": "object", "properties": {"groups": {"type": "array", "items": group}}}
        else:
            schema = {"type": "object", "properties": {"metrics": metrics}}
        responses["200"] = _json("Figures over the stored rows", schema)
    elif isinstance(op, ComputeOp):
        if op.method == "GET":
            doc["parameters"] = _query_params(op.inputs)
        else:
            body = _object(op.inputs, for_create=True)
            doc["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
        outputs = {"type": "object", "properties": {o: {"type": "number"} for o in op.outputs}}
        responses["200"] = _json("The computed values", outputs)
    elif isinstance(op, FetchOp):
        row = {"type": "object", "properties": {f: field_schema(t) for f, t in op.fields.items()}}
        schema = {"type": "object", "properties": {"items": {"type": "array", "items": row}}}
        responses["200"] = _json("Ranked results from the source", schema)
    for code in ERRORS:
        responses[code] = {"$ref": f"#/components/responses/E{code}"}
    doc["responses"] = responses
    return doc


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
