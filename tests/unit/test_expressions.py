import datetime as dt

import pytest

from toolgen.runtime.expressions import MAX_ROWS, aggregate, compute, row_values, streak

TODAY = dt.date(2026, 12, 2)


def rows(*pairs):
    return [{"date": d, "distance": k, "minutes": m} for d, k, m in pairs]


def test_aggregate_metrics_over_rows():
    data = rows(("2026-12-01", 5.0, 30), ("2026-12-02", 3.0, 18))
    metrics = {
        "n": "count()",
        "total": "sum(distance)",
        "pace": "round(sum(minutes) / sum(distance), 2)",
        "longest": "max(distance)",
        "shortest": "min(distance)",
        "mean": "avg(distance)",
        "last": "last(date)",
    }
    got = aggregate(metrics, data, ["date", "distance", "minutes"], today=TODAY)
    assert got == {
        "n": 2,
        "total": 8.0,
        "pace": 6.0,
        "longest": 5.0,
        "shortest": 3.0,
        "mean": 4.0,
        "last": "2026-12-02",
    }


def test_metrics_without_rows_are_none_or_zero_not_errors():
    got = aggregate(
        {
            "n": "count()",
            "total": "sum(distance)",
            "pace": "sum(minutes) / sum(distance)",
            "longest": "max(distance)",
            "mean": "avg(distance)",
        },
        [],
        ["distance", "minutes"],
    )
    assert got == {"n": 0, "total": 0, "pace": None, "longest": None, "mean": None}


def test_missing_values_are_skipped():
    got = aggregate(
        {"total": "sum(minutes)", "n": "count(minutes)"},
        rows(("2026-12-01", 5, None), ("2026-12-02", 3, 20)),
        ["distance", "minutes"],
    )
    assert got == {"total": 20, "n": 1}


@pytest.mark.parametrize(
    ("dates", "expected"),
    [
        (["2026-12-02", "2026-12-01", "2026-11-30"], 3),
        (["2026-12-01", "2026-11-30"], 2),  # today not yet done: the streak still counts up to yesterday
        (["2026-11-30", "2026-11-29"], 0),  # broken yesterday
        (["2026-12-02", "2026-12-02", "2026-11-30"], 1),  # duplicates count once; a gap ends it
        ([], 0),
        (["not a date", "2026-12-02"], 1),
    ],
)
def test_streak_counts_consecutive_days_up_to_today(dates, expected):
    assert streak(dates, TODAY) == expected


def test_compute_converts_units_exactly():
    scale = {"km": 1000.0, "mi": 1609.344, "c": 1.0, "f": 5 / 9, "k": 1.0}
    offset = {"km": 0.0, "mi": 0.0, "c": 273.15, "f": 273.15 - 32 * 5 / 9, "k": 0.0}
    expr = "round((value * scale[from_unit] + offset[from_unit] - offset[to_unit]) / scale[to_unit], 6)"

    def convert(value: float, src: str, dst: str) -> float:
        return compute(
            {"r": expr}, {"value": value, "from_unit": src, "to_unit": dst}, {"scale": scale, "offset": offset}
        )["r"]

    assert convert(10, "km", "mi") == pytest.approx(6.213712)
    assert convert(100, "c", "f") == pytest.approx(212)
    assert convert(-40, "f", "c") == pytest.approx(-40)
    assert convert(0, "k", "c") == pytest.approx(-273.15)


def test_runaway_expressions_are_refused_by_the_evaluator_not_run():
    # simpleeval's own limits: without them these would take minutes and gigabytes (pytest-timeout would fail them)
    assert compute({"r": "9 ** 9 ** 9"}, {}, {}) == {"r": None}
    assert compute({"r": "'a' * 999999999999"}, {}, {}) == {"r": None}


def test_aggregate_reads_at_most_max_rows():
    many = [{"distance": 1} for _ in range(MAX_ROWS + 5)]
    assert aggregate({"n": "count()"}, many, ["distance"]) == {"n": MAX_ROWS}


@pytest.mark.parametrize("expr", ["0J", "1 + 2j", "b'x'"])
def test_constants_json_cannot_carry_are_refused(expr):
    from toolgen.program import check_expression

    with pytest.raises(ValueError, match="constant"):
        check_expression(expr, set(), frozenset())


@pytest.mark.parametrize(
    ("until", "expected"),
    [
        ("2026-12-04", 2),  # Thursday and Friday
        ("2026-12-06", 2),  # the weekend adds none
        ("2026-12-07", 3),
        ("2026-12-25", 17),
        ("2027-12-02", 261),  # a year of weekdays after a Wednesday
        ("2026-12-02", 0),
        ("2026-11-01", 0),  # gone: none left
    ],
)
def test_working_days_until_a_date_skip_weekends(until, expected):
    today = dt.date(2026, 12, 2)  # a Wednesday
    brute = sum(
        (today + dt.timedelta(days=k)).weekday() < 5
        for k in range(1, max(0, (dt.date.fromisoformat(until) - today).days) + 1)
    )
    got = compute({"n": "workdays_until(d)"}, {"d": until}, {}, today=today)["n"]
    assert got == expected == brute


# --- bounded by construction (issue 15) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expr",
    ["round(x, -10 ** 9)", "round(x, -2)", "round(x, 16)", "round(x, digits)", "round(x, 1.5)", "round(x, True)"],
)
def test_round_digits_other_than_a_small_whole_number_are_refused_at_plan_check(expr):
    from toolgen.program import check_expression

    with pytest.raises(ValueError, match="round"):
        check_expression(expr, {"x", "digits"}, frozenset({"round"}))


@pytest.mark.parametrize("expr", ["round(x)", "round(x, 0)", "round(x, 2)", "round(x, 15)"])
def test_round_to_a_few_digits_passes_plan_check(expr):
    from toolgen.program import check_expression

    check_expression(expr, {"x"}, frozenset({"round"}))


@pytest.mark.parametrize("digits", ["-10 ** 9", "-1", "16", "1.5"])
def test_round_with_digits_past_the_bound_is_not_run_by_the_evaluator(digits):
    # a program that skipped plan check (or a bug in it) still cannot spend minutes computing 10 ** (10 ** 9)
    assert compute({"r": f"round(x, {digits})"}, {"x": 5}, {}) == {"r": None}


@pytest.mark.parametrize("expr", ["'%999999999d' % x", "'%.999999999f' % x", "'%s' % x", "'a' % x"])
def test_percent_formatting_of_a_string_constant_is_refused_at_plan_check(expr):
    from toolgen.program import check_expression

    with pytest.raises(ValueError, match="format"):
        check_expression(expr, {"x"}, frozenset())


def test_percent_formatting_with_a_text_input_as_format_is_refused_at_plan_check():
    from toolgen.program import check_expression

    with pytest.raises(ValueError, match="format"):
        check_expression("label % x", {"label", "x"}, frozenset(), text_names={"label"})
    check_expression("x % 7", {"label", "x"}, frozenset(), text_names={"label"})  # a remainder stays allowed


@pytest.mark.parametrize(("expr", "inputs"), [("'%5d' % x", {"x": 3}), ("label % x", {"label": "%9d", "x": 3})])
def test_the_evaluator_never_formats_text_with_percent(expr, inputs):
    # '%999999999d' % x would build a gigabyte; the evaluator refuses any text on the left of %, so no width is read
    assert compute({"r": expr}, inputs, {}) == {"r": None}
    assert compute({"r": "x % 7"}, {"x": 23}, {}) == {"r": 2}


def test_a_complex_result_from_the_callers_inputs_is_a_422_naming_the_output():
    from toolgen.runtime.errors import Invalid

    with pytest.raises(Invalid) as caught:
        compute({"root": "x ** 0.5"}, {"x": -4}, {}, strict=True, labels={"root": "平方根"})
    assert caught.value.status == 422 and caught.value.details_value == {"root": "out of range"}
    assert caught.value.text("en").startswith("root cannot be computed")
    assert caught.value.text("zh").startswith("平方根")
    assert compute({"root": "x ** 0.5"}, {"x": -4}, {}) == {"root": None}  # not strict: a fetch's figure, say


@pytest.mark.parametrize("expr", ["x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x",
                                  "x * 1e300", "2 ** 2000", "(x + 0.5) ** 30"])  # fmt: skip
def test_integers_and_floats_past_the_float_range_are_a_422(expr):
    from toolgen.runtime.errors import Invalid

    with pytest.raises(Invalid):
        compute({"big": expr}, {"x": 10**15}, {}, strict=True)


def test_per_row_figures_out_of_range_are_none_so_a_list_still_answers():
    got = row_values({"root": "x ** 0.5", "big": "x * 1e305 * 1e305", "ok": "x * 2"}, {"x": -4}, {})
    assert got == {"root": None, "big": None, "ok": -8}
    many = [{"x": 10**15} for _ in range(3)]
    assert aggregate({"p": "sum(x) * sum(x) * sum(x) * sum(x) * sum(x) * sum(x) ** 20"}, many, ["x"]) == {"p": None}


def test_integers_stay_within_the_float_range_so_every_answer_can_be_written_as_json():
    import json

    from toolgen.runtime.arithmetic import MAX_INT_BITS

    got = compute({"p": "2 ** 1000", "q": "x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x"},
                  {"x": 10**15}, {})  # fmt: skip
    assert got["p"] == 2**1000 and got["q"] == 10**285
    assert all(v.bit_length() <= MAX_INT_BITS for v in got.values())
    json.dumps(got)  # Python refuses to write an integer of more than 4,300 digits


def test_arithmetic_on_a_whole_column_is_item_by_item_never_repetition_or_concatenation():
    # 'amount * 10' once built a 100,000-item list from a 10,000-row column (so it was refused); since issue 31 it
    # is each row's amount times 10, and 'amount + amount' each row's amount twice, never the column repeated
    data = [{"amount": 2}, {"amount": 3}]
    got = aggregate(
        {"a": "sum(amount * 10)", "b": "max(amount + amount)", "c": "sum(amount) * 10", "n": "count(amount * 10)"},
        data,
        ["amount"],
    )
    assert got == {"a": 50, "b": 6, "c": 50, "n": 2}


def test_a_column_function_called_again_gives_the_same_answer():
    data = [{"date": "2026-12-01", "payer": "a", "amount": 10}, {"date": "2026-12-02", "payer": "b", "amount": 0}]
    got = aggregate(
        {"s": "streak(date) + streak(date)", "t": "settle(payer, amount)[0]['amount'] + count(settle(payer, amount))"},
        data,
        ["date", "payer", "amount"],
        today=TODAY,
    )
    assert got == {"s": 4, "t": 6.0}


def test_a_rows_figures_are_computed_in_turn_each_reading_those_before_it():
    # the derived or computed figures of one row: "b" reads "a", computed just before it on the same row
    assert row_values({"a": "x * 2", "b": "a + 1", "c": "coalesce(b, 0) * 10"}, {"x": 3}, {}) == {
        "a": 6,
        "b": 7,
        "c": 70,
    }
