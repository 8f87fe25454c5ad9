"""The worst cases plan check allows an expression, timed (SECURITY.md, "Expressions are bounded by construction").

One 300-character expression over a caller's inputs; 20 of them over 10,000-item list inputs (issue 31: item-by-item
arithmetic, bounded by the list items one evaluation may walk); an aggregate's metrics over 10,000 rows at the most
row passes plan check allows; and, for the known gap, what grows with a person's rows instead. Run:
``python bench/expressions.py`` (best of three, milliseconds).
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from typing import Any

from toolgen.program import AGGREGATE_FUNCTIONS, COMPUTE_FUNCTIONS, MAX_EXPR, check_expression, check_row_passes
from toolgen.runtime.expressions import aggregate, compute, row_values

TODAY = dt.date(2026, 12, 2)
INPUTS = {"x": 10**15, "y": 999999.5, "s": "x" * 2000, "d": "2026-12-31"}
SCALAR = {
    "text repeated to simpleeval's bound": "s * 50 + ",
    "float powers": "y ** 99999.0 * ",
    "integer powers near 2 ** 1024": "3 ** 600 * ",
    "integer products": "x * ",
    "round at its most digits": "round(y, 15) + ",
    "working days to a date": "workdays_until(d) + ",
    "text search": "(s * 50) in (s * 50) or ",
}
LISTS = {"xs": [3] * 10_000, "ys": [i * 0.37 for i in range(10_000)]}
LIST_UNITS = {
    "whole-number products": "xs * ",
    "whole-number powers": "xs ** 600 + ",
    "sums of lists": "sum(ys) + ",
    "weighted sums": "sumproduct(xs, ys) + ",
}
COLUMNS = [f"c{i}" for i in range(30)]
ROWS = [{"n": 3} | {c: f"p{i}" if j % 2 == 0 else i * 0.37 for j, c in enumerate(COLUMNS)} for i in range(10_000)]


def best_ms(run: Callable[[], Any], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times) * 1000


def filled(unit: str) -> str:
    """``unit`` repeated up to the length plan check allows (its trailing operator dropped)."""
    text = unit
    while len(text + unit) <= MAX_EXPR:
        text += unit
    return text.rsplit(" ", 2)[0]


def main() -> None:
    for label, unit in SCALAR.items():
        expr = filled(unit)
        check_expression(expr, set(INPUTS), COMPUTE_FUNCTIONS)
        ms = best_ms(lambda expr=expr: compute({"o": expr}, INPUTS, {}, today=TODAY))
        print(f"{ms:8.2f} ms  {label} ({len(expr)} characters)")
    for label, unit in LIST_UNITS.items():
        expr = filled(unit)
        check_expression(expr, set(LISTS), COMPUTE_FUNCTIONS)
        outputs = {f"o{i}": expr for i in range(20)}
        ms = best_ms(lambda outputs=outputs: compute(outputs, LISTS, {}, today=TODAY))
        print(f"{ms:8.2f} ms  20 outputs of {label} over 10,000-item lists ({len(expr)} characters each)")
    pairs = list(zip(COLUMNS[::2], COLUMNS[1::2], strict=True))
    heaviest = {
        "9 distinct settles, 10,000 distinct payers": [f"count(settle({a}, {b}))" for a, b in pairs[:9]],
        "100 distinct passes of count_where": [
            " + ".join(f"count_where({c}, {m})" for c in COLUMNS[m : m + 5]) for m in range(20)
        ],
        "50 distinct column products, each summed": [
            " + ".join(f"sum({c} * {m})" for c in COLUMNS[1::2][:5]) for m in range(10)
        ],
        "16 distinct whole-number column powers, each summed": [
            " + ".join(f"sum(n ** {600 - m * 4 - k})" for k in range(4)) for m in range(4)
        ],
    }
    for label, exprs in heaviest.items():
        for expr in exprs:
            check_expression(expr, {*COLUMNS, "n"}, AGGREGATE_FUNCTIONS)
        check_row_passes("bench", exprs)
        metrics = {f"m{i}": e for i, e in enumerate(exprs)}
        print(f"{best_ms(lambda m=metrics: aggregate(m, ROWS, [*COLUMNS, 'n'], today=TODAY)):8.2f} ms  {label}")
    # the known gap: per-row figures cost what the expression costs, times the rows
    rows = [{"date": (TODAY - dt.timedelta(days=i % 3000)).isoformat(), "amount": i} for i in range(10_000)]
    computed = {f"c{i}": "days_until(date) + amount * 2" for i in range(10)}
    ms = best_ms(lambda: [row_values(computed, r, {}, today=TODAY) for r in rows], 1)
    print(f"{ms:8.0f} ms  a list's 10 short computed fields over 10,000 rows (known gap)")


if __name__ == "__main__":
    main()
