"""Errors a tool call can end in, each with the HTTP status its caller gets and its message in either language."""

from __future__ import annotations

from typing import Any

from toolgen.errors import ToolgenError
from toolgen.runtime.messages import Message


class ToolCallError(ToolgenError):
    status = 400
    code = "bad_request"

    def __init__(self, message: str | Message, *, details: Any = None) -> None:
        self.said = message if isinstance(message, Message) else None
        super().__init__(message.text() if isinstance(message, Message) else message)  # English, for logs
        self.details_value = details

    def text(self, lang: str) -> str:
        """The message in the tool's language (a plain-text message is said as it was given)."""
        return self.said.text(lang) if self.said is not None else self.message


class BadRequest(ToolCallError):
    status, code = 400, "bad_request"


class Unauthorized(ToolCallError):
    status, code = 401, "unauthorized"


class Forbidden(ToolCallError):
    status, code = 403, "forbidden"


class RouteNotFound(ToolCallError):
    status, code = 404, "not_found"


class MethodNotAllowed(ToolCallError):
    status, code = 405, "method_not_allowed"


class Invalid(ToolCallError):
    status, code = 422, "invalid_input"


class TooMany(ToolCallError):
    status, code = 409, "too_many_rows"


class UpstreamError(ToolCallError):
    """The public API behind a fetch failed (``details.reason``: no_resolve, no_answer, too_slow, upstream_status
    with its ``status``), or answered what the tool cannot read (upstream_shape, upstream_lacks, upstream_not_json,
    upstream_too_big): the first may pass by itself, the second is the tool's own fault (toolgen/probe.py)."""

    status, code = 502, "upstream_error"

    def __init__(self, message: str | Message, *, details: Any = None) -> None:
        if details is None and isinstance(message, Message):
            details = {
                "reason": message.key,
                **({"status": message.params["status"]} if "status" in message.params else {}),
            }
        super().__init__(message, details=details)
