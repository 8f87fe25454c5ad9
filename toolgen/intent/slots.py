"""Slot extraction: cities, units, metrics, times and names pulled out of a request's text."""

from __future__ import annotations

import re
from typing import Any

from toolgen.intent.gazetteer import CITIES, DIMENSION_WORDS, UNITS

_ZH_DIGITS = {
    "零": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}


def is_chinese(text: str) -> bool:
    """True when the text holds any CJK ideograph."""
    return bool(re.search(r"[\u4e00-\u9fff]", text))


def _city_aliases() -> list[tuple[str, str]]:
    pairs = []
    for name, (zh, _lat, _lon, extra) in CITIES.items():
        pairs += [(name.lower(), name), (zh, name)] + [(a, name) for a in extra]
    return sorted(pairs, key=lambda p: -len(p[0]))


_CITY_ALIASES = _city_aliases()


def _find(text: str, aliases: list[tuple[str, str]]) -> list[str]:
    """Canonical names whose aliases occur in ``text``, in the order they occur, each once.

    ``aliases`` are tried longest first and a matched span is not matched again, so 公里 is not also read as 里
    and "new york" not also as "york". English aliases match whole words only.
    """
    lowered = text.lower()
    found: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []
    for alias, name in aliases:
        pattern = re.escape(alias) if is_chinese(alias) else rf"(?<![a-z°]){re.escape(alias)}(?![a-z])"
        for m in re.finditer(pattern, lowered):
            if not any(s < m.end() and m.start() < e for s, e in taken):
                taken.append((m.start(), m.end()))
                found.append((m.start(), name))
    return list(dict.fromkeys(name for _, name in sorted(found)))


def find_cities(text: str) -> list[str]:
    """Known cities in the order the text names them, each once."""
    return _find(text, _CITY_ALIASES)


def _unit_aliases() -> list[tuple[str, str]]:
    pairs = []
    for unit, (_dim, _scale, _offset, en, zh) in UNITS.items():
        pairs += [(a, unit) for a in en + zh]
    return sorted(pairs, key=lambda p: -len(p[0]))


_UNIT_ALIASES = _unit_aliases()


def find_units(text: str) -> list[str]:
    """Units named in the text, in order (mm is not read as m, nor 公里 as 里)."""
    return _find(text, _UNIT_ALIASES)


def find_dimension(text: str, units: list[str]) -> str | None:
    """The physical dimension a conversion is about: from its units, else from words like 'weight'."""
    if units:
        return UNITS[units[0]][0]
    lowered = text.lower()
    for dimension, words in DIMENSION_WORDS.items():
        if any(w in lowered for w in words):
            return dimension
    return None


def weather_metric(text: str) -> tuple[str, str]:
    """(metric, order): which forecast figure to rank by and whether highest comes first."""
    t = text.lower()
    if re.search(r"rain|wet|precipitation|雨|降水", t):
        return "precipitation", "desc"
    if re.search(r"wind|风", t):
        return "wind", "desc"
    if re.search(r"cold|cool|最冷|最低|低温", t):
        return "temp_min", "asc"
    return "temp_max", "desc"


def find_time(text: str) -> str | None:
    """A clock time the text names ("6:30", "7 am", "早上6点半"), as HH:MM."""
    t = text.lower()
    m = re.search(r"\b(\d{1,2}):(\d{2})\s*(am|pm)?", t)
    if m:
        hour, minute, half = int(m.group(1)), int(m.group(2)), m.group(3)
    else:
        m = re.search(r"\b(\d{1,2})\s*(am|pm|a\.m\.|p\.m\.)", t)
        if m:
            hour, minute, half = int(m.group(1)), 0, m.group(2)[0] + "m"
        else:
            return _find_zh_time(text)
    if half == "pm" and hour < 12:
        hour += 12
    if half == "am" and hour == 12:
        hour = 0
    return f"{hour:02d}:{minute:02d}" if hour < 24 and minute < 60 else None


def _zh_number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    if token in _ZH_DIGITS:
        return _ZH_DIGITS[token]
    if token.startswith("十") and len(token) == 2 and token[1] in _ZH_DIGITS:
        return 10 + _ZH_DIGITS[token[1]]
    return None


def _find_zh_time(text: str) -> str | None:
    m = re.search(
        r"(早上|上午|晚上|下午|中午|凌晨)?\s*([0-9]{1,2}|十[一二]?|[一二两三四五六七八九十])\s*点\s*(半|[0-9]{1,2}分?)?",
        text,
    )
    if not m:
        return None
    hour = _zh_number(m.group(2))
    if hour is None:
        return None
    minute = 30 if m.group(3) == "半" else int(re.sub(r"\D", "", m.group(3) or "") or 0)
    if m.group(1) in ("晚上", "下午") and hour < 12:
        hour += 12
    return f"{hour:02d}:{minute:02d}" if hour < 24 and minute < 60 else None


def time_of_day(text: str) -> str | None:
    """'morning', 'evening' or None, from words like 'morning', '晨跑', '夜跑'."""
    t = text.lower()
    if re.search(r"morning|dawn|sunrise|早上|早晨|清晨|晨跑|上午", t):
        return "morning"
    if re.search(r"evening|night|after work|晚上|夜跑|傍晚|下班", t):
        return "evening"
    return None


def habit_names(text: str) -> list[str]:
    """Habits named after 'habit of', 'track', '打卡' and similar ('drink water', '读书')."""
    known = {
        "meditate": ("meditat", "冥想"),
        "read": ("read", "读书", "阅读"),
        "drink water": ("water", "喝水"),
        "exercise": ("exercise", "workout", "锻炼", "健身"),
        "stretch": ("stretch", "拉伸"),
        "journal": ("journal", "日记"),
        "floss": ("floss", "牙线"),
        "sleep early": ("sleep early", "早睡"),
        "practice": ("practice", "practise", "练习"),
        "walk": ("walk", "散步"),
    }
    t = text.lower()
    return [name for name, cues in known.items() if any(c in t for c in cues)]


def amounts(text: str) -> list[float]:
    """Plain numbers in the text, in order (for goals and values)."""
    return [float(x) for x in re.findall(r"(?<![\d:])(\d+(?:\.\d+)?)(?![\d:])", text)]


def extract(archetype: str | None, text: str) -> dict[str, Any]:
    """The slots an archetype reads from ``text``; slots the text does not give are left out."""
    slots: dict[str, Any] = {}
    if archetype == "weather_ranking":
        slots["cities"] = find_cities(text)
        slots["metric"], slots["order"] = weather_metric(text)
    elif archetype == "unit_converter":
        units = find_units(text)
        dimension = find_dimension(text, units)
        units = [u for u in units if UNITS[u][0] == dimension]
        if dimension:
            slots["dimension"] = dimension
        if units:
            slots["units"] = units
    elif archetype == "run_log":
        if (when := time_of_day(text)) is not None:
            slots["time_of_day"] = when
        if (start := find_time(text)) is not None:
            slots["start"] = start
    elif archetype == "habit_tracker" and (names := habit_names(text)):
        slots["habits"] = names
    return slots
