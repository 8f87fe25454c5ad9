"""Faults at the HTTP boundary of a boto3 client: botocore's ``before-send`` event answers instead of the server.

So botocore's own retry machinery, and everything of ours above it, run for real; only the answer is made up.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

from botocore.awsrequest import AWSResponse


class _Raw:
    def __init__(self, body: bytes) -> None:
        self.body = body

    def stream(self, **_: object) -> Iterator[bytes]:
        yield self.body


def error_body(service: str, code: str) -> tuple[dict[str, str], bytes]:
    """Headers and body of an AWS error answer in the service's protocol."""
    if service == "s3":
        return {
            "Content-Type": "application/xml"
        }, f"<Error><Code>{code}</Code><Message>injected</Message></Error>".encode()
    if service in ("dynamodb", "sqs"):
        target = "com.amazonaws.dynamodb.v20120810#" if service == "dynamodb" else ""
        return {"Content-Type": "application/x-amz-json-1.0", "x-amzn-query-error": f"{code};Sender"}, json.dumps(
            {"__type": f"{target}{code}", "message": "injected"}
        ).encode()
    return {"x-amzn-ErrorType": code}, json.dumps({"Type": "User", "message": f"injected {code}"}).encode()


class Faults:
    """Records the operations a client sends, fails chosen ones, and can pause after chosen ones answer."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.service = client.meta.service_model.service_name
        self.sent: list[str] = []
        self.injected = 0
        self.queued: dict[str, list[tuple[int, str]]] = {}
        self.after: dict[str, Any] = {}
        self.pauses: dict[str, threading.Event] = {}
        self.reached: dict[str, threading.Event] = {}
        client.meta.events.register(f"before-send.{self.service}", self._before_send)
        client.meta.events.register(f"after-call.{self.service}", self._after_call)

    def fail(self, operation: str, status: int, code: str, times: int = 1) -> Faults:
        self.queued.setdefault(operation, []).extend([(status, code)] * times)
        return self

    def then(self, operation: str, action: Any) -> None:
        """Run ``action()`` once, after ``operation`` has answered (to die there, say)."""
        self.after[operation] = action

    def pause_after(self, operation: str) -> tuple[threading.Event, threading.Event]:
        """(reached, resume): the first ``operation`` answered sets reached, then waits for resume."""
        self.reached[operation], self.pauses[operation] = threading.Event(), threading.Event()
        return self.reached[operation], self.pauses[operation]

    def count(self, operation: str) -> int:
        return self.sent.count(operation)

    def _before_send(self, request: Any, event_name: str, **_: Any) -> AWSResponse | None:
        operation = event_name.rsplit(".", 1)[-1]  # before-send.lambda.CreateFunction
        self.sent.append(operation)
        queued = self.queued.get(operation)
        if queued:
            status, code = queued.pop(0)
            self.injected += 1
            headers, body = error_body(self.service, code)
            return AWSResponse(request.url, status, headers, _Raw(body))
        return None

    def _after_call(self, model: Any, **_: Any) -> None:
        action = self.after.pop(model.name, None)
        if action is not None:
            action()
        pause = self.pauses.pop(model.name, None)
        if pause is not None:
            self.reached[model.name].set()
            assert pause.wait(30), f"{model.name} was never resumed"
