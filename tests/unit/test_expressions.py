import datetime as dt

import pytest

from toolgen.runtime.expressions import MAX_ROWS, aggregate, compute, streak

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
