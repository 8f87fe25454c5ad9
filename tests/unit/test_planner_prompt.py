"""The prompt a model plans from: it states what the validator holds it to, and its static part is the same for
every request (so a provider's prompt cache keeps it)."""

from __future__ import annotations

import datetime as dt

from toolgen.intent import classify
from toolgen.intent.classify import classify_as
from toolgen.language import FUNCTIONS
from toolgen.planner import OfflinePlanner
from toolgen.planner.llm import DECLINE_CATEGORIES, answer_schema, read_answer
from toolgen.planner.prompt import NAMED_KINDS, PromptContext, dynamic_part, static_part
from toolgen.runtime.fetch import NAMED_KINDS as FETCH_NAMED_KINDS
from toolgen.runtime.fetch import PUBLIC_APIS

NOW = dt.datetime(2026, 12, 6, 1, 30, tzinfo=dt.UTC)


def context(prompt: str, **options) -> PromptContext:
    intent = options.pop("intent", None) or classify(prompt)
    draft = OfflinePlanner().plan(prompt, intent, []).program
    return PromptContext(intent=intent, draft=draft, today=NOW, **options)


def test_the_static_part_names_every_function_with_its_meaning_and_every_public_api():
    static = static_part()
    for name, function in FUNCTIONS.items():
        assert f"{name}(" in static, name
        assert function.meaning[:40] in static, name
    for host in PUBLIC_APIS:
        assert host in static
    assert set(NAMED_KINDS) == FETCH_NAMED_KINDS  # every named kind is described, with the hosts it may reach
    assert "api.open-meteo.com only" in static and "api.frankfurter.dev only" in static
    assert "custom_log" in static and "blood_pressure" in static  # subjects, by shape


def test_the_static_part_is_the_same_for_every_request():
    first = static_part()
    dynamic_part(context("log my runs"))
    dynamic_part(context("每周三倒垃圾，帮我做个提醒"))
    assert static_part() == first and static_part() is first  # built once a process


def test_the_dynamic_part_says_today_the_time_zone_the_language_and_that_the_draft_may_be_wrong():
    said = dynamic_part(context("我想记录每天晨跑", time_zone="Asia/Shanghai"))
    assert "Today is 2026-12-06 (Sunday), UTC" in said
    assert "Asia/Shanghai; there it is 2026-12-06 09:30" in said
    assert "The request is in Chinese" in said
    assert "may be wrong" in said and '"name":"run_log"' in said.replace(" ", "")
    assert "provenance" not in said


def test_a_request_the_rules_could_not_read_gets_a_bare_draft_said_as_such():
    prompt = "something for the pigeons on my balcony"
    said = dynamic_part(context(prompt, intent=classify_as(prompt, "custom_log"), unclear=True))
    assert "could not read this request" in said and "bare log" in said
    assert "read the request as" not in said


def test_the_memory_block_is_quoted_after_the_draft():
    block = "[MEMORY_CONTEXT]\n- I run at 06:30\n[/MEMORY_CONTEXT]"
    said = dynamic_part(context("log my runs", memory=block))
    assert said.endswith(block)


def test_the_answer_is_a_program_or_a_decline_and_a_bare_program_is_read_as_one():
    schema = answer_schema()
    assert schema["required"] == ["decline", "program"]
    decline = schema["properties"]["decline"]["anyOf"][0]
    assert decline["properties"]["category"]["enum"] == list(DECLINE_CATEGORIES)
    program = {"name": "x", "operations": []}
    assert read_answer('{"decline": null, "program": {"name": "x", "operations": []}}') == (None, program)
    assert read_answer('{"name": "x", "operations": []}') == (None, program)
    declined, nothing = read_answer('{"decline": {"category": "booking", "reason": "不能订"}, "program": null}')
    assert nothing is None and declined is not None and declined.reason == "不能订"
