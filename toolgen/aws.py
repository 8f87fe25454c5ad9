"""The one place boto3 clients are made: endpoint, region and retries come from here.

Clients are made once per process and cached (STYLE.md habit 3); creation is locked because a boto3 session is
not thread-safe while it builds a client, though the clients themselves are. The endpoint follows
AWS_ENDPOINT_URL (boto3 reads it itself), so the same code talks to AWS, to moto's server or to LocalStack.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from toolgen.errors import AWSError

_lock = threading.Lock()
_clients: dict[tuple[str, str, str], Any] = {}
_session: boto3.session.Session | None = None

# botocore's own retry machinery ("standard" mode: throttling and transient errors, exponential backoff with
# jitter); no hand-written retry loops anywhere else.
RETRY_CONFIG = Config(
    retries={"mode": "standard", "max_attempts": 5},
    connect_timeout=5,
    read_timeout=30,
    tcp_keepalive=True,
)


def region() -> str:
    """The AWS region: AWS_REGION (set by Lambda), else AWS_DEFAULT_REGION, else us-east-1."""
    return os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"


def client(service: str) -> Any:
    """A cached boto3 client for ``service`` in the current region and endpoint."""
    key = (service, region(), os.environ.get("AWS_ENDPOINT_URL", ""))
    found = _clients.get(key)
    if found is not None:
        return found
    global _session
    with _lock:
        if key not in _clients:
            if _session is None:
                _session = boto3.session.Session()
            _clients[key] = _session.client(service, region_name=key[1], config=RETRY_CONFIG)
        return _clients[key]


def reset_clients() -> None:
    """Forget cached clients (after the endpoint or credentials change, e.g. between tests)."""
    global _session
    with _lock:
        _clients.clear()
        _session = None


def error_code(error: Exception) -> str:
    """The AWS error code of a botocore ClientError ('' for anything else)."""
    if isinstance(error, ClientError):
        return str(error.response.get("Error", {}).get("Code", ""))
    return ""


def translate(error: Exception, action: str) -> AWSError:
    """An AWSError describing a failed boto3 call, for ``raise translate(e, ...) from e``."""
    if isinstance(error, ClientError):
        code = error_code(error)
        message = error.response.get("Error", {}).get("Message", "") or str(error)
        return AWSError(f"{action} failed: {code}: {message}", aws_code=code)
    if isinstance(error, BotoCoreError):
        return AWSError(f"{action} failed: {error}")
    return AWSError(f"{action} failed: {error!r}")
