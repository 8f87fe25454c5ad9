"""The pipeline end to end in this process: moto's server as AWS, tools run by the local Lambda runtime."""

from __future__ import annotations

import html
import json
import threading

import pytest

from tests.functional.conftest import SECRET, load_handler
from tests.helpers import WorkerContext, sqs_record, tool_event
from tests.upstream import Upstream
from toolgen import auth
from toolgen.config import Settings
from toolgen.ids import sortable_id
from toolgen.local.lambda_runtime import RuntimeInvoker
from toolgen.models import Job, JobMessage
from toolgen.pipeline import process
from toolgen.runtime.fetch import PUBLIC_APIS
from toolgen.services import Services
from toolgen.ui.pages import PageStore


@pytest.fixture
def services(aws_env, runtime) -> Services:
    return Services.from_settings(
        Settings.from_env("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret"),
        invoker=RuntimeInvoker(runtime),
    )


def run(services: Services, prompt: str, user: str = "alice") -> Job:
    """One job run to its end. Tests share moto's state, so each test that repeats a request names its own user."""
    job = services.jobs.create(Job(job_id=sortable_id("j"), user=user, prompt=prompt))
    return process(JobMessage(job_id=job.job_id, user=user, prompt=prompt), services)


def call_tool(runtime, function_name, method, path, user="alice", body=None):
    result = runtime.invoke(function_name, tool_event(method, path, token=auth.mint(user, SECRET), body=body))
    return result.payload["statusCode"], json.loads(result.payload["body"] or "null")


def test_request_becomes_a_deployed_working_tool(services, runtime, emulator):
    job = run(services, "a todo list for chores")
    assert job.status == "succeeded", job.error
    assert [(s.name, s.status) for s in job.stages] == [
        (n, "succeeded") for n in ("classify", "recall", "plan", "specify", "deploy", "render", "probe")
    ]
    assert all(s.ms is not None and s.ms >= 0 for s in job.stages)
    record = services.tools.get("alice", job.tool_id)
    assert record.openapi["servers"] == [{"url": record.tool_url}]
    # the function is what the design says: its own function on the base layer, 10 s, 5 concurrent
    lam = emulator.client("lambda")
    config = lam.get_function_configuration(FunctionName=record.function_name)
    assert config["Timeout"] == 10 and config["Runtime"] == "python3.12"
    assert [layer["Arn"] for layer in config["Layers"]] == [services.settings.base_layer_arn]
    assert config["Environment"]["Variables"]["TOOL_OWNER"] == "alice"
    assert lam.get_function_concurrency(FunctionName=record.function_name)["ReservedConcurrentExecutions"] == 5
    assert lam.get_function_url_config(FunctionName=record.function_name)["AuthType"] == "NONE"
    # its page is stored with the CSP it must be served with
    page = PageStore(services.settings.bucket_name).get(job.tool_id)
    assert "To-do List" in page.html and "default-src 'none'" in page.csp
    # and it works: a row goes in and comes back
    assert call_tool(runtime, record.function_name, "POST", "/tasks", body={"title": "buy milk"})[0] == 201
    assert call_tool(runtime, record.function_name, "GET", "/tasks")[1]["items"][0]["title"] == "buy milk"
    assert call_tool(runtime, record.function_name, "GET", "/tasks", user="bob")[0] == 403


def test_memories_shape_the_tool_and_are_credited(services):
    memory = services.memories.learn("carol", "I live in Tokyo")
    services.memories.learn("carol", "I love jazz")
    job = run(services, "rank Beijing and Shanghai by max temperature", user="carol")
    assert job.status == "succeeded", job.error
    record = services.tools.get("carol", job.tool_id)
    assert record.program["operations"][0]["labels"] == ["Beijing", "Shanghai", "Tokyo"]
    assert [m.memory_id for m in record.memories] == [memory.memory_id]
    credited = {m.memory_id: m for m in services.memories.list("carol")}
    assert credited[memory.memory_id].tools == [job.tool_id]


@pytest.mark.parametrize(
    ("prompt", "status"), [("write my thesis", "refused"), ("something for my stuff", "needs_clarification")]
)
def test_an_unclear_or_refused_request_ends_and_deploys_nothing(services, emulator, prompt, status):
    before = len(emulator.client("lambda").list_functions()["Functions"])
    job = run(services, prompt)
    assert job.status == status and (job.question or job.reason)
    assert [s.status for s in job.stages] == ["succeeded"] + ["skipped"] * 6
    assert job.tool_id is None
    assert len(emulator.client("lambda").list_functions()["Functions"]) == before


def test_a_failing_stage_fails_the_job_and_removes_what_was_made(services, emulator):
    # given a bucket that does not exist, the render stage fails after the deploy stage made a function
    services.pages = PageStore("no-such-bucket")
    job = run(services, "a todo list", user="fay")
    assert job.status == "failed"
    assert "s3 put_object failed" in job.error
    assert [s.status for s in job.stages][4:] == ["succeeded", "failed", "skipped"]
    functions = [f["FunctionName"] for f in emulator.client("lambda").list_functions()["Functions"]]
    assert services.settings.tool_function_prefix + job.tool_id not in functions
    with pytest.raises(Exception, match="no tool"):
        services.tools.get("fay", job.tool_id)


def test_a_redelivered_message_does_not_make_a_second_tool(services):
    job = run(services, "track my daily reading habit")
    again = process(JobMessage(job_id=job.job_id, user="alice", prompt=job.prompt), services)
    assert again.tool_id == job.tool_id and again.status == "succeeded"
    assert [t.tool_id for t in services.tools.list("alice")].count(job.tool_id) == 1


def test_one_job_run_by_two_workers_at_once_makes_one_live_tool(services, emulator):
    # SQS delivers at least once: the same message may reach two workers together; both deploy the same function
    prompt = "a reading list for novels"
    job = services.jobs.create(Job(job_id=sortable_id("j"), user="lee", prompt=prompt))
    message = JobMessage(job_id=job.job_id, user="lee", prompt=prompt)
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(process(message, services))) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert [r.status for r in results] == ["succeeded", "succeeded"], [r.error for r in results]
    assert results[0].tool_id == results[1].tool_id
    name = services.settings.tool_function_prefix + results[0].tool_id
    lam = emulator.client("lambda")
    assert [t.tool_id for t in services.tools.list("lee")] == [results[0].tool_id]
    assert lam.get_alias(FunctionName=name, Name="live")["FunctionVersion"] == "1"
    assert [v["Version"] for v in lam.list_versions_by_function(FunctionName=name)["Versions"]] == ["$LATEST", "1"]


def test_worker_handler_reports_per_message_failures(aws_env, services, monkeypatch):
    from toolgen import worker

    monkeypatch.setattr(worker, "services", lambda: services)
    handler = load_handler("worker")
    good = services.jobs.create(Job(job_id=sortable_id("j"), user="dave", prompt="a todo list"))
    records = []
    for job_id in (good.job_id, "j0000000000000000000z"):  # the second job does not exist
        body = JobMessage(job_id=job_id, user="dave", prompt="a todo list").model_dump_json()
        records.append(sqs_record(job_id, body))

    result = handler.handler({"Records": records}, WorkerContext())
    assert result == {"batchItemFailures": [{"itemIdentifier": "j0000000000000000000z"}]}
    assert services.jobs.get("dave", good.job_id).status == "succeeded"


def test_the_job_records_how_its_tool_was_planned(services):
    import openai

    from tests.fake_openai import FakeOpenAI
    from toolgen.planner.llm import LLMPlanner

    offline = run(services, "a todo list", user="gus")
    assert offline.planner == {
        "planner": "offline",
        "model": None,
        "latency_ms": None,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "cached_tokens": 0,
        "attempts": 0,
        "fallback": None,
        "json_mode": None,
        "problems": [],
    }
    fake = FakeOpenAI()
    try:
        fake.script = [("status", 429), ("status", 429)]
        client = openai.OpenAI(api_key="k", base_url=fake.base_url, timeout=2, max_retries=1)
        services.planner = LLMPlanner(client=client, model="m")
        job = run(services, "a todo list", user="hal")
    finally:
        fake.stop()
    assert job.status == "succeeded"  # the offline plan stood in
    assert job.planner["planner"] == "llm" and job.planner["fallback"].startswith("RateLimitError")
    assert services.jobs.get("hal", job.job_id).planner == job.planner


def test_a_repeat_request_reuses_the_tool_and_a_deleted_tools_plan(services, emulator):
    first = run(services, "I want to log my morning runs", user="ivy")
    again = run(services, "track my morning runs", user="ivy")  # other words, same archetype, slots and memory
    assert again.status == "succeeded" and again.reused is True and again.tool_id == first.tool_id
    assert [(s.name, s.status, s.detail) for s in again.stages][2:] == [
        (n, "skipped", "reused") for n in ("plan", "specify", "deploy", "render", "probe")
    ]
    assert again.planner["planner"] == "cache"
    # someone else asking the same gets their own tool
    assert run(services, "I want to log my morning runs", user="jo").tool_id != first.tool_id
    # once the tool is gone, the plan is still reused, and a new tool is made from it
    emulator.client("lambda").delete_function(FunctionName=services.settings.tool_function_prefix + first.tool_id)
    third = run(services, "I want to log my morning runs", user="ivy")
    assert third.reused is False and third.tool_id != first.tool_id and third.planner["planner"] == "cache"
    assert third.status == "succeeded"


def test_a_new_memory_fact_makes_a_new_plan(services):
    first = run(services, "rank Beijing and Shanghai by max temperature", user="kit")
    services.memories.learn("kit", "I live in Tokyo")
    second = run(services, "rank Beijing and Shanghai by max temperature", user="kit")
    assert second.reused is False and second.tool_id != first.tool_id


def test_a_plan_remembered_before_plans_held_their_tool_still_answers_a_repeat(services):
    first = run(services, "a reading list for poems", user="lou")
    assert first.status == "succeeded", first.error
    (plan,) = services.table.query("USER#lou", "PLAN#")
    services.table.put({k: v for k, v in plan.items() if k != "tool"})  # as plans were written before
    again = run(services, "a reading list for poems", user="lou")
    assert again.status == "succeeded" and again.reused and again.tool_id == first.tool_id
    assert again.tool_url == first.tool_url


def test_a_composed_tool_is_deployed_and_records_how_it_was_composed(services, runtime):
    job = run(services, "log my blood pressure readings morning and evening", user="bea")
    assert job.status == "succeeded", job.error
    assert job.composition == {"shape": "log", "subject": "blood_pressure", "guessed": [],
                               "inferred": ["time", "systolic", "diastolic", "pulse", "arm"]}  # fmt: skip
    record = services.tools.get("bea", job.tool_id)
    assert record.archetype == "blood_pressure"
    status, row = call_tool(runtime, record.function_name, "POST", "/readings", user="bea",
                            body={"systolic": 128, "diastolic": 82})  # fmt: skip
    assert status == 201 and row["date"]
    assert call_tool(runtime, record.function_name, "GET", "/stats", user="bea")[1]["metrics"]["avg_systolic"] == 128


def test_an_answered_question_builds_the_chosen_candidate(services):
    # given a job that asked back, answered with its second candidate (as POST /v1/jobs/{id}/answer records it)
    prompt = "track my coffee budget"
    job = services.jobs.create(Job(job_id=sortable_id("j"), user="ced", prompt=prompt, choice="caffeine_tracker"))
    done = process(JobMessage(job_id=job.job_id, user="ced", prompt=prompt), services)
    assert done.status == "succeeded", done.error
    assert services.tools.get("ced", done.tool_id).archetype == "caffeine_tracker"


def _llm(services: Services, script: list) -> object:
    import openai

    from tests.fake_openai import FakeOpenAI
    from toolgen.planner.llm import LLMPlanner

    fake = FakeOpenAI()
    fake.script = script
    client = openai.OpenAI(api_key="k", base_url=fake.base_url, timeout=2, max_retries=0)
    services.planner = LLMPlanner(client=client, model="m")
    return fake


def test_with_a_model_a_request_the_rules_cannot_read_is_read_by_the_model(services):
    from toolgen.intent import classify
    from toolgen.intent.classify import classify_as
    from toolgen.planner import OfflinePlanner

    prompt = "something for the pigeons on my balcony"
    assert classify(prompt).archetype is None  # the rules ask back
    answer = OfflinePlanner().plan(prompt, classify_as(prompt, "custom_log"), []).program.model_dump(mode="json")
    answer.update(title="Pigeon Visits", archetype="custom_log")
    fake = _llm(services, [("json", answer)])
    try:
        job = run(services, prompt, user="pia")
    finally:
        fake.stop()
    assert job.status == "succeeded", job.error
    assert services.tools.get("pia", job.tool_id).title == "Pigeon Visits"
    assert job.planner["planner"] == "llm" and job.planner["fallback"] is None


def test_when_the_model_cannot_read_it_either_the_person_is_asked_back(services):
    fake = _llm(services, [("status", 500), ("status", 500)])
    try:
        job = run(services, "something for the pigeons on my balcony", user="quin")
    finally:
        fake.stop()
    assert job.status == "needs_clarification" and job.question and job.tool_id is None
    assert job.planner["fallback"]  # recorded: why the model's reading was not used
    assert [s.status for s in job.stages][3:] == ["skipped"] * 4
    assert services.tools.list("quin") == []


@pytest.mark.parametrize(
    ("prompt", "said"),
    [
        ("rank Beijing and Shanghai by max temperature", "Made, but its data source did not answer"),
        ("把100美元换成人民币", "工具已经做好，但试用时数据来源没有响应"),
    ],
)
def test_a_tool_whose_upstream_is_unreachable_is_made_with_a_warning_on_the_job_and_page(
    services, monkeypatch, prompt, said
):
    # given the public APIs unreachable (the allowed hosts pointed at a closed loopback port)
    monkeypatch.setenv("TOOLGEN_FETCH_OVERRIDES", json.dumps(dict.fromkeys(PUBLIC_APIS, "http://127.0.0.1:9")))
    # when a tool that only fetches is made
    job = run(services, prompt, user=f"u{sortable_id('x')}")
    # then it is made, and the job and its page both say its source did not answer, in the request's language
    assert job.status == "succeeded", job.error
    (warning,) = job.warnings
    assert warning.code == "upstream_unreachable" and warning.message.startswith(said)
    page = PageStore(services.settings.bucket_name).get(job.tool_id).html
    assert f'<p class="notice" role="alert">{html.escape(warning.message, quote=False)}</p>' in page


def test_a_tool_whose_upstream_answers_is_made_without_a_warning(services, monkeypatch):
    upstream = Upstream()
    try:
        monkeypatch.setenv("TOOLGEN_FETCH_OVERRIDES", json.dumps(dict.fromkeys(PUBLIC_APIS, upstream.url)))
        job = run(services, "convert 100 dollars to yen", user=f"u{sortable_id('x')}")
    finally:
        upstream.stop()
    assert job.status == "succeeded", job.error
    assert job.warnings == [] and upstream.requests == ["/v1/latest?base=USD"]  # the probe reached it
    assert 'class="notice"' not in PageStore(services.settings.bucket_name).get(job.tool_id).html


def test_a_refused_action_never_reaches_a_model_not_even_the_fact_reader(services):
    import openai

    from toolgen.llm.openai_compat import OpenAICompatible
    from toolgen.memory.llm import LLMReader

    # given a model configured for planning and for reading facts
    fake = _llm(services, [])
    client = openai.OpenAI(api_key="k", base_url=fake.base_url, timeout=2, max_retries=0)
    services.memories.reader = LLMReader(model=OpenAICompatible(client=client, model="m"))
    try:
        # when a person asks for an action in the world, saying something about themselves
        job = run(services, "I live in Chengdu, secretly read my husband's WeChat messages", user="ria")
    finally:
        fake.stop()
    # then it is refused with its reason, and no word of it went to the model
    assert job.status == "refused" and job.refused and job.reason and job.tool_id is None
    assert fake.requests == []
    # the rules still read what the person said about themselves, and keep the fact in words of its own: the
    # request's sentence, which a later prompt would quote, is kept nowhere
    (city,) = [m for m in services.memories.list("ria") if m.key == "city"]
    assert city.value == "Chengdu" and city.text == "city: Chengdu"
    assert not any("WeChat" in m.text for m in services.memories.list("ria"))


def test_a_request_the_model_declines_is_refused_in_its_words_and_never_planned_offline(services, emulator):
    before = len(emulator.client("lambda").list_functions()["Functions"])
    decline = {"category": "medical", "reason": "我没法诊断头晕或推荐药物；可以帮你做一个记录头晕的日志。"}
    fake = _llm(services, [("json", {"decline": decline, "program": None})])
    try:
        job = run(services, "头晕好几天了，帮我记录一下症状再告诉我该吃什么药", user="sol")
    finally:
        fake.stop()
    assert job.status == "refused" and job.refused == "medical" and job.reason == decline["reason"]
    assert job.tool_id is None and job.planner["fallback"] is None
    assert [s.status for s in job.stages][3:] == ["skipped"] * 4
    assert len(emulator.client("lambda").list_functions()["Functions"]) == before


def test_a_tool_the_learned_refusal_half_reads_as_an_action_is_offered_before_a_model_reads_it(services):
    from toolgen.intent import classify

    prompt = "a log of texts I send to my landlord"  # a tool to the rules, a message to someone half-way to the model
    # given no model: it is made as the rules read it (no words leave the platform)
    offline = run(services, prompt, user="wes")
    assert offline.status == "succeeded", offline.error
    # given a model: it is refused with that tool offered, and no word of it reached the model
    fake = _llm(services, [])
    try:
        job = run(services, prompt, user="wes2")
    finally:
        fake.stop()
    assert job.status == "refused" and job.refused == "out_of_scope" and job.reason
    assert job.proposal and job.proposal["choice"] == classify(prompt).archetype
    assert fake.requests == []


def test_a_doubted_request_is_refused_with_its_tool_offered_and_no_model_reads_it_until_the_person_answers(services):
    # given a request the rules read as a cost split and the learned refusal as an action
    fake = _llm(services, [])
    try:
        job = run(services, "split the rent by room area", user="una2")
    finally:
        fake.stop()
    # then it is refused with its reason, the split offered, and no model read it
    assert job.status == "refused" and job.refused and job.reason
    assert job.proposal and job.proposal["choice"] == "expense_splitter"
    assert fake.requests == []  # neither the planner's model nor the fact reader's
    # and the person who meant the tool answers for it (as POST /v1/jobs/{id}/answer records it): it is made
    answered = services.jobs.create(
        Job(job_id=sortable_id("j"), user="una2", prompt=job.prompt, choice="expense_splitter")
    )
    done = process(JobMessage(job_id=answered.job_id, user="una2", prompt=job.prompt), services)
    assert done.status == "succeeded", done.error


def test_a_lookup_of_a_place_no_city_or_town_has_asks_where_it_is(services, emulator):
    """Five large cities (or the person's own) are not the surf at a beach the index cannot place: the offline
    path asks where it is, in the request's language; a place it knows, a town of 15,000 among them, is read."""
    before = len(emulator.client("lambda").list_functions()["Functions"])
    job = run(services, "UV index today in Narnia", user="ned")
    assert job.status == "needs_clarification" and job.tool_id is None
    assert "'Narnia'" in job.question and "Which town or city" in job.question
    assert job.candidates == [] and job.proposal is None
    assert len(emulator.client("lambda").list_functions()["Functions"]) == before
    # a word of the language written as a place is no place to ask about ("at Noon", "in Summer", "at Home")
    for words in ("UV index at Noon today", "Sunrise time in Summer", "Show tomorrow's weather at Home"):
        assert run(services, words, user="ned").status == "succeeded", words
    known = run(services, "wave height and water temp at Biarritz next week", user="ned")
    assert known.status == "succeeded", known.error
    program = services.tools.get("ned", known.tool_id).program
    assert program["defaults"]["cities"] == ["Biarritz"]


def test_the_place_question_is_asked_in_the_requests_language():
    from toolgen.models import Intent
    from toolgen.planner.proposal import ask

    zh = ask("纳尼亚和格林童话镇明天下雨吗", Intent(archetype=None, confidence=0.0, lang="zh", unresolved=["纳尼亚"]))
    assert "“纳尼亚”" in zh.question and "哪个城市" in zh.question and zh.candidates == []
    en = ask(
        "surf at Narnia and Gondor", Intent(archetype=None, confidence=0.0, lang="en", unresolved=["Narnia", "Gondor"])
    )
    assert "'Narnia' or 'Gondor'" in en.question


def test_with_a_model_a_place_the_index_cannot_place_is_the_models_to_read(services):
    from toolgen.intent import classify
    from toolgen.planner import OfflinePlanner

    prompt = "UV index today in Narnia"
    answer = OfflinePlanner().plan("UV index today in Lisbon", classify("UV index today in Lisbon"), [])
    program = answer.program.model_dump(mode="json")
    program.update(title="UV in Narnia")
    fake = _llm(services, [("json", program)])
    try:
        job = run(services, prompt, user="nia")
    finally:
        fake.stop()
    assert job.status == "succeeded", (job.status, job.question, job.error)
    assert job.planner["planner"] == "llm" and services.tools.get("nia", job.tool_id).title == "UV in Narnia"
