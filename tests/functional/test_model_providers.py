"""The two ways to a model, each against a loopback server that speaks its wire format.

An OpenAI-compatible server with and without structured output (tests/fake_openai.py), and Amazon Bedrock's
Converse API (tests/fake_bedrock.py) through boto3. Each provider is driven through the planner as the worker
drives it, so what is tested is what a job gets.
"""

from __future__ import annotations

import json

import openai
import pytest

from tests.fake_bedrock import FakeBedrock
from tests.fake_openai import FakeOpenAI
from toolgen.intent import classify
from toolgen.intent.classify import classify_as
from toolgen.llm import ModelError, Prompt
from toolgen.llm.bedrock import BedrockModel
from toolgen.llm.openai_compat import OpenAICompatible
from toolgen.planner import OfflinePlanner
from toolgen.planner.llm import LLMPlanner
from toolgen.planner.prompt import static_part

PROMPT = "I want to log my morning runs"
ASKED = Prompt(static="Answer in JSON.", dynamic="Today is 2026-12-06.", messages=[{"role": "user", "content": "hi"}])
SCHEMA = {"title": "Answer", "type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


def draft(prompt: str = PROMPT) -> dict:
    return OfflinePlanner().plan(prompt, classify(prompt), []).program.model_dump(mode="json")


def answer(prompt: str = PROMPT, title: str = "Dawn Runs") -> dict:
    return {"decline": None, "program": {**draft(prompt), "title": title}}


@pytest.fixture
def fake():
    server = FakeOpenAI()
    yield server
    server.stop()


@pytest.fixture
def bedrock(monkeypatch):
    server = FakeBedrock()
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", server.url)
    yield server
    server.stop()


def compatible(fake: FakeOpenAI, model: str = "m") -> OpenAICompatible:
    client = openai.OpenAI(api_key="k", base_url=fake.base_url, timeout=2, max_retries=0)
    return OpenAICompatible(client=client, model=model)


# --- OpenAI-compatible ------------------------------------------------------------------------------------------


def test_a_server_with_structured_output_is_asked_for_the_schema_and_its_cache_counted(fake):
    fake.script = [("json", {"ok": True})]
    completion = compatible(fake).complete(ASKED, schema=SCHEMA, schema_name="Answer")
    assert json.loads(completion.content) == {"ok": True} and completion.mode == "json_schema"
    assert (completion.prompt_tokens, completion.cached_tokens) == (1000, 800)
    body = fake.requests[0]["body"]
    assert body["response_format"]["json_schema"] == {"name": "Answer", "schema": SCHEMA}
    # the static part first, then the request's own: what a prefix cache keeps is the same for every request
    assert body["messages"][0]["content"].startswith("Answer in JSON.") and body["messages"][1]["content"] == "hi"


def test_a_server_without_json_schema_is_asked_in_json_mode_with_the_schema_in_the_prompt(fake):
    # given a server that refuses json_schema (as DeepSeek and older vLLM builds do)
    fake.formats = {"json_object", None}
    fake.script = [("json", {"ok": True}), ("json", {"ok": False})]
    model = compatible(fake)
    # when it is asked twice
    first = model.complete(ASKED, schema=SCHEMA, schema_name="Answer")
    second = model.complete(ASKED, schema=SCHEMA, schema_name="Answer")
    # then JSON mode answered, with the schema where the model reads it, and the second call went there at once
    assert (first.mode, second.mode) == ("json_object", "json_object")
    formats = [r["body"].get("response_format", {}).get("type") for r in fake.requests]
    assert formats == ["json_schema", "json_object", "json_object"]
    assert '"title":"Answer"' in fake.requests[1]["body"]["messages"][0]["content"]


def test_a_server_without_any_response_format_is_asked_in_plain_text_and_a_fenced_answer_read(fake):
    fake.formats = {None}
    fake.script = [("text", '```json\n{"ok": true}\n```')]
    completion = compatible(fake, "plain").complete(ASKED, schema=SCHEMA, schema_name="Answer")
    assert completion.mode == "text" and json.loads(completion.content) == {"ok": True}
    assert "response_format" not in fake.requests[-1]["body"]


def test_a_server_that_fails_is_a_model_error_saying_so(fake):
    fake.script = [("status", 503)]
    with pytest.raises(ModelError, match="InternalServerError"):
        compatible(fake).complete(ASKED, schema=SCHEMA, schema_name="Answer")


def test_the_planner_through_a_server_without_json_schema_makes_the_models_program(fake):
    fake.formats = {"json_object", None}
    fake.script = [("json", answer())]
    client = openai.OpenAI(api_key="k", base_url=fake.base_url, timeout=5, max_retries=0)
    plan = LLMPlanner(client=client, model="local").plan(PROMPT, classify(PROMPT), [])
    assert plan.info.fallback is None and plan.program.title == "Dawn Runs"
    assert plan.info.json_mode == "json_object"


# --- Amazon Bedrock ---------------------------------------------------------------------------------------------


def test_bedrock_is_asked_through_a_forced_tool_with_the_static_part_cached(bedrock):
    bedrock.script = [("tool", {"ok": True})]
    completion = BedrockModel("amazon.nova-pro-v1:0", timeout=5).complete(ASKED, schema=SCHEMA, schema_name="Answer")
    assert json.loads(completion.content) == {"ok": True} and completion.mode == "tool"
    assert (completion.prompt_tokens, completion.completion_tokens, completion.cached_tokens) == (1500, 300, 1200)
    request = bedrock.requests[0]
    assert request["path"] == "/model/amazon.nova-pro-v1:0/converse" and request["auth"].startswith("AWS4-HMAC-SHA256")
    body = request["body"]
    assert body["system"] == [{"text": "Answer in JSON."}, {"cachePoint": {"type": "default"}},
                              {"text": "Today is 2026-12-06."}]  # fmt: skip
    assert body["toolConfig"]["toolChoice"] == {"tool": {"name": "Answer"}}
    assert body["toolConfig"]["tools"][0]["toolSpec"]["inputSchema"]["json"] == SCHEMA
    assert body["messages"] == [{"role": "user", "content": [{"text": "hi"}]}]


def test_a_bedrock_model_without_tool_choice_or_caching_is_asked_without_them(bedrock):
    # given a model that refuses a cache point and tool choice (not every Bedrock model has them)
    bedrock.refuses = {"tool", "cache"}
    bedrock.script = [("text", '{"ok": true}'), ("text", '{"ok": false}')]
    model = BedrockModel("meta.llama3-70b-instruct-v1:0", timeout=5)
    # then it is asked again without each, the schema then in the prompt, and the next call goes there at once
    assert json.loads(model.complete(ASKED, schema=SCHEMA, schema_name="Answer").content) == {"ok": True}
    assert len(bedrock.requests) == 3
    assert model.complete(ASKED, schema=SCHEMA, schema_name="Answer").mode == "text"
    last = bedrock.requests[-1]["body"]
    assert len(bedrock.requests) == 4 and "toolConfig" not in last
    assert '"title":"Answer"' in last["system"][0]["text"] and len(last["system"]) == 2


def test_bedrock_throttling_and_timeouts_are_model_errors(bedrock):
    bedrock.script = [("error", 429, "ThrottlingException", "slow down")] * 2
    with pytest.raises(ModelError, match="ThrottlingException"):
        BedrockModel("m-throttled", timeout=5, retries=1).complete(ASKED, schema=SCHEMA, schema_name="Answer")
    assert len(bedrock.requests) == 2  # botocore's standard retry, once
    bedrock.script = [("delay", 1.5)]
    with pytest.raises(ModelError, match="ReadTimeout"):
        BedrockModel("m-slow", timeout=0.3, retries=0).complete(ASKED, schema=SCHEMA, schema_name="Answer")


def test_the_planner_through_bedrock_makes_the_models_program_or_declines(bedrock):
    bedrock.script = [("tool", answer())]
    planner = LLMPlanner(model=BedrockModel("anthropic.claude-test", timeout=5))
    plan = planner.plan(PROMPT, classify(PROMPT), [])
    assert plan.info.fallback is None and plan.program.title == "Dawn Runs" and plan.declined is None
    assert bedrock.requests[0]["body"]["system"][0]["text"] == static_part()
    prompt = "订一杯瑞幸拿铁送到前台"
    bedrock.script = [("tool", {"decline": {"category": "purchase", "reason": "我不能替你下单，但可以做一个咖啡记录。"},
                                "program": None})]  # fmt: skip
    # (a request the rules let through, as they once did this one: the model's own decline is what is tested)
    declined = planner.plan(prompt, classify_as(prompt, "custom_log"), []).declined
    assert declined is not None and declined.category == "purchase" and "下单" in declined.reason


def test_a_model_is_not_asked_when_the_workers_time_left_could_not_hold_its_answer(fake):
    import time

    fake.script = [("json", answer())]
    client = openai.OpenAI(api_key="k", base_url=fake.base_url, timeout=2, max_retries=0)
    plan = LLMPlanner(client=client, model="m", timeout=30).plan(
        PROMPT, classify(PROMPT), [], deadline=time.monotonic() + 20
    )
    assert plan.info.fallback == "no time left for the model to answer" and fake.requests == []
    assert plan.program.title == "Run Log"  # the composer's plan stands
