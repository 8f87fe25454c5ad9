"""What the validator holds series, computed figures with prev(), and query inputs to: each refusal and its words."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from toolgen.program import AggregateOp, ListOp, ToolProgram

FIELDS = {"date": "date", "kwh": "number", "meter": "string", "note": "text", "when": "time"}


def program(op: dict[str, Any], fields: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "name": "meter",
        "title": "Meter",
        "archetype": "custom_log",
        "entities": {"reading": {"fields": fields or FIELDS}},
        "operations": [op],
    }


def aggregate(**op: Any) -> dict[str, Any]:
    return program({"id": "figures", "kind": "aggregate", "path": "/figures", "entity": "reading",
                    "metrics": {"kwh": "sum(kwh)"}, **op})  # fmt: skip


def listing(**op: Any) -> dict[str, Any]:
    return program({"id": "readings", "kind": "list", "path": "/readings", "entity": "reading", **op})


def refused(data: dict[str, Any]) -> str:
    with pytest.raises(ValidationError) as caught:
        ToolProgram.model_validate(data)
    return str(caught.value)


def test_operations_written_before_keep_their_meaning_with_the_new_fields_left_out():
    op = ToolProgram.model_validate(aggregate()).operations[0]
    assert isinstance(op, AggregateOp)
    assert (op.series, op.series_count, op.computed, op.inputs) == (None, 12, {}, {})
    listed = ToolProgram.model_validate(listing()).operations[0]
    assert isinstance(listed, ListOp) and listed.inputs == {}


# --- series ---------------------------------------------------------------------------------------------------------


def test_a_series_of_weeks_is_accepted():
    op = ToolProgram.model_validate(aggregate(series="week", series_count=60)).operations[0]
    assert (op.series, op.series_count) == ("week", 60)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"group_by": "meter"}, "a series is per period already: no group_by, no period"),
        ({"period": "month"}, "a series is per period already: no group_by, no period"),
        ({"period_field": "meter"}, "series needs a date field 'meter'"),
        ({"period_field": "nowhere"}, "series needs a date field 'nowhere'"),
        ({"series": "fortnight"}, "Input should be 'day', 'week', 'month' or 'year'"),
        ({"series_count": 0}, "greater than or equal to 1"),
        ({"series_count": 61}, "less than or equal to 60"),
    ],
)
def test_a_series_is_refused_with_a_group_a_period_or_no_date(change, said):
    assert said in refused(aggregate(**{"series": "week", **change}))


def test_a_series_needs_a_date_field_when_the_entity_has_none():
    assert "series needs a date field 'date'" in refused(
        program(aggregate(series="day")["operations"][0], {"kwh": "number"})
    )


# --- computed figures and prev --------------------------------------------------------------------------------------

METER = {"used": "kwh - prev(kwh)", "days": "days_since(prev(date)) - days_since(date)", "before": "prev(used)"}


@pytest.mark.parametrize("make", [listing, aggregate])
def test_computed_figures_may_read_the_previous_row(make):
    ToolProgram.model_validate(make(computed=METER))


def test_an_aggregates_metrics_and_where_read_its_computed_figures():
    ToolProgram.model_validate(
        aggregate(computed={"weighted": "kwh * 2"}, where="weighted > 1", metrics={"w": "sum(weighted) / sum(kwh)"})
    )


@pytest.mark.parametrize("make", [listing, aggregate])
@pytest.mark.parametrize(
    "expr",
    [
        "prev(kwh + 1)",  # a value, not a name
        "prev()",
        "prev(kwh, date)",
        "prev(rate)",  # a constant: the same on every row
        "prev(later)",  # listed after
        "prev(x)",  # itself
        "prev(nothing)",
        "prev('kwh')",
    ],
)
def test_prev_takes_the_name_of_a_field_or_of_a_figure_listed_before(make, expr):
    data = make(computed={"x": expr, "later": "kwh"}, constants={"rate": 2})
    assert "prev takes one name, of a field or of a computed figure listed before it, as in prev(reading)" in refused(
        data
    )


@pytest.mark.parametrize("make", [listing, aggregate])
def test_a_computed_figure_reads_those_before_it_and_not_those_after(make):
    # a row's figures are computed in turn: "change" reads this row's "used" and the row before's
    ToolProgram.model_validate(make(computed={"used": "kwh - prev(kwh)", "change": "used - prev(used)"}))
    said = refused(make(computed={"change": "used - prev(used)", "used": "kwh - prev(kwh)"}))
    assert "names 'used', which is not defined here" in said or "prev takes one name" in said


def test_prev_is_refused_outside_computed_figures():
    calls = "calls something other than"
    assert calls in refused(listing(where="prev(kwh) > 1"))
    assert calls in refused(aggregate(where="prev(kwh) > 1"))
    assert calls in refused(aggregate(metrics={"x": "sum(prev(kwh))"}))
    create = {"id": "add", "kind": "create", "path": "/readings", "entity": "reading", "derive": {"kwh": "prev(kwh)"}}
    assert calls in refused(program(create))
    compute = {"id": "calc", "kind": "compute", "path": "/calc", "inputs": {"a": "number"}, "outputs": {"b": "prev(a)"}}
    assert calls in refused({**program(compute), "entities": {}})


def test_an_aggregates_computed_figures_are_named_apart_from_fields_and_constants():
    assert "computed fields ['kwh'] shadow stored fields" in refused(aggregate(computed={"kwh": "kwh * 2"}))
    said = refused(aggregate(computed={"rate": "kwh * 2"}, constants={"rate": 2}))
    assert "computed fields ['rate'] shadow constants" in said


def test_at_most_ten_computed_figures():
    assert "at most 10 items" in refused(aggregate(computed={f"c{i}": "kwh" for i in range(11)}))


# --- query inputs ---------------------------------------------------------------------------------------------------

PLAYERS = {"players": {"type": "integer", "minimum": 1}}


def test_inputs_are_names_in_where_computed_and_metrics():
    ToolProgram.model_validate(listing(inputs=PLAYERS, where="players is None or kwh <= players"))
    data = aggregate(
        inputs={"current": {"type": "number", "default": 48200}, "since": "date"},
        computed={"share": "kwh / current"},
        where="since is None or date >= since",
        metrics={"left": "last(kwh) + 10 - current", "share": "sum(share)"},
    )
    op = ToolProgram.model_validate(data).operations[0]
    assert op.inputs["since"].type == "date"  # the shorthand, as fields have it


@pytest.mark.parametrize(
    ("make", "name", "said"),
    [
        (listing, "kwh", "inputs ['kwh'] are named like a field, a computed figure, a constant or a page's limit"),
        (listing, "id", "inputs ['id'] are named like a field"),
        (listing, "limit", "inputs ['limit'] are named like a field, a computed figure, a constant or a page's"),
        (listing, "next", "inputs ['next'] are named like"),
        (listing, "used", "inputs ['used'] are named like"),
        (listing, "rate", "inputs ['rate'] are named like"),
        (aggregate, "used", "inputs ['used'] are named like a field, a computed figure, a constant"),
        (aggregate, "date", "inputs ['date'] are named like"),
        (aggregate, "Bad", "input name 'Bad' must match"),
    ],
)
def test_an_input_is_named_apart_from_every_other_name_it_meets(make, name, said):
    data = make(inputs={name: {"type": "number"}}, computed={"used": "kwh * 2"}, constants={"rate": 2})
    assert said in refused(data)


def test_a_figures_input_may_be_called_limit():
    ToolProgram.model_validate(aggregate(inputs={"limit": {"type": "number"}}, metrics={"over": "sum(kwh) - limit"}))


def test_an_input_is_optional_or_has_a_default():
    said = refused(listing(inputs={"players": {"type": "integer", "required": True}}))
    assert "input 'players' is an optional query parameter: give it a default" in said
    ToolProgram.model_validate(listing(inputs={"players": {"type": "integer", "required": True, "default": 2}}))
    assert "outside the field's minimum" in refused(listing(inputs={"players": {"type": "integer", "minimum": 3,
                                                                                "default": 2}}))  # fmt: skip


def test_a_text_input_is_never_formatted_and_an_unknown_name_is_refused():
    assert "formats text with '%'" in refused(listing(inputs={"who": "string"}, where="who % 2 == 0"))
    assert "names 'players'" in refused(aggregate(metrics={"x": "sum(kwh) - players"}))


def test_at_most_ten_inputs():
    assert "at most 10 items" in refused(listing(inputs={f"i{i}": "number" for i in range(11)}))


def test_a_function_called_by_the_name_of_an_earlier_figure_is_the_function():
    # as the composer writes a list of dates: days_since is a figure and, in the next one, the function
    computed = {"days_since": "days_since(date)", "years_since": "round(days_since(date) / 365, 1)"}
    ToolProgram.model_validate(listing(computed=computed))
