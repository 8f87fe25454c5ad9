"""Safe expressions for aggregate and compute operations, evaluated by simpleeval (never eval/exec).

Expressions were checked when the program was validated (toolgen/program.py: parse tree, names, length); here
they run with only the names and functions below bound, simpleeval's own limits on powers and string sizes, and
a cap on the rows an aggregate reads.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from typing import Any

from simpleeval import InvalidExpression, SimpleEval

MAX_ROWS = 10_000


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


def _last(column: Sequence[Any] = ()) -> Any:
    values = _values(column)
    return values[-1] if values else None


def streak(column: Sequence[Any], today: dt.date | None = None) -> int:
    """Consecutive days, ending today or yesterday, on which the column has a date."""
    days = set()
    for value in _values(column):
        try:
            days.add(dt.date.fromisoformat(str(value)))
        except ValueError:
            continue
    day = today or dt.datetime.now(dt.UTC).date()
    if day not in days:
        day -= dt.timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= dt.timedelta(days=1)
    return count


def aggregate(
    metrics: dict[str, str], rows: list[dict[str, Any]], columns: list[str], *, today: dt.date | None = None
) -> dict[str, Any]:
    """Each metric over ``rows`` (oldest first); a metric that cannot be computed (no rows, 0/0) is None."""
    rows = rows[-MAX_ROWS:]
    names = {c: [r.get(c) for r in rows] for c in columns}
    functions: dict[str, Callable[..., Any]] = {
        "sum": _sum,
        "avg": _avg,
        "min": _min,
        "max": _max,
        "last": _last,
        "round": _round,
        "count": lambda column=None: len(rows) if column is None else len(_values(column)),
        "streak": lambda column: streak(column, today),
    }
    evaluator = SimpleEval(functions=functions, names=names)
    return {name: _safe(evaluator, expr) for name, expr in metrics.items()}


def _round(value: Any, digits: int = 0) -> Any:
    return None if value is None else round(value, digits)


def compute(outputs: dict[str, str], inputs: dict[str, Any], constants: dict[str, Any]) -> dict[str, Any]:
    """Each output expression over the checked inputs and the program's constants."""
    functions: dict[str, Callable[..., Any]] = {
        "round": _round,
        "abs": abs,
        "min": _min,
        "max": _max,
        "floor": math.floor,
        "ceil": math.ceil,
    }
    evaluator = SimpleEval(functions=functions, names={**constants, **inputs})
    return {name: _safe(evaluator, expr) for name, expr in outputs.items()}


def _safe(evaluator: SimpleEval, expr: str) -> Any:
    try:
        value = evaluator.eval(expr)
    except (ZeroDivisionError, TypeError, ValueError, KeyError, OverflowError, InvalidExpression):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
