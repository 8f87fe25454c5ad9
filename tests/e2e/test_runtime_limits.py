"""The local Lambda runtime's Timeout, MemorySize and reserved concurrency, through a running platform's tool URLs."""

from __future__ import annotations

import threading
import time

import pytest

from tests.e2e.conftest import aws_client, http
from toolgen.deploy import Deployer, FunctionSpec
from toolgen.deploy.package import zip_files
from toolgen.ids import tool_id

SLOW = b"""
import json, time
def handler(event, context):
    time.sleep(float((event.get("queryStringParameters") or {}).get("sleep", "0")))
    return {"statusCode": 200, "body": json.dumps({"slept": True})}
"""


@pytest.fixture(scope="module")
def deploy(server):
    lam = aws_client(server, "lambda")
    role = aws_client(server, "iam").get_role(RoleName="toolgen-tool-role")["Role"]["Arn"]

    def make(timeout: int, concurrency: int) -> str:
        """A function deployed as tools are (live alias, URL), running SLOW instead of the tool runtime."""
        tid = tool_id()
        package = zip_files([("app.py", SLOW)])
        spec = FunctionSpec(f"toolgen-tool-{tid}", role, "", package, timeout_s=timeout, concurrency=concurrency)
        Deployer({"lambda": lam}).deploy(spec)
        return f"{server.url}/t/{tid}"

    return make


def test_a_call_past_the_timeout_is_killed_with_lambdas_message(deploy):
    url = deploy(timeout=1, concurrency=5)
    assert http("GET", f"{url}/?sleep=0").status == 200
    reply = http("GET", f"{url}/?sleep=5")
    assert reply.status == 504
    assert reply.body["code"] == "timeout" and reply.body["errorType"] == "Sandbox.Timedout"
    assert reply.body["message"].endswith("Task timed out after 1.00 seconds")
    assert http("GET", f"{url}/?sleep=0").status == 200  # a fresh environment serves the next call


def test_the_sixth_concurrent_call_is_throttled_with_429(deploy):
    url = deploy(timeout=10, concurrency=5)
    replies = []
    threads = [threading.Thread(target=lambda: replies.append(http("GET", f"{url}/?sleep=2"))) for _ in range(5)]
    for t in threads:
        t.start()
    time.sleep(1.0)  # the five are in flight (starting or sleeping); reserved concurrency is used up
    sixth = http("GET", f"{url}/?sleep=0")
    for t in threads:
        t.join()
    assert sixth.status == 429
    assert sixth.headers["Retry-After"] == "1"
    assert sixth.body["Reason"] == "ReservedFunctionConcurrentInvocationLimitExceeded"
    assert sorted(r.status for r in replies) == [200] * 5
    assert http("GET", f"{url}/?sleep=0").status == 200


HUNGRY = b"""
import json
def handler(event, context):
    blob = b"x" * (int((event.get("queryStringParameters") or {}).get("mb", "1")) << 20)
    return {"statusCode": 200, "body": json.dumps({"mb": len(blob) >> 20})}
"""


def test_a_call_past_memory_size_is_killed_with_lambdas_error(server):
    # given a function deployed as tools are, with 128 MB
    lam = aws_client(server, "lambda")
    role = aws_client(server, "iam").get_role(RoleName="toolgen-tool-role")["Role"]["Arn"]
    tid = tool_id()
    package = zip_files([("app.py", HUNGRY)])
    Deployer({"lambda": lam}).deploy(FunctionSpec(f"toolgen-tool-{tid}", role, "", package, memory_mb=128))
    url = f"{server.url}/t/{tid}"
    assert http("GET", f"{url}/?mb=16").status == 200
    # when a call writes a gigabyte, then it is killed and its caller gets Lambda's error for it
    reply = http("GET", f"{url}/?mb=1024")
    assert reply.status == 502
    assert reply.body["errorType"] == "Runtime.OutOfMemory"
    assert reply.body["errorMessage"].endswith("Runtime exited with error: signal: killed")
    assert http("GET", f"{url}/?mb=16").status == 200  # a fresh environment serves the next call
