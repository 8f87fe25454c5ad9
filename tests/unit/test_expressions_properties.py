"""Property tests: hypothesis tries to escape the expression evaluator and to make it hang.

Whatever text a planner (or a prompt injected into one) puts in an expression, it is either refused when the
program is validated or evaluated to a plain value (number, string, boolean, list or None) that JSON can carry,
without raising (or, evaluated for a caller's inputs, with the 422 of a figure out of range). Hangs are caught by
pytest-timeout, not by a timing assertion.
"""

from __future__ import annotations

import ast
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolgen import language
from toolgen.program import AGGREGATE_FUNCTIONS, COMPUTE_FUNCTIONS, check_expression, check_row_passes
from toolgen.runtime.arithmetic import MAX_INT_BITS
from toolgen.runtime.errors import Invalid
from toolgen.runtime.expressions import aggregate, compute, row_values

NAMES = ["value", "rate", "table", "label", "shares", "grades", "day", "absent"]
# since issue 31: a list input (numbers with a null, and text), a date, a declared input not given
INPUTS = {"value": 3, "rate": 1.5, "label": "x", "shares": [120, 80, None, 40], "grades": ["A", "B", "A", "C"],
          "day": "2026-01-31"}  # fmt: skip
DECLARED = ["absent"]
CONSTANTS = {"table": {"a": 1, "b": 2, "3": 3}}
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

leaves = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
    st.sampled_from(NAMES),
    st.sampled_from(["'a'", "'b'", "'x' * 3", "True", "None", "'2026-02-29'", "'12-25'", "100000", "12001", "7"]),
)


def calls(children: st.SearchStrategy[str], functions: frozenset[str]) -> st.SearchStrategy[str]:
    """A call of one of ``functions`` with as many arguments as its signature takes (a few more when it takes any)."""

    def call(name: str) -> st.SearchStrategy[str]:
        fewest, most = language.FUNCTIONS[name].arity
        arguments = st.lists(children, min_size=fewest, max_size=fewest + 2 if most is None else most)
        return arguments.map(lambda args: f"{name}({', '.join(args)})")

    return st.sampled_from(sorted(functions)).flatmap(call)


def combine(
    children: st.SearchStrategy[str],
    functions: frozenset[str] = COMPUTE_FUNCTIONS,
    subscripted: tuple[str, ...] = ("table", "shares"),
) -> st.SearchStrategy[str]:
    operators = st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "<", "==", "and", "or"])
    return st.one_of(
        st.tuples(children, operators, children).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        calls(children, functions),
        st.tuples(children, children, children).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        st.tuples(st.sampled_from(subscripted), children).map(lambda t: f"{t[0]}[{t[1]}]"),
        children.map(lambda c: f"-{c}"),
    )


expressions = st.recursive(leaves, combine, max_leaves=12)
PLAIN = (int, float, str, bool, list, dict, type(None))  # what JSON can carry (a constant table is a dict)


def assert_plain(result: object) -> None:
    """A value JSON can carry: plain types, finite, no integer past the 4,300 digits Python writes."""
    assert isinstance(result, PLAIN)
    assert not isinstance(result, int) or result.bit_length() <= MAX_INT_BITS
    json.dumps(result, allow_nan=False)


@SETTINGS
@given(expressions)
def test_any_well_formed_expression_evaluates_to_a_plain_value_or_is_refused(expr):
    try:
        check_expression(expr, set(NAMES), COMPUTE_FUNCTIONS)
    except ValueError:
        return
    result = compute({"out": expr}, INPUTS, CONSTANTS, declared=DECLARED)["out"]
    assert_plain(result)
    assert_plain(row_values({"out": expr}, INPUTS, CONSTANTS, fields=DECLARED)["out"])  # a row's figure alike
    raised: Invalid | None = None
    try:
        strict = compute({"out": expr}, INPUTS, CONSTANTS, strict=True, declared=DECLARED)["out"]
    except Invalid as e:
        raised, strict = e, None
    assert strict == result  # for a caller's inputs, the same figure
    if raised is not None:  # or, where there is none, the caller's 422 for a figure out of range
        assert result is None and (raised.status, raised.details_value) == (422, {"out": "out of range"})


ESCAPES = st.sampled_from(
    [
        "__import__('os')",
        "().__class__",
        "value.__class__.__mro__",
        "(lambda: 1)()",
        "[c for c in 'ab']",
        "{}.get('a')",
        "open('/etc/passwd')",
        "exec('1')",
        "eval('1')",
        "globals()",
        "getattr(value, 'real')",
        "table.keys()",
        "round.__globals__",
        "f'{value}'",
        "value.real",
        "__builtins__",
        "type(value)",
        "*value",
        "(yield)",
        "await value",
        "value := 3",
        "import os",
        "table['a'].__class__",
    ]
)


@SETTINGS
@given(st.tuples(st.text(max_size=20), ESCAPES, st.text(max_size=20)).map("".join))
def test_escape_attempts_are_refused_at_validation(text):
    try:
        check_expression(text, set(NAMES), COMPUTE_FUNCTIONS)
    except ValueError:
        return
    # Only text around the attempt made it parse as something harmless: prove there is nothing to escape with.
    tree = ast.parse(text, mode="eval")
    assert not any(
        isinstance(n, ast.Attribute | ast.Lambda | ast.comprehension | ast.JoinedStr) for n in ast.walk(tree)
    )
    assert isinstance(compute({"out": text}, INPUTS, CONSTANTS)["out"], PLAIN)


@SETTINGS
@given(st.text(max_size=80))
def test_arbitrary_text_never_raises_past_validation(text):
    try:
        check_expression(text, set(NAMES), COMPUTE_FUNCTIONS)
    except ValueError:
        return
    assert isinstance(compute({"out": text}, INPUTS, CONSTANTS)["out"], PLAIN)


@SETTINGS
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=10**6))
def test_power_and_shift_bombs_are_refused_by_the_evaluator(base, exponent):
    result = compute({"p": f"{base} ** {exponent}", "s": f"{base} << {exponent}"}, {}, {})
    for value in result.values():
        assert value is None or isinstance(value, int | float)


@SETTINGS
@given(st.lists(st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False), st.integers()), max_size=50))
def test_aggregates_over_any_column_give_plain_values(column):
    rows = [{"x": v} for v in column]
    result = aggregate(
        {"s": "sum(x)", "a": "avg(x)", "m": "max(x)", "n": "count(x)", "r": "round(sum(x) / count(x), 2)"}, rows, ["x"]
    )
    assert all(isinstance(v, PLAIN) for v in result.values())
    assert result["n"] == sum(v is not None for v in column)


COLUMNS = ["amount", "kind", "day"]
column_leaves = st.one_of(
    st.sampled_from(COLUMNS),
    st.integers(min_value=-(10**6), max_value=10**6).map(str),
    st.sampled_from(["'a'", "None"]),
)
metrics = st.recursive(column_leaves, lambda c: combine(c, AGGREGATE_FUNCTIONS, ("amount", "kind")), max_leaves=10)
ROWS = [{"amount": i * 1.5 if i % 7 else None, "kind": "ab"[i % 2], "day": f"2026-11-{1 + i % 30:02d}"}
        for i in range(2000)]  # fmt: skip


@SETTINGS
@given(st.lists(metrics, min_size=1, max_size=3))
def test_any_metric_plan_check_allows_evaluates_to_a_plain_value_over_columns(exprs):
    try:
        for expr in exprs:
            check_expression(expr, set(COLUMNS), AGGREGATE_FUNCTIONS)
        check_row_passes("op", exprs)
    except ValueError:
        return
    for value in aggregate({f"m{i}": e for i, e in enumerate(exprs)}, ROWS, COLUMNS).values():
        assert_plain(value)


@SETTINGS
@given(st.integers(min_value=-(10**12), max_value=10**12), st.sampled_from(["value", "rate", "1e15", "10 ** 15"]))
def test_round_runs_only_with_digits_plan_check_allows(digits, number):
    expr = f"round({number}, {digits})"
    try:
        check_expression(expr, set(NAMES), COMPUTE_FUNCTIONS)
    except ValueError:
        assert not 0 <= digits <= 15
        # and were it deployed anyway, the evaluator refuses it rather than computing 10 ** -digits
        assert compute({"out": expr}, INPUTS, CONSTANTS)["out"] is None
        return
    assert isinstance(compute({"out": expr}, INPUTS, CONSTANTS)["out"], int | float)


FORMATS = st.from_regex(r"\A%[-+ #0]{0,3}[0-9]{0,12}(\.[0-9]{0,12})?[dioxXeEfFgGcrsa%]\Z")


@SETTINGS
@given(FORMATS)
def test_percent_never_formats_text_whether_constant_or_input(spec):
    with pytest.raises(ValueError, match="format"):
        check_expression(f"{spec!r} % value", set(NAMES), COMPUTE_FUNCTIONS)
    with pytest.raises(ValueError, match="format"):
        check_expression("label % value", set(NAMES), COMPUTE_FUNCTIONS, text_names={"label"})
    # what plan check never lets through still builds nothing at run time
    assert compute({"a": f"{spec!r} % value", "b": "label % value"}, {**INPUTS, "label": spec}, CONSTANTS) == {
        "a": None,
        "b": None,
    }
