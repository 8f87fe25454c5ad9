"""Rows over the calendar: totals per day or week, and streaks of days, as plain numbers; and which of a
program's fields dates its rows and which of its figures total a field against a goal.

Only periods that are over count (this week is not, whatever it holds so far), and only recent ones: what a person
does now, not what they did last spring. Periods are weeks from Monday, as the runtime's period figures count them.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections import defaultdict
from dataclasses import dataclass
from typing import Literal

from toolgen.learn import readings
from toolgen.program import AggregateOp, ToolProgram

Period = Literal["day", "week"]


def start_of(date: dt.date, period: Period) -> dt.date:
    return readings.week_of(date) if period == "week" else date


def _step(period: Period) -> dt.timedelta:
    return dt.timedelta(days=7 if period == "week" else 1)


def totals(
    dated: list[tuple[dt.date, float]], today: dt.date, period: Period, recent: int, *, empty: bool
) -> list[tuple[dt.date, float]]:
    """(start, total) of the last ``recent`` periods before today's, oldest first. ``empty``: periods without rows
    count too (as 0), from the first period with one (a tool used for two weeks has two weeks, not eight missed)."""
    current = start_of(today, period)
    step = _step(period)
    try:
        first = current - step * recent
    except OverflowError:  # a today near the first date there is
        return []
    sums: dict[dt.date, float] = defaultdict(float)
    for date, value in dated:
        begins = start_of(date, period)
        if first <= begins < current:
            sums[begins] += value
    if not empty:
        return sorted(sums.items())
    if not sums:
        return []
    found, begins = [], min(sums)
    while begins < current:
        found.append((begins, sums.get(begins, 0.0)))
        begins += step
    return found


@dataclass(frozen=True)
class Streaks:
    """The days in a row with rows: the one going on (ending today or yesterday) and the longest ever seen."""

    days: int  # distinct days with rows
    current: int
    current_from: dt.date | None
    longest: int
    longest_from: dt.date | None
    longest_to: dt.date | None
    last: dt.date | None  # the last day with a row


def streaks(days: set[dt.date], today: dt.date) -> Streaks:
    """The current and the longest run of consecutive days among ``days`` (none later than today)."""
    ordered = sorted(days)
    if not ordered:
        return Streaks(0, 0, None, 0, None, None, None)
    longest, longest_from, longest_to = 1, ordered[0], ordered[0]
    run_from, run = ordered[0], 1
    for before, date in itertools.pairwise(ordered):
        if (date - before).days == 1:
            run += 1
        else:
            run_from, run = date, 1
        if run > longest:  # the earliest of equally long runs stays the longest
            longest, longest_from, longest_to = run, run_from, date
    last = ordered[-1]
    alive = (today - last).days <= 1  # today's row may not be written yet
    return Streaks(
        days=len(ordered),
        current=run if alive else 0,
        current_from=run_from if alive else None,
        longest=longest,
        longest_from=longest_from,
        longest_to=longest_to,
        last=last,
    )


def date_field(program: ToolProgram, entity: str) -> str | None:
    """The field that dates a row: the one the tool's period figures use, else "date", else the first date field."""
    fields = program.entities[entity].fields
    dates = [name for name, spec in fields.items() if spec.type == "date"]
    for op in program.operations:
        if isinstance(op, AggregateOp) and op.entity == entity and op.period and op.period_field in dates:
            return op.period_field
    return "date" if "date" in dates else next(iter(dates), None)


def goal_of(op: AggregateOp) -> float | None:
    """The figure's goal constant when it is a number (a goal written as text is not one to count against)."""
    goal = op.constants.get("goal")
    return None if isinstance(goal, str) else readings.number(goal)


def goal_field(program: ToolProgram, op: AggregateOp) -> str | None:
    """The number field an aggregate's figures total ("round(sum(distance), 2)" totals distance), if one."""
    fields = program.entities[op.entity].fields
    for expr in op.metrics.values():
        for name, spec in fields.items():
            if spec.type in ("number", "integer") and f"sum({name})" in expr.replace(" ", ""):
                return name
    return None
