"""The documents of tools with series, per-row figures and query inputs: valid, importable, and saying each of them."""

from __future__ import annotations

import json
from typing import Any

from tests.dify import build_call
from tests.fakes import FakeTable
from tests.helpers import tool_event
from tests.unit.test_spec import operations
from toolgen import auth
from toolgen.program import ToolProgram
from toolgen.runtime import ToolApp
from toolgen.spec import build_spec, validate_spec
from toolgen.spec.check import check_importable

SERVER = "https://abc.lambda-url.us-east-1.on.aws"
METER = {
    "name": "meter",
    "title": "Meter readings",
    "archetype": "custom_log",
    "entities": {
        "reading": {
            "fields": {
                "date": {"type": "date", "required": True},
                "kwh": {"type": "number", "required": True},
                "meter": {"type": "string", "enum": ["house", "garage"], "default": "house"},
            }
        }
    },
    "operations": [
        {"id": "addReading", "kind": "create", "path": "/readings", "entity": "reading"},
        {
            "id": "listReadings",
            "kind": "list",
            "path": "/readings",
            "entity": "reading",
            "sort": "-date",
            "filters": ["meter"],
            "computed": {"used": "kwh - prev(kwh)"},
            "inputs": {
                "since": {"type": "date", "label": "From"},
                "at_least": {"type": "number", "minimum": 0, "label": "At least (kWh)"},
            },
            "where": "(since is None or date >= since) and (at_least is None or (used or 0) >= at_least)",
        },
        {
            "id": "monthly",
            "kind": "aggregate",
            "path": "/monthly",
            "entity": "reading",
            "series": "month",
            "series_count": 6,
            "computed": {"used": "kwh - prev(kwh)", "days": "days_since(prev(date)) - days_since(date)"},
            "metrics": {"kwh": "sum(used)", "per_day": "round(sum(used) / sum(days), 2)"},
        },
        {
            "id": "bill",
            "kind": "aggregate",
            "path": "/bill",
            "entity": "reading",
            "period": "month",
            "computed": {"used": "kwh - prev(kwh)"},
            "inputs": {
                "price": {"type": "number", "minimum": 0, "default": 0.25, "label": "Price per kWh"},
                "tariff": {"type": "string", "enum": ["day", "night"], "default": "day", "label": "Tariff"},
            },
            "metrics": {"cost": "round(sum(used) * price * (0.5 if tariff == 'night' else 1), 2)"},
        },
    ],
}


def document() -> dict[str, Any]:
    return build_spec(ToolProgram.model_validate(METER), SERVER)


def test_the_document_is_valid_and_imports_as_it_is():
    doc = document()
    validate_spec(doc)
    assert check_importable(doc) == []


def test_every_parameter_has_one_type_and_a_description_within_limits():
    for _, _, op in operations(document()):
        for param in op.get("parameters", []):
            assert isinstance(param["schema"]["type"], str) and "anyOf" not in param["schema"], param
            assert 0 < len(param["description"]) <= 700 and "$ref" not in param


def test_a_lists_inputs_are_optional_query_parameters_beside_its_filters():
    params = {p["name"]: p for p in document()["paths"]["/readings"]["get"]["parameters"]}
    assert list(params) == ["limit", "next", "meter", "since", "at_least"]
    since, at_least = params["since"], params["at_least"]
    assert (since["in"], since["required"], since["schema"]["format"], since["description"]) == (
        "query",
        False,
        "date",
        "From",
    )
    assert at_least["schema"]["type"] == "number" and at_least["schema"]["minimum"] == 0
    assert "default" not in at_least["schema"]  # none given: left out, it filters nothing


def test_a_figures_inputs_declare_their_defaults_and_say_their_choices():
    params = {p["name"]: p for p in document()["paths"]["/bill"]["get"]["parameters"]}
    assert params["price"]["schema"]["default"] == 0.25 and params["price"]["required"] is False
    assert params["price"]["description"] == "Price per kWh. Default: 0.25."
    assert params["tariff"]["schema"]["enum"] == ["day", "night"]
    assert params["tariff"]["description"] == "Tariff. One of: day, night. Default: day."


def test_a_series_answer_says_its_periods_and_their_metrics():
    doc = document()
    answer = doc["paths"]["/monthly"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer["required"] == ["series"] and set(answer["properties"]) == {"series", "newest"}
    series = answer["properties"]["series"]
    assert series["type"] == "array" and "at most 6" in series["description"]
    period = series["items"]
    assert period["required"] == ["key", "start", "metrics"]
    assert period["properties"]["key"] == {"type": "string", "description": "The month, as 2026-12"}
    assert period["properties"]["start"]["format"] == "date"
    assert set(period["properties"]["metrics"]["properties"]) == {"kwh", "per_day"}
    assert "parameters" not in doc["paths"]["/monthly"]["get"]  # a series takes no query of its own


def test_an_aggregates_computed_figures_are_not_in_its_answer():
    answer = document()["paths"]["/bill"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(answer["properties"]["metrics"]["properties"]) == {"cost"}


def test_calls_dify_builds_from_the_document_are_served():
    # given the tool imported into Dify, with two readings of this month
    doc = document()
    app = ToolApp(ToolProgram.model_validate(METER), tool_id="t" + "0" * 20, owner="di", table=FakeTable(), secret="s")

    def send(path: str, method: str, given: dict[str, Any]) -> tuple[int, Any]:
        sent = build_call(path, method, doc["paths"][path][method], given)
        event = tool_event(sent.method, sent.path, token=auth.mint("di", "s"), query=sent.query, body=sent.body)
        answer = app.handle(event)
        return answer["statusCode"], json.loads(answer["body"])

    today = app.clock()
    for day, kwh in ((today.replace(day=1), 100), (today, 140)):
        assert send("/readings", "post", {"date": day.isoformat(), "kwh": kwh})[0] == 201
    # when the model leaves the inputs out, Dify sends their defaults; when it fills them, its text
    assert send("/bill", "get", {}) == (200, {"metrics": {"cost": 10.0}})
    assert send("/bill", "get", {"price": 0.5, "tariff": "night"}) == (200, {"metrics": {"cost": 10.0}})
    status, listed = send("/readings", "get", {"at_least": 1})
    assert status == 200 and [r["used"] for r in listed["items"]] == [40]
