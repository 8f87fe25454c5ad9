"""Memory with a model configured: facts read by the LLM beside the rules, and recall by meaning through embeddings.

The model is a real loopback server speaking the OpenAI protocol (tests/fake_openai.py); the table is moto's.
Services are built from the environment, as a deployed function builds them.
"""

from __future__ import annotations

import json

import pytest

from tests.fake_openai import FakeOpenAI
from toolgen.config import Settings
from toolgen.ids import sortable_id
from toolgen.intent import classify
from toolgen.local.lambda_runtime import RuntimeInvoker
from toolgen.memory import Recaller
from toolgen.memory.extract import RuleReader
from toolgen.memory.llm import LLMReader, OpenAIEmbedder
from toolgen.models import Job, JobMessage
from toolgen.pipeline import process
from toolgen.planner import OfflinePlanner
from toolgen.services import Services
from toolgen.table import user_pk


@pytest.fixture
def fake():
    server = FakeOpenAI()
    yield server
    server.stop()


@pytest.fixture
def services(aws_env, runtime, monkeypatch, fake) -> Services:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
    monkeypatch.setenv("TOOLGEN_LLM_TIMEOUT", "5")
    monkeypatch.setenv("MEMORY_EMBEDDING_MODEL", "test-embed")
    built = Services.from_settings(
        Settings.from_env("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret"),
        invoker=RuntimeInvoker(runtime),
    )
    built.planner = OfflinePlanner()  # the planner's own model calls are tested in test_llm_planner.py
    return built


def facts(*found: tuple[str, str, str | None, str | None]) -> tuple[str, dict]:
    return ("json", {"facts": [{"statement": s, "kind": k, "key": key, "value": v} for s, k, key, v in found]})


def chat_calls(fake: FakeOpenAI) -> list[dict]:
    return [r for r in fake.requests if r["path"].endswith("/chat/completions")]


def test_the_environment_builds_the_model_reader_and_the_embedder(services):
    assert isinstance(services.memories.reader, LLMReader)
    assert isinstance(services.recaller.embedder, OpenAIEmbedder)
    assert services.recaller.embedder.model == "test-embed"


def test_rules_read_first_and_the_model_reads_what_they_miss_superseding_the_old_value(services, fake):
    user = f"u{sortable_id('x')}"
    shanghai = services.memories.learn(user, "I live in Shanghai")
    assert (shanghai.key, shanghai.value) == ("city", "Shanghai")
    assert chat_calls(fake) == []  # the rules knew it: no model call
    fake.scripts["MemoryFacts"] = [facts(("Hangzhou has been home since last spring", "fact", "city", "hangzhou"))]
    hangzhou = services.memories.learn(user, "Hangzhou has been home since last spring")
    assert (hangzhou.key, hangzhou.value) == ("city", "Hangzhou")  # normalised as the rules would
    assert services.memories.get(user, shanghai.memory_id).status == "superseded"
    call = chat_calls(fake)[0]["body"]
    assert call["response_format"]["json_schema"]["name"] == "MemoryFacts"
    assert call["messages"][-1] == {"role": "user", "content": "Hangzhou has been home since last spring"}


def test_a_request_teaches_only_what_it_states(services, fake):
    user = f"u{sortable_id('x')}"
    fake.scripts["MemoryFacts"] = [
        facts(
            ("I have two kids", "fact", None, None),
            ("I live in Paris", "fact", "city", "Paris"),  # not in the request: invented, dropped
            ("coffee at night keeps me awake", "fact", "caffeine_sensitive", "maybe"),  # not a value: text only
        )
    ]
    prompt = "I live in Chengdu and I have two kids, coffee at night keeps me awake; a to-do list for chores"
    job = services.jobs.create(Job(job_id=sortable_id("j"), user=user, prompt=prompt))
    job = process(JobMessage(job_id=job.job_id, user=user, prompt=prompt), services)
    assert job.status == "succeeded", job.error
    learnt = {services.memories.get(user, m).text: services.memories.get(user, m) for m in job.learned or []}
    assert set(learnt) == {"I live in Chengdu", "I have two kids", "coffee at night keeps me awake"}
    assert (learnt["I live in Chengdu"].key, learnt["I live in Chengdu"].value) == ("city", "Chengdu")  # the rules'
    assert learnt["I have two kids"].key is None
    assert learnt["coffee at night keeps me awake"].key is None
    assert not any("Paris" in m.text for m in services.memories.list(user))
    assert len(chat_calls(fake)) == 1  # read once


def test_when_the_model_fails_the_rules_still_learn(services, fake):
    user = f"u{sortable_id('x')}"
    fake.scripts["MemoryFacts"] = [("status", 500), ("status", 500)]
    found = services.memories.reader.mine("I live in Chengdu, I have a cat, rank the hottest cities")
    assert found == [("I live in Chengdu", ("fact", "city", "Chengdu"))]
    assert services.memories.reader.last_error.startswith("InternalServerError")
    fake.scripts["MemoryFacts"] = [("text", "{not json")]
    memory = services.memories.learn(user, "I have a cat")
    assert memory.key is None and memory.text == "I have a cat"


def test_memories_are_recalled_by_meaning_when_no_word_is_shared(services, fake):
    user = f"u{sortable_id('x')}"
    fake.meanings = [{"calm", "loud", "noise", "quiet"}]
    fake.scripts["MemoryFacts"] = [facts(), facts()]
    meat = services.memories.learn(user, "Loud noise gives me a headache")
    services.memories.learn(user, "I collect stamps")
    item = services.table.get(user_pk(user), f"MEM#{meat.memory_id}")
    assert item["vector_model"] == "test-embed" and len(item["vector"]) == 64 * 2  # float16, stored beside it
    assert "vector" not in services.memories.get(user, meat.memory_id).model_dump()

    prompt = "pick a calm restaurant"
    recalled = services.recaller.recall(user, prompt, classify(prompt))
    assert [m.memory_id for m in recalled] == [meat.memory_id]
    assert recalled[0].parts.semantic == recalled[0].parts.relevance == 1.0

    words_only = Recaller(services.memories, services.recaller.config)  # the same memories, by words alone
    assert words_only.recall(user, prompt, classify(prompt)) == []


def test_an_embedding_outage_falls_back_to_words_and_is_repaired_later(services, fake):
    user = f"u{sortable_id('x')}"
    fake.scripts["MemoryFacts"] = [facts()]
    fake.scripts["embeddings"] = [("status", 500)] * 6  # the learn, the index, the request: each tried twice
    memory = services.memories.learn(user, "I keep a garden journal")
    assert "vector" not in services.table.get(user_pk(user), f"MEM#{memory.memory_id}")
    prompt = "keep a garden journal"
    recalled = services.recaller.recall(user, prompt, classify(prompt))
    assert [m.memory_id for m in recalled] == [memory.memory_id]  # by its words
    assert recalled[0].parts.semantic is None
    services.memories.learn(user, "I prefer dark mode")  # a change: the index is built again, embeddings back
    recalled = services.recaller.recall(user, prompt, classify(prompt))
    assert recalled[0].parts.semantic is not None
    assert services.table.get(user_pk(user), f"MEM#{memory.memory_id}")["vector_model"] == "test-embed"


def test_without_a_key_memory_uses_the_rules_and_words(aws_env):
    built = Services.from_settings(
        Settings.from_env("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret")
    )
    assert isinstance(built.memories.reader, RuleReader) and built.recaller.embedder is None


def test_a_hostile_models_value_is_dropped_and_the_words_kept_as_plain_memory(services, fake):
    # given a model that reads a restaurant into a statement about tea
    user = f"u{sortable_id('x')}"
    evil = "EVIL-INJECTED <b>x</b>"
    fake.scripts["MemoryFacts"] = [
        facts(("I like tea", "preference", "favorite_restaurant", evil)),
        facts(("I like tea", "preference", "favorite_restaurant", evil), ("I live in Paris", "fact", "city", "Paris")),
    ]
    # when the person says so on its own, and then in a request for a restaurant picker
    memory = services.memories.learn(user, "I like tea")
    prompt = "I like tea, help me pick a restaurant for dinner"
    job = services.jobs.create(Job(job_id=sortable_id("j"), user=user, prompt=prompt))
    job = process(JobMessage(job_id=job.job_id, user=user, prompt=prompt), services)
    # then the words are remembered without the fact, and the picker suggests nothing the person never said
    assert (memory.key, memory.value, memory.text) == (None, None, "I like tea")
    assert job.status == "succeeded", job.error
    assert all(m.key is None and m.value is None for m in services.memories.list(user))
    program = json.dumps(services.tools.get(user, job.tool_id).program, ensure_ascii=False)
    assert "EVIL" not in program and "Paris" not in program


def test_saving_a_memory_never_waits_past_the_fact_readers_timeout(aws_env, runtime, monkeypatch, fake):
    import time

    # given a model that takes 6 s to answer, and a fact reader that waits at most half a second, with no retry
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
    monkeypatch.setenv("TOOLGEN_MEMORY_LLM_TIMEOUT", "0.5")
    built = Services.from_settings(
        Settings.from_env("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret"),
        invoker=RuntimeInvoker(runtime),
    )
    fake.scripts["MemoryFacts"] = [("delay", 6.0), ("delay", 6.0)]
    started = time.monotonic()
    memory = built.memories.learn(f"u{sortable_id('x')}", "Hangzhou has been home since last spring")
    # then the model's answer was not waited for (the bound leaves a loaded machine seconds for the rest of the
    # write): the words are kept as they are, and the reader says why
    assert time.monotonic() - started < 5.0
    assert memory.text == "Hangzhou has been home since last spring"
    assert "Timeout" in (built.memories.reader.last_error or "")
