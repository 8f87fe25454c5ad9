"""Series by period, per-row figures that read the previous row, and query inputs, run against the in-memory table.

Each figure below is worked out by hand from the rows the test writes.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from tests.fakes import FakeTable
from tests.helpers import tool_event
from toolgen import auth
from toolgen.program import ToolProgram
from toolgen.runtime import ToolApp, operations, periods, view
from toolgen.runtime.expressions import row_values

SECRET = "tool-secret"
TODAY = dt.date(2026, 12, 10)  # a Thursday, in ISO week 2026-W50 (Monday 2026-12-07)


def program(operations_: list[dict[str, Any]], fields: dict[str, Any] | None = None) -> ToolProgram:
    return ToolProgram.model_validate(
        {
            "name": "meter",
            "title": "Meter",
            "archetype": "custom_log",
            "entities": {"reading": {"fields": fields or {"date": "date", "kwh": "number", "meter": "string"}}},
            "operations": [{"id": "add", "kind": "create", "path": "/readings", "entity": "reading"}, *operations_],
        }
    )


class Tool:
    """One tool served by its runtime over the in-memory table, on a fixed day."""

    def __init__(self, prog: ToolProgram, today: dt.date = TODAY, *, as_deployed: bool = False) -> None:
        served: Any = view._view(json.loads(prog.model_dump_json()), "program") if as_deployed else prog
        self.table = FakeTable()
        self.app = ToolApp(
            served, tool_id="t" + "0" * 20, owner="al", table=self.table, secret=SECRET, clock=lambda: today
        )

    def call(self, method: str, path: str, body: Any = None, **query: str) -> tuple[int, Any]:
        event = tool_event(method, path, token=auth.mint("al", SECRET), query=query or None, body=body)
        answer = self.app.handle(event)
        return answer["statusCode"], json.loads(answer["body"] or "null")

    def add(self, *rows: dict[str, Any]) -> None:
        for row in rows:
            assert self.call("POST", "/readings", row)[0] == 201

    def get(self, path: str, **query: str) -> Any:
        status, body = self.call("GET", path, **query)
        assert status == 200, body
        return body


def aggregate(**op: Any) -> dict[str, Any]:
    return {"id": "figures", "kind": "aggregate", "path": "/figures", "entity": "reading", **op}


def listing(**op: Any) -> dict[str, Any]:
    return {"id": "readings", "kind": "list", "path": "/readings", "entity": "reading", **op}


# --- series by period ---------------------------------------------------------------------------------------------


def test_a_weekly_series_has_every_iso_week_from_the_first_with_rows_to_this_one():
    # given readings in weeks 47 and 50, none in 48 or 49, one before the window and one dated after this week
    tool = Tool(program([aggregate(series="week", series_count=5, metrics={"kwh": "sum(kwh)", "mean": "avg(kwh)"})]))
    tool.add(
        {"date": "2026-10-01", "kwh": 99},  # week 40: before the 5-week window
        {"date": "2026-11-17", "kwh": 4},  # Tuesday of week 47
        {"date": "2026-11-22", "kwh": 2},  # Sunday of week 47
        {"date": "2026-12-07", "kwh": 5},  # Monday of week 50
        {"date": "2026-12-14", "kwh": 50},  # next week: not yet
        {"kwh": 7},  # no date: in no period
    )
    # then the window (weeks 46 to 50) starts at week 47, and the empty weeks sum to 0 with no average
    assert tool.get("/figures") == {
        "series": [
            {"key": "2026-W47", "start": "2026-11-16", "metrics": {"kwh": 6, "mean": 3.0}},
            {"key": "2026-W48", "start": "2026-11-23", "metrics": {"kwh": 0, "mean": None}},
            {"key": "2026-W49", "start": "2026-11-30", "metrics": {"kwh": 0, "mean": None}},
            {"key": "2026-W50", "start": "2026-12-07", "metrics": {"kwh": 5, "mean": 5.0}},
        ]
    }


@pytest.mark.parametrize(
    ("series", "count", "keys"),
    [
        ("day", 3, [("2026-12-08", "2026-12-08"), ("2026-12-09", "2026-12-09"), ("2026-12-10", "2026-12-10")]),
        ("month", 13, [("2025-12", "2025-12-01"), *[(f"2026-{m:02d}", f"2026-{m:02d}-01") for m in range(1, 13)]]),
        ("year", 3, [("2024", "2024-01-01"), ("2025", "2025-01-01"), ("2026", "2026-01-01")]),
    ],
)
def test_series_of_days_months_and_years_are_named_by_their_calendar(series, count, keys):
    tool = Tool(program([aggregate(series=series, series_count=count, metrics={"n": "count()"})]))
    tool.add(*({"date": day, "kwh": 1} for day in ("2020-05-05", "2024-06-01", "2025-12-31", "2026-12-08")))
    got = tool.get("/figures")["series"]
    assert [(p["key"], p["start"]) for p in got] == keys
    assert sum(p["metrics"]["n"] for p in got) == {"day": 1, "month": 2, "year": 3}[series]


def test_iso_weeks_take_the_year_of_their_thursday():
    # given the Monday of 2027-W01 (2027-01-04), after the 53 weeks of 2026
    tool = Tool(program([aggregate(series="week", series_count=2, metrics={"n": "count()"})]), dt.date(2027, 1, 4))
    tool.add({"date": "2027-01-01", "kwh": 1})  # a Friday in 2026-W53
    assert tool.get("/figures")["series"] == [
        {"key": "2026-W53", "start": "2026-12-28", "metrics": {"n": 1}},
        {"key": "2027-W01", "start": "2027-01-04", "metrics": {"n": 0}},
    ]


def test_a_series_with_no_rows_in_its_window_is_empty():
    tool = Tool(program([aggregate(series="month", series_count=2, metrics={"kwh": "sum(kwh)"})]))
    tool.add({"date": "2026-01-05", "kwh": 3})
    assert tool.get("/figures") == {"series": []}


def test_a_series_keeps_the_filters_and_the_where_and_says_when_it_is_over_the_newest_rows(monkeypatch):
    op = aggregate(series="day", series_count=2, filters=["meter"], where="kwh > 1", metrics={"kwh": "sum(kwh)"})
    tool = Tool(program([op]))
    tool.add(
        {"date": "2026-12-09", "kwh": 5, "meter": "a"},
        {"date": "2026-12-09", "kwh": 1, "meter": "a"},  # left out by the where
        {"date": "2026-12-10", "kwh": 8, "meter": "b"},  # left out by the filter
    )
    assert [p["metrics"]["kwh"] for p in tool.get("/figures", meter="a")["series"]] == [5, 0]
    monkeypatch.setattr(operations, "FIGURE_ROWS", 2)  # figures over the newest two rows only
    tool.add({"date": "2026-12-10", "kwh": 2, "meter": "a"})
    assert tool.get("/figures", meter="a") == {
        "series": [{"key": "2026-12-10", "start": "2026-12-10", "metrics": {"kwh": 2}}],
        "newest": 2,
    }


def test_periods_start_on_mondays_and_first_days():
    day = dt.date(2026, 12, 6)  # a Sunday
    assert [periods.start_of(day, p) for p in ("day", "week", "month", "year")] == [
        day,
        dt.date(2026, 11, 30),
        dt.date(2026, 12, 1),
        dt.date(2026, 1, 1),
    ]
    assert [periods.key(periods.start_of(day, p), p) for p in ("day", "week", "month", "year")] == [
        "2026-12-06",
        "2026-W49",
        "2026-12",
        "2026",
    ]


# --- per-row figures in aggregates, and the previous row -----------------------------------------------------------


def test_an_aggregates_metrics_read_its_computed_figures_as_columns():
    # given a grade point average: credits times points, summed, over the credits
    fields = {"course": "string", "credits": "number", "points": "number"}
    op = aggregate(computed={"weighted": "credits * points"}, metrics={"gpa": "round(sum(weighted) / sum(credits), 2)"})
    tool = Tool(program([op], fields))
    tool.add({"course": "maths", "credits": 5, "points": 4}, {"course": "art", "credits": 2, "points": 3})
    assert tool.get("/figures") == {"metrics": {"gpa": round(26 / 7, 2)}}


METER = {"used": "kwh - prev(kwh)", "days": "days_since(prev(date)) - days_since(date)", "used_before": "prev(used)"}


def meter_op(**op: Any) -> dict[str, Any]:
    return aggregate(computed=METER, **op)


def test_prev_reads_the_row_before_by_date_then_by_creation_whatever_order_rows_came_in():
    # given meter readings written out of order, two of them on one day
    op = meter_op(metrics={"kwh": "sum(used)", "days": "sum(days)", "per_day": "sum(used) / sum(days)"})
    tool = Tool(program([op]))
    tool.add(
        {"date": "2026-12-01", "kwh": 130},
        {"date": "2026-11-01", "kwh": 100},
        {"date": "2026-12-10", "kwh": 148},
        {"date": "2026-12-10", "kwh": 150},  # same day, made later: after 148
    )
    # then the first reading has nothing before it, and the rest read the one before
    assert tool.get("/figures") == {"metrics": {"kwh": 50, "days": 39, "per_day": 50 / 39}}


def test_prev_is_read_before_rows_are_left_out_and_may_name_an_earlier_figure():
    # given readings over two months, figured for the current month only
    op = meter_op(
        period="month", metrics={"kwh": "sum(used)", "first_used": "first(used)", "before": "first(used_before)"}
    )
    tool = Tool(program([op]))
    tool.add({"date": "2026-11-01", "kwh": 100}, {"date": "2026-11-20", "kwh": 110}, {"date": "2026-12-05", "kwh": 125})
    # then December's one reading reads November's last: 15 kWh, and before it 10
    assert tool.get("/figures") == {"metrics": {"kwh": 15, "first_used": 15, "before": 10}}


def test_prev_orders_by_the_period_field_when_the_entity_has_no_date_field():
    fields = {"read_on": "date", "kwh": "number"}
    op = aggregate(period_field="read_on", series="month", series_count=1, computed={"used": "kwh - prev(kwh)"},
                   metrics={"kwh": "sum(used)"})  # fmt: skip
    tool = Tool(program([op], fields))
    tool.add({"read_on": "2026-12-09", "kwh": 20}, {"read_on": "2026-12-01", "kwh": 5})
    assert tool.get("/figures")["series"][0]["metrics"] == {"kwh": 15}


def test_a_list_reads_prev_in_the_entitys_order_across_pages_and_its_own_sort(monkeypatch):
    # given readings made out of date order, listed newest first two at a time
    tool = Tool(program([listing(sort="-kwh", limit=2, computed=METER)]))
    tool.add(
        {"date": "2026-12-05", "kwh": 125},
        {"date": "2026-11-01", "kwh": 100},
        {"date": "2026-11-20", "kwh": 110},
    )
    first = tool.get("/readings", limit="2")
    second = tool.get("/readings", next=first["next"])
    rows = {r["date"]: (r["used"], r["days"], r["used_before"]) for r in first["items"] + second["items"]}
    assert rows == {"2026-11-01": (None, None, None), "2026-11-20": (10, 19, None), "2026-12-05": (15, 15, 10)}
    # and a row older than the figures' window has no previous row to read
    monkeypatch.setattr(operations, "FIGURE_ROWS", 2)  # the window: the newest two made, 11-01 and 11-20
    first = tool.get("/readings", limit="2")
    second = tool.get("/readings", next=first["next"])
    rows = {r["date"]: r["used"] for r in first["items"] + second["items"]}
    assert rows == {"2026-11-01": None, "2026-11-20": 10, "2026-12-05": None}


def test_a_list_without_prev_reads_only_its_page():
    tool = Tool(program([listing(computed={"double": "kwh * 2"})]))
    tool.table.query_page = _counting(tool.table.query_page)  # type: ignore[method-assign]
    tool.add({"date": "2026-12-01", "kwh": 1})
    assert tool.get("/readings")["items"][0]["double"] == 2
    assert tool.table.query_page.calls == 1  # type: ignore[attr-defined]


def _counting(method: Any) -> Any:
    def call(*args: Any, **kwargs: Any) -> Any:
        call.calls += 1  # type: ignore[attr-defined]
        return method(*args, **kwargs)

    call.calls = 0  # type: ignore[attr-defined]
    return call


def test_prev_with_no_previous_row_is_none():
    assert row_values({"used": "kwh - prev(kwh)", "p": "prev(kwh)"}, {"kwh": 3}, {}) == {"used": None, "p": None}
    assert row_values({"used": "kwh - prev(kwh)"}, {"kwh": 3}, {}, previous={"kwh": 1}) == {"used": 2}


# --- query inputs ---------------------------------------------------------------------------------------------------

GAMES = {"title": "string", "min_players": "integer", "max_players": "integer"}
FOR_PLAYERS = {"players": {"type": "integer", "minimum": 1, "label": "Players"}}


def games_tool() -> Tool:
    where = "players is None or (min_players <= players and players <= max_players)"
    tool = Tool(program([listing(sort="title", inputs=FOR_PLAYERS, where=where)], GAMES))
    tool.add(
        {"title": "chess", "min_players": 2, "max_players": 2},
        {"title": "catan", "min_players": 3, "max_players": 6},
        {"title": "solitaire", "min_players": 1, "max_players": 1},
    )
    return tool


def test_a_list_filters_on_a_range_with_a_number_typed_in():
    tool = games_tool()
    assert [r["title"] for r in tool.get("/readings", players="5")["items"]] == ["catan"]
    assert [r["title"] for r in tool.get("/readings", players="2")["items"]] == ["chess"]
    assert [r["title"] for r in tool.get("/readings")["items"]] == ["catan", "chess", "solitaire"]  # not given: None


def test_an_input_is_checked_as_its_type_says_and_other_parameters_are_still_refused():
    tool = games_tool()
    status, body = tool.call("GET", "/readings", players="many")
    assert status == 422 and body["details"] == {"players": "not a number"}
    assert tool.call("GET", "/readings", players="0")[1]["details"] == {"players": "too small"}
    assert tool.call("GET", "/readings", people="2")[1]["details"] == {"people": "unknown parameter"}


def test_figures_read_an_input_with_a_default_and_are_kept_per_value():
    # given "my current mileage is 48,200": the next service is due at the last one plus the interval
    fields = {"date": "date", "odometer": "integer"}
    inputs = {"current_mileage": {"type": "integer", "minimum": 0, "default": 48200}}
    metric = "last(odometer) + interval - current_mileage"
    op = aggregate(inputs=inputs, constants={"interval": 10000}, metrics={"km_left": metric})
    tool = Tool(program([op], fields))
    tool.add({"date": "2026-06-01", "odometer": 40000}, {"date": "2026-01-01", "odometer": 30000})
    assert tool.get("/figures") == {"metrics": {"km_left": 1800}}
    # then another value is another question, not the kept answer, and the first is kept as it was
    assert tool.get("/figures", current_mileage="49000") == {"metrics": {"km_left": 1000}}
    assert tool.get("/figures", current_mileage="48200") == {"metrics": {"km_left": 1800}}


def test_inputs_reach_an_aggregates_where_and_computed_figures():
    op = aggregate(
        inputs={"since": {"type": "date"}, "price": {"type": "number", "default": 0.5}},
        computed={"cost": "kwh * price"},
        where="since is None or date >= since",
        metrics={"cost": "sum(cost)"},
    )
    tool = Tool(program([op]))
    tool.add({"date": "2026-12-01", "kwh": 10}, {"date": "2026-12-09", "kwh": 4})
    assert tool.get("/figures")["metrics"] == {"cost": 7.0}
    assert tool.get("/figures", since="2026-12-05", price="2")["metrics"] == {"cost": 8.0}


# --- programs deployed before ---------------------------------------------------------------------------------------


def test_a_program_deployed_before_these_fields_existed_serves_as_it_did():
    # given a deployed program.json written before lists and figures had inputs, series or computed figures
    prog = program([listing(computed={"double": "kwh * 2"}), aggregate(metrics={"kwh": "sum(kwh)"}, period="month")])
    data = json.loads(prog.model_dump_json())
    for op in data["operations"]:
        for new in ("inputs", "series", "series_count") + (("computed",) if op["kind"] == "aggregate" else ()):
            op.pop(new, None)
    tool = Tool(prog)
    tool.app = ToolApp(view._view(data, "program"), tool_id="t" + "0" * 20, owner="al", table=tool.table,  # type: ignore[arg-type]
                       secret=SECRET, clock=lambda: TODAY)  # fmt: skip
    tool.add({"date": "2026-12-01", "kwh": 3}, {"date": "2026-11-01", "kwh": 4})
    assert tool.get("/figures") == {"metrics": {"kwh": 3}}
    assert sorted(r["double"] for r in tool.get("/readings")["items"]) == [6, 8]
    assert tool.call("GET", "/figures", since="x")[1]["details"] == {"since": "unknown parameter"}


def test_the_new_constructs_serve_alike_from_a_deployed_view():
    op = meter_op(series="month", series_count=2, metrics={"kwh": "sum(used)"}, inputs={"x": {"type": "number"}})
    prog = program([op])
    answers = []
    for as_deployed in (False, True):
        tool = Tool(prog, as_deployed=as_deployed)
        tool.add({"date": "2026-11-01", "kwh": 100}, {"date": "2026-12-05", "kwh": 125})
        answers.append(tool.get("/figures", x="1"))
    assert (
        answers[0]
        == answers[1]
        == {
            "series": [
                {"key": "2026-11", "start": "2026-11-01", "metrics": {"kwh": 0}},
                {"key": "2026-12", "start": "2026-12-01", "metrics": {"kwh": 25}},
            ]
        }
    )


def test_a_lists_rows_before_are_read_once_a_write_not_once_a_call():
    tool = Tool(program([listing(computed=METER)]))
    tool.add({"date": "2026-11-01", "kwh": 100}, {"date": "2026-11-20", "kwh": 110})
    tool.table.query_page = _counting(tool.table.query_page)  # type: ignore[method-assign]
    first = tool.get("/readings")
    calls = tool.table.query_page.calls  # type: ignore[attr-defined]
    again = tool.get("/readings")
    # asked again with nothing written: the page only (the window's previous values are kept)
    assert again == first and tool.table.query_page.calls - calls == 1  # type: ignore[attr-defined]
    tool.add({"date": "2026-12-05", "kwh": 125})
    assert {r["date"]: r["used"] for r in tool.get("/readings")["items"]}["2026-12-05"] == 15


# --- the paging token's contract -------------------------------------------------------------------------------


def test_next_is_taken_as_its_document_says():
    """The document says what ``next`` is (a token a list gave, or nothing) and the tool takes it so: every token
    it gives matches the document's pattern; empty, "null" or left out is the first page; a string the pattern
    takes that is no token of this list is a 422, as is one the pattern refuses (it was read past before, since
    base64 decoding skips characters outside its alphabet)."""
    import re

    from toolgen.spec.openapi import build_spec

    prog = program([listing(limit=2)])
    tool = Tool(prog)
    tool.add(*({"date": f"2026-12-0{d}", "kwh": d} for d in range(1, 6)))
    spec = build_spec(prog, "https://tool.example")
    (param,) = [p for p in spec["paths"]["/readings"]["get"]["parameters"] if p["name"] == "next"]
    pattern = re.compile(param["schema"]["pattern"])
    assert "422" in spec["paths"]["/readings"]["get"]["responses"]
    first = tool.get("/readings")
    assert first["next"] and pattern.match(first["next"])
    for nothing in ("", "null"):
        assert pattern.match(nothing) and tool.get("/readings", next=nothing) == first
    seen, token = [], None
    while True:
        page = tool.get("/readings", **({"next": token} if token else {}))
        seen += [r["kwh"] for r in page["items"]]
        token = page["next"]
        if token is None:
            break
        assert pattern.match(token) and len(token) <= param["schema"]["maxLength"]
    assert sorted(seen) == [1, 2, 3, 4, 5]
    for forged in ("abc", "x" * 40, first["next"] + "!", "!" + first["next"]):
        status, body = tool.call("GET", "/readings", next=forged)
        assert status == 422 and body["details"] == {"next": "not a page token"}, (forged, body)
    assert not pattern.match(first["next"] + "!")
