"""The model path end to end on the embedded default: `toolgen serve` planning with a model, over real HTTP.

Two providers, each a loopback server speaking its wire format: an OpenAI-compatible server that has no
structured output (it refuses json_schema, as DeepSeek, llama.cpp and older vLLM builds do), and Amazon Bedrock's
Converse API. The platform's worker and API functions reach them from the local Lambda runtime, as deployed
functions reach the real ones. What a person meets is checked: the tool the model composed, deployed and used, in
a real browser where the model's constructs show (settings, starting rows, a list input, a weekly series).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.conftest import Server, generate, http, open_tool, running_server, until
from tests.fake_bedrock import FakeBedrock
from tests.fake_openai import FakeOpenAI
from tests.unit.test_program_values import chores, rent_split
from toolgen.paths import ROOT

METERS = {
    "name": "meter_readings",
    "title": "Electricity meter",
    "archetype": "custom_log",
    "entities": {"reading": {"fields": {"date": {"type": "date", "required": True, "default": "$today"},
                                        "kwh": {"type": "number", "required": True, "minimum": 0}}}},
    "operations": [
        {"id": "addReading", "kind": "create", "path": "/readings", "entity": "reading"},
        {"id": "listReadings", "kind": "list", "path": "/readings", "entity": "reading", "sort": "-date",
         "computed": {"used": "kwh - prev(kwh)"}},
        {"id": "weekly", "kind": "aggregate", "path": "/weekly", "entity": "reading", "series": "week",
         "series_count": 4, "computed": {"used": "kwh - prev(kwh)"}, "metrics": {"used_kwh": "sum(used)"}},
    ],
    "labels": {"used": "kWh used", "used_kwh": "kWh used"},
}  # fmt: skip


def planned(program: dict) -> dict:
    return {"decline": None, "program": program}


@pytest.fixture(scope="module")
def compatible(tmp_path_factory) -> Iterator[tuple[Server, FakeOpenAI]]:
    fake = FakeOpenAI()
    fake.formats = {"json_object", None}  # no json_schema: the platform asks in JSON mode
    extra = {"OPENAI_API_KEY": "local", "OPENAI_BASE_URL": fake.base_url, "TOOLGEN_MODEL": "local-model",
             "TOOLGEN_LLM_TIMEOUT": "10", "TOOLGEN_ACCOUNT_CONCURRENCY": "100000"}  # fmt: skip
    try:
        with running_server(tmp_path_factory.mktemp("serve-openai"), extra) as server:
            yield server, fake
    finally:
        fake.stop()


@pytest.fixture(scope="module")
def bedrock(tmp_path_factory) -> Iterator[tuple[Server, FakeBedrock]]:
    fake = FakeBedrock()
    extra = {"TOOLGEN_LLM_PROVIDER": "bedrock", "TOOLGEN_BEDROCK_MODEL_ID": "amazon.nova-pro-v1:0",
             "AWS_ENDPOINT_URL_BEDROCK_RUNTIME": fake.url, "TOOLGEN_LLM_TIMEOUT": "10",
             "MEMORY_EXTRACTION": "rules", "TOOLGEN_ACCOUNT_CONCURRENCY": "100000"}  # fmt: skip
    try:
        with running_server(tmp_path_factory.mktemp("serve-bedrock"), extra) as server:
            yield server, fake
    finally:
        fake.stop()


SHOTS = ROOT / "test-output" / "screenshots"


def planner_calls(fake: FakeOpenAI) -> list[dict]:
    return [r for r in fake.requests if fake.schema_name(r["body"]) == "PlannerAnswer"]


def test_a_server_without_json_schema_plans_the_tool_in_json_mode(compatible):
    server, fake = compatible
    fake.scripts["PlannerAnswer"] = [("json", planned(chores()))]
    fake.scripts["MemoryFacts"] = [("json", {"facts": []})] * 4
    job = generate(server, "a chore rota for me and my roommates Anna and Ben: dishes daily, vacuum weekly", "cora")
    assert job["status"] == "succeeded", job
    assert job["planner"]["planner"] == "llm" and job["planner"]["model"] == "local-model"
    assert job["planner"]["json_mode"] == "json_object" and job["planner"]["fallback"] is None
    token = server.token("cora")
    rows = http("GET", f"{job['tool_url']}/chores", token=token).body["items"]
    assert sorted(r["task"] for r in rows) == ["dishes", "vacuum"]  # the starting rows, stored for the person


def test_a_request_the_model_declines_is_refused_in_its_words(compatible):
    server, fake = compatible
    decline = {"category": "medical", "reason": "I can't tell you which medicine to take; I could make a symptom log."}
    fake.scripts["PlannerAnswer"] = [("json", {"decline": decline, "program": None})]
    fake.scripts["MemoryFacts"] = [("json", {"facts": []})] * 4
    job = generate(server, "log my headaches and tell me which pills to take for them", "cora")
    assert job["status"] == "refused" and job["refused"] == "medical" and job["reason"] == decline["reason"]
    assert job["tool_url"] is None


def test_a_refused_actions_words_reach_no_model(compatible):
    server, fake = compatible
    before = len(fake.requests)
    job = generate(server, "I live in Lisbon, book me a table for two at a sushi place tonight", "cora")
    assert job["status"] == "refused" and job["refused"] == "booking"
    assert fake.requests[before:] == []


def test_the_models_constructs_show_on_the_page(compatible, watched):
    server, fake = compatible
    fake.scripts["PlannerAnswer"] = [("json", planned(rent_split())), ("json", planned(METERS))]
    fake.scripts["MemoryFacts"] = [("json", {"facts": []})] * 4
    split = generate(server, "rent split: 6500 a month, Anna, Ben and Chloe pay by bedroom size", "dana")
    meters = generate(server, "meter readings: kWh used between readings, per week", "dana")
    assert split["status"] == meters["status"] == "succeeded", (split, meters)
    token = server.token("dana")
    for day, kwh in (("2026-11-02", 100), ("2026-11-09", 130), ("2026-11-16", 150)):
        assert http("POST", f"{meters['tool_url']}/readings", token=token, body={"date": day, "kwh": kwh}).status == 201
    # the split: its settings under the title, its list input typed as a list, each share beside its area
    page = open_tool(watched, split["ui_url"], token)
    assert page.locator("#settings").inner_text().replace("\n", " ").count("Anna, Ben, Chloe") == 1
    form = page.locator("form[data-form=compute]")
    form.locator("input[name=areas]").fill("20, 20, 25")
    form.locator("button[type=submit]").click()
    until(page, "document.querySelector('[data-output=shares]')?.textContent.includes('2000, 2000, 2500')")
    # the meters: the kWh used since the reading before, and a weekly series drawn as a chart
    page = open_tool(watched, meters["ui_url"], token)
    until(page, "document.querySelectorAll('[data-rows] tbody tr').length === 3")
    cells = page.locator("[data-rows] tbody tr").first.locator("td").all_inner_texts()
    assert "20" in cells  # 150 - 130, the newest first
    assert page.locator(".stats svg[role=img]").count() == 1
    assert page.locator(".stats [data-period]").count() >= 3
    # photographed for a person to look at: a phone in dark mode and a desktop in light (test-output/screenshots)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=str(SHOTS / "model-meters-390-dark.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.emulate_media(color_scheme="light")
    page.screenshot(path=str(SHOTS / "model-meters-1280-light.png"), full_page=True)
    assert watched.errors == [], watched.errors


def test_bedrock_plans_the_tool_through_its_converse_api(bedrock):
    server, fake = bedrock
    fake.script = [("tool", planned(chores()))]
    job = generate(server, "a chore rota for me and my roommates Anna and Ben", "bea")
    assert job["status"] == "succeeded", job
    assert job["planner"]["model"] == "amazon.nova-pro-v1:0" and job["planner"]["json_mode"] == "tool"
    assert job["planner"]["cached_tokens"] == 1200  # the static part, read from the prompt cache
    request = fake.requests[-1]
    assert request["path"] == "/model/amazon.nova-pro-v1:0/converse"
    assert request["body"]["system"][1] == {"cachePoint": {"type": "default"}}
    assert request["body"]["messages"][0]["content"][0]["text"].startswith("a chore rota")


def test_bedrock_down_falls_back_to_the_offline_plan_with_the_reason_on_the_job(bedrock):
    server, fake = bedrock
    fake.script = [("error", 503, "ServiceUnavailableException", "try later")] * 4
    job = generate(server, "log my runs", "bea")
    assert job["status"] == "succeeded", job
    assert job["planner"]["fallback"].startswith("ServiceUnavailableException")


GAMES = {
    "name": "board_games",
    "title": "Board games",
    "archetype": "custom_collection",
    "entities": {"game": {"fields": {"name": {"type": "string", "required": True},
                                     "min_players": {"type": "integer", "minimum": 1, "default": 2},
                                     "max_players": {"type": "integer", "minimum": 1, "default": 4}}}},
    "seed": {"game": [{"name": "Catan", "min_players": 3, "max_players": 4},
                      {"name": "Codenames", "min_players": 4, "max_players": 8},
                      {"name": "Patchwork", "min_players": 2, "max_players": 2}]},
    "operations": [
        {"id": "addGame", "kind": "create", "path": "/games", "entity": "game"},
        {"id": "listGames", "kind": "list", "path": "/games", "entity": "game", "sort": "name",
         "inputs": {"players": {"type": "integer", "minimum": 1, "label": "Players"}},
         "where": "not given(players) or (min_players <= players and players <= max_players)"},
        {"id": "stats", "kind": "aggregate", "path": "/stats", "entity": "game",
         "metrics": {"games": "count()", "for_four": "count_where(four, True)"},
         "computed": {"four": "min_players <= 4 and 4 <= max_players"}},
    ],
    "labels": {"games": "Games", "for_four": "Games for four", "four": "For four"},
}  # fmt: skip


def test_a_range_filter_typed_on_the_page_narrows_its_list(compatible, watched):
    server, fake = compatible
    fake.scripts["PlannerAnswer"] = [("json", planned(GAMES))]
    fake.scripts["MemoryFacts"] = [("json", {"facts": []})] * 4
    job = generate(server, "my board games with how many can play, filter by players", "gil")
    assert job["status"] == "succeeded", job
    page = open_tool(watched, job["ui_url"], server.token("gil"))
    until(page, "document.querySelectorAll('[data-rows] tbody tr').length === 3")
    assert "Games for four" in page.locator(".stats").inner_text() and "2" in page.locator(".stats").inner_text()
    form = page.locator("form[data-form=query]")
    form.locator("input[name=players]").fill("6")
    form.locator("button[type=submit]").click()
    until(page, "document.querySelectorAll('[data-rows] tbody tr').length === 1")
    assert page.locator("[data-rows] tbody tr").first.inner_text().startswith("Codenames")
    assert watched.errors == [], watched.errors
