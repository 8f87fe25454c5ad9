"""A tool a model might plan with a weekly series, figures between meter readings (prev) and a date range typed
in, made by the pipeline on moto's server, run by the local Lambda runtime, and read back with figures worked out
by hand. The deployed tool's clock is today's (UTC), so the readings are dated from it."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from tests.functional.conftest import SECRET
from tests.functional.test_generated_client import generate_client
from tests.functional.test_pipeline import run
from tests.functional.test_pipeline import services as services
from tests.functional.test_probe_honest import planned
from tests.helpers import tool_event
from toolgen import auth
from toolgen.ids import sortable_id
from toolgen.program import ToolProgram

USED = {"used": "kwh - prev(kwh)", "days": "days_since(prev(date)) - days_since(date)"}
METER = {
    "name": "meter_readings",
    "title": "Meter readings",
    "archetype": "custom_log",
    "entities": {
        "reading": {
            "fields": {
                "date": {"type": "date", "required": True, "default": "$today", "label": "Date"},
                "kwh": {"type": "number", "required": True, "minimum": 0, "label": "Meter (kWh)"},
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
            "computed": USED,
            "inputs": {"since": {"type": "date", "label": "From"}, "until": {"type": "date", "label": "To"}},
            "where": "(since is None or date >= since) and (until is None or date <= until)",
        },
        {
            "id": "weekly",
            "kind": "aggregate",
            "path": "/weekly",
            "entity": "reading",
            "series": "week",
            "series_count": 4,
            "computed": USED,
            "metrics": {"kwh": "sum(used)", "per_day": "round(sum(used) / sum(days), 2)"},
        },
        {
            "id": "bill",
            "kind": "aggregate",
            "path": "/bill",
            "entity": "reading",
            "computed": {"used": USED["used"]},
            "inputs": {"price": {"type": "number", "minimum": 0, "default": 0.25, "label": "Price per kWh"}},
            "metrics": {"kwh": "sum(used)", "cost": "round(sum(used) * price, 2)"},
        },
    ],
    "labels": {"used": "Used (kWh)", "days": "Days", "kwh": "kWh", "per_day": "kWh a day", "cost": "Cost"},
}


def test_a_series_a_figure_between_readings_and_a_date_range_work_on_the_deployed_tool(services, runtime, tmp_path):
    # given the tool made by the pipeline from a fixed planner's program
    user = f"u{sortable_id('x')}"
    job = run(planned(services, METER), "meter readings: kWh per day between readings, week by week", user=user)
    assert job.status == "succeeded", job.error
    name = services.tools.get(user, job.tool_id).function_name

    def call(method: str, path: str, body: Any = None, **query: str) -> Any:
        event = tool_event(method, path, token=auth.mint(user, SECRET), query=query or None, body=body)
        answer = runtime.invoke(name, event).payload
        assert 200 <= answer["statusCode"] < 300, answer
        return json.loads(answer["body"])

    # when three readings go in, out of order: three weeks ago, last week and today
    today = dt.datetime.now(dt.UTC).date()
    day = {weeks: (today - dt.timedelta(weeks=weeks)).isoformat() for weeks in (0, 1, 3)}
    for weeks, kwh in ((1, 170), (3, 100), (0, 184)):
        call("POST", "/readings", {"date": day[weeks], "kwh": kwh})

    # then each week since the first reading: 70 kWh over the 14 days to last week's, 14 over the 7 to today's
    monday = today - dt.timedelta(days=today.weekday())
    starts = [monday - dt.timedelta(weeks=weeks) for weeks in (3, 2, 1, 0)]
    keys = [f"{s.isocalendar()[0]}-W{s.isocalendar()[1]:02d}" for s in starts]
    metrics = [{"kwh": 0, "per_day": None}, {"kwh": 0, "per_day": None}, {"kwh": 70, "per_day": 5.0},
               {"kwh": 14, "per_day": 2.0}]  # fmt: skip
    assert call("GET", "/weekly") == {
        "series": [
            {"key": k, "start": s.isoformat(), "metrics": m} for k, s, m in zip(keys, starts, metrics, strict=True)
        ]
    }
    # and the bill over every reading, at the default price and at one typed in
    assert call("GET", "/bill") == {"metrics": {"kwh": 84, "cost": 21.0}}
    assert call("GET", "/bill", price="0.5") == {"metrics": {"kwh": 84, "cost": 42.0}}
    # and a range of dates lists its readings, each used since the reading before, even one outside the range
    since = (today - dt.timedelta(days=10)).isoformat()
    listed = call("GET", "/readings", since=since)["items"]
    assert [(r["date"], r["used"], r["days"]) for r in listed] == [(day[0], 14, 7), (day[1], 70, 14)]
    until = (today - dt.timedelta(days=1)).isoformat()
    assert [r["kwh"] for r in call("GET", "/readings", since=since, until=until)["items"]] == [170]
    assert call("GET", "/readings", since=day[0], until=day[3])["items"] == []

    # and a client generated from its document keeps every operation, warning of nothing
    assert [(e.header, e.detail) for e in generate_client(ToolProgram.model_validate(METER), tmp_path, "meter")] == []
