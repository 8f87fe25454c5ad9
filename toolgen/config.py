"""Settings of the platform functions, read from the environment when a handler starts, never at import.

A missing required variable is an error naming every missing one (STYLE.md habit 10): no default resource
names that would hide a broken deployment.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from urllib.parse import urlsplit

from toolgen import accounts
from toolgen.errors import ConfigError

TOOL_FUNCTION_PREFIX = "toolgen-tool-"
TARGETS = ("aws", "localstack")


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as e:
        raise ConfigError(f"{name} must be an integer, got {raw!r}") from e


def _switch(name: str) -> bool:
    raw = os.environ.get(name, "").strip()
    if raw.lower() in ("", "0", "off", "false", "no", "none"):
        return False
    if raw.lower() in ("1", "on", "true", "yes", "publishedversions"):
        return True
    raise ConfigError(f"{name} must be on or off, got {raw!r}")


def _origins(raw: str, public_base_url: str) -> tuple[str, ...]:
    """TOOL_CORS_ORIGINS (comma-separated origins, or *); else the origin pages are served from; else *."""
    if raw.strip():
        origins = tuple(o.strip().rstrip("/") for o in raw.split(",") if o.strip())
        bad = [o for o in origins if o != "*" and not (o.startswith(("https://", "http://")) and o.count("/") == 2)]
        if bad:
            raise ConfigError(f"TOOL_CORS_ORIGINS must list origins (scheme://host[:port]) or *, got {bad}")
        return origins
    if public_base_url:
        parts = urlsplit(public_base_url)
        return (f"{parts.scheme}://{parts.netloc}",)
    return ("*",)


@dataclass(frozen=True)
class Settings:
    """Everything a platform function needs to know about where it runs."""

    table_name: str
    bucket_name: str = ""
    jobs_queue_url: str = ""
    tool_role_arn: str = ""
    # The tools' role's unique id (AROA...): with a function's name, the aws:userid its partitions are keyed by
    # (toolgen/table.py). Read from IAM when not given.
    tool_role_id: str = ""
    base_layer_arn: str = ""
    secret_value: str = field(default="", repr=False)
    secret_arn: str = ""
    tool_function_prefix: str = TOOL_FUNCTION_PREFIX
    tool_timeout_s: int = 10
    tool_concurrency: int = 5
    # Of the account's concurrency quota, how much tools may reserve (percent); past it tools keep their limit
    # with table leases (toolgen/runtime/lease.py). 0: never reserve.
    tool_reserve_percent: int = 50
    tool_log_group: str = ""  # where tools log (the stack's group, with retention); "" for Lambda's default
    # More accounts for tools (toolgen/accounts.py): their ids; the platform's own id; the table's ARN, which
    # tools in other accounts reach it by.
    tool_accounts: tuple[str, ...] = ()
    platform_account_id: str = ""
    table_arn: str = ""
    tool_memory_mb: int = 256
    # Options with costs (README, "Deploy options"): SnapStart on published versions; warm environments kept.
    tool_snapstart: bool = False
    tool_provisioned: int = 0
    # Origins allowed to call tool URLs from a browser: where pages are served (the API's origin on AWS).
    tool_cors_origins: tuple[str, ...] = ("*",)
    # "localstack": clients through localstack-client, and the runtime inside each tool's package (LocalStack
    # Community does not apply layers).
    target: str = "aws"
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
            "tool_role_id": "TOOL_ROLE_ID",
            "base_layer_arn": "BASE_LAYER_ARN",
        }
        values = {attr: os.environ.get(env, "") for attr, env in names.items()}
        missing = [names[attr] for attr in required if attr in names and not values[attr]]
        target = os.environ.get("TOOLGEN_TARGET") or "aws"
        if target not in TARGETS:
            raise ConfigError(f"TOOLGEN_TARGET must be one of {', '.join(TARGETS)}, got {target!r}")
        if "secret" in required and not (os.environ.get("TOOLGEN_SECRET") or os.environ.get("TOOLGEN_SECRET_ARN")):
            missing.append("TOOLGEN_SECRET or TOOLGEN_SECRET_ARN")
        if missing:
            raise ConfigError("missing required environment: " + ", ".join(missing))
        public = os.environ.get("PUBLIC_BASE_URL", "").rstrip("/")
        settings = cls(
            **values,
            secret_value=os.environ.get("TOOLGEN_SECRET", ""),
            secret_arn=os.environ.get("TOOLGEN_SECRET_ARN", ""),
            tool_function_prefix=os.environ.get("TOOL_FUNCTION_PREFIX") or TOOL_FUNCTION_PREFIX,
            tool_timeout_s=_int("TOOL_TIMEOUT", 10),
            tool_concurrency=_int("TOOL_CONCURRENCY", 5),
            tool_reserve_percent=_int("TOOL_RESERVE_PERCENT", 50),
            tool_log_group=os.environ.get("TOOL_LOG_GROUP", ""),
            tool_accounts=accounts.parse(os.environ.get("TOOL_ACCOUNTS", "")),
            platform_account_id=os.environ.get("PLATFORM_ACCOUNT_ID", ""),
            table_arn=os.environ.get("TABLE_ARN", ""),
            tool_memory_mb=_int("TOOL_MEMORY_SIZE", 256),
            tool_snapstart=_switch("TOOL_SNAPSTART"),
            tool_provisioned=_int("TOOL_PROVISIONED_CONCURRENCY", 0),
            tool_cors_origins=_origins(os.environ.get("TOOL_CORS_ORIGINS", ""), public),
            target=target,
            tool_url_base=os.environ.get("TOOL_URL_BASE", "").rstrip("/"),
            public_base_url=public,
        )
        settings.check()
        return settings

    def check(self) -> None:
        """ConfigError for settings Lambda would refuse, named before the first deploy tries them."""
        if self.tool_snapstart and self.target == "localstack":
            raise ConfigError("TOOL_SNAPSTART is not available on LocalStack")
        if self.tool_snapstart and self.tool_provisioned:
            raise ConfigError("TOOL_SNAPSTART and TOOL_PROVISIONED_CONCURRENCY cannot both be on (Lambda refuses it)")
        if not 0 <= self.tool_provisioned <= self.tool_concurrency:
            raise ConfigError("TOOL_PROVISIONED_CONCURRENCY must be between 0 and TOOL_CONCURRENCY")
        bad = [a for a in self.tool_accounts if not (a.isdigit() and len(a) == 12)]
        if bad:
            raise ConfigError(f"TOOL_ACCOUNTS must be 12-digit AWS account ids, got {', '.join(bad)}")
        if any(a != self.platform_account_id for a in self.tool_accounts) and not self.table_arn:
            raise ConfigError(
                "TOOL_ACCOUNTS names other accounts: TABLE_ARN must say where their tools reach the table"
            )
        if not 0 <= self.tool_reserve_percent <= 100:
            raise ConfigError("TOOL_RESERVE_PERCENT must be 0-100 (of the account's concurrency quota)")
        if not 1 <= self.tool_concurrency <= 5 or not 1 <= self.tool_timeout_s <= 10:
            raise ConfigError("TOOL_CONCURRENCY must be 1-5 and TOOL_TIMEOUT 1-10 (the platform's limits)")

    @property
    def inline_runtime(self) -> bool:
        """Whether each tool's package carries the runtime itself instead of using the base layer."""
        return self.target == "localstack"

    @cached_property
    def secret(self) -> str:
        """The token-signing secret: given directly, or read once from Secrets Manager."""
        if self.secret_value:
            return self.secret_value
        if not self.secret_arn:
            raise ConfigError("missing required environment: TOOLGEN_SECRET or TOOLGEN_SECRET_ARN")
        from aws_lambda_powertools.utilities.parameters import get_secret

        return str(get_secret(self.secret_arn, max_age=300))
