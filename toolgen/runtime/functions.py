"""The functions an expression may call, by context (toolgen/language.py names them and says what each means).

Moved here from expressions.py when issue 31 added absent values (given, coalesce), logarithms and roots, list
functions (over a list input in a compute or a row, and over columns in a metric) and filtered or weighted column
figures, so that expressions.py keeps only the evaluation. A null item is skipped by every list function; a
figure that cannot be computed (log of 0, lists of different lengths) raises ValueError, TypeError or
ZeroDivisionError, which the evaluator makes a null; a figure past the float range raises OutOfRange. In a compute
or a row, each list item a function walks is counted against the evaluation's Work; in a metric, each distinct
column call is computed once and counted there (expressions.py). Standard library only (the runtime's cold start).
"""

from __future__ import annotations

import datetime as dt
import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from toolgen.runtime.arithmetic import Data, OutOfRange, Work, bounded, each, power, round_to
from toolgen.runtime.dates import date_functions, whole_number

_random = random.SystemRandom()


def _values(column: Sequence[Any]) -> list[Any]:
    return [v for v in column if v is not None]


def _list(values: Any) -> list[Any]:
    if not isinstance(values, list):
        raise TypeError("a list function needs a list")
    return values


def _sum(column: Sequence[Any] = ()) -> float:
    return bounded(sum(_values(column)))


def _avg(column: Sequence[Any] = ()) -> float | None:
    values = _values(column)
    return bounded(sum(values) / len(values)) if values else None


def _min(*args: Any) -> Any:
    values = _values(args[0]) if len(args) == 1 and isinstance(args[0], list) else _values(args)
    return min(values) if values else None


def _max(*args: Any) -> Any:
    values = _values(args[0]) if len(args) == 1 and isinstance(args[0], list) else _values(args)
    return max(values) if values else None


def _where(values: Any, keys: Any, key: Any) -> list[Any]:
    """The values whose parallel key equals ``key``."""
    if len(_list(values)) != len(_list(keys)):
        raise ValueError("lists of different lengths")
    return [v for v, k in zip(values, keys, strict=True) if k == key]


def sumproduct(a: Any, b: Any) -> Any:
    """Σ aᵢ·bᵢ over parallel lists of numbers, pairs with a null skipped."""
    if len(_list(a)) != len(_list(b)):
        raise ValueError("lists of different lengths")
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x is not None and y is not None]
    if not all(isinstance(x, int | float) and isinstance(y, int | float) for x, y in pairs):
        raise TypeError("sumproduct multiplies numbers")
    try:
        return bounded(sum(x * y for x, y in pairs))
    except OverflowError as e:
        raise OutOfRange(str(e)) from e


def _read(table: dict[str, Any], key: Any) -> Any:
    if key in table:
        return table[key]
    whole = whole_number(key)  # a table written as JSON has text keys: 3 (or 3.0 from a number input) finds "3"
    return None if whole is None else table.get(str(whole))


def lookup(table: Any, key: Any) -> Any:
    """A constant table read at ``key`` (None when absent); a list of keys gives the list of their values."""
    if not isinstance(table, dict):
        raise TypeError("lookup reads a table")
    return Data(_read(table, k) for k in key) if isinstance(key, list) else _read(table, key)


def item(values: Any, index: Any) -> Any:
    """The item at ``index`` (from 0), None past either end."""
    i = whole_number(index)
    return values[i] if i is not None and 0 <= i < len(_list(values)) else None


def _count_where(values: Any, value: Any) -> int:
    return sum(1 for v in values if v == value)


def given(value: Any) -> bool:
    return value is not None


def coalesce(*values: Any) -> Any:
    return next((v for v in values if v is not None), None)


def _real(fn: Callable[..., float]) -> Callable[..., float]:
    """``fn`` with a result past the float range OutOfRange (math's OverflowError); a domain error stays ValueError."""

    def call(*args: Any) -> float:
        try:
            return bounded(fn(*args))
        except OverflowError as e:
            raise OutOfRange(str(e)) from e

    return call


def _math(work: Work) -> dict[str, Callable[..., Any]]:
    def pow_(base: Any, exponent: Any) -> Any:  # as ** (arithmetic.operators): item by item on lists
        if isinstance(base, list) or isinstance(exponent, list):
            return each(power, base, exponent, work)
        return power(base, exponent)

    def items(fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` of one value, or of each item of a list (a null item, or one it cannot take, stays null)."""

        def call(value: Any, *rest: Any) -> Any:
            if not isinstance(value, list):
                return fn(value, *rest)
            work.spend(len(value))
            out = Data()
            for item in value:
                try:
                    out.append(None if item is None else fn(item, *rest))
                except (TypeError, ValueError, ArithmeticError):
                    out.append(None)
            return out

        return call

    return {
        "round": items(round_to),
        "abs": items(abs),
        "floor": items(math.floor),
        "ceil": items(math.ceil),
        "given": given,
        "coalesce": coalesce,
        "log": items(_real(math.log)),
        "log10": items(_real(math.log10)),
        "exp": items(_real(math.exp)),
        "sqrt": items(_real(math.sqrt)),
        "pow": pow_,
    }


def _walking(fn: Callable[..., Any], work: Work) -> Callable[..., Any]:
    """``fn``, each list it is given counted against ``work`` (a list input may hold thousands of items)."""

    def call(*args: Any) -> Any:
        work.spend(sum(len(a) for a in args if isinstance(a, list)))
        return fn(*args)

    return call


def scalar_functions(today: dt.date, work: Work) -> dict[str, Callable[..., Any]]:
    """The functions of a row's figures and a compute's outputs (language.ROW, language.COMPUTE)."""
    lists: dict[str, Callable[..., Any]] = {
        "sum": lambda values: _sum(_list(values)),
        "avg": lambda values: _avg(_list(values)),
        "min": _min,
        "max": _max,
        "count": lambda values: len(_values(_list(values))),
        "count_where": lambda values, value: _count_where(_list(values), value),
        "sum_where": lambda values, keys, key: _sum(_where(values, keys, key)),
        "avg_where": lambda values, keys, key: _avg(_where(values, keys, key)),
        "sumproduct": sumproduct,
        "lookup": lookup,
    }
    return {
        **_math(work),
        **{name: _walking(fn, work) for name, fn in lists.items()},
        "item": item,
        **date_functions(today),
    }


def column_functions(rows: int, today: dt.date, work: Work) -> dict[str, Callable[..., Any]]:
    """The functions of an aggregate's metrics (language.AGGREGATE) over ``rows`` rows, whose names are columns."""
    return {
        **_math(work),
        "sum": _sum,
        "avg": _avg,
        "min": _min,
        "max": _max,
        "first": lambda column=(): next(iter(_values(column)), None),
        "last": lambda column=(): next(reversed(_values(column)), None),
        "pick": _pick,
        "settle": lambda *columns: Data(settle(*columns)),
        "count": lambda column=None: rows if column is None else len(_values(column)),
        "count_where": _count_where,
        "sum_where": lambda values, keys, key: _sum(_where(values, keys, key)),
        "avg_where": lambda values, keys, key: _avg(_where(values, keys, key)),
        "sumproduct": sumproduct,
        "lookup": lookup,
        "streak": lambda column: streak(column, today),
        **date_functions(today),  # of one value: days_since(min(date)) is how long the log has run
    }


def _pick(column: Sequence[Any] = ()) -> Any:
    """One of the column's values, at random (a restaurant for tonight)."""
    values = _values(column)
    return _random.choice(values) if values else None


def streak(column: Sequence[Any], today: dt.date) -> int:
    """Consecutive days, ending today or yesterday, on which the column has a date."""
    days = set()
    for value in _values(column):
        try:
            days.add(dt.date.fromisoformat(str(value)))
        except ValueError:
            continue
    day = today
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
