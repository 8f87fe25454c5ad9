"""A small AWS client for the tool runtime's cold start: the JSON protocol (DynamoDB, Secrets Manager), signed
with Signature Version 4, over one kept-alive HTTPS connection, with nothing to import but the standard library.

Why not boto3 here: a generated tool is a fresh Lambda process, and importing boto3 and building a DynamoDB
client costs more than the rest of its cold start together (bench/coldstart.py gives the figures). The platform's
own functions keep boto3 (toolgen/aws.py); only the runtime of a tool uses this.

What it does, and nothing more:
- methods named like boto3's (``get_item(**params)``), taking and returning the service's wire JSON, which is
  what boto3's low-level DynamoDB client takes and returns too (binary values are base64 on the wire: requests
  encode bytes, and toolgen/table.py decodes either form);
- errors as ``AwsClientError`` with boto3's ``response["Error"]`` shape, so callers read codes the same way;
- retries like botocore's "standard" mode: throttling, 5xx and dropped connections, up to 3 attempts, with
  exponential backoff and full jitter;
- credentials from the environment (Lambda sets AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN);
  endpoint from AWS_ENDPOINT_URL_<SERVICE> or AWS_ENDPOINT_URL (moto, LocalStack), else the regional one.
The signature is tested against botocore's own signer (tests/unit/test_awslite.py).
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import http.client
import json
import os
import random
import threading
import time
from typing import Any
from urllib.parse import urlsplit

# service -> (signing name, X-Amz-Target prefix, content type)
SERVICES = {
    "dynamodb": ("dynamodb", "DynamoDB_20120810", "application/x-amz-json-1.0"),
    "secretsmanager": ("secretsmanager", "secretsmanager", "application/x-amz-json-1.1"),
}
THROTTLING = frozenset(
    {
        "ThrottlingException",
        "Throttling",
        "ThrottledException",
        "RequestThrottledException",
        "TooManyRequestsException",
        "ProvisionedThroughputExceededException",
        "RequestLimitExceeded",
        "TransactionInProgressException",
        "LimitExceededException",
    }
)
MAX_ATTEMPTS = 3
CONNECT_TIMEOUT_S, READ_TIMEOUT_S = 3.0, 8.0


class AwsClientError(Exception):
    """A failed call, shaped like botocore's ClientError: ``response["Error"]["Code"]`` and ``["Message"]``."""

    def __init__(self, code: str, message: str, operation: str, status: int) -> None:
        super().__init__(f"An error occurred ({code}) when calling the {operation} operation: {message}")
        self.code = code
        self.response: dict[str, Any] = {
            "Error": {"Code": code, "Message": message},
            "ResponseMetadata": {"HTTPStatusCode": status},
        }
        self.operation_name = operation


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def sign(
    *,
    method: str,
    host: str,
    path: str,
    headers: dict[str, str],
    body: bytes,
    service: str,
    region: str,
    access_key: str,
    secret_key: str,
    now: dt.datetime,
) -> dict[str, str]:
    """``headers`` plus X-Amz-Date and the SigV4 Authorization header (a request without a query string)."""
    stamp, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
    signed = {k.lower(): " ".join(str(v).split()) for k, v in headers.items()}
    signed["host"], signed["x-amz-date"] = host, stamp
    names = ";".join(sorted(signed))
    canonical = "\n".join(
        [
            method,
            path or "/",
            "",
            "".join(f"{k}:{signed[k]}\n" for k in sorted(signed)),
            names,
            hashlib.sha256(body).hexdigest(),
        ]
    )
    scope = f"{day}/{region}/{service}/aws4_request"
    to_sign = f"AWS4-HMAC-SHA256\n{stamp}\n{scope}\n{hashlib.sha256(canonical.encode()).hexdigest()}"
    key = _hmac(_hmac(_hmac(_hmac(f"AWS4{secret_key}".encode(), day), region), service), "aws4_request")
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    return {
        **headers,
        "X-Amz-Date": stamp,
        "Authorization": f"AWS4-HMAC-SHA256 Credential={access_key}/{scope}, SignedHeaders={names}, "
        f"Signature={signature}",
    }


def _json_default(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(bytes(value)).decode()
    raise TypeError(f"cannot send {type(value).__name__} as JSON")


def _pascal(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


class Client:
    """One service, one region, one endpoint; thread-safe (a connection per thread)."""

    def __init__(self, service: str, *, region: str | None = None, endpoint: str | None = None) -> None:
        if service not in SERVICES:
            raise ValueError(f"awslite speaks only {sorted(SERVICES)}, not {service}")
        self.service = service
        self.signing_name, self.target, self.content_type = SERVICES[service]
        self.region = region or os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
        suffix = "amazonaws.com.cn" if self.region.startswith("cn-") else "amazonaws.com"
        self.endpoint = (
            endpoint
            or os.environ.get(f"AWS_ENDPOINT_URL_{service.upper()}")
            or os.environ.get("AWS_ENDPOINT_URL")
            or f"https://{service}.{self.region}.{suffix}"
        )
        parts = urlsplit(self.endpoint)
        self._https = parts.scheme == "https"
        self._host = parts.netloc
        self._path = parts.path or "/"
        self._local = threading.local()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        operation = _pascal(name)
        return lambda **params: self.call(operation, params)

    def _connection(self, fresh: bool = False) -> http.client.HTTPConnection:
        connection = getattr(self._local, "connection", None)
        if connection is None or fresh:
            if connection is not None:
                connection.close()
            kind = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            connection = kind(self._host, timeout=CONNECT_TIMEOUT_S)
            self._local.connection = connection
        return connection

    def call(self, operation: str, params: dict[str, Any]) -> dict[str, Any]:
        """One operation, retried as botocore's standard mode would; its JSON answer."""
        body = json.dumps(params, default=_json_default, separators=(",", ":")).encode()
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                status, data = self._send(operation, body)
            except (OSError, http.client.HTTPException) as e:
                self._connection(fresh=True)
                if attempt == MAX_ATTEMPTS:
                    raise AwsClientError("ConnectionError", str(e), operation, 0) from e
                self._sleep(attempt)
                continue
            if status < 300:
                return json.loads(data) if data else {}
            error = _error(data, operation, status)
            if attempt == MAX_ATTEMPTS or not (status >= 500 or error.code in THROTTLING):
                raise error
            self._sleep(attempt)
        raise AssertionError("unreachable")

    def _send(self, operation: str, body: bytes) -> tuple[int, bytes]:
        key, secret = os.environ.get("AWS_ACCESS_KEY_ID"), os.environ.get("AWS_SECRET_ACCESS_KEY")
        if not key or not secret:
            missing = "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set"
            raise AwsClientError("NoCredentials", missing, operation, 0)
        headers = {"Content-Type": self.content_type, "X-Amz-Target": f"{self.target}.{operation}"}
        if os.environ.get("AWS_SESSION_TOKEN"):
            headers["X-Amz-Security-Token"] = os.environ["AWS_SESSION_TOKEN"]
        headers = sign(
            method="POST",
            host=self._host,
            path=self._path,
            headers=headers,
            body=body,
            service=self.signing_name,
            region=self.region,
            access_key=key,
            secret_key=secret,
            now=dt.datetime.now(dt.UTC),
        )
        connection = self._connection()
        connection.timeout = CONNECT_TIMEOUT_S
        connection.request("POST", self._path, body=body, headers=headers)
        if connection.sock is not None:
            connection.sock.settimeout(READ_TIMEOUT_S)
        response = connection.getresponse()
        return response.status, response.read()

    @staticmethod
    def _sleep(attempt: int) -> None:
        time.sleep(random.uniform(0, min(0.05 * 2**attempt, 1.0)))  # noqa: S311 - jitter, not a secret


def _error(data: bytes, operation: str, status: int) -> AwsClientError:
    try:
        parsed = json.loads(data) if data else {}
    except ValueError:
        parsed = {}
    code = str(parsed.get("__type") or parsed.get("code") or f"HTTP{status}").rsplit("#", 1)[-1]
    message = str(parsed.get("message") or parsed.get("Message") or data[:200].decode(errors="replace"))
    return AwsClientError(code, message, operation, status)


_clients: dict[tuple[str, str, str], Client] = {}
_lock = threading.Lock()


def client(service: str) -> Client:
    """A cached client for ``service`` in the current region and endpoint."""
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    endpoint = os.environ.get(f"AWS_ENDPOINT_URL_{service.upper()}") or os.environ.get("AWS_ENDPOINT_URL") or ""
    key = (service, region, endpoint)
    with _lock:
        if key not in _clients:
            _clients[key] = Client(service, region=region, endpoint=endpoint or None)
        return _clients[key]
