"""Settings of the platform functions, read from the environment when a handler starts, never at import.

A missing required variable is an error naming every missing one (STYLE.md habit 10): no default resource
names that would hide a broken deployment.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property

from toolgen.errors import ConfigError

TOOL_FUNCTION_PREFIX = "toolgen-tool-"


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as e:
        raise ConfigError(f"{name} must be an integer, got {raw!r}") from e


@dataclass(frozen=True)
class Settings:
    """Everything a platform function needs to know about where it runs."""

    table_name: str
    bucket_name: str = ""
    jobs_queue_url: str = ""
    tool_role_arn: str = ""
    base_layer_arn: str = ""
    secret_value: str = field(default="", repr=False)
    secret_arn: str = ""
    tool_function_prefix: str = TOOL_FUNCTION_PREFIX
    tool_timeout_s: int = 10
    tool_concurrency: int = 5
    tool_memory_mb: int = 256
    # Where tools and pages are reached. On AWS the tool URL is the function URL and the API's own address is
    # read from each request; the embedded default serves both itself and says where.
    tool_url_base: str = ""
    public_base_url: str = ""

    @classmethod
    def from_env(cls, *required: str) -> Settings:
        """Settings from the environment; ConfigError naming every variable in ``required`` that is unset."""
        names = {
            "table_name": "TABLE_NAME",
            "bucket_name": "BUCKET_NAME",
            "jobs_queue_url": "JOBS_QUEUE_URL",
            "tool_role_arn": "TOOL_ROLE_ARN",
            "base_layer_arn": "BASE_LAYER_ARN",
        }
        values = {attr: os.environ.get(env, "") for attr, env in names.items()}
        missing = [names[attr] for attr in required if attr in names and not values[attr]]
        if "secret" in required and not (os.environ.get("TOOLGEN_SECRET") or os.environ.get("TOOLGEN_SECRET_ARN")):
            missing.append("TOOLGEN_SECRET or TOOLGEN_SECRET_ARN")
        if missing:
            raise ConfigError("missing required environment: " + ", ".join(missing))
        return cls(
            **values,
            secret_value=os.environ.get("TOOLGEN_SECRET", ""),
            secret_arn=os.environ.get("TOOLGEN_SECRET_ARN", ""),
            tool_function_prefix=os.environ.get("TOOL_FUNCTION_PREFIX") or TOOL_FUNCTION_PREFIX,
            tool_timeout_s=_int("TOOL_TIMEOUT", 10),
            tool_concurrency=_int("TOOL_CONCURRENCY", 5),
            tool_memory_mb=_int("TOOL_MEMORY_SIZE", 256),
            tool_url_base=os.environ.get("TOOL_URL_BASE", "").rstrip("/"),
            public_base_url=os.environ.get("PUBLIC_BASE_URL", "").rstrip("/"),
        )

    @cached_property
    def secret(self) -> str:
        """The token-signing secret: given directly, or read once from Secrets Manager."""
        if self.secret_value:
            return self.secret_value
        if not self.secret_arn:
            raise ConfigError("missing required environment: TOOLGEN_SECRET or TOOLGEN_SECRET_ARN")
        from aws_lambda_powertools.utilities.parameters import get_secret

        return str(get_secret(self.secret_arn, max_age=300))
