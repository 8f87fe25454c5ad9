"""One error tree for the whole platform.

Handlers map error *types* to HTTP status codes in one table (toolgen/api/errors.py), never by matching message
text. Adapters translate boto3 and other library errors into these (``raise X from e``).
"""

from __future__ import annotations


class ToolgenError(Exception):
    """Root of every error toolgen raises on purpose."""

    code = "internal_error"

    def __init__(self, message: str, *, details: dict | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or {}


class ConfigError(ToolgenError):
    """Required configuration is missing or malformed; raised at start, never silently defaulted."""

    code = "config_error"


class AuthError(ToolgenError):
    """The bearer token is missing, malformed, badly signed or expired."""

    code = "unauthorized"


class NotFoundError(ToolgenError):
    """The resource does not exist for this caller (another person's resource is reported the same way)."""

    code = "not_found"


class InvalidInputError(ToolgenError):
    """The request is well-formed JSON but its content cannot be used."""

    code = "invalid_input"


class BadPageTokenError(InvalidInputError):
    """A ``next`` that is not a page token this list gave the caller (toolgen/cursor.py)."""

    code = "bad_next"


class UnclearRevisionError(InvalidInputError):
    """A follow-up to a tool in which nothing can be read as a change (toolgen/planner/revise.py); the message names
    what can be changed, in the follow-up's language."""

    code = "unclear_revision"


class RevisionNotPossibleError(InvalidInputError):
    """A follow-up read as a change that cannot apply to this tool (an unknown field, a name taken, a unit of
    another dimension); the message says why, in the follow-up's language."""

    code = "revision_not_possible"


class IdempotencyKeyReusedError(InvalidInputError):
    """An Idempotency-Key sent again with a different request."""

    code = "idempotency_key_reused"


class ConflictError(ToolgenError):
    """The resource is not in a state that allows this change."""

    code = "conflict"


class RevisionInProgressError(ConflictError):
    """Another revision of the tool is being made: one at a time, so its history never forks."""

    code = "revision_in_progress"


class TooManyMemoriesError(ConflictError):
    """The person keeps as many memories as one person may (bounds.MAX_MEMORIES_PER_PERSON)."""

    code = "too_many_memories"


class StageError(ToolgenError):
    """A pipeline stage failed for a reason the person should see on the job."""

    code = "stage_failed"

    def __init__(self, stage: str, message: str) -> None:
        super().__init__(f"{stage}: {message}")
        self.stage = stage


class AWSError(ToolgenError):
    """An AWS call failed; carries the service's error code."""

    code = "aws_error"

    def __init__(self, message: str, *, aws_code: str = "", details: dict | None = None) -> None:
        super().__init__(message, details=details)
        self.aws_code = aws_code


class DeployError(AWSError):
    """Deploying a tool function failed (after rolling back what it had created)."""

    code = "deploy_failed"
