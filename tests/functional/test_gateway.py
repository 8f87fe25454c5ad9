"""The local gateway's token authorizer step: a refusal is 401, a busy authorizer 429, a broken one 500."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from toolgen.local.gateway import Gateway
from toolgen.local.lambda_runtime import InvokeResult


class Runtime:
    """A runtime whose authorizer answers as told, and whose API function echoes what it was given."""

    def __init__(self, authorizer: InvokeResult) -> None:
        self.authorizer = authorizer
        self.api_events: list[dict] = []
        self.source = None

    def invoke(self, name: str, event: dict) -> InvokeResult:
        if name == "authorizer":
            return self.authorizer
        self.api_events.append(event)
        return InvokeResult("ok", {"statusCode": 200, "headers": {"Content-Type": "application/json"}, "body": "{}"})


def get(gateway: Gateway, path: str, token: str | None = "Bearer x") -> tuple[int, dict, dict]:
    req = urllib.request.Request(f"{gateway.url}{path}", headers={"Authorization": token} if token else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as e:
        with e:  # the error holds the open response: closed here, not by the collector
            return e.code, dict(e.headers), json.loads(e.read() or b"{}")


@pytest.fixture
def serve():
    started = []

    def start(authorizer: InvokeResult) -> tuple[Gateway, Runtime]:
        runtime = Runtime(authorizer)
        gateway = Gateway(
            runtime,  # type: ignore[arg-type]
            host="127.0.0.1",
            port=0,
            api_function="api",
            tool_prefix="tool-",
            authorizer_function="authorizer",
        )
        gateway.start()
        started.append(gateway)
        return gateway, runtime

    yield start
    for gateway in started:
        gateway.stop()


def test_an_allowed_token_reaches_the_api_with_the_authorizers_principal(serve):
    gateway, runtime = serve(InvokeResult("ok", {"principalId": "ana", "policyDocument": {}}))
    assert get(gateway, "/v1/tools")[0] == 200
    assert runtime.api_events[0]["requestContext"]["authorizer"]["principalId"] == "ana"


def test_a_refused_or_missing_token_is_401_before_the_api_runs(serve):
    gateway, runtime = serve(InvokeResult("error", {"errorType": "Exception", "errorMessage": "Unauthorized"}))
    for token in ("Bearer x", None):
        status, headers, body = get(gateway, "/v1/tools", token)
        assert status == 401 and body["code"] == "unauthorized" and headers["WWW-Authenticate"] == "Bearer"
    assert runtime.api_events == []


def test_a_busy_authorizer_is_429_to_retry_not_401(serve):
    gateway, runtime = serve(InvokeResult("throttled", {"Reason": "ReservedFunctionConcurrentInvocationLimitExceeded"}))
    status, headers, _ = get(gateway, "/v1/tools")
    assert status == 429 and headers["Retry-After"]
    assert runtime.api_events == []


def test_a_broken_authorizer_is_500_not_401(serve):
    gateway, _ = serve(InvokeResult("error", {"errorType": "Runtime.ExitError", "errorMessage": "Runtime exited"}))
    status, _, body = get(gateway, "/v1/tools")
    assert status == 500 and body["code"] == "authorizer_failure"


def test_public_routes_skip_the_authorizer(serve):
    gateway, runtime = serve(InvokeResult("error", {"errorType": "Exception", "errorMessage": "Unauthorized"}))
    assert get(gateway, "/v1/health", None)[0] == 200
    assert len(runtime.api_events) == 1
