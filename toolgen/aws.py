"""The one place boto3 clients are made: endpoint, region and retries come from here.

Clients are made once per process and cached (STYLE.md habit 3); creation is locked because a boto3 session is
not thread-safe while it builds a client, though the clients themselves are. The endpoint follows
AWS_ENDPOINT_URL (boto3 reads it itself), so the same code talks to AWS, to moto's server or to LocalStack;
with TOOLGEN_TARGET=localstack clients come from localstack-client instead (its endpoint: AWS_ENDPOINT_URL, else
LOCALSTACK_HOST, else localhost:4566; its fixed test credentials).
boto3 is imported when the first client is made, not with this module: a tool's runtime uses toolgen/table.py
through toolgen/awslite.py and never pays for it. Errors are read by their shape, so both clients' errors work.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

from toolgen.errors import AWSError

_lock = threading.Lock()
_clients: dict[tuple[str, str, str, str], Any] = {}
_session: Any = None

# botocore's own retry machinery ("standard" mode: throttling and transient errors, exponential backoff with
# jitter); no hand-written retry loops anywhere else (but toolgen/awslite.py's, which mirrors it).
RETRY = {
    "retries": {"mode": "standard", "max_attempts": 5},
    "connect_timeout": 5,
    "read_timeout": 30,
    "tcp_keepalive": True,
}


def retry_config() -> Any:
    """botocore's Config with toolgen's retries and timeouts."""
    from botocore.config import Config

    return Config(**RETRY)


def region() -> str:
    """The AWS region: AWS_REGION (set by Lambda), else AWS_DEFAULT_REGION, else us-east-1."""
    return os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"


def target() -> str:
    """Where the platform's AWS is: "aws" (AWS itself, or any endpoint boto3 is pointed at) or "localstack"."""
    return os.environ.get("TOOLGEN_TARGET") or "aws"


def client(service: str) -> Any:
    """A cached boto3 client for ``service`` in the current region, endpoint and target."""
    key = (service, region(), os.environ.get("AWS_ENDPOINT_URL", ""), target())
    found = _clients.get(key)
    if found is not None:
        return found
    global _session
    with _lock:
        if key not in _clients:
            if key[3] == "localstack":
                from localstack_client.session import Session as LocalStackSession

                made = LocalStackSession(region_name=key[1]).client(service, config=retry_config())
            else:
                if _session is None:
                    import boto3

                    _session = boto3.session.Session()
                made = _session.client(service, region_name=key[1], config=retry_config())
            _clients[key] = made
        return _clients[key]


def reset_clients() -> None:
    """Forget cached clients (after the endpoint or credentials change, e.g. between tests)."""
    global _session
    with _lock:
        _clients.clear()
        _session = None


def _answered(error: BaseException) -> bool:
    """An error AWS answered with (botocore's ClientError, awslite's AwsClientError): it has response["Error"]."""
    response = getattr(error, "response", None)
    return isinstance(response, dict) and isinstance(response.get("Error"), dict)


def is_aws_error(error: BaseException) -> bool:
    """Whether ``error`` came from talking to AWS: an answer, or botocore's own failure to get one."""
    if _answered(error):
        return True
    exceptions = sys.modules.get("botocore.exceptions")  # not imported: no botocore error can have happened
    return exceptions is not None and isinstance(error, exceptions.BotoCoreError)


def error_code(error: BaseException) -> str:
    """The AWS error code of a client error ('' for anything else)."""
    return str(getattr(error, "response")["Error"].get("Code", "")) if _answered(error) else ""  # noqa: B009


def translate(error: BaseException, action: str) -> AWSError:
    """An AWSError describing a failed AWS call, for ``raise translate(e, ...) from e``."""
    if _answered(error):
        code = error_code(error)
        message = getattr(error, "response")["Error"].get("Message", "") or str(error)  # noqa: B009
        return AWSError(f"{action} failed: {code}: {message}", aws_code=code)
    if is_aws_error(error):
        return AWSError(f"{action} failed: {error}")
    return AWSError(f"{action} failed: {error!r}")
