"""A tool's URL behaves as a Lambda function URL on its live alias: CORS for the pages' origin, 404 without a URL."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from tests.e2e.conftest import aws_client, generate, http


def raw(method: str, url: str, headers: dict[str, str]) -> tuple[int, dict[str, str]]:
    request = urllib.request.Request(url, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}
    except urllib.error.HTTPError as e:
        with e:  # the error holds the open response, its body unread: closed here, not by the collector
            return e.code, {k.lower(): v for k, v in e.headers.items()}


@pytest.fixture(scope="module")
def tool(server) -> dict:
    job = generate(server, "a todo list for errands", user="zoe")
    assert job["status"] == "succeeded", job
    return job


def test_a_preflight_from_the_pages_origin_is_answered_without_calling_the_tool(server, tool):
    status, headers = raw(
        "OPTIONS",
        f"{tool['tool_url']}/tasks",
        {
            "Origin": server.url,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization",
        },
    )
    assert status == 200
    assert headers["access-control-allow-origin"] == server.url
    assert "POST" in headers["access-control-allow-methods"]
    assert "authorization" in headers["access-control-allow-headers"]


def test_another_origin_gets_no_cors_headers(tool):
    evil = {"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}
    status, headers = raw("OPTIONS", f"{tool['tool_url']}/tasks", evil)
    assert "access-control-allow-origin" not in headers
    status, headers = raw("GET", f"{tool['tool_url']}/tasks", {"Origin": "https://evil.example"})
    assert status == 401 and "access-control-allow-origin" not in headers


def test_an_answer_to_the_pages_origin_carries_allow_origin(server, tool):
    token = server.token("zoe")
    status, headers = raw(
        "GET", f"{tool['tool_url']}/tasks", {"Origin": server.url, "Authorization": f"Bearer {token}"}
    )
    assert status == 200 and headers["access-control-allow-origin"] == server.url


def test_a_function_without_a_url_is_not_reachable(server, tool):
    lam = aws_client(server, "lambda")
    name = f"toolgen-tool-{tool['tool_id']}"
    lam.delete_function_url_config(FunctionName=name, Qualifier="live")
    reply = http("GET", f"{tool['tool_url']}/tasks", token=server.token("zoe"))
    assert reply.status == 404 and reply.body["code"] == "not_found"
