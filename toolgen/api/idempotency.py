"""`Idempotency-Key` on POST /v1/tools: a retried request gets the first answer, never a second job or tool.

Powertools' idempotency utility on the platform's own table (the person's ``IDEMPOTENCY#<user>`` partition, the
hashed key as sort key, an hour's expiry in ``expiration``, which the table's TTL removes). The key is the
person's and the header's together, so two people's keys never meet, and forgetting a person deletes their
partition: a key retried after it makes a fresh job instead of answering with one that is gone. The prompt is
validated, so the same key with a different request is refused rather than answered with the wrong job. A request
still being handled under the same key is a conflict to retry; a request that failed leaves no record, so its
retry runs again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
    idempotent_function,
)
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyValidationError,
)

from toolgen import aws
from toolgen.errors import ConflictError, IdempotencyKeyReusedError, InvalidInputError

KEY_PARTITION = "IDEMPOTENCY#"
EXPIRES_S = 3600
MAX_KEY = 128
KEY_PATTERN = r"^[!-~]{1,128}$"  # visible ASCII, as the IETF draft's sf-string keys are

_config = IdempotencyConfig(
    event_key_jmespath="[user, key]",
    payload_validation_jmespath="prompt",
    expires_after_seconds=EXPIRES_S,
    hash_function="sha256",
)


def partition(user: str) -> str:
    """Where a person's idempotency records are kept (one partition, so forgetting them is one query)."""
    return KEY_PARTITION + user


@lru_cache(maxsize=1024)
def _guarded(table_name: str, user: str, create: Callable[[str, str], dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    store = DynamoDBPersistenceLayer(
        table_name=table_name,
        key_attr="pk",
        sort_key_attr="sk",
        static_pk_value=partition(user),
        boto3_client=aws.client("dynamodb"),
    )

    @idempotent_function(data_keyword_argument="request", persistence_store=store, config=_config)
    def guarded(request: dict[str, str]) -> dict[str, Any]:
        return create(request["user"], request["prompt"])

    return guarded


def register_context(context: Any) -> None:
    """Let Powertools see the invocation's remaining time (an in-progress record expires with it)."""
    if context is not None and hasattr(context, "get_remaining_time_in_millis"):
        _config.register_lambda_context(context)


def once(
    table_name: str, key: str, user: str, prompt: str, create: Callable[[str, str], dict[str, Any]]
) -> dict[str, Any]:
    """``create(user, prompt)``, or the answer it gave the first time this person sent ``key``."""
    if not re.match(KEY_PATTERN, key):  # the route's schema says so too; this holds for any other caller
        raise InvalidInputError(f"Idempotency-Key must be 1-{MAX_KEY} visible ASCII characters")
    try:
        return _guarded(table_name, user, create)(request={"user": user, "key": key, "prompt": prompt})
    except IdempotencyValidationError as e:
        raise IdempotencyKeyReusedError("this Idempotency-Key was used for a different request") from e
    except IdempotencyAlreadyInProgressError as e:
        raise ConflictError("a request with this Idempotency-Key is still being handled; retry shortly") from e
