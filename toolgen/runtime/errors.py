"""Errors a tool call can end in, each with the HTTP status its caller gets."""

from __future__ import annotations

from typing import Any

from toolgen.errors import ToolgenError


class ToolCallError(ToolgenError):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, details: Any = None) -> None:
        super().__init__(message)
        self.details_value = details


class BadRequest(ToolCallError):
    status, code = 400, "bad_request"


class Unauthorized(ToolCallError):
    status, code = 401, "unauthorized"


class Forbidden(ToolCallError):
    status, code = 403, "forbidden"


class RouteNotFound(ToolCallError):
    status, code = 404, "not_found"


class Invalid(ToolCallError):
    status, code = 422, "invalid_input"


class UpstreamError(ToolCallError):
    status, code = 502, "upstream_error"
