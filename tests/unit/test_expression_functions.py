"""The functions issue 31 added to the expression language: absent values, the calendar, and math within bounds.

Each is checked where a planner would use it (a compute's outputs, a row's figures, an aggregate's metrics), with
the rule for what cannot be computed (null) and for what is out of range (the caller's 422 when their inputs made
it, null elsewhere).
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from hypothesis import given as for_all
from hypothesis import settings
from hypothesis import strategies as st

from tests.fakes import FakeTable
from tests.helpers import tool_event
from toolgen import auth
from toolgen.program import ToolProgram
from toolgen.runtime import ToolApp
from toolgen.runtime.errors import Invalid
from toolgen.runtime.expressions import aggregate, compute, row_values

TODAY = dt.date(2026, 12, 2)  # a Wednesday


def out(expr: str, inputs: dict | None = None, *, constants: dict | None = None, declared=(), **kw):
    return compute({"r": expr}, inputs or {}, constants or {}, today=TODAY, declared=declared, **kw)["r"]


# --- absent is visible ------------------------------------------------------------------------------------------


def test_an_input_not_given_is_bound_as_null_so_an_output_can_speak_of_it():
    declared = ["x", "y"]
    assert out("x if x is not None else 0", {"y": 2}, declared=declared) == 0
    assert out("given(x)", {"y": 2}, declared=declared) is False
    assert out("given(y)", {"y": 2}, declared=declared) is True
    assert out("coalesce(x, y, 7)", {"y": 2}, declared=declared) == 2
    assert out("coalesce(x, 7)", {}, declared=declared) == 7
    assert out("coalesce(x, y)", {}, declared=declared) is None


def test_arithmetic_with_an_absent_input_is_null_never_zero():
    assert out("x + 1", {}, declared=["x"]) is None
    assert out("x * 0", {}, declared=["x"]) is None
    assert out("round(x, 2)", {}, declared=["x"]) is None


def test_a_constant_of_an_absent_inputs_name_still_stands_in_for_it():
    # before, an absent input left its constant visible; binding declared names must not hide it
    assert out("rate * 2", {}, constants={"rate": 3}, declared=["rate"]) == 6
    assert out("rate * 2", {"rate": 5}, constants={"rate": 3}, declared=["rate"]) == 10


@pytest.mark.parametrize("name", ["month", "today", "date", "round", "sum"])
def test_a_name_without_a_value_is_never_read_as_the_function_of_that_name(name):
    # simpleeval falls back to a function of the name: an undeclared absent 'month' would be the month function,
    # which no answer can carry
    got = compute({"r": name}, {}, {}, today=TODAY)
    assert got == {"r": None}
    json.dumps(got)


def test_a_field_a_row_lacks_is_bound_as_null():
    row = {"amount": 3}
    got = row_values(
        {"a": "coalesce(note, '-')", "b": "given(note)", "c": "amount"}, row, {}, fields=["note", "amount"]
    )
    assert got == {"a": "-", "b": False, "c": 3}


def program(operations: list[dict], fields: dict | None = None) -> ToolProgram:
    entities = {"item": {"fields": fields}} if fields else {}
    return ToolProgram.model_validate(
        {"name": "t", "title": "T", "archetype": "calculator", "entities": entities, "operations": operations}
    )


def call(app: ToolApp, method: str, path: str, **kw):
    response = app.handle(tool_event(method, path, token=auth.mint("alice", "s"), **kw))
    return response["statusCode"], json.loads(response["body"])


def test_a_compute_operation_binds_every_declared_input():
    # given an optional input the caller leaves out
    op = {
        "id": "price",
        "kind": "compute",
        "path": "/price",
        "inputs": {"amount": "number", "discount": "number"},
        "outputs": {"total": "amount - coalesce(discount, 0)", "discounted": "given(discount)"},
    }
    app = ToolApp(program([op]), tool_id="t" + "0" * 20, owner="alice", table=FakeTable(), secret="s")
    # when it is computed without it, then the output is computed rather than silently null
    assert call(app, "POST", "/price", body={"amount": 10}) == (200, {"total": 10, "discounted": False})
    assert call(app, "POST", "/price", body={"amount": 10, "discount": 2.5}) == (
        200,
        {"total": 7.5, "discounted": True},
    )


def test_a_lists_where_and_computed_fields_see_a_field_the_row_lacks_as_null():
    fields = {"name": "string", "status": "string"}
    ops = [
        {"id": "add", "kind": "create", "entity": "item", "path": "/items"},
        {"id": "open", "kind": "list", "entity": "item", "path": "/items", "where": "status != 'done'",
         "computed": {"shown": "coalesce(status, 'new')"}},
    ]  # fmt: skip
    app = ToolApp(program(ops, fields), tool_id="t" + "0" * 20, owner="alice", table=FakeTable(), secret="s")
    call(app, "POST", "/items", body={"name": "a"})
    call(app, "POST", "/items", body={"name": "b", "status": "done"})
    status, listed = call(app, "GET", "/items")
    assert status == 200 and [(r["name"], r["shown"]) for r in listed["items"]] == [("a", "new")]


# --- the calendar -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("add_months('2026-01-31', 1)", "2026-02-28"),
        ("add_months('2028-01-31', 1)", "2028-02-29"),
        ("add_months('2026-03-31', -1)", "2026-02-28"),
        ("add_months('2026-12-15', 1)", "2027-01-15"),
        ("add_months('2026-05-10', -17)", "2024-12-10"),
        ("add_months('12-25', 0)", "2026-12-25"),  # MM-DD: its next occurrence
        ("days_between('2026-12-02', '2026-12-25')", 23),
        ("days_between('2026-12-25', '2026-12-02')", -23),
        ("months_between('2026-01-31', '2026-02-28')", 1),
        ("months_between('2026-01-15', '2026-03-14')", 1),
        ("months_between('2026-01-15', '2026-03-15')", 2),
        ("months_between('2026-03-15', '2026-01-16')", -1),
        ("weekday('2026-12-02')", 3),
        ("weekday('2026-12-06')", 7),
        ("day_of_month('2026-12-02')", 2),
        ("month('2026-12-02')", 12),
        ("year('2026-12-02')", 2026),
        ("date(2026, 2, 31)", "2026-02-28"),
        ("date(2026.0, 7, 4)", "2026-07-04"),
        ("next_monthly(1)", "2027-01-01"),
        ("next_monthly(2)", "2026-12-02"),  # today included
        ("next_monthly(31)", "2026-12-31"),
        ("next_weekly(3)", "2026-12-02"),
        ("next_weekly(2)", "2026-12-08"),
        ("next_every('2026-11-17', 14)", "2026-12-15"),  # every other Tuesday
        ("next_every('2026-11-18', 14)", "2026-12-02"),
        ("next_every('2027-03-01', 7)", "2027-03-01"),  # not started yet: its first date
        ("add_days(today(), 30)", "2027-01-01"),
        ("days_until('2026-12-25')", 23),
    ],
)
def test_calendar_functions(expr, expected):
    assert out(expr) == expected
    assert row_values({"r": expr}, {}, {}, today=TODAY)["r"] == expected


def test_next_monthly_clamps_to_a_shorter_month():
    assert compute({"r": "next_monthly(31)"}, {}, {}, today=dt.date(2027, 2, 1))["r"] == "2027-02-28"
    assert compute({"r": "next_monthly(30)"}, {}, {}, today=dt.date(2027, 1, 31))["r"] == "2027-02-28"


@pytest.mark.parametrize(
    "expr",
    ["add_months('soon', 1)", "add_months(None, 1)", "add_months('2026-01-01', 1.5)", "add_months('2026-01-01', 'x')",
     "weekday(True)", "month('2026-13-01')", "date(2026, 13, 1)", "date(2026, 1, 0)", "date(0, 1, 1)",
     "date(10000, 1, 1)", "date(True, 1, 1)", "next_monthly(0)", "next_monthly(32)", "next_weekly(8)",
     "next_every('2026-11-17', 0)", "next_every('2026-11-17', -7)", "days_between('2026-12-02', None)"],
)  # fmt: skip
def test_what_cannot_be_read_is_null(expr):
    assert out(expr, strict=True) is None


@pytest.mark.parametrize(
    "expr",
    ["add_months('2026-01-01', 12001)", "add_months('9999-12-01', 1)", "add_months('0001-01-01', -1)",
     "next_every('2026-01-01', 100001)", "add_days('9999-12-31', 1)", "add_days('2026-01-01', 10 ** 12)"],
)  # fmt: skip
def test_counts_past_the_calendar_are_out_of_range_never_an_overflow(expr):
    assert out(expr) is None
    with pytest.raises(Invalid):
        out(expr, strict=True)


def test_add_days_keeps_taking_any_count_that_stays_in_the_calendar():
    assert out("add_days('2026-01-01', 200000)") == (dt.date(2026, 1, 1) + dt.timedelta(days=200_000)).isoformat()


dates = st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2200, 12, 31))


@settings(max_examples=300, deadline=None)
@for_all(dates, st.integers(min_value=-2400, max_value=2400))
def test_months_between_undoes_add_months(start, months):
    later = out("add_months(d, n)", {"d": start.isoformat(), "n": months})
    assert out("months_between(d, e)", {"d": start.isoformat(), "e": later}) == months


@settings(max_examples=300, deadline=None)
@for_all(dates, st.integers(min_value=1, max_value=400), dates)
def test_next_every_is_the_first_date_of_the_series_from_today(start, days, today):
    got = dt.date.fromisoformat(compute({"r": "next_every(s, n)"}, {"s": start.isoformat(), "n": days}, {},
                                        today=today)["r"])  # fmt: skip
    assert (got - start).days % days == 0 and got >= start
    assert got >= today and (got == start or (got - today).days < days)


@settings(max_examples=200, deadline=None)
@for_all(dates, st.integers(min_value=1, max_value=31), st.integers(min_value=1, max_value=7))
def test_next_monthly_and_weekly_are_the_nearest_dates_from_today(today, day, weekday):
    monthly = dt.date.fromisoformat(compute({"r": "next_monthly(d)"}, {"d": day}, {}, today=today)["r"])
    assert 0 <= (monthly - today).days <= 31 and monthly.day <= day
    weekly = dt.date.fromisoformat(compute({"r": "next_weekly(w)"}, {"w": weekday}, {}, today=today)["r"])
    assert 0 <= (weekly - today).days < 7 and weekly.isoweekday() == weekday


# --- math within bounds -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("round(log(100, 10), 9)", 2.0), ("log10(1000)", 3.0), ("round(log(exp(2)), 9)", 2.0), ("sqrt(16)", 4.0),
     ("pow(2, 10)", 1024), ("pow(2, -1)", 0.5), ("pow(x, 2) == x ** 2", True)],
)  # fmt: skip
def test_math_functions(expr, expected):
    assert out(expr, {"x": 7}) == expected


@pytest.mark.parametrize("expr", ["log(0)", "log(-1)", "log(10, 1)", "log(10, -2)", "log10(0)", "sqrt(-4)",
                                  "log('a')", "sqrt(None)", "log(x, None)"])  # fmt: skip
def test_a_domain_error_is_a_figure_that_cannot_be_computed_even_for_a_callers_inputs(expr):
    assert out(expr, {"x": 3}, strict=True) is None


@pytest.mark.parametrize("expr", ["exp(1000)", "pow(10, 400.0)", "pow(2, 2000)", "sqrt(2 ** 1024 - 1) * 1e300"])
def test_exp_and_pow_past_the_float_range_are_out_of_range(expr):
    assert out(expr) is None
    with pytest.raises(Invalid):
        out(expr, strict=True)


def test_math_in_rows_and_metrics():
    assert row_values({"r": "round(sqrt(area), 2)"}, {"area": 2}, {})["r"] == 1.41
    assert row_values({"r": "log(area)"}, {"area": 0}, {})["r"] is None  # a row's figure: null, the list answers
    rows = [{"x": 1}, {"x": 10}, {"x": 100}]
    got = aggregate({"g": "round(exp(log(sum(x)) / 3), 6)", "s": "sqrt(-sum(x))", "p": "pow(sum(x), 2)"}, rows, ["x"])
    assert got == {"g": round(111 ** (1 / 3), 6), "s": None, "p": 111**2}
