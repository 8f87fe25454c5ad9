"""The probe's call: the one that proves a new tool answers, reaching its upstream when it has one."""

import pytest

from toolgen.intent import classify
from toolgen.models import JobWarning
from toolgen.planner import OfflinePlanner
from toolgen.probe import probe_request, upstream_warning


def program(prompt: str):
    return OfflinePlanner().plan(prompt, classify(prompt), []).program


@pytest.mark.parametrize(
    ("prompt", "call"),
    [
        ("rank Beijing, Shanghai and Guangzhou by max temperature this week", ("GET", "/ranking", {})),
        (
            "convert 100 dollars to euros",
            ("GET", "/convert", {"amount": "100.0", "from_currency": "USD", "to_currency": "EUR"}),
        ),
        ("a todo list for chores", ("GET", "/tasks", {})),
    ],
)
def test_a_tool_that_fetches_is_probed_through_its_fetch(prompt, call):
    # a call to "/" would answer without ever reaching the upstream the tool exists for
    assert probe_request(program(prompt)) == call


def test_the_warning_is_said_in_the_requests_language():
    # given the tool's own answer when its upstream did not answer (said in the tool's language)
    zh = program("把100美元换成人民币")
    body = {"code": "upstream_error", "message": "api.frankfurter.dev 没有响应", "details": None}
    # when the probe turns it into a warning
    warning = upstream_warning(zh, "/convert", body)
    # then it says so in Chinese, names the source, and keeps a stable code
    assert isinstance(warning, JobWarning) and warning.code == "upstream_unreachable"
    assert "数据来源" in warning.message and "api.frankfurter.dev 没有响应" in warning.message
    assert warning.details == {"host": "api.frankfurter.dev", "path": "/convert", "reason": "upstream_error"}
    en = upstream_warning(program("convert 100 dollars to euros"), "/convert", {**body, "message": "x did not answer"})
    assert en.message.startswith("Made, but its data source did not answer")
