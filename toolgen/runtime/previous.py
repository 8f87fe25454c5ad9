"""Computed figures that read the previous row: ``prev(name)`` in an operation's ``computed``.

"kWh per day between meter readings" is a figure of two rows, ``reading - prev(reading)``. The previous row is the
one before in the entity's own order: by its ``date`` field when it has one (else, for figures, the operation's
``period_field``), then by creation; the first row has none, and prev() is None there. That order is not a list's
(a page may be sorted by anything, and holds one page), so prev is read over the rows the figures read, the newest
``bounds.FIGURE_ROWS``, in one pass oldest first: each row's figures are computed once, with the row before's values
(its fields, and its computed figures listed before, which prev may name: program.py checks it). A row older than
that window has no previous row to read, and prev() is None there too.
What it costs: an expression over one row takes 10-30 us, so ten figures over the 2,000 rows about 0.5 s at most,
once per write for figures (figures.py keeps them); a list computes over that window only the figures prev names
(none when it names fields only: then it is a sort of the rows the window reads).
"""

from __future__ import annotations

import ast
import datetime as dt
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from toolgen.runtime import expressions

PREV = "prev"


@lru_cache(maxsize=512)
def _read_before(expr: str) -> frozenset[str]:
    """The names ``expr`` reads on the previous row: its prev() arguments."""
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return frozenset()
    return frozenset(
        node.args[0].id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == PREV
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
    )


def uses_prev(computed: dict[str, str]) -> bool:
    """Whether any of the figures reads the previous row."""
    return any(PREV in expr and _read_before(expr) for expr in computed.values())


def order_field(entity: Any, period_field: str | None = None) -> str | None:
    """The date field rows are ordered by for prev(), the same for a list and for figures: ``date``, else the figures'
    period field, else the entity's first date field; None: by creation alone."""
    dates = [name for name, spec in entity.fields.items() if spec.type == "date"]
    if "date" in dates:
        return "date"
    if period_field in dates:
        return period_field
    return dates[0] if dates else None


def in_order(rows: list[dict[str, Any]], field: str | None) -> list[dict[str, Any]]:
    """``rows`` (given oldest first by creation, as a figure reads them) in the entity's order: by ``field``, a
    date, when there is one (a row without one first), then by creation."""
    if field is None:
        return list(rows)
    return sorted(rows, key=lambda r: str(r.get(field) or ""))  # stable: creation order breaks the ties


def computed(
    rows: list[dict[str, Any]],
    figures: dict[str, str],
    names: dict[str, Any],
    today: dt.date,
    *,
    fields: Iterable[str] = (),
) -> dict[str, dict[str, Any]]:
    """Each row's figures by its id, over ``rows`` in order (in_order), each with the row before's values."""
    found: dict[str, dict[str, Any]] = {}
    before: dict[str, Any] | None = None
    for row in rows:
        values = expressions.row_values(figures, row, names, today=today, fields=fields, previous=before)
        found[row["id"]] = values
        before = {**row, **values}
    return found


def previous_rows(
    rows: list[dict[str, Any]],
    figures: dict[str, str],
    names: dict[str, Any],
    today: dt.date,
    *,
    fields: Iterable[str] = (),
) -> dict[str, dict[str, Any] | None]:
    """The values prev() reads for each row of ``rows`` (in order) by its id: the row before's fields and those of
    its figures that prev names (none for the first). One pass; only the figures prev reads are computed in it."""
    wanted = {name for expr in figures.values() for name in _read_before(expr)}
    for name in reversed(list(figures)):  # a figure prev reads may read others on its own previous row
        if name in wanted:
            wanted |= _read_before(figures[name])
    # what prev reads, and every figure before the last of them (a figure may read those before it, in turn)
    last = max((i for i, name in enumerate(figures) if name in wanted), default=-1)
    needed = dict(list(figures.items())[: last + 1])
    reads = {name for expr in figures.values() for name in _read_before(expr)}  # all prev may ask of a row before
    work = expressions.Work(expressions.MAX_WORK)  # one budget for the whole window, as an aggregate has
    previous: dict[str, dict[str, Any] | None] = {}
    before: dict[str, Any] | None = None
    for row in rows:
        previous[row["id"]] = None if before is None else {k: v for k, v in before.items() if k in reads}
        values = (
            expressions.row_values(needed, row, names, today=today, fields=fields, previous=before, work=work)
            if needed
            else {}
        )
        before = {**row, **values}
    return previous
