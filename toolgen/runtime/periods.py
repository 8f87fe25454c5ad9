"""Calendar periods of an aggregate: the current day, ISO week, month or year (``period``), and the latest few of
them in turn (``series``: "average pace each week", "kWh per month").

A series answers every period from the first of its window that has rows to the current one, empty ones included
(their figures are what the metrics say of no rows: a sum 0, an average null), so a chart of it has no gaps and
its x-axis is the calendar, not the days a person happened to write something down. A row dated after the current
period, or not dated, is in no period.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any


def _day(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        return None


def start_of(day: dt.date, period: str) -> dt.date:
    """The first day of the period ``day`` is in (a week starts on Monday, as ISO weeks do)."""
    if period == "day":
        return day
    if period == "week":
        return day - dt.timedelta(days=day.weekday())
    if period == "month":
        return day.replace(day=1)
    return day.replace(month=1, day=1)


def in_period(value: Any, period: str, today: dt.date) -> bool:
    """Whether ``value``, a date, is in the current ``period``."""
    day = _day(value)
    return day is not None and start_of(day, period) == start_of(today, period)


def _before(start: dt.date, period: str) -> dt.date:
    """The first day of the period before the one starting on ``start``."""
    if period in ("day", "week"):
        return start - dt.timedelta(days=1 if period == "day" else 7)
    if period == "month":
        return (start - dt.timedelta(days=1)).replace(day=1)
    return start.replace(year=start.year - 1)


def key(start: dt.date, period: str) -> str:
    """How a period is named: 2026-12-06, 2026-W49 (ISO week and its year), 2026-12, 2026."""
    if period == "day":
        return start.isoformat()
    if period == "week":
        year, week, _ = start.isocalendar()
        return f"{year}-W{week:02d}"
    return f"{start.year}-{start.month:02d}" if period == "month" else str(start.year)


def series(
    rows: list[dict[str, Any]],
    field: str,
    period: str,
    count: int,
    today: dt.date,
    figures: Callable[[list[dict[str, Any]]], dict[str, Any]],
) -> list[dict[str, Any]]:
    """``figures`` of the rows of each of the latest ``count`` periods (the current one included) by the date in
    ``field``, oldest first, from the first that has rows; each row keeps the order it has in ``rows``."""
    starts = [start_of(today, period)]
    while len(starts) < count:
        starts.append(_before(starts[-1], period))
    starts.reverse()
    buckets: dict[dt.date, list[dict[str, Any]]] = {start: [] for start in starts}
    for row in rows:
        day = _day(row.get(field))
        if day is not None:
            buckets.get(start_of(day, period), []).append(row)
    first = next((i for i, start in enumerate(starts) if buckets[start]), len(starts))
    return [
        {"key": key(start, period), "start": start.isoformat(), "metrics": figures(buckets[start])}
        for start in starts[first:]
    ]
