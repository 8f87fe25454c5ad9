"""Safe expressions for aggregate, compute, computed-field and derived-field rules, evaluated by simpleeval.

Never eval/exec: expressions were checked when the program was validated (toolgen/program.py: parse tree, names,
length, round's digits, no '%' formatting), and here they run with only the names and functions below bound, with
bounded arithmetic (toolgen/runtime/arithmetic.py: integers within the float range, powers refused before they are
computed, no text formatting) and a cap on the rows an aggregate reads. A figure that cannot be computed (no rows,
0/0, a missing value) is None rather than an error. A figure out of range (an overflow, a complex result) is None
too in a row or an aggregate, where stored data made it and the rest of the answer still serves; where the caller's
own inputs made it (a compute operation, a derived field of a row being created), it is their 422.
"""

from __future__ import annotations

import ast
import datetime as dt
import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from simpleeval import InvalidExpression, SimpleEval

from toolgen.runtime.arithmetic import OPERATORS, OutOfRange, bounded, round_to
from toolgen.runtime.errors import Invalid
from toolgen.runtime.messages import Message

MAX_ROWS = 10_000
_random = random.SystemRandom()


class Data(list[Any]):
    """A list made of what rows store (a column's values, settle's transfers): never a function or a module."""


class _Evaluator(SimpleEval):
    """simpleeval, except that it does not walk a whole column each time a metric names it.

    After every step simpleeval checks the result holds no forbidden function, item by item: each mention of a
    10,000-row column cost 3-4 ms (settle's 10,000 transfers more), and a metric's 300 characters can mention one
    40 times, in each of 20 metrics. Data holds only what rows store (text, numbers, booleans, None, and dicts of
    them), so there is nothing in it to find.
    """

    def _check_disallowed_items(self, item: Any) -> None:
        if type(item) is not Data:
            super()._check_disallowed_items(item)


def _today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def _values(column: Sequence[Any]) -> list[Any]:
    return [v for v in column if v is not None]


def _sum(column: Sequence[Any] = ()) -> float:
    return sum(_values(column))


def _avg(column: Sequence[Any] = ()) -> float | None:
    values = _values(column)
    return sum(values) / len(values) if values else None


def _min(*args: Any) -> Any:
    values = _values(args[0]) if len(args) == 1 and isinstance(args[0], list) else _values(args)
    return min(values) if values else None


def _max(*args: Any) -> Any:
    values = _values(args[0]) if len(args) == 1 and isinstance(args[0], list) else _values(args)
    return max(values) if values else None


def _first(column: Sequence[Any] = ()) -> Any:
    values = _values(column)
    return values[0] if values else None


def _last(column: Sequence[Any] = ()) -> Any:
    values = _values(column)
    return values[-1] if values else None


def _pick(column: Sequence[Any] = ()) -> Any:
    """One of the column's values, at random (a restaurant for tonight)."""
    values = _values(column)
    return _random.choice(values) if values else None


def _parse_date(value: Any, today: dt.date) -> dt.date | None:
    """An ISO date; a bare MM-DD is its next occurrence from ``today``."""
    text = str(value or "")
    try:
        if len(text) == 5 and text[2] == "-":
            day = dt.date(today.year, int(text[:2]), int(text[3:]))
            return day if day >= today else dt.date(today.year + 1, day.month, day.day)
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def streak(column: Sequence[Any], today: dt.date | None = None) -> int:
    """Consecutive days, ending today or yesterday, on which the column has a date."""
    days = set()
    for value in _values(column):
        try:
            days.add(dt.date.fromisoformat(str(value)))
        except ValueError:
            continue
    day = today or _today()
    if day not in days:
        day -= dt.timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= dt.timedelta(days=1)
    return count


def settle(payers: Sequence[Any], amounts: Sequence[Any], people: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Who pays whom so that everyone (``people`` and every payer) has paid an equal share of the total.

    Greedy: the largest debtor pays the largest creditor until one is square; at most n - 1 transfers, amounts
    in cents so nothing is lost to rounding.
    """
    cents: dict[str, int] = {str(p): 0 for p in people}
    for payer, amount in zip(payers, amounts, strict=False):
        if payer is not None and amount is not None:
            cents[str(payer)] = cents.get(str(payer), 0) + round(float(amount) * 100)
    if not cents:
        return []
    names = sorted(cents)
    total = sum(cents.values())
    share, extra = divmod(total, len(names))
    # the first `extra` people (by name) carry one cent more, so the shares add up to the total exactly
    balance = {n: cents[n] - share - (1 if i < extra else 0) for i, n in enumerate(names)}
    creditors = sorted(((b, n) for n, b in balance.items() if b > 0), reverse=True)
    debtors = sorted(((-b, n) for n, b in balance.items() if b < 0), reverse=True)
    transfers = []
    while creditors and debtors:
        (owed, creditor), (owes, debtor) = creditors[0], debtors[0]
        paid = min(owed, owes)
        transfers.append({"from": debtor, "to": creditor, "amount": paid / 100})
        creditors[0], debtors[0] = (owed - paid, creditor), (owes - paid, debtor)
        if creditors[0][0] == 0:
            creditors.pop(0)
        if debtors[0][0] == 0:
            debtors.pop(0)
    return transfers


def _minutes(value: Any) -> int | None:
    """Minutes past midnight of an "HH:MM" time, else None."""
    text = str(value or "")
    if len(text) < 4 or ":" not in text:
        return None
    hours, _, minutes = text.partition(":")
    if not (hours.isdigit() and minutes[:2].isdigit()):
        return None
    return int(hours) * 60 + int(minutes[:2])


def _date_functions(today: dt.date) -> dict[str, Callable[..., Any]]:
    def days_until(value: Any) -> int | None:
        day = _parse_date(value, today)
        return None if day is None else (day - today).days

    def days_since(value: Any) -> int | None:
        day = _parse_date(value, today)
        return None if day is None else (today - day).days

    def add_days(value: Any, days: Any) -> str | None:
        day = _parse_date(value, today)
        return None if day is None else (day + dt.timedelta(days=int(days))).isoformat()

    def next_yearly(value: Any) -> str | None:
        """The next day (today included) on the date's month and day: a birthday's next one."""
        day = _parse_date(value, today)
        if day is None:
            return None
        return next_occurrence(f"{day.month:02d}-{day.day:02d}", today)

    def hours_between(start: Any, end: Any) -> float | None:
        """Hours from one clock time to the next ("23:30" to "07:00" is 7.5: past midnight counts)."""
        first, last = _minutes(start), _minutes(end)
        return None if first is None or last is None else round(((last - first) % 1440) / 60, 2)

    def workdays_until(value: Any) -> int | None:
        """Monday-to-Friday days after today up to the date, the date included (a last day at work)."""
        day = _parse_date(value, today)
        if day is None:
            return None
        span = (day - today).days
        if span <= 0:
            return 0
        weeks, rest = divmod(span, 7)
        return weeks * 5 + sum((today + dt.timedelta(days=weeks * 7 + k)).weekday() < 5 for k in range(1, rest + 1))

    def years_between(start: Any, end: Any) -> int | None:
        first, last = _parse_date(start, today), _parse_date(end, today)
        return None if first is None or last is None else last.year - first.year

    return {
        "days_until": days_until,
        "days_since": days_since,
        "add_days": add_days,
        "today": today.isoformat,
        "next_yearly": next_yearly,
        "years_between": years_between,
        "workdays_until": workdays_until,
        "hours_between": hours_between,
    }


def _scalar_functions(today: dt.date) -> dict[str, Callable[..., Any]]:
    return {
        "round": round_to,
        "abs": abs,
        "min": _min,
        "max": _max,
        "floor": math.floor,
        "ceil": math.ceil,
        **_date_functions(today),
    }


def aggregate(
    metrics: dict[str, str],
    rows: list[dict[str, Any]],
    columns: list[str],
    *,
    constants: dict[str, Any] | None = None,
    today: dt.date | None = None,
) -> dict[str, Any]:
    """Each metric over ``rows`` (oldest first)."""
    rows = rows[-MAX_ROWS:]
    names = {**(constants or {}), **{c: Data(r.get(c) for r in rows) for c in columns}}
    day = today or _today()
    functions: dict[str, Callable[..., Any]] = {
        "sum": _sum,
        "avg": _avg,
        "min": _min,
        "max": _max,
        "first": _first,
        "last": _last,
        "round": round_to,
        "abs": abs,
        "pick": _pick,
        "settle": lambda *columns: Data(settle(*columns)),
        "count": lambda column=None: len(rows) if column is None else len(_values(column)),
        "count_where": lambda column, value: sum(1 for v in column if v == value),
        "streak": lambda column: streak(column, day),
        "days_since": _date_functions(day)["days_since"],  # days_since(min(date)): how long the log has run
    }
    evaluator = _Evaluator(operators=OPERATORS, functions=_remembered(functions), names=names)
    return {name: _safe(evaluator, name, expr) for name, expr in metrics.items()}


def _remembered(functions: dict[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """The column functions, each answer kept for one aggregate's evaluation: 300 characters can call streak 22
    times over 10,000 rows, in each of 20 metrics; now each column is walked once. Keyed by the arguments'
    identity (a column is one list throughout), which the kept arguments hold on to. ``pick`` stays random."""
    memo: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}

    def remember(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            key = (name, *((type(a), a) if isinstance(a, str | int | float | None) else id(a) for a in args))
            if key not in memo:
                memo[key] = (args, function(*args))
            return memo[key][1]

        return call

    cheap = {"round", "abs", "pick", "days_since"}  # scalar work, or random
    return {name: fn if name in cheap else remember(name, fn) for name, fn in functions.items()}


def compute(
    outputs: dict[str, str],
    inputs: dict[str, Any],
    constants: dict[str, Any],
    *,
    today: dt.date | None = None,
    strict: bool = False,
    labels: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Each output over the checked inputs and the constants; later outputs may use earlier ones.

    ``strict``: an output out of range is Invalid (422, named by its label in ``labels``), not None.
    """
    names: dict[str, Any] = {**constants, **inputs}
    evaluator = SimpleEval(operators=OPERATORS, functions=_scalar_functions(today or _today()), names=names)
    result = {}
    for name, expr in outputs.items():
        label = (labels or {}).get(name, "") if strict else ""
        result[name] = names[name] = _safe(evaluator, name, expr, strict=strict, label=label)
    return result


def next_occurrence(mmdd: str, today: dt.date | None = None) -> str | None:
    """The next date (today included) falling on month-day ``mmdd``."""
    day = _parse_date(mmdd, today or _today())
    return None if day is None else day.isoformat()


def row_matches(condition: str | None, row: dict[str, Any], constants: dict[str, Any], *, today: dt.date) -> bool:
    """Whether a row satisfies a program's static ``where`` condition (no condition: every row does)."""
    if not condition:
        return True
    return bool(row_values({"ok": condition}, row, constants, today=today)["ok"])


class _RowEvaluator(SimpleEval):
    """simpleeval, reading ``prev(name)`` as ``name`` on the previous row (None on the first): its argument is a
    name, not a value, so the call is read here rather than bound as a function (program.py checks the name)."""

    def __init__(self, previous: dict[str, Any] | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.previous = previous or {}

    def _eval_call(self, node: ast.Call) -> Any:
        if isinstance(node.func, ast.Name) and node.func.id == "prev":
            (name,) = node.args
            return self.previous.get(name.id) if isinstance(name, ast.Name) else None
        return super()._eval_call(node)


def row_values(
    expressions: dict[str, str],
    row: dict[str, Any],
    constants: dict[str, Any],
    *,
    today: dt.date | None = None,
    strict: bool = False,
    labels: dict[str, str] | None = None,
    previous: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Per-row figures (computed fields, derived defaults) over one row's values and the constants; ``previous``:
    the values ``prev(name)`` reads (toolgen/runtime/previous.py).

    ``strict`` as for compute: a derived field of a row being created is the caller's to fix.
    """
    evaluator = _RowEvaluator(
        previous, operators=OPERATORS, functions=_scalar_functions(today or _today()), names={**constants, **row}
    )
    return {
        name: _safe(evaluator, name, expr, strict=strict, label=(labels or {}).get(name, ""))
        for name, expr in expressions.items()
    }


def _safe(evaluator: SimpleEval, name: str, expr: str, *, strict: bool = False, label: str = "") -> Any:
    """The figure; None when it cannot be computed, and when it is out of range unless ``strict``."""
    try:
        return bounded(evaluator.eval(expr))
    except (OutOfRange, OverflowError) as e:
        if not strict:
            return None
        problem = Message("result_out_of_range", name=name, label=label)
        raise Invalid(problem, details={name: "out of range"}) from e
    except (ZeroDivisionError, TypeError, ValueError, KeyError, IndexError, InvalidExpression):
        return None
