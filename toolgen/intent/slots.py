"""Slot extraction: cities, units, metrics, times and names pulled out of a request's text."""

from __future__ import annotations

import re

from toolgen.intent.gazetteer import (
    CUISINES,
    CURRENCIES,
    DIMENSION_WORDS,
    HOLIDAYS,
    LANGUAGES,
    NOT_UNITS,
    POUND_ALIASES,
    UNITS,
)
from toolgen.intent.numerals import zh_number
from toolgen.knowledge.places import find_places
from toolgen.reading import reader


@reader
def is_chinese(text: str) -> bool:
    """True when the text holds any CJK ideograph."""
    return bool(re.search(r"[\u4e00-\u9fff]", text))


def _find(text: str, aliases: list[tuple[str, str]]) -> list[str]:
    """Canonical names whose aliases occur in ``text``, in the order they occur, each once.

    ``aliases`` are tried longest first and a matched span is not matched again, so 公里 is not also read as 里
    and "new york" not also as "york". English aliases match whole words only.
    """
    lowered = text.lower()
    found: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []
    for alias, name in aliases:
        if alias not in lowered:  # most aliases are not in a request: no pattern to build or run for them
            continue
        pattern = re.escape(alias) if is_chinese(alias) else rf"(?<![a-z°]){re.escape(alias)}(?![a-z])"
        for m in re.finditer(pattern, lowered):
            if not any(s < m.end() and m.start() < e for s, e in taken):
                taken.append((m.start(), m.end()))
                found.append((m.start(), name))
    return list(dict.fromkeys(name for _, name in sorted(found)))


@reader
def find_cities(text: str) -> list[str]:
    """Known cities in the order the text names them, each once, by their English names (toolgen/knowledge/places)."""
    return [place.name for place in find_places(text)]


def _unit_aliases() -> list[tuple[str, str]]:
    pairs = [(word, "") for word in NOT_UNITS]  # taken first, as no unit
    for unit, (_dim, _scale, _offset, en, zh) in UNITS.items():
        pairs += [(a, unit) for a in en + zh]
    return sorted(pairs, key=lambda p: -len(p[0]))


_UNIT_ALIASES = _unit_aliases()


@reader
def find_units(text: str) -> list[str]:
    """Units named in the text, in order (mm is not read as m, nor 公里 as 里, nor 尺寸 as 尺)."""
    return [unit for unit in _find(text, _UNIT_ALIASES) if unit]


def find_dimension(text: str, units: list[str]) -> str | None:
    """The physical dimension a conversion is about: from its units, else from words like 'weight'."""
    if units:
        return UNITS[units[0]][0]
    lowered = text.lower()
    for dimension, words in DIMENSION_WORDS.items():
        if any(w in lowered for w in words):
            return dimension
    return None


@reader
def weather_metric(text: str) -> tuple[str, str]:
    """(metric, order): which forecast figure to rank by and whether highest comes first."""
    t = text.lower()
    # the nicest weather: the driest first, with each place's high beside it
    if re.search(r"\b(nice|nicer|nicest|best|good|great|pleasant|perfect) weather|天气(最?好|不错|最舒服)|好天气", t):
        return "nice", "asc"
    if re.search(r"rain|wet|precipitation|雨|降水", t):
        return "precipitation", "desc"
    if re.search(r"wind|风", t):
        return "wind", "desc"
    if re.search(r"cold|cool|最冷|最低|低温", t):
        return "temp_min", "asc"
    return "temp_max", "desc"


@reader
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
    """A whole number written in digits or Chinese numerals ("八", "十五", "二十三", "三千"): numerals.py reads it."""
    value = zh_number(token)
    return int(value) if value is not None and value.is_integer() else None


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


@reader
def time_of_day(text: str) -> str | None:
    """'morning', 'evening' or None, from words like 'morning', '晨跑', '夜跑'."""
    t = text.lower()
    if re.search(r"morning|dawn|sunrise|早上|早晨|清晨|晨跑|上午", t):
        return "morning"
    if re.search(r"evening|night|after work|晚上|夜跑|傍晚|下班", t):
        return "evening"
    return None


@reader
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


@reader
def amounts(text: str) -> list[float]:
    """Plain numbers in the text, in order (for goals and values)."""
    return [float(x) for x in re.findall(r"(?<![\d:])(\d+(?:\.\d+)?)(?![\d:])", text)]


# --- money, counts, goals -------------------------------------------------------------------------------------


def _currency_aliases(with_pound: bool) -> list[tuple[str, str]]:
    pairs = [(a, code) for code, (en, zh) in CURRENCIES.items() for a in en + zh]
    if with_pound:
        pairs += [(a, "GBP") for a in POUND_ALIASES]
    return sorted(pairs, key=lambda p: -len(p[0]))


_CURRENCY_ALIASES = _currency_aliases(with_pound=False)
_CURRENCY_ALIASES_WITH_POUND = _currency_aliases(with_pound=True)


@reader
def find_currencies(text: str) -> list[str]:
    """ISO codes of the currencies named, in order; 'pounds' counts as sterling only beside another currency."""
    spaced = re.sub(r"([$€£])", r" \1 ", text)  # symbols sit against numbers: "$20"
    found = _find(spaced, _CURRENCY_ALIASES)
    if found:
        with_pound = _find(spaced, _CURRENCY_ALIASES_WITH_POUND)
        if len(with_pound) > len(found):
            return with_pound
    return found


_NOT_AMOUNTS = re.compile(
    r"\d+(\.\d+)?\s*(%|percent|per cent|个点)|\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}|\d{1,2}\s*(am|pm)\b"
    r"|(\d+|[两二三四五六七八九十])\s*(people|persons|friends|of us|ways|个人|人|位)|\d{1,2}月\d{1,2}[日号]"
    r"|\d+\s+(?:out\s+)?of\s+(?:the\s+)?\d+\s+(?:days|nights)\b|\d+\s*(?:nights?\b|晚)",  # "2 of the 5 nights"
    re.IGNORECASE,
)


@reader
def find_amount(text: str) -> float | None:
    """The first amount of money or quantity ("$120", "3,000", "1.5k", "3千", "2万"), skipping percentages,
    head-counts, dates and times."""
    text = _NOT_AMOUNTS.sub(" ", text)
    m = re.search(r"(\d+(?:,\d{3})*(?:\.\d+)?)\s*(k(?![a-z])|千|万)?", text, re.IGNORECASE)  # "5 km" is not 5k
    if not m:
        return None
    value = float(m.group(1).replace(",", ""))
    return value * {"k": 1000, "千": 1000, "万": 10000}.get((m.group(2) or "").lower(), 1)


@reader
def find_percent(text: str) -> float | None:
    """A percentage: "15%", "18 percent", "百分之十五" is not read (digits only)."""
    m = re.search(r"(\d+(?:\.\d+)?)\s*(%|percent|per cent|个点)", text, re.IGNORECASE)
    return float(m.group(1)) if m else None


_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


@reader
def find_people_count(text: str) -> int | None:
    """How many people share something ("4 people", "three of us", "五个人")."""
    number = r"(\d+|two|three|four|five|six|seven|eight|nine|ten)"
    both = re.search(rf"{number}\s+adults?\s*(?:and|\+|&|,)\s*{number}\s+(?:kids?|children|child)\b", text, re.I)
    if both:  # "2 adults and 3 kids": five (but "6 of us, 2 only stayed 3 nights" is six)
        return sum(int(n) if n.isdigit() else _COUNT_WORDS[n.lower()] for n in both.groups())
    m = re.search(
        rf"{number}\s+(people|persons|friends|of us|ways|(?:room|flat|house)mates|kids|children|siblings|colleagues|"
        r"coworkers|members)\b",
        text,
        re.I,
    )
    if m:
        token = m.group(1).lower()
        return int(token) if token.isdigit() else _COUNT_WORDS[token]
    # "五个人", "三个孩子", "两个室友", "四位同事": a count of people, by the people it counts
    m = re.search(
        r"([0-9]+|[两二三四五六七八九十])\s*(?:个|位|名)?\s*(?:人|孩子|小孩|娃|室友|舍友|同学|同事|朋友|家人|成员|兄弟姐妹)"
        r"|([0-9]+|[两二三四五六七八九十])\s*位",
        text,
    )
    if m:
        return _zh_number(m.group(1) or m.group(2))
    return None


_SINGULAR = {"children": "child", "kids": "kid", "siblings": "sibling", "colleagues": "colleague",
             "coworkers": "coworker", "members": "member", "friends": "friend"}  # fmt: skip


@reader
def head_noun(text: str) -> str | None:
    """What the people an English request counts are, one of them ("three flatmates": flatmate); None for plain
    people ("3 of us") and in Chinese, whose counted people are members (成员) of what they share."""
    m = re.search(
        r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\s+((?:room|flat|house)mates|kids|children|siblings|"
        r"colleagues|coworkers|members|friends)\b",
        text,
        re.I,
    )
    if not m:
        return None
    word = m.group(1).lower()
    return _SINGULAR.get(word, word.removesuffix("s"))


_NOT_NAMES = {
    "I",
    "Me",
    "My",
    "We",
    "Our",
    "The",
    "A",
    "An",
    "And",
    "Or",
    "For",
    "With",
    "Between",
    "Among",
    "To",
    "Track",
    "Split",
    "Help",
    "Make",
    "Create",
    "Build",
    "Please",
    "Who",
    "How",
    "What",
    "When",
    "Where",
    "Log",
    "Keep",
    "Can",
    "Could",
    "Would",
    "Let",
    "Need",
    "Want",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
    "AA",
    "BMI",
    "USD",
    "EUR",
    "CNY",
    "RMB",
    "JPY",
    "GBP",
}


@reader
def find_people(text: str) -> list[str]:
    """People named in the text: capitalised English names, and Chinese names like 小王 or 老李."""
    # a place is not a person: a big city anywhere ("Tokyo"), any city where one is gone to ("to Lisbon"); a
    # person may share a smaller city's name ("split it with Austin and Tyler")
    gone_to = set(re.findall(r"\b(?:in|at|to|from|near)\s+([A-Z][a-z]{1,15})", text))
    places = {word: place for place in find_places(text) for word in place.name.split()}
    names = [
        w
        for w in re.findall(r"\b[A-Z][a-z]{1,15}\b", text)
        if w not in _NOT_NAMES and not (w in places and (places[w].population >= 1_000_000 or w in gone_to))
    ]
    names += re.findall(r"(?:小|老|阿)[\u4e00-\u9fff]", text)
    return list(dict.fromkeys(names))


@reader
def find_goal(text: str) -> tuple[float, str] | None:
    """A target with its unit: "2 liters", "8 glasses", "400 mg", "20 km a week", "10 hours", "2升", "八杯"."""
    m = re.search(
        r"(\d+(?:\.\d+)?)\s*(ml|millilit(?:er|re)s?|l\b|lit(?:er|re)s?|glass(?:es)?|cups?|mg|km|kilomet(?:er|re)s?|"
        r"miles?|hours?|hrs?|minutes?|mins?|pages?|books?)",
        text,
        re.IGNORECASE,
    )
    if m:
        unit = m.group(2).lower()
        canonical = next(
            (c for c, pattern in _GOAL_UNITS if re.fullmatch(pattern, unit)),
            unit,
        )
        return float(m.group(1)), canonical
    m = re.search(r"([0-9]+(?:\.[0-9]+)?|[一二两三四五六七八九十]+)\s*(毫升|升|杯|毫克|公里|小时|分钟|页|本)", text)
    if m:
        number = float(m.group(1)) if m.group(1)[0].isdigit() else _zh_number(m.group(1))
        if number is None:
            return None
        zh_units = {
            "毫升": "ml",
            "升": "l",
            "杯": "glass",
            "毫克": "mg",
            "公里": "km",
            "小时": "hour",
            "分钟": "minute",
            "页": "page",
            "本": "book",
        }
        return float(number), zh_units[m.group(2)]
    return None


_GOAL_UNITS = [
    ("ml", r"ml|millilit(er|re)s?"),
    ("l", r"l|lit(er|re)s?"),
    ("glass", r"glass(es)?|cups?"),
    ("mg", r"mg"),
    ("km", r"km|kilomet(er|re)s?"),
    ("mi", r"miles?"),
    ("hour", r"hours?|hrs?"),
    ("minute", r"minutes?|mins?"),
    ("page", r"pages?"),
    ("book", r"books?"),
]


# --- dates, events, topics ------------------------------------------------------------------------------------

_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ]
    )
}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_MONTHS["sept"] = 9


@reader
def find_date(text: str) -> str | None:
    """A calendar date: "2027-01-20" as is; "Dec 25", "25 December", "12月25日", a holiday as "MM-DD"."""
    if m := re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", text):
        return m.group(0)
    if m := re.search(r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号]", text):
        month, day = int(m.group(2)), int(m.group(3))
        return _date(m.group(1), month, day)
    lowered = text.lower()
    months = "|".join(sorted(_MONTHS, key=len, reverse=True))
    if m := re.search(rf"\b({months})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(\d{{4}}))?", lowered):
        return _date(m.group(3), _MONTHS[m.group(1)], int(m.group(2)))
    if m := re.search(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({months})\b(?:,?\s+(\d{{4}}))?", lowered):
        return _date(m.group(3), _MONTHS[m.group(2)], int(m.group(1)))
    for _name, (mmdd, aliases) in HOLIDAYS.items():
        if any(a in lowered for a in aliases):
            return mmdd
    return None


def _date(year: str | None, month: int, day: int) -> str | None:
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return f"{int(year):04d}-{month:02d}-{day:02d}" if year else f"{month:02d}-{day:02d}"


_EVENTS = {
    "birthday": ("birthday", "生日"),
    "wedding": ("wedding", "婚礼", "结婚"),
    "exam": ("exam", "test", "考试", "高考", "考研"),
    "vacation": ("vacation", "holiday", "trip", "假期", "放假", "旅行", "旅游"),
    "anniversary": ("anniversary", "纪念日"),
    "deadline": ("deadline", "截止"),
    "graduation": ("graduation", "毕业"),
    "move": ("moving", "搬家"),
    "due date": ("due date", "baby", "预产期"),
}


@reader
def find_events(text: str) -> list[str]:
    """What a countdown counts down to, each event once in the order named ("birthday", "exam", a holiday's name);
    a compound is named by its head ("wedding anniversary", "结婚纪念日": the anniversary)."""
    lowered = text.lower()
    for name, (_mmdd, aliases) in HOLIDAYS.items():
        if any(a in lowered for a in aliases):
            return [name]
    found = sorted(
        (m.start(), m.end(), name)
        for name, cues in _EVENTS.items()
        for c in cues
        for m in re.finditer(re.escape(c), lowered)
    )
    events: list[tuple[int, str]] = []
    for start, end, name in found:
        if events and 0 <= start - events[-1][0] <= 1:  # the head of the compound just read replaces it
            events[-1] = (end, name)
        elif not events or start >= events[-1][0]:
            events.append((end, name))
    return list(dict.fromkeys(name for _, name in events))


@reader
def find_event(text: str) -> str | None:
    """The first event a countdown counts down to."""
    return next(iter(find_events(text)), None)


@reader
def find_cuisines(text: str) -> list[str]:
    lowered = text.lower()
    return [
        name
        for name, cues in CUISINES.items()
        if any(re.search(rf"(?<![a-z]){re.escape(c)}(?![a-z])", lowered) for c in cues)
    ]


@reader
def find_language(text: str) -> str | None:
    lowered = text.lower()
    for name, cues in LANGUAGES.items():
        if any(re.search(rf"(?<![a-z]){re.escape(c)}(?![a-z])", lowered) for c in cues):
            return name
    return None


@reader
def find_period(text: str) -> str | None:
    """'month' or 'week' for budgets and goals ("a month", "per week", "每月", "每周")."""
    lowered = text.lower()
    if re.search(r"month|monthly|每月|一个月|月度|每个月", lowered):
        return "month"
    if re.search(r"week|weekly|每周|一周|每星期|每个星期", lowered):
        return "week"
    return None
