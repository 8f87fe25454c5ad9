"""What every route's document shares: the error answers it lists and a list's `next` parameter, declared once
for toolgen/api/app.py and toolgen/api/growth.py."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.openapi.types import (
    OpenAPIResponse,
    OpenAPIResponseContentModel,
    OpenAPIResponseContentSchema,
)
from pydantic import BeforeValidator

from toolgen import cursor
from toolgen.models import ErrorBody

ERROR: dict[str, OpenAPIResponseContentSchema | OpenAPIResponseContentModel] = {
    "application/json": {"model": ErrorBody}
}
ERRORS: dict[int, OpenAPIResponse] = {
    401: {"description": "Missing or invalid bearer token", "content": ERROR},
    404: {"description": "Not found (or not yours)", "content": ERROR},
    422: {"description": "Invalid request", "content": ERROR},
    503: {"description": "A service the platform uses failed; retry", "content": ERROR},
}


def _true_or_false(value: object) -> object:
    """A query flag as a boolean, from "true" or "false" only: pydantic's lax reading also took "yes", "on", "1"
    and "0", which the document (a boolean) does not say and a typo turns into a choice."""
    if isinstance(value, bool):
        return value
    if value in ("true", "false"):
        return value == "true"
    raise ValueError("must be true or false")


Flag = BeforeValidator(_true_or_false)  # Annotated[bool, Flag, Query(...)]: a query boolean, strictly read

# A list's page: `limit` and `next` (toolgen/cursor.py), as the tools' own lists take them.
Next = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=cursor.MAX_TOKEN,
        pattern=cursor.PATTERN,
        description="The `next` of the previous page, as it was given (any other token is refused, 422)",
    ),
]
