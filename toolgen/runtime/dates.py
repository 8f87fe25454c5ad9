"""The calendar functions an expression may call: ISO dates 'YYYY-MM-DD' in and out, as text.

A date that cannot be read (not a date, a null, a number) gives null, as does a whole-number argument outside what
it means (month 13, weekday 8, a day every 0 days). A count past what a calendar holds (more than MAX_DAYS days or
MAX_MONTHS months, a date after 9999) is OutOfRange, never Python's OverflowError: the caller's 422 where their
inputs made it, null in rows. Every function is a few date operations, whatever its arguments: no loop walks days.
Issue 31 added months, weekdays, the parts of a date and the repeating dates (monthly, weekly, every n days) that
rent, pay days and "every other Tuesday" need. Standard library only (the runtime's cold start imports this).
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Callable
from typing import Any

from toolgen.runtime.arithmetic import OutOfRange

MAX_DAYS = 100_000  # a count of days a function takes: about 270 years
MAX_MONTHS = 12_000  # a count of months: 1,000 years


def parse_date(value: Any, today: dt.date) -> dt.date | None:
    """An ISO date; a bare MM-DD is its next occurrence from ``today``."""
    text = str(value or "")
    try:
        if len(text) == 5 and text[2] == "-":
            day = dt.date(today.year, int(text[:2]), int(text[3:]))
            return day if day >= today else dt.date(today.year + 1, day.month, day.day)
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def whole_number(value: Any) -> int | None:
    """A whole number given as one (3, or 3.0 from a number input), else None (text, a bool, 2.5, null)."""
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    return None


def _count(value: Any, bound: int) -> int | None:
    """A whole count within ``bound`` either way; past it, OutOfRange."""
    count = whole_number(value)
    if count is not None and abs(count) > bound:
        raise OutOfRange(f"a count past {bound}")
    return count


def _shifted(day: dt.date, days: int) -> dt.date:
    try:
        return day + dt.timedelta(days=days)
    except OverflowError as e:
        raise OutOfRange("a date past the calendar") from e


def _clamped(year: int, month: int, day: int) -> dt.date:
    """That day of the month, or the month's last day when it is shorter."""
    if not dt.MINYEAR <= year <= dt.MAXYEAR:
        raise OutOfRange("a date past the calendar")
    return dt.date(year, month, min(day, calendar.monthrange(year, month)[1]))


def _months_later(day: dt.date, months: int) -> dt.date:
    year, month = divmod(day.year * 12 + day.month - 1 + months, 12)
    return _clamped(year, month + 1, day.day)


def _minutes(value: Any) -> int | None:
    """Minutes past midnight of an "HH:MM" time, else None."""
    text = str(value or "")
    if len(text) < 4 or ":" not in text:
        return None
    hours, _, minutes = text.partition(":")
    if not (hours.isdigit() and minutes[:2].isdigit()):
        return None
    return int(hours) * 60 + int(minutes[:2])


def date_functions(today: dt.date) -> dict[str, Callable[..., Any]]:  # noqa: C901 - one closure per function
    """The calendar functions, as of ``today``."""

    def read(value: Any) -> dt.date | None:
        return parse_date(value, today)

    def days_until(value: Any) -> int | None:
        day = read(value)
        return None if day is None else (day - today).days

    def days_since(value: Any) -> int | None:
        day = read(value)
        return None if day is None else (today - day).days

    def add_days(value: Any, days: Any) -> str | None:
        day = read(value)  # any count that stays in the calendar, as always (int() of text or a float included)
        return None if day is None else _shifted(day, int(days)).isoformat()

    def add_months(value: Any, months: Any) -> str | None:
        day, count = read(value), _count(months, MAX_MONTHS)
        return None if day is None or count is None else _months_later(day, count).isoformat()

    def days_between(start: Any, end: Any) -> int | None:
        first, last = read(start), read(end)
        return None if first is None or last is None else (last - first).days

    def months_between(start: Any, end: Any) -> int | None:
        """Whole months: the most m with add_months(start, m) not after end (going back, the fewest not before)."""
        first, last = read(start), read(end)
        if first is None or last is None:
            return None
        months = (last.year - first.year) * 12 + last.month - first.month
        if months > 0 and _months_later(first, months) > last:
            return months - 1
        if months < 0 and _months_later(first, months) < last:
            return months + 1
        return months

    def years_between(start: Any, end: Any) -> int | None:
        first, last = read(start), read(end)
        return None if first is None or last is None else last.year - first.year

    def part(of: Callable[[dt.date], int]) -> Callable[[Any], int | None]:
        def get(value: Any) -> int | None:
            day = read(value)
            return None if day is None else of(day)

        return get

    def date(year: Any, month: Any, day: Any) -> str | None:
        y, m, d = whole_number(year), whole_number(month), whole_number(day)
        if y is None or m is None or d is None or not (dt.MINYEAR <= y <= dt.MAXYEAR and 1 <= m <= 12 and d >= 1):
            return None
        return _clamped(y, m, d).isoformat()

    def next_yearly(value: Any) -> str | None:
        """The next day (today included) on the date's month and day: a birthday's next one."""
        day = read(value)
        return None if day is None else next_occurrence(f"{day.month:02d}-{day.day:02d}", today)

    def next_monthly(day_of_month: Any) -> str | None:
        day = whole_number(day_of_month)
        if day is None or not 1 <= day <= 31:
            return None
        this_month = _clamped(today.year, today.month, day)
        if this_month >= today:
            return this_month.isoformat()
        year, month = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
        return _clamped(year, month, day).isoformat()

    def next_weekly(weekday: Any) -> str | None:
        wanted = whole_number(weekday)
        if wanted is None or not 1 <= wanted <= 7:
            return None
        return _shifted(today, (wanted - today.isoweekday()) % 7).isoformat()

    def next_every(start: Any, days: Any) -> str | None:
        first, step = read(start), _count(days, MAX_DAYS)
        if first is None or step is None or step < 1:
            return None
        behind = (today - first).days
        return (first if behind <= 0 else _shifted(first, -(-behind // step) * step)).isoformat()

    def workdays_until(value: Any) -> int | None:
        """Monday-to-Friday days after today up to the date, the date included (a last day at work)."""
        day = read(value)
        if day is None:
            return None
        span = (day - today).days
        if span <= 0:
            return 0
        weeks, rest = divmod(span, 7)
        return weeks * 5 + sum((today + dt.timedelta(days=weeks * 7 + k)).weekday() < 5 for k in range(1, rest + 1))

    def hours_between(start: Any, end: Any) -> float | None:
        """Hours from one clock time to the next ("23:30" to "07:00" is 7.5: past midnight counts)."""
        first, last = _minutes(start), _minutes(end)
        return None if first is None or last is None else round(((last - first) % 1440) / 60, 2)

    return {
        "today": today.isoformat,
        "date": date,
        "year": part(lambda day: day.year),
        "month": part(lambda day: day.month),
        "day_of_month": part(lambda day: day.day),
        "weekday": part(dt.date.isoweekday),
        "add_days": add_days,
        "add_months": add_months,
        "days_between": days_between,
        "months_between": months_between,
        "years_between": years_between,
        "days_until": days_until,
        "days_since": days_since,
        "workdays_until": workdays_until,
        "next_yearly": next_yearly,
        "next_monthly": next_monthly,
        "next_weekly": next_weekly,
        "next_every": next_every,
        "hours_between": hours_between,
    }


def next_occurrence(mmdd: str, today: dt.date) -> str | None:
    """The next date (today included) falling on month-day ``mmdd``."""
    day = parse_date(mmdd, today)
    return None if day is None else day.isoformat()
