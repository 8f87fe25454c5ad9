"""Error types to HTTP status codes: the one table (STYLE.md habit 6), and the JSON body every error has."""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.event_handler import Response, content_types

from toolgen import errors

STATUS: dict[type[errors.ToolgenError], int] = {
    errors.InvalidInputError: 400,
    errors.IdempotencyKeyReusedError: 422,  # as the IETF draft on Idempotency-Key says
    errors.BadPageTokenError: 422,  # well-formed, but not a token of this list: as any other invalid field
    errors.UnclearRevisionError: 422,  # a follow-up read, but with nothing in it to change
    errors.RevisionNotPossibleError: 422,  # a follow-up read as a change this tool cannot take
    errors.AuthError: 401,
    errors.NotFoundError: 404,
    errors.ConflictError: 409,
    errors.ConfigError: 500,
    errors.AWSError: 503,
}


def status_of(error: errors.ToolgenError) -> int:
    """The HTTP status for an error, by the nearest type in the table."""
    for cls in type(error).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 500


def error_response(status: int, code: str, message: str, details: Any = None) -> Response:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else {}
    body = json.dumps({"code": code, "message": message, "details": details})
    return Response(status, content_types.APPLICATION_JSON, body, headers=headers)
