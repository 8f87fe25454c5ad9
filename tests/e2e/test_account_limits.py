"""A small account: `toolgen serve --account-concurrency 110` keeps AWS's rule that 100 stay unreserved, so only
two tools of 5 can reserve. Every tool past them is still made, and still answers at most 5 calls at once."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.e2e.conftest import Server, aws_client, generate, http, running_server

PROMPTS = [
    "I want to log my morning runs",
    "a todo list for my week",
    "我想记录每天喝了多少水",
    "track my reading list",
    "remind me of my friends' birthdays and show how many days are left",
    "log my blood pressure readings morning and evening",
]


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("small-account"), {"TOOLGEN_ACCOUNT_CONCURRENCY": "110"}) as server:
        yield server


@pytest.fixture(scope="module")
def tools(small: Server) -> list[dict]:
    jobs = [generate(small, prompt) for prompt in PROMPTS]  # one after another, as a person would
    assert [job["status"] for job in jobs] == ["succeeded"] * len(PROMPTS), [job.get("error") for job in jobs]
    token = small.token("alice")
    return [http("GET", f"{small.url}/v1/tools/{job['tool_id']}", token=token).body for job in jobs]


def test_six_tools_on_an_account_with_room_for_two_are_all_made(small: Server, tools: list[dict]):
    assert [t["limit"] for t in tools] == [{"concurrency": 5, "enforced_by": "reserved_concurrency"}] * 2 + [
        {"concurrency": 5, "enforced_by": "lease"}
    ] * 4
    settings = aws_client(small, "lambda").get_account_settings()["AccountLimit"]
    assert settings == {**settings, "ConcurrentExecutions": 110, "UnreservedConcurrentExecutions": 100}


def retry_after(reply) -> str | None:
    return {k.lower(): v for k, v in reply.headers.items()}.get("retry-after")


def _burst(url: str, token: str, callers: int) -> list:
    start = threading.Barrier(callers)

    def call(_: int):
        start.wait()
        return http("GET", url, token=token)

    with ThreadPoolExecutor(callers) as pool:
        return list(pool.map(call, range(callers)))


@pytest.mark.parametrize("which", [0, 5], ids=["reserved", "leased"])
def test_a_burst_of_30_callers_gets_answers_or_429_never_a_5xx(small: Server, tools: list[dict], which: int):
    tool = tools[which]
    path = next(op["path"] for op in tool["program"]["operations"] if op["kind"] == "list")
    replies = _burst(f"{tool['tool_url']}{path}", small.token("alice"), 30)
    statuses = sorted({r.status for r in replies})
    assert set(statuses) <= {200, 429}, [r.body for r in replies if r.status not in (200, 429)]
    assert all(retry_after(r) == "1" for r in replies if r.status == 429)
    assert statuses[0] == 200


def test_a_leased_tool_refuses_a_sixth_call_while_five_are_in_flight(small: Server, tools: list[dict]):
    tool = tools[2]  # 我想记录每天喝了多少水: a Chinese tool says it in Chinese
    path = next(op["path"] for op in tool["program"]["operations"] if op["kind"] == "list")
    url, token = f"{tool['tool_url']}{path}", small.token("alice")
    table = aws_client(small, "dynamodb")
    name = table.list_tables()["TableNames"][0]
    until = str(time.time() + 30)
    record = {"pk": {"S": "USER#alice"}, "sk": {"S": f"TOOL#{tool['tool_id']}"}}
    home = table.get_item(TableName=name, Key=record)["Item"]["home"]["S"]  # the tool's own partition
    slots = [{"pk": {"S": home}, "sk": {"S": f"LEASE#{n}"}} for n in range(5)]
    for key in slots:  # five calls of this tool in flight in other Lambda environments
        table.put_item(TableName=name, Item={**key, "holder": {"S": f"other-{key['sk']['S']}"}, "until": {"N": until}})
    busy = http("GET", url, token=token)
    assert busy.status == 429 and retry_after(busy) == "1"
    assert busy.body["code"] == "busy" and "5 个请求" in busy.body["message"]
    table.delete_item(TableName=name, Key=slots[0])  # one of them ends
    assert http("GET", url, token=token).status == 200
    assert http("GET", url, token=token).status == 200  # the one free slot was given back after each call
