"""Values read off rows as people left them, and the rounding that keeps what is learnt stable.

Rows come from people and from earlier revisions of a tool: a field may be absent, empty, of another type, out of
its range or nonsense. Each reader answers None for anything it cannot read, never an exception, so one bad row
costs its own evidence and nothing else. Figures are rounded to what a person would say ("about 5 km", "06:30"),
which is also what keeps a pattern's value the same while the habit behind it is.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Sequence
from typing import Any

TIME = re.compile(r"(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?")
DAY = 1440  # minutes
MAX_MAGNITUDE = 1e12  # past any figure a person logs; also keeps sums of many rows finite
HISTORY_DAYS = 3650  # a date more than ten years back is a typo, not a habit


def minutes(value: Any) -> int | None:
    """Minutes after midnight of an "HH:MM" (or "HH:MM:SS") time."""
    if not isinstance(value, str):
        return None
    hit = TIME.fullmatch(value.strip())
    if hit is None:
        return None
    hours, mins = int(hit.group(1)), int(hit.group(2))
    return hours * 60 + mins if hours < 24 and mins < 60 else None


def clock(total: int) -> str:
    """ "HH:MM" of minutes after midnight (past midnight wraps to the next day's)."""
    total %= DAY
    return f"{total // 60:02d}:{total % 60:02d}"


def day(value: Any, today: dt.date) -> dt.date | None:
    """The date of an ISO date (or date-time) no later than ``today`` and no older than HISTORY_DAYS."""
    if not isinstance(value, str) or len(value) < 10:
        return None
    try:
        found = dt.date.fromisoformat(value[:10])
    except ValueError:
        return None
    return found if 0 <= (today - found).days <= HISTORY_DAYS else None


def number(value: Any, low: float | None = None, high: float | None = None) -> float | None:
    """A finite number (a numeric string too) within the field's range, if it has one."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    if isinstance(value, str) and len(value) > 40:
        return None
    try:
        found = float(value)
    except (ValueError, OverflowError):  # float(10**400) overflows
        return None
    if not math.isfinite(found) or abs(found) > MAX_MAGNITUDE:
        return None
    if (low is not None and found < low) or (high is not None and found > high):
        return None
    return found


def week_of(date: dt.date) -> dt.date:
    """The Monday of the week ``date`` is in (weeks as the runtime's period figures count them)."""
    return date - dt.timedelta(days=date.weekday())


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def quantile(ordered: list[float], share: float) -> float:
    """The ``share`` quantile of sorted values, interpolated between neighbours."""
    at = (len(ordered) - 1) * share
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def step_for(typical: float, *, whole: bool = False) -> float:
    """A rounding step about a tenth of ``typical``: 1, 2.5 or 5 times a power of ten (5.2 km: 0.5; 250 ml: 25)."""
    size = abs(typical) / 10
    if size == 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(size))
    lead = size / power
    step = float(f"{power * min((1, 2.5, 5, 10), key=lambda nice: abs(math.log(lead / nice))):.12g}")
    return max(step, 1.0) if whole else step


def decimals(step: float) -> int:
    """The decimals a figure on a grid of ``step`` needs at most (0.5: 1, 0.25: 2, 25: 0)."""
    places = 0
    while places < 12 and round(step, places) != step:
        places += 1
    return places


def on_grid(value: float, step: float) -> str:
    """A figure rounded to ``step``, shown with the decimals of the step's power of ten and any more it needs:
    4.0 and 6.5 for 0.5, 2.0 and 2.25 for 0.25, 250 for 25."""
    places = max(0, -math.floor(math.log10(step) + 1e-9))
    while places < decimals(step) and round(value, places) != round(value, decimals(step)):
        places += 1
    return f"{value:.{places}f}"


def floor_to(value: float, step: float) -> float:
    return round(math.floor(value / step + 1e-9) * step, decimals(step))


def ceil_to(value: float, step: float) -> float:
    return round(math.ceil(value / step - 1e-9) * step, decimals(step))


def nice(value: float) -> float:
    """A figure a person would pick: two figures, the second 0 or 5 unless the first is 1 (21 -> 20, 23 -> 25,
    13.6 -> 14, 8.3 -> 8.5)."""
    if value <= 0:
        return 0.0
    power = 10 ** math.floor(math.log10(value))
    step = power * (0.1 if value / power < 2 else 0.5)
    places = max(0, -math.floor(math.log10(step) + 1e-9))
    return round(math.floor(value / step + 0.5) * step, places)  # half up: 165 is 170, as people round


def shown(value: float) -> str:
    """A figure as text with as few decimals as it needs (20.0 -> "20", 2.5 -> "2.5")."""
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
