"""Lists as values (issue 31): list functions, item-by-item arithmetic, filtered and weighted column figures, and the
one registry of the language that plan check, the runtime and a model's prompt all read."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from toolgen import language
from toolgen.program import AGGREGATE_FUNCTIONS, COMPUTE_FUNCTIONS, ROW_FUNCTIONS, check_expression, check_row_passes
from toolgen.runtime import expressions
from toolgen.runtime.arithmetic import MAX_ITEMS, Data
from toolgen.runtime.errors import Invalid
from toolgen.runtime.expressions import aggregate, compute, row_values

TODAY = dt.date(2026, 12, 2)
GRADES = {"points": {"A": 4.0, "A-": 3.7, "B+": 3.3, "B": 3.0}}


def out(expr: str, inputs: dict | None = None, constants: dict | None = None, **kw):
    return compute({"r": expr}, inputs or {}, constants or {}, today=TODAY, **kw)["r"]


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("sum(shares)", 240),
        ("avg(shares)", 80),
        ("count(shares)", 3),
        ("min(shares)", 40),
        ("max(shares)", 120),
        ("max(3, 9, 4)", 9),  # several values, as before
        ("shares[0]", 120),  # a subscript, as before
        ("item(shares, 2)", 40),
        ("item(shares, 3)", None),
        ("item(shares, -1)", None),
        ("shares == shares", True),  # comparison is Python's
        ("shares == credits", False),
        ("sumproduct(credits, lookup(points, grades))", 3 * 4.0 + 4 * 3.3 + 3 * 3.7),
        ("round(sumproduct(credits, lookup(points, grades)) / sum(credits), 2)", 3.63),
        ("lookup(points, 'B')", 3.0),
        ("lookup(points, 'F')", None),
        ("lookup(points, grades)", [4.0, 3.3, 3.7]),
        ("count_where(grades, 'A')", 1),
        ("sum_where(credits, grades, 'A')", 3),
        ("avg_where(credits, grades, 'Z')", None),
    ],
)
def test_list_functions_over_list_inputs(expr, expected):
    inputs = {"shares": [120, 80, 40], "credits": [3, 4, 3], "grades": ["A", "B+", "A-"]}
    got = out(expr, inputs, GRADES)
    assert got == expected and json.dumps(got)


def test_lookup_finds_a_whole_number_key_by_its_text():
    assert out("lookup(names, month('2026-03-01'))", {}, {"names": {"3": "March"}}) == "March"
    assert out("lookup(names, m)", {"m": 3.0}, {"names": {"3": "March"}}) == "March"


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("shares * 2", [240, 160, 80]),
        ("2 * shares", [240, 160, 80]),
        ("shares / sum(shares) * total", [60.0, 40.0, 20.0]),
        ("shares - shares", [0, 0, 0]),
        ("credits * shares", [360, 320, 120]),
        ("shares // 7", [17, 11, 5]),
        ("shares % 7", [1, 3, 5]),
        ("credits ** 2", [9, 16, 9]),
        ("pow(credits, 2)", [9, 16, 9]),
        ("-credits", [-3, -4, -3]),
        ("gaps + 1", [2, None, 4]),  # a null item stays null
        ("shares / zeros", [None, None, 40.0]),  # an item that cannot be computed is null
        ("shares + [1, 2]", None),  # not the language; lists of different lengths in any case
        ("shares + pair", None),  # lists of different lengths: the figure cannot be computed
        ("shares + grades", None),  # text is not added item by item
        ("grades * 3", None),  # nor repeated
        ("shares * None", None),
        ("shares + absent", None),
    ],
)
def test_arithmetic_between_lists_and_numbers_is_item_by_item(expr, expected):
    inputs = {"shares": [120, 80, 40], "credits": [3, 4, 3], "grades": ["A", "B+", "A-"], "gaps": [1, None, 3],
              "zeros": [0, 0, 1], "pair": [1, 2], "total": 120}  # fmt: skip
    got = out(expr, inputs, declared=["absent"])
    assert got == expected and json.dumps(got)


def test_an_item_by_item_result_is_data_so_the_evaluator_does_not_search_it_again():
    names = {"x": Data(range(5))}
    assert type(compute({"r": "x * 2"}, names, {})["r"]) is Data
    assert type(compute({"r": "x"}, {"x": [1, 2]}, {})["r"]) is Data  # a list input is bound as Data


def test_a_list_longer_than_the_bound_is_out_of_range_for_arithmetic():
    long = list(range(MAX_ITEMS + 1))
    assert out("x * 2", {"x": long}) is None
    with pytest.raises(Invalid):
        out("x * 2", {"x": long}, strict=True)
    assert out("sum(x)", {"x": long}) == sum(long)  # a function reads it: one walk, counted


def test_list_work_is_bounded_per_evaluation_whatever_the_expression():
    # 20 outputs of 300 characters each over a 10,000-item list would be ~3,000 walks: past the bound, out of range
    x = [3] * MAX_ITEMS
    expr = " * ".join(["x"] * 99)
    got = compute({f"o{i}": expr for i in range(20)}, {"x": x}, {})
    assert got["o0"] is not None and got["o19"] is None
    with pytest.raises(Invalid):
        compute({f"o{i}": expr for i in range(20)}, {"x": x}, {}, strict=True)


def test_a_rows_list_fields_work_alike():
    got = row_values({"t": "sum(parts * 2)", "n": "count(parts)", "w": "parts * 2"}, {"parts": [1, None, 3]}, {})
    assert got == {"t": 8, "n": 2, "w": [2, None, 6]}


# --- aggregates: item by item over columns, filtered and weighted figures ---------------------------------------

ROWS = [
    {"kind": "food", "amount": 2, "price": 1.5, "product": "tea"},
    {"kind": "rent", "amount": 1, "price": 900.0, "product": "flat"},
    {"kind": "food", "amount": 3, "price": 2.0, "product": "tea"},
    {"kind": "food", "amount": None, "price": 4.0, "product": "cake"},
]
COLUMNS = ["kind", "amount", "price", "product"]


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("sum(amount * price)", 909.0),
        ("sumproduct(amount, price)", 909.0),
        ("sum_where(price, kind, 'food')", 7.5),
        ("avg_where(price, kind, 'food')", 2.5),
        ("avg_where(price, kind, 'travel')", None),
        ("count_where(kind, 'food')", 3),
        ("sum(lookup(prices, product) * amount)", 2 * 0.5 + 3 * 0.5),
        ("round(sqrt(sum(price ** 2)), 2)", round((1.5**2 + 900**2 + 2**2 + 4**2) ** 0.5, 2)),
        ("count(amount * price)", 3),
        ("max(-price)", -1.5),
    ],
)
def test_aggregate_figures_over_columns(expr, expected):
    got = aggregate({"m": expr}, ROWS, COLUMNS, constants={"prices": {"tea": 0.5}})["m"]
    assert got == pytest.approx(expected) if expected is not None else got is None


def test_an_aggregate_computes_each_distinct_walk_once():
    # given a metric that names one column product three times
    calls = []

    def spend(self, items):
        calls.append(items)

    metrics = {"a": "sum(amount * price) + sum(amount * price)", "b": "avg(amount * price)"}
    original = expressions.Work.spend
    expressions.Work.spend = spend  # type: ignore[method-assign]
    try:
        got = aggregate(metrics, ROWS, COLUMNS)
    finally:
        expressions.Work.spend = original  # type: ignore[method-assign]
    # then the product is built once, and sum and avg each walk it once
    assert got == {"a": 1818.0, "b": 303.0}
    assert len(calls) == 3


def test_row_passes_count_filtered_and_weighted_figures_and_arithmetic_over_columns():
    check_row_passes("op", [" + ".join(f"sum_where(a, b, {i})" for i in range(100))])
    with pytest.raises(ValueError, match="101 times"):
        check_row_passes("op", [" + ".join(f"sum_where(a, b, {i})" for i in range(100)) + " + sumproduct(a, b)"])
    with pytest.raises(ValueError, match="walk the rows"):
        check_row_passes("op", [" + ".join(f"sum(a * {i})" for i in range(51))])  # a product and a sum each
    with pytest.raises(ValueError, match="walk the rows"):
        check_row_passes("op", [" + ".join(f"sum(a ** {i})" for i in range(17))])  # a power counts five
    check_row_passes("op", [" + ".join(f"round(sum(a), {i % 15}) * 2" for i in range(99))])  # scalar work is free


# --- one registry ---------------------------------------------------------------------------------------------------


def bound_functions(monkeypatch, run) -> set[str]:
    seen: set[str] = set()
    original = expressions._Evaluator.__init__

    def init(self, *args, **kw):
        seen.update(kw["functions"])
        original(self, *args, **kw)

    monkeypatch.setattr(expressions._Evaluator, "__init__", init)
    run()
    return seen


def test_the_runtime_binds_exactly_the_registrys_functions_in_each_context(monkeypatch):
    def bound(run):
        return bound_functions(monkeypatch, run)

    assert bound(lambda: aggregate({"n": "count()"}, [], [])) == language.function_names(language.AGGREGATE)
    assert bound(lambda: row_values({"n": "1"}, {}, {})) == language.function_names(language.ROW)
    assert bound(lambda: compute({"n": "1"}, {}, {})) == language.function_names(language.COMPUTE)
    assert tuple(language.function_names(c) for c in language.CONTEXTS) == (
        AGGREGATE_FUNCTIONS,
        ROW_FUNCTIONS,
        COMPUTE_FUNCTIONS,
    )


def test_the_registry_describes_each_function_in_one_line_and_the_language_in_a_paragraph():
    for context in language.CONTEXTS:
        lines = language.describe_functions(context).splitlines()
        assert [line.split("(")[0] for line in lines] == sorted(language.function_names(context), key=[
            f.name for f in language.REGISTRY].index)  # fmt: skip
        assert all(len(line) <= 200 for line in lines)
    assert "add_months(date, n): the date n months later" in language.describe_functions(language.COMPUTE)
    assert "streak" not in language.describe_functions(language.COMPUTE)
    assert len(language.SEMANTICS) <= 1500
    assert len(language.FUNCTIONS) == len(language.REGISTRY)
    with pytest.raises(ValueError, match="context"):
        language.function_names("nowhere")


@pytest.mark.parametrize(
    ("signature", "arity"),
    [("today()", (0, 0)), ("round(x[, digits])", (1, 2)), ("min(values, ...)", (1, None)),
     ("count([values])", (0, 1)), ("settle(payers, amounts[, people])", (2, 3)), ("date(year, month, day)", (3, 3))],
)  # fmt: skip
def test_a_signature_says_how_many_arguments_a_function_takes(signature, arity):
    assert language.FUNCTIONS[signature.split("(")[0]].arity == arity
    assert language.FUNCTIONS[signature.split("(")[0]].signature == signature


@pytest.mark.parametrize(
    ("expr", "functions", "problem"),
    [
        ("add_months(d)", COMPUTE_FUNCTIONS, r"add_months with 1 arguments: it is add_months\(date, n\)"),
        ("today(d)", COMPUTE_FUNCTIONS, "today with 1"),
        ("streak(d)", COMPUTE_FUNCTIONS, "calls something other than"),
        ("item(d, 1)", AGGREGATE_FUNCTIONS, "calls something other than"),
        ("count()", COMPUTE_FUNCTIONS, "counts rows, only in an aggregate"),
        ("log(d, base=2)", COMPUTE_FUNCTIONS, "keyword"),
        ("d.year", COMPUTE_FUNCTIONS, "Attribute"),
        ("sum([x for x in d])", COMPUTE_FUNCTIONS, "ListComp"),
        ("(lambda: d)()", COMPUTE_FUNCTIONS, "other than"),
        ("coalesce", COMPUTE_FUNCTIONS, "not defined"),
        ("'%d' % d", COMPUTE_FUNCTIONS, "format"),
        ("round(d, 16)", COMPUTE_FUNCTIONS, "digits"),
        ("lookup(t, '" + "k" * 61 + "')", COMPUTE_FUNCTIONS, "long string"),
    ],
)
def test_plan_check_refuses_what_it_refused_and_calls_of_the_wrong_shape(expr, functions, problem):
    with pytest.raises(ValueError, match=problem):
        check_expression(expr, {"d", "t"}, functions)


@pytest.mark.parametrize("expr", ["coalesce(d, 0)", "max(d, 1, 2, 3)", "log(d, 2)", "next_every(d, 14)", "count(d)"])
def test_plan_check_allows_the_new_functions(expr):
    check_expression(expr, {"d"}, COMPUTE_FUNCTIONS)
