"""Patterns in a tool's rows: what a person does with the tool, read with no I/O (issue 16, "learn from use").

"80% of my runs were between 6 and 8 AM" is a pattern: a kind (the time of day), what it is about (the run's start
time), what holds (06:00-08:00), how many rows show it out of how many were looked at, and the evidence in the
tool's own language. The platform keeps each pattern as a memory keyed by ``Pattern.key``: a pattern whose value
changes supersedes the old one, so a value says only *what* holds, never how often it has been seen.

Every pattern needs enough evidence (the thresholds below say why each is what it is), and none is found twice.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

from toolgen.learn import readings, words
from toolgen.learn.periods import Period, date_field, goal_field, goal_of, streaks, totals
from toolgen.planner.requested import _additive
from toolgen.program import AggregateOp, Entity, ToolProgram, is_limit

MIN_ROWS = 5  # four runs could be one keen week; five is past what one good week holds for most habits
WINDOW_SHARE = 0.7  # "most": seven in ten; five in ten is a coin toss, not a habit
WINDOW_HOURS = 2  # wide enough for a habit's wobble (06:05 and 07:50 are one morning run), narrow enough to set by
ROUND_MINUTES = 15  # a time a person would set a default to: a quarter hour
MIN_WEEKS = 3  # one week is a schedule and two may be chance; a rhythm over weeks needs three
WEEKDAY_SHARE = 0.7  # as for times of day
MAX_WEEKDAYS = 4  # five days or more hold 70% of almost any steady use: that is most of the week, not a rhythm
RECENT_WEEKS = 8  # weekly totals and goals over the last two months: what the person does now
RECENT_DAYS = 14  # daily goals over the last two weeks
MIN_PERIODS = 3  # as MIN_WEEKS, for goals counted over days or weeks
GOAL_SHARE = 0.7  # met (or missed) in seven periods of ten; in between, neither holds
MIN_STREAK = 3  # a streak going on: two days in a row happen by chance, three are a start worth naming
MIN_BREAK = 5  # a broken streak is news only when it took effort: five days or more
LOW, HIGH = 0.1, 0.9  # "mostly": the tenth to the ninetieth percentile, past the odd long run or typo


@dataclass(frozen=True)
class Pattern:
    kind: str  # "time_of_day" | "weekday" | "typical" | "weekly_total" | "streak" | "goal"
    entity: str
    field: str  # the field it is about ("start", "distance"; "date" for weekday and streak)
    value: str  # what holds, stable while the pattern holds: "06:00-08:00", "mon,wed,fri", "4.0-6.5"
    count: int  # rows (days, weeks) that show it
    total: int  # rows (days, weeks) looked at
    evidence: str  # in the tool's language: "8 of 10 runs had a start time between 06:00 and 08:00"
    data: dict[str, Any]  # what a suggestion needs: {"typical": "06:30"}, {"median": 5.2}, {"weekly": 21.0}

    @property
    def key(self) -> str:
        return f"{self.kind}.{self.entity}.{self.field}"


@dataclass(frozen=True)
class _Tool:
    """What every miner reads: the program, the entity mined, its rows and how the tool names them."""

    program: ToolProgram
    entity: str
    body: Entity
    rows: list[dict[str, Any]]
    today: dt.date
    said: words.Rows
    read: dict[str, list[dt.date | None]] = dataclasses.field(default_factory=dict)

    def pattern(self, kind: str, field: str, value: str, count: int, total: int, evidence: str, **data: Any) -> Pattern:
        return Pattern(kind, self.entity, field, value, count, total, evidence, data)

    def numbers(self, field: str) -> list[float | None]:
        spec = self.body.fields[field]
        return [readings.number(row.get(field), spec.minimum, spec.maximum) for row in self.rows]

    def days(self, dated_by: str) -> list[dt.date | None]:
        """Each row's date (None where it has none), read once per field: several patterns need them."""
        if dated_by not in self.read:
            self.read[dated_by] = [readings.day(row.get(dated_by), self.today) for row in self.rows]
        return self.read[dated_by]

    def dated(self, dated_by: str, field: str) -> list[tuple[dt.date, float]]:
        pairs = zip(self.days(dated_by), self.numbers(field), strict=True)
        return [(d, v) for d, v in pairs if d is not None and v is not None]


def mine(
    program: ToolProgram, rows: list[dict[str, Any]], today: dt.date, *, entity: str | None = None
) -> list[Pattern]:
    """The patterns ``rows`` of ``entity`` (the tool's first, by default) show, each once, oldest rows first."""
    name = entity or next(iter(program.entities), None)
    if name is None or name not in program.entities:
        return []
    body = program.entities[name]
    tool = _Tool(program, name, body, [r for r in rows if isinstance(r, dict)], today, words.rows_of(program, name))
    dated_by = date_field(program, name)
    found: list[Pattern | None] = []
    for field, spec in body.fields.items():
        if spec.type == "time":
            found.append(_time_of_day(tool, field))
        elif spec.type in ("number", "integer"):
            found.append(_typical(tool, field))
            if dated_by and _additive(field):
                found.append(_weekly_total(tool, dated_by, field))
    if dated_by:
        days = tool.days(dated_by)
        found += [_weekday(tool, dated_by, [d for d in days if d]), _streak(tool, dated_by, days)]
    found += [_goal(tool, op) for op in program.operations if isinstance(op, AggregateOp) and op.entity == name]
    unique: dict[str, Pattern] = {}
    for pattern in found:
        if pattern is not None:
            unique.setdefault(pattern.key, pattern)
    return list(unique.values())


def _time_of_day(tool: _Tool, field: str) -> Pattern | None:
    """The two-hour window, on the hour, holding most rows' times, with its typical time (wraps past midnight)."""
    times = [m for m in (readings.minutes(row.get(field)) for row in tool.rows) if m is not None]
    if len(times) < MIN_ROWS:
        return None
    hours = Counter(m // 60 for m in times)

    def held(hour: int) -> int:
        return sum(hours[(hour + i) % 24] for i in range(WINDOW_HOURS))

    most = max(held(hour) for hour in range(24))

    def typical(hour: int) -> float:
        """The median time in the window from ``hour`` (a time past midnight counts as the day's end)."""
        inside = [m if m >= hour * 60 else m + readings.DAY for m in times if (m // 60 - hour) % 24 < WINDOW_HOURS]
        return readings.median([float(m) for m in inside])

    # ties (06:05 to 06:45 is inside 05:00-07:00 and 06:00-08:00): the window beginning in its typical time's hour
    start = min((h for h in range(24) if held(h) == most), key=lambda h: (abs(typical(h) - (h * 60 + 30)), h))
    count = held(start)
    if count < WINDOW_SHARE * len(times):
        return None
    usual = math.floor(typical(start) / ROUND_MINUTES + 0.5) * ROUND_MINUTES
    begin, end = readings.clock(start * 60), readings.clock((start + WINDOW_HOURS) * 60)
    named = words.field_of(tool.program, tool.body, field)
    evidence = words.time_evidence(tool.said, named, count, len(times), begin, end)
    return tool.pattern(
        "time_of_day", field, f"{begin}-{end}", count, len(times), evidence, typical=readings.clock(usual)
    )


def _weekday(tool: _Tool, field: str, days: list[dt.date]) -> Pattern | None:
    """The fewest weekdays holding most rows, when the rows span weeks and those days are not most of the week."""
    if len(days) < MIN_ROWS or len({readings.week_of(d) for d in days}) < MIN_WEEKS:
        return None
    counts = Counter(d.weekday() for d in days)
    chosen: list[int] = []
    for weekday, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        if sum(counts[d] for d in chosen) >= WEEKDAY_SHARE * len(days):
            break
        chosen.append(weekday)
    if len(chosen) > MAX_WEEKDAYS:
        return None
    chosen.sort()
    count = sum(counts[d] for d in chosen)
    value = ",".join(words.WEEKDAYS_EN[d][:3].lower() for d in chosen)
    return tool.pattern(
        "weekday", field, value, count, len(days), words.weekday_evidence(tool.said, count, len(days), chosen)
    )


def _typical(tool: _Tool, field: str) -> Pattern | None:
    """The median and the range most values fall in, rounded to about a tenth of the median."""
    values = sorted(v for v in tool.numbers(field) if v is not None)
    if len(values) < MIN_ROWS:
        return None
    middle = readings.median(values)
    step = readings.step_for(middle, whole=tool.body.fields[field].type == "integer")
    low = readings.floor_to(readings.quantile(values, LOW), step)
    high = readings.ceil_to(readings.quantile(values, HIGH), step)
    count = sum(1 for v in values if low <= v <= high)
    shown = [readings.on_grid(x, step) for x in (low, high)]
    value = shown[0] if low == high else f"{shown[0]}-{shown[1]}"
    named = words.field_of(tool.program, tool.body, field)
    middle_shown = readings.on_grid(middle, step)
    evidence = words.typical_evidence(tool.said, named, count, len(values), middle_shown, *shown)
    return tool.pattern(
        "typical",
        field,
        value,
        count,
        len(values),
        evidence,
        median=round(middle, readings.decimals(step) + 1),
        low=low,
        high=high,
    )


def _weekly_total(tool: _Tool, dated_by: str, field: str) -> Pattern | None:
    """The median weekly total of an additive field, over recent complete weeks with rows."""
    weeks = totals(tool.dated(dated_by, field), tool.today, "week", RECENT_WEEKS, empty=False)
    if len(weeks) < MIN_WEEKS:
        return None
    weekly = readings.median([total for _, total in weeks])
    if weekly <= 0:
        return None
    value = readings.shown(readings.nice(weekly))
    named = words.field_of(tool.program, tool.body, field)
    evidence = words.weekly_evidence(tool.said, named, len(weeks), value)
    return tool.pattern(
        "weekly_total",
        field,
        value,
        len(weeks),
        len(weeks),
        evidence,
        weekly=round(weekly, 2),
        nice=readings.nice(weekly),
        weeks=len(weeks),
    )


def _streak(tool: _Tool, field: str, days: list[dt.date | None]) -> Pattern | None:
    """The streak of days going on, or the longest one when it ended and nothing came after it."""
    seen = streaks({d for d in days if d is not None}, tool.today)
    data = {"current": seen.current, "longest": seen.longest}
    if seen.current >= MIN_STREAK and seen.current_from is not None:
        evidence = words.streak_evidence(tool.said, seen.current, seen.current_from)
        return tool.pattern(
            "streak",
            field,
            f"since {seen.current_from.isoformat()}",
            seen.current,
            seen.days,
            evidence,
            **data,
            since=seen.current_from.isoformat(),
        )
    ended = seen.longest_to
    if ended is None or seen.longest < MIN_BREAK or seen.last != ended or seen.current:
        return None
    since = (tool.today - ended).days
    evidence = words.break_evidence(tool.said, seen.longest, ended)
    return tool.pattern(
        "streak",
        field,
        f"ended {ended.isoformat()}",
        seen.longest,
        seen.days,
        evidence,
        **data,
        ended=ended.isoformat(),
        days_since=since,
    )


def _goal(tool: _Tool, op: AggregateOp) -> Pattern | None:
    """For a daily or weekly figure with a goal: in how many recent periods its total reached the goal."""
    goal = goal_of(op)
    field = goal_field(tool.program, op)
    if field is None or op.period not in ("day", "week") or op.where or goal is None or goal <= 0:
        return None
    period: Period = op.period
    recent = RECENT_WEEKS if period == "week" else RECENT_DAYS
    capped = is_limit(
        op
    )  # a limit is kept while the total stays under it: on days with rows (an empty one says nothing)
    periods = totals(tool.dated(op.period_field, field), tool.today, period, recent, empty=not capped)
    if len(periods) < MIN_PERIODS:
        return None
    met = sum(1 for _, total in periods if (total <= goal if capped else total >= goal))
    held = met >= GOAL_SHARE * len(periods)
    if not held and len(periods) - met < GOAL_SHARE * len(periods):
        return None
    count = met if held else len(periods) - met
    shown = readings.shown(goal)
    named = words.field_of(tool.program, tool.body, field)
    evidence = words.goal_evidence(tool.said.zh, named, period, shown, held, count, len(periods), limit=capped)
    return tool.pattern(
        "goal",
        field,
        f"{'met' if held else 'missed'} {shown}",
        count,
        len(periods),
        evidence,
        goal=goal,
        period=period,
        met=met,
        periods=len(periods),
    )
