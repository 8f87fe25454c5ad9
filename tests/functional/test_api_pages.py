"""The platform API's lists come a page at a time (``limit`` + ``next``), and a person's memories are capped."""

from __future__ import annotations

import base64
import json

import pytest

from tests.functional.conftest import SECRET
from tests.functional.test_api import EVENTS, LambdaContext, api, request  # noqa: F401 (api is a fixture)
from toolgen import auth
from toolgen.api.services import services
from toolgen.ids import sortable_id
from toolgen.memory import store
from toolgen.models import ToolRecord


def listed(api, path: str, user: str, query: dict[str, str]):  # noqa: F811
    """GET ``path`` with a query (the shared helper sends none), as API Gateway gives it."""
    event = json.loads((EVENTS / "api_post_tools.json").read_text())
    event.update(httpMethod="GET", path=path, body=None, queryStringParameters=query)
    event["multiValueQueryStringParameters"] = {k: [v] for k, v in query.items()}
    event["requestContext"].update(httpMethod="GET", path=f"/Prod{path}")
    event["headers"]["Authorization"] = f"Bearer {auth.mint(user, SECRET)}"
    response = api.handler(event, LambdaContext())
    return response["statusCode"], json.loads(response["body"])


def test_memories_are_listed_a_page_at_a_time(api):  # noqa: F811
    # given 130 memories
    user = "pager" + sortable_id("u")[-6:]
    for i in range(130):
        services().memories.learn(user, f"note {i}: I keep jar number {i} on shelf {i % 7}")
    # when listed 50 at a time, following next
    seen, token, pages = [], None, 0
    while True:
        status, page = listed(api, "/v1/memories", user, {"limit": "50", **({"next": token} if token else {})})
        assert status == 200, page
        seen += [m["memory_id"] for m in page["memories"]]
        pages, token = pages + 1, page["next"]
        if token is None:
            break
    # then every memory came once, in three pages
    assert pages == 3 and len(seen) == 130 and len(set(seen)) == 130


def _token(key: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(key).encode()).decode().rstrip("=")


@pytest.mark.parametrize("path", ["/v1/memories", "/v1/tools"])
def test_a_forged_or_anothers_next_is_a_422(api, path):  # noqa: F811
    services().memories.learn("bob", "I live in Lisbon")
    prefix = "MEM#" if path == "/v1/memories" else "TOOL#"
    for token in (
        "garbage",
        _token({"pk": "USER#bob", "sk": prefix + "m1"}),
        _token({"pk": "USER#alice", "sk": "JOB#1"}),
    ):
        status, body = listed(api, path, "alice", {"next": token})
        assert status == 422 and body["code"] == "bad_next", (token, body)


def test_tools_are_listed_a_page_at_a_time_newest_first(api):  # noqa: F811
    user = "tools" + sortable_id("u")[-6:]
    made = []
    for i in range(5):
        tool_id = sortable_id("t")
        made.append(tool_id)
        services().tools.put(
            ToolRecord(
                tool_id=tool_id,
                user=user,
                title=f"tool {i}",
                archetype="todo_list",
                prompt="a todo list",
                function_name=f"fn{i}",
                tool_url="https://tool.example/",
                ui_path=f"/ui/{tool_id}",
                program={},
                openapi={},
            )
        )
    first = listed(api, "/v1/tools", user, {"limit": "3"})[1]
    rest = listed(api, "/v1/tools", user, {"limit": "3", "next": first["next"]})[1]
    assert [t["tool_id"] for t in first["tools"] + rest["tools"]] == made[::-1] and rest["next"] is None


def test_past_the_memories_cap_a_new_memory_is_a_409(api, monkeypatch):  # noqa: F811
    # given a cap of 2 memories per person
    monkeypatch.setattr(store, "MAX_MEMORIES_PER_PERSON", 2)
    user = "capped" + sortable_id("u")[-6:]
    assert request(api, "POST", "/v1/memories", user=user, body={"text": "I live in Oslo"})[0] == 201
    second = request(api, "POST", "/v1/memories", user=user, body={"text": "I have a dog named Rex"})[1]
    # when a third is learnt
    status, body, _ = request(api, "POST", "/v1/memories", user=user, body={"text": "I am allergic to peanuts"})
    # then it is refused, saying why; the same fact again is no new memory, and forgetting one makes room
    assert status == 409 and body["code"] == "too_many_memories" and body["details"] == {"limit": 2}
    assert request(api, "POST", "/v1/memories", user=user, body={"text": "I live in Oslo"})[0] == 201
    assert request(api, "DELETE", f"/v1/memories/{second['memory_id']}", user=user)[0] == 204
    assert request(api, "POST", "/v1/memories", user=user, body={"text": "I am allergic to peanuts"})[0] == 201


def test_a_search_with_a_page_token_is_a_422_as_documented(api):  # noqa: F811
    status, body = listed(api, "/v1/memories", "pagesearch", {"q": "tea", "next": "null"})
    assert status == 422 and body["code"] == "bad_next"  # it was a 400, which the document does not list
