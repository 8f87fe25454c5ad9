"""Invoking a deployed tool the way its URL would: a function URL event (payload 2.0) through Lambda's Invoke API.

On AWS this is the real Invoke API; on the embedded default the platform serves the same API itself
(LAMBDA_INVOKE_ENDPOINT), because moto's own Invoke only echoes without Docker.
"""

from __future__ import annotations

import json
import os
from typing import Any, Protocol
from urllib.parse import urlencode

import boto3
from botocore.exceptions import BotoCoreError, ClientError

from toolgen import aws
from toolgen.errors import AWSError
from toolgen.events import url_event

PROBE_HEADER = "x-toolgen-probe"  # the platform's own check of a tool: not a use by the person


class Invoker(Protocol):
    def invoke(self, function_name: str, event: dict[str, Any]) -> dict[str, Any]: ...


def probe_event(
    method: str, path: str, *, token: str, query: dict[str, str] | None = None, body: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The function URL event (payload 2.0) of a call to a tool, made by the platform for ``token``'s user."""
    headers = [("authorization", f"Bearer {token}"), ("user-agent", "toolgen-probe"), (PROBE_HEADER, "1")]
    raw = b"" if body is None else json.dumps(body).encode()
    if body is not None:
        headers.append(("content-type", "application/json"))
    return url_event(method, path, urlencode(query or {}), headers, raw, source_ip="127.0.0.1", host="toolgen.internal")


class LambdaInvoker:
    """Invoker over Lambda's Invoke API (AWS, LocalStack, or the embedded default's endpoint)."""

    def __init__(self, client: Any | None = None) -> None:
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            endpoint = os.environ.get("LAMBDA_INVOKE_ENDPOINT")
            if endpoint:
                self._client = boto3.session.Session().client(
                    "lambda", region_name=aws.region(), endpoint_url=endpoint, config=aws.retry_config()
                )
            else:
                self._client = aws.client("lambda")
        return self._client

    def invoke(self, function_name: str, event: dict[str, Any]) -> dict[str, Any]:
        try:
            result = self.client.invoke(FunctionName=function_name, Payload=json.dumps(event).encode())
        except (ClientError, BotoCoreError) as e:
            raise aws.translate(e, "lambda invoke") from e
        payload = json.loads(result["Payload"].read() or b"null")
        if result.get("FunctionError"):
            message = payload.get("errorMessage", "") if isinstance(payload, dict) else str(payload)
            raise AWSError(f"{function_name} failed: {message}", aws_code=str(result["FunctionError"]))
        return payload if isinstance(payload, dict) else {"statusCode": 200, "body": json.dumps(payload)}
