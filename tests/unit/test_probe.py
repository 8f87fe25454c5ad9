"""The probe's calls: the ones that prove a new tool answers, sent as a page sends them, reaching its upstream when
it has one, and telling an upstream that is down from a tool that misreads it."""

import datetime as dt

import pytest

from toolgen.intent import classify
from toolgen.models import JobWarning
from toolgen.planner import OfflinePlanner
from toolgen.probe import ProbeCall, probe_calls, upstream_passing, upstream_warning
from toolgen.program import ToolProgram

TODAY = dt.date(2026, 12, 6)


def program(prompt: str):
    return OfflinePlanner().plan(prompt, classify(prompt), []).program


def calculator(inputs: dict, method: str = "GET") -> ToolProgram:
    return ToolProgram.model_validate(
        {
            "name": "calc",
            "title": "Calc",
            "archetype": "custom_calculator",
            "operations": [
                {"id": "calc", "kind": "compute", "method": method, "path": "/calc", "inputs": inputs,
                 "outputs": {"out": "1"}}
            ],
        }
    )  # fmt: skip


@pytest.mark.parametrize(
    ("prompt", "call"),
    [
        ("rank Beijing, Shanghai and Guangzhou by max temperature this week", ProbeCall("GET", "/ranking")),
        (
            "convert 100 dollars to euros",
            ProbeCall("GET", "/convert", {"amount": "100.0", "from_currency": "USD", "to_currency": "EUR"}),
        ),
    ],
)
def test_a_tool_that_fetches_is_probed_through_its_fetch(prompt, call):
    # a call to "/" would answer without ever reaching the upstream the tool exists for
    assert probe_calls(program(prompt), TODAY) == [call]


def test_every_list_and_figure_is_probed_not_only_the_first():
    calls = probe_calls(program("log my runs with distance and minutes"), TODAY)
    ops = program("log my runs with distance and minutes").operations
    reads = [op.path for op in ops if op.kind in ("list", "aggregate")]
    assert len(reads) >= 2 and [c.path for c in calls] == reads


def test_a_whole_number_default_written_as_a_decimal_is_sent_as_a_whole_number():
    # given an integer input whose default a model wrote as 30.0
    tool = calculator({"years": {"type": "integer", "required": True, "default": 30.0}})
    # then the program holds 30, and the probe sends "30", which the integer accepts
    assert tool.operations[0].inputs["years"].default == 30
    assert probe_calls(tool, TODAY) == [ProbeCall("GET", "/calc", {"years": "30"}, complete=True)]


def test_date_defaults_are_sent_as_the_dates_they_stand_for():
    tool = calculator(
        {"start": {"type": "date", "default": "$today"}, "due": {"type": "date", "default": "$next:01-15"}}
    )
    assert probe_calls(tool, TODAY)[0].query == {"start": "2026-12-06", "due": "2027-01-15"}


def test_a_calculation_by_post_is_probed_with_a_body_of_its_defaults():
    tool = calculator({"n": {"type": "integer", "default": 3}, "ok": {"type": "boolean", "default": True}}, "POST")
    assert probe_calls(tool, TODAY) == [ProbeCall("POST", "/calc", body={"n": 3, "ok": True}, complete=True)]


def test_an_input_the_probe_would_have_to_invent_leaves_the_calculation_out():
    tool = calculator({"n": {"type": "integer", "required": True}})
    assert probe_calls(tool, TODAY) == [ProbeCall("GET", "/")]


def test_an_optional_input_without_a_default_makes_the_call_incomplete():
    tool = calculator({"n": {"type": "integer", "default": 2}, "m": {"type": "number"}})
    assert probe_calls(tool, TODAY) == [ProbeCall("GET", "/calc", {"n": "2"}, complete=False)]


@pytest.mark.parametrize(
    ("details", "passing"),
    [
        ({"reason": "no_answer"}, True),
        ({"reason": "too_slow"}, True),
        ({"reason": "no_resolve"}, True),
        ({"reason": "upstream_status", "status": 503}, True),
        ({"reason": "upstream_status", "status": 429}, True),
        ({"reason": "upstream_status", "status": 400}, False),  # the tool's own query is wrong
        ({"reason": "upstream_shape"}, False),  # the tool's select finds nothing in what the API said
        ({"reason": "upstream_lacks"}, False),
        (None, False),
    ],
)
def test_only_an_upstream_that_may_come_back_is_a_warning(details, passing):
    assert upstream_passing({"code": "upstream_error", "message": "x", "details": details}) is passing


def test_the_warning_is_said_in_the_requests_language():
    # given the tool's own answer when its upstream did not answer (said in the tool's language)
    zh = program("把100美元换成人民币")
    body = {"code": "upstream_error", "message": "api.frankfurter.dev 没有响应", "details": {"reason": "no_answer"}}
    # when the probe turns it into a warning
    warning = upstream_warning(zh, "/convert", body)
    # then it says so in Chinese, names the source, and keeps a stable code
    assert isinstance(warning, JobWarning) and warning.code == "upstream_unreachable"
    assert "数据来源" in warning.message and "api.frankfurter.dev 没有响应" in warning.message
    assert warning.details == {"host": "api.frankfurter.dev", "path": "/convert", "reason": "no_answer"}
    en = upstream_warning(program("convert 100 dollars to euros"), "/convert", {**body, "message": "x did not answer"})
    assert en.message.startswith("Made, but its data source did not answer")
