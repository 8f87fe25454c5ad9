"""Where moto's Lambda differs from AWS in ways the deployer depends on, make it answer as AWS does.

The deployer's concurrency safety rests on Lambda refusing a second create with ResourceConflictException; moto
mostly does, but checks and creates without a lock, names an alias clash ``ConflictException``, and silently
replaces an existing function URL or permission statement. Each patch below makes one such answer AWS's, in
this process only (the embedded default runs moto in-process). tests/functional/test_deployer.py relies on them.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

_applied = False
_lock = threading.RLock()


def _conflict(message: str) -> Exception:
    from moto.awslambda.exceptions import LambdaClientError

    error = LambdaClientError("ResourceConflictException", message)
    error.code = 409
    return error


def apply() -> None:
    """Patch moto's Lambda once per process (idempotent)."""
    global _applied
    with _lock:
        if _applied:
            return
        _applied = True
    from moto.awslambda import models, responses
    from moto.awslambda.exceptions import ConflictException

    def serialised(method: Any) -> Any:
        """A check-then-create in moto, made atomic as it is in Lambda."""

        @functools.wraps(method)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with _lock:
                return method(*args, **kwargs)

        return wrapper

    setattr(responses.LambdaResponse, "create_function", serialised(responses.LambdaResponse.create_function))  # noqa: B010

    original_alias = models.LambdaBackend.create_alias

    @functools.wraps(original_alias)
    def create_alias(self: Any, *args: Any, **kwargs: Any) -> Any:
        with _lock:
            try:
                return original_alias(self, *args, **kwargs)
            except ConflictException as e:
                raise _conflict(e.message) from e

    setattr(models.LambdaBackend, "create_alias", create_alias)  # noqa: B010

    original_url = models.LambdaBackend.create_function_url_config

    @functools.wraps(original_url)
    def create_function_url_config(self: Any, name_or_arn: str, config: dict[str, Any]) -> Any:
        with _lock:
            function = self._lambdas.get_function_by_name_or_arn_forbid_qualifier(name_or_arn)
            if function.url_config is not None:
                raise _conflict(f"Failed to create function url config for [functionArn = {function.function_arn}]")
            return original_url(self, name_or_arn, config)

    setattr(models.LambdaBackend, "create_function_url_config", create_function_url_config)  # noqa: B010

    original_permission = models.LambdaBackend.add_permission

    @functools.wraps(original_permission)
    def add_permission(self: Any, function_name: str, qualifier: str, raw: str) -> Any:
        import json

        sid = json.loads(raw).get("StatementId")
        with _lock:
            fn = self.get_function(function_name, qualifier)
            if sid and any(s.get("Sid") == sid for s in fn.policy.statements):
                raise _conflict(f"The statement id ({sid}) provided already exists.")
            return original_permission(self, function_name, qualifier, raw)

    setattr(models.LambdaBackend, "add_permission", add_permission)  # noqa: B010
