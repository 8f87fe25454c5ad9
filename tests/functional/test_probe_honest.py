"""The probe calls a new tool as a person's page would, and only a tool that answers is reported as working.

Programs here are what a model might write (planned by a fixed planner standing in for it), deployed on moto's
server and run by the local Lambda runtime; the public APIs are the loopback stand-in of tests/upstream.py.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from tests.functional.test_pipeline import run
from tests.functional.test_pipeline import services as services
from tests.upstream import Upstream
from toolgen.ids import sortable_id
from toolgen.models import Intent, RecalledMemory
from toolgen.planner import Plan
from toolgen.program import ToolProgram
from toolgen.runtime.fetch import PUBLIC_APIS
from toolgen.services import Services


class Fixed:
    """A planner that answers one program, whatever it is asked: the stand-in for a model's answer."""

    name = "fixed"

    def __init__(self, program: dict) -> None:
        self.program = program

    def plan(self, prompt: str, intent: Intent, memories: list[RecalledMemory], context: str = "", **_: object):
        return Plan(ToolProgram.model_validate({**self.program, "provenance": {"request": prompt}}))


def planned(services: Services, program: dict) -> Services:
    return dataclasses.replace(services, planner=Fixed(program))


@pytest.fixture
def upstream(monkeypatch):
    server = Upstream()
    monkeypatch.setenv("TOOLGEN_FETCH_OVERRIDES", json.dumps(dict.fromkeys(PUBLIC_APIS, server.url)))
    yield server
    server.stop()


def calculator(inputs: dict, outputs: dict) -> dict:
    return {
        "name": "calc",
        "title": "Calc",
        "archetype": "custom_calculator",
        "operations": [{"id": "calc", "kind": "compute", "method": "GET", "path": "/calc", "inputs": inputs,
                        "outputs": outputs}],
    }  # fmt: skip


def current_weather(select: str) -> dict:
    """A one-place lookup with figures computed from its answer, as a model writes one."""
    return {
        "name": "lisbon_now",
        "title": "Lisbon now",
        "archetype": "lookup",
        "allowed_hosts": ["api.open-meteo.com"],
        "operations": [
            {
                "id": "now",
                "kind": "fetch",
                "path": "/now",
                "url": "https://api.open-meteo.com/v1/forecast",
                "query": {"latitude": "38.72", "longitude": "-9.14", "current": "temperature_2m"},
                "select": select,
                "fields": {"temperature_2m": "number"},
                "outputs": {"celsius": "temperature_2m", "fahrenheit": "round(temperature_2m * 9 / 5 + 32, 1)"},
            }
        ],
    }


def test_the_readmes_mortgage_calculator_is_made(services):
    # given the README's own example, whose years are a whole number and whose rate is a percentage
    job = run(services, "mortgage calculator: 300k at 4.1% over 30 years", user=f"u{sortable_id('x')}")
    # then the probe's call with its defaults answers, and the job succeeds
    assert job.status == "succeeded", job.error
    assert job.stage("probe").status == "succeeded"


def test_a_whole_number_written_as_a_decimal_and_a_date_of_today_are_probed_as_a_page_sends_them(services):
    program = calculator(
        {"years": {"type": "integer", "required": True, "default": 30.0},
         "start": {"type": "date", "required": True, "default": "$today"}},
        {"months": "years * 12", "ends": "add_days(start, years * 365)"},
    )  # fmt: skip
    job = run(planned(services, program), "loan term calculator", user=f"u{sortable_id('x')}")
    assert job.status == "succeeded", job.error


def test_a_calculation_its_own_defaults_cannot_compute_fails_the_job_and_leaves_nothing(services, emulator):
    program = calculator({"a": {"type": "number", "default": 1}}, {"ratio": "a / (a - 1)"})
    job = run(planned(services, program), "ratio calculator", user=f"u{sortable_id('x')}")
    assert job.status == "failed" and "could not compute ratio" in job.error
    names = [f["FunctionName"] for f in emulator.client("lambda").list_functions()["Functions"]]
    assert not any(job.tool_id and name.endswith(job.tool_id) for name in names)


def test_a_one_place_answer_is_a_list_of_one_with_or_without_outputs(services, upstream):
    job = run(
        planned(services, current_weather("[0].current")),
        "what is the temperature in Lisbon now",
        user=f"u{sortable_id('x')}",
    )
    assert job.status == "succeeded", job.error
    assert job.warnings == [] and any(r.startswith("/v1/forecast?") for r in upstream.requests)


def test_a_lookup_that_cannot_read_its_sources_answer_fails_rather_than_blaming_the_source(services, upstream):
    # given a select that reads the answer as one object (version 1's reading when there were outputs)
    job = run(
        planned(services, current_weather("current")),
        "what is the temperature in Lisbon now",
        user=f"u{sortable_id('x')}",
    )
    # then the source answered, the tool could not read it: the job fails, no "did not answer" warning
    assert job.status == "failed" and "upstream_shape" in job.error
    assert job.warnings == []


def test_a_lookup_whose_source_is_down_is_made_with_a_warning(services, upstream):
    upstream.down = True
    job = run(
        planned(services, current_weather("[0].current")),
        "what is the temperature in Lisbon now",
        user=f"u{sortable_id('x')}",
    )
    assert job.status == "succeeded", job.error
    assert [w.code for w in job.warnings] == ["upstream_unreachable"]
    assert job.warnings[0].details["reason"] == "no_answer"
