"""Long-term memory end to end, over HTTP against `toolgen serve`: the stories the memory issue names."""

from __future__ import annotations

import time

import pytest

from tests.e2e.conftest import generate, http, running_server
from tests.fake_openai import FakeOpenAI


def remember(server, user: str, text: str) -> dict:
    reply = http("POST", f"{server.url}/v1/memories", token=server.token(user), body={"text": text})
    assert reply.status == 201, reply.body
    return reply.body


def recalled(server, user: str, prompt: str) -> dict[str, dict]:
    found = http("GET", f"{server.url}/v1/recall?prompt={prompt.replace(' ', '+')}", token=server.token(user)).body
    return {m["memory_id"]: m for m in found["memories"]}


def test_the_closed_restaurant_is_never_recommended_again(server):
    # given a favourite restaurant that shaped a picker which was used a lot and whose suggestion was accepted
    token = server.token("rita")
    luigi = remember(server, "rita", "my favourite restaurant is Luigi's")
    home = remember(server, "rita", "I live in Shanghai")
    picker = generate(server, "help me pick a restaurant", user="rita")
    record = http("GET", f"{server.url}/v1/tools/{picker['tool_id']}", token=token).body
    assert record["program"]["defaults"]["suggestion"] == "Luigi's"
    assert luigi["memory_id"] in [m["memory_id"] for m in record["memories"]]
    for n in range(25):
        assert http("POST", f"{picker['tool_url']}/restaurants", token=token, body={"name": f"place {n}"}).status == 201
    for _ in range(3):
        feedback = {"tool_id": picker["tool_id"], "signal": "accepted", "memory_id": luigi["memory_id"]}
        assert http("POST", f"{server.url}/v1/feedback", token=token, body=feedback).status == 200
    before = recalled(server, "rita", "help me pick a restaurant")
    assert before[luigi["memory_id"]]["parts"]["reward"] > 0.7  # highly rewarded, so strongly recalled
    weather_before = recalled(server, "rita", "rank the hottest cities this week")[home["memory_id"]]["score"]
    # when it is found closed
    closed = {"valid": False, "source": "places API: permanently closed"}
    assert http("POST", f"{server.url}/v1/memories/{luigi['memory_id']}/verify", token=token, body=closed).status == 200
    # then it is never recalled again, its tool is flagged, and a new picker no longer suggests it
    assert luigi["memory_id"] not in recalled(server, "rita", "help me pick a restaurant")
    assert luigi["memory_id"] not in recalled(server, "rita", "where should we eat luigi's favourite restaurant")
    tools = {t["tool_id"]: t for t in http("GET", f"{server.url}/v1/tools", token=token).body["tools"]}
    assert tools[picker["tool_id"]]["needs_regeneration"] is True
    again = generate(server, "help me pick a restaurant", user="rita")
    assert again["tool_id"] != picker["tool_id"] and again["reused"] is False
    fresh = http("GET", f"{server.url}/v1/tools/{again['tool_id']}", token=token).body
    assert "suggestion" not in fresh["program"]["defaults"]
    assert luigi["memory_id"] not in [m["memory_id"] for m in fresh["memories"]]
    # while an unrelated memory keeps its score
    weather_after = recalled(server, "rita", "rank the hottest cities this week")[home["memory_id"]]["score"]
    assert weather_after == pytest.approx(weather_before, abs=0.01)
    history = http("GET", f"{server.url}/v1/memories/{luigi['memory_id']}/history", token=token).body["history"]
    assert [h["event"] for h in history][-1] == "invalidated"


def test_recheck_asks_the_outside_fact_checker(server, upstream):
    token = server.token("quinn")
    luigi = remember(server, "quinn", "my favourite restaurant is Luigi's")
    home = remember(server, "quinn", "I live in Shanghai")
    assert http("POST", f"{server.url}/v1/memories/recheck", token=token).body == {
        "checked": 2,
        "verified": 1,
        "invalidated": 1,
        "unknown": 0,
    }
    states = {
        m["memory_id"]: m["verification"]
        for m in http("GET", f"{server.url}/v1/memories", token=token).body["memories"]
    }
    assert states == {luigi["memory_id"]: "invalid", home["memory_id"]: "verified"}
    assert "POST /verify favorite_restaurant=Luigi's" in upstream.requests


def test_a_new_value_supersedes_the_old_and_shapes_the_next_tool(server):
    token = server.token("sam")
    old = remember(server, "sam", "I live in Shanghai")
    new = remember(server, "sam", "I live in Tokyo now")
    active = http("GET", f"{server.url}/v1/memories", token=token).body["memories"]
    assert [m["memory_id"] for m in active] == [new["memory_id"]]
    everything = {
        m["memory_id"]: m for m in http("GET", f"{server.url}/v1/memories?all=true", token=token).body["memories"]
    }
    assert everything[old["memory_id"]]["status"] == "superseded"
    assert everything[old["memory_id"]]["superseded_by"] == new["memory_id"]
    job = generate(server, "rank Beijing and Seoul by max temperature", user="sam")
    labels = http("GET", f"{server.url}/v1/tools/{job['tool_id']}", token=token).body["program"]["operations"][0][
        "labels"
    ]
    assert labels == ["Beijing", "Seoul", "Tokyo"]


def test_facts_stated_in_a_request_are_learnt_and_used(server):
    job = generate(server, "I live in Chengdu, rank Beijing and Wuhan by max temperature", user="tess")
    token = server.token("tess")
    memories = http("GET", f"{server.url}/v1/memories", token=token).body["memories"]
    assert [(m["key"], m["value"], m["sources"]) for m in memories] == [("city", "Chengdu", [job["job_id"]])]
    record = http("GET", f"{server.url}/v1/tools/{job['tool_id']}", token=token).body
    assert set(record["program"]["operations"][0]["labels"]) == {"Beijing", "Wuhan", "Chengdu"}


def test_two_people_same_request_different_memories_different_tools_and_no_crossing(server):
    remember(server, "uli", "I live in Tokyo")
    remember(server, "vera", "I live in London")
    secret = remember(server, "uli", "I prefer dark mode")
    uli = generate(server, "rank the hottest cities this week", user="uli")
    vera = generate(server, "rank the hottest cities this week", user="vera")
    assert uli["tool_id"] != vera["tool_id"]
    program = lambda user, job: http("GET", f"{server.url}/v1/tools/{job['tool_id']}", token=server.token(user)).body  # noqa: E731
    assert "Tokyo" in program("uli", uli)["program"]["operations"][0]["labels"]
    assert "London" in program("vera", vera)["program"]["operations"][0]["labels"]
    assert (
        program("uli", uli)["program"]["ui"]["mode"] == "dark"
        and program("vera", vera)["program"]["ui"]["mode"] == "auto"
    )
    v = server.token("vera")
    memory_id = secret["memory_id"]
    for method, path, body in [
        ("GET", f"/v1/memories/{memory_id}/history", None),
        ("PATCH", f"/v1/memories/{memory_id}", {"text": "I prefer light mode"}),
        ("POST", f"/v1/memories/{memory_id}/verify", {"valid": False}),
        ("DELETE", f"/v1/memories/{memory_id}", None),
        ("POST", "/v1/feedback", {"tool_id": uli["tool_id"], "signal": "accepted"}),
    ]:
        assert http(method, f"{server.url}{path}", token=v, body=body).status == 404, (method, path)
    assert memory_id not in [m["memory_id"] for m in http("GET", f"{server.url}/v1/memories", token=v).body["memories"]]
    assert memory_id not in recalled(server, "vera", "rank the hottest cities this week")
    assert http("GET", f"{server.url}/v1/memories/{memory_id}", token=server.token("uli")).status in (404, 405)


def test_forgetting_a_person_removes_everything_of_theirs_and_nothing_else(server):
    token = server.token("walt")
    memory = remember(server, "walt", "I live in Shanghai")
    job = generate(server, "a to-do list for chores", user="walt")
    http("POST", f"{job['tool_url']}/tasks", token=token, body={"title": "x"})
    neighbour = generate(server, "a to-do list for chores", user="xena")
    assert http("DELETE", f"{server.url}/v1/users/me", token=token).status == 204
    assert http("GET", f"{server.url}/v1/memories", token=token).body["memories"] == []
    assert http("GET", f"{server.url}/v1/tools", token=token).body["tools"] == []
    assert http("GET", f"{server.url}/v1/memories/{memory['memory_id']}/history", token=token).status == 404
    assert http("GET", f"{server.url}/v1/jobs/{job['job_id']}", token=token).status == 404
    assert http("GET", f"{job['tool_url']}/tasks", token=token).status == 404
    assert http("GET", job["ui_url"]).status == 404
    assert http("GET", f"{neighbour['tool_url']}/tasks", token=server.token("xena")).status == 200


def test_edit_and_search(server):
    token = server.token("yuri")
    memory = remember(server, "yuri", "I live in Shanghai")
    edited = http(
        "PATCH", f"{server.url}/v1/memories/{memory['memory_id']}", token=token, body={"text": "I live in Hangzhou"}
    ).body
    assert (edited["key"], edited["value"]) == ("city", "Hangzhou")
    remember(server, "yuri", "I love jazz on Sundays")
    found = http("GET", f"{server.url}/v1/memories?q=jazz", token=token).body["memories"]
    assert [m["text"] for m in found] == ["I love jazz on Sundays"]


@pytest.fixture(scope="module")
def fast_decay(tmp_path_factory):
    """A platform whose memories' weights halve every 8.6 seconds, so decay can be seen within a test."""
    with running_server(tmp_path_factory.mktemp("decay-home"), {"MEMORY_HALF_LIFE_DAYS": "0.0001"}) as started:
        yield started


def test_weight_decays_with_time_since_last_use_or_confirmation(fast_decay):
    token = fast_decay.token("zed")
    theme = remember(fast_decay, "zed", "I prefer dark mode")
    job = generate(fast_decay, "a to-do list", user="zed")
    for _ in range(20):
        http("POST", f"{fast_decay.url}/v1/feedback", token=token, body={"tool_id": job["tool_id"], "signal": "used"})
    fresh = recalled(fast_decay, "zed", "a to-do list")[theme["memory_id"]]["parts"]
    assert fresh["reward"] > 0.6 and fresh["decay"] > 0.5
    time.sleep(13)  # one and a half half-lives: its weight is a third of what it was
    assert theme["memory_id"] not in recalled(fast_decay, "zed", "a to-do list")  # relevance alone is not enough
    again = remember(fast_decay, "zed", "I prefer dark mode")  # said again: a confirmation, its age starts over
    assert again["memory_id"] == theme["memory_id"]
    assert recalled(fast_decay, "zed", "a to-do list")[theme["memory_id"]]["parts"]["decay"] > 0.5


@pytest.fixture(scope="module")
def with_model(tmp_path_factory):
    """A platform with a model configured (a loopback OpenAI-compatible server): facts and meaning by the model."""
    fake = FakeOpenAI()
    env = {
        "OPENAI_API_KEY": "e2e-key",
        "OPENAI_BASE_URL": fake.base_url,
        "TOOLGEN_LLM_TIMEOUT": "5",
        "MEMORY_EMBEDDING_MODEL": "e2e-embed",
    }
    try:
        with running_server(tmp_path_factory.mktemp("model-home"), env) as started:
            yield started, fake
    finally:
        fake.stop()


def test_with_a_model_a_request_teaches_a_fact_the_rules_miss_and_recall_reads_meaning(with_model):
    server, fake = with_model
    token = server.token("mia")
    fake.meanings = [{"vegetarian", "meat", "meatless"}]
    fake.scripts["MemoryFacts"] = [
        ("json", {"facts": [{"statement": "I gave up meat", "kind": "fact", "key": "diet", "value": "vegetarian"}]}),
        ("json", {"facts": []}),
    ]
    fake.scripts["PlannerAnswer"] = [("status", 503), ("status", 503)]  # planning falls back to the offline plan
    job = generate(server, "I gave up meat last year, help me pick a restaurant", user="mia")
    assert job["status"] == "succeeded" and len(job["learned"]) == 1
    diet = http("GET", f"{server.url}/v1/memories", token=token).body["memories"][0]
    assert (diet["memory_id"], diet["key"], diet["value"]) == (job["learned"][0], "diet", "vegetarian")
    assert "vector" not in diet
    record = http("GET", f"{server.url}/v1/tools/{job['tool_id']}", token=token).body
    assert diet["memory_id"] in [m["memory_id"] for m in record["memories"]]  # the fact shaped the picker
    reads = [r for r in fake.requests if FakeOpenAI.schema_name(r["body"]) == "MemoryFacts"]
    assert len(reads) == 1 and reads[0]["auth"] == "Bearer e2e-key"  # read by the API once, not again by the worker

    option = remember(server, "mia", "I never skip a vegetarian option")
    by_meaning = recalled(server, "mia", "help me pick a meatless restaurant")  # no word in common with it
    assert by_meaning[option["memory_id"]]["parts"]["semantic"] == by_meaning[option["memory_id"]]["parts"]["relevance"]
    assert by_meaning[option["memory_id"]]["parts"]["semantic"] > 0.6
