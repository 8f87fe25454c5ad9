"""Details any tool can take from a request: how often, how many people, which amounts, what per, what about.

These read kinds of sentence rather than words of one subject: an interval ("every 3 days", "每两周", "fortnightly"),
a head count ("me and 3 roommates" is four), the quantities a calculator's inputs take (an amount of money, a
rate in percent, a term in years), a grouping ("per client", "for each family member", "每个客户"), and the object
of a tracking verb ("track my <houseplants>") for a subject the knowledge base does not know.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from toolgen.intent.asked import asked
from toolgen.intent.attributes import grouped_by, is_task, is_value, listing, runs, scale, without_scale
from toolgen.intent.read import named_subjects, shape_scores
from toolgen.intent.slots import (
    _zh_number,
    find_amount,
    find_cities,
    find_date,
    find_people,
    find_people_count,
    find_percent,
    find_time,
    find_units,
    head_noun,
)
from toolgen.intent.spans import attribute_spans
from toolgen.knowledge.fields import requested_fields
from toolgen.knowledge.gloss import english
from toolgen.reading import reader

_EN_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "other": 2,
}  # fmt: skip


def _count(token: str) -> int | None:
    token = token.lower()
    if token.isdigit():
        return int(token)
    return _EN_NUMBERS.get(token) or _zh_number(token)


# How often something recurs, as a person says it; each alternative names its parts for ``_interval_days``.
_N = r"\d+|[一两二三四五六七八九十半]+"
_EN_UNIT = r"(?P<unit>day|week|fortnight|month|quarter|year)s?"
_ZH_UNIT = r"(?P<zunit>天|日|周|星期|礼拜|季度|季|月|年)"
_RECURRING = re.compile(
    # "every 3 days", "every other week", "every month"
    rf"\bevery\s+(?:(?P<n>\d+|[a-z]+)\s*)??(?<![a-z]){_EN_UNIT}\b"
    # "every Tuesday", "every weekend": weekly
    r"|\bevery\s+(?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)s?\b"
    # "twice a year", "3 times a week", "once per month"
    r"|\b(?P<times>once|twice|three times|four times|\d+\s*(?:times|x))\s+(?:a|per|each|every)\s+"
    r"(?P<tunit>day|week|fortnight|month|quarter|year)\b"
    # "monthly", "twice yearly"
    r"|\b(?:(?P<ltimes>twice)\s+)?(?P<ly>daily|weekly|fortnightly|biweekly|monthly|quarterly|yearly|annually)\b"
    r"|\b(?:each|every)\s+(?P<each>year)\b"
    # "每两周", "每隔3天", "每个季度", "每半年", "每半个月"
    rf"|每隔?\s*(?P<zn>{_N})?\s*个?{_ZH_UNIT}"
    # "三个月一次", "一年两次", "一周一洗", "半个月一换", "两周换一次", "一年体检一次", "三个月换一瓶": a span of time
    # and how many times in it, a verb of a character or three between
    rf"|(?<![每\d一两二三四五六七八九十半个])(?P<bn>{_N})\s*个?(?P<bunit>天|周|星期|礼拜|季度|月|年)"
    r"(?:(?P<verb>[^\W\d_a-z了过一]{0,3}?)(?P<bt>[一两二三四\d])[次遍回趟瓶盒支片袋]|一(?=[洗换清查检修剪交测喂浇补充扫擦刷]))",
    re.IGNORECASE,
)
_UNIT_DAYS = {
    "day": 1, "week": 7, "fortnight": 14, "month": 30, "quarter": 91, "year": 365,
    "天": 1, "日": 1, "周": 7, "星期": 7, "礼拜": 7, "月": 30, "季度": 91, "季": 91, "年": 365,
}  # fmt: skip
_EVERY_WORD = {"daily": 1, "weekly": 7, "fortnightly": 14, "biweekly": 14, "monthly": 30, "quarterly": 91,
               "yearly": 365, "annually": 365}  # fmt: skip
_TIMES = {"once": 1, "twice": 2, "three times": 3, "four times": 4}


def _amount_of(token: str | None) -> float | None:
    """A count of periods: "3", "two", "other" (every other: 2), "两", "半" (half), "一个半" not."""
    if not token:
        return 1
    return 0.5 if token == "半" else _count(token)  # noqa: S105 (a numeral, not a password)


MAX_INTERVAL_DAYS = 36_500  # a century: anything longer is no interval a person keeps


def _interval_days(m: re.Match[str]) -> int | None:
    """The days between two times of what one ``_RECURRING`` match says recurs; None for none a person keeps ("0
    times a week", "every 99999 years")."""
    days = _days_of(m)
    return days if days is not None and 0 < days <= MAX_INTERVAL_DAYS else None


def _days_of(m: re.Match[str]) -> int | None:
    g = m.groupdict()
    if g["unit"]:
        n = _amount_of(g["n"])
        return round(n * _UNIT_DAYS[g["unit"].lower()]) if n else None
    if g["weekday"]:
        return 7
    if g["times"]:
        times = _TIMES.get(g["times"].lower()) or int(re.sub(r"\D", "", g["times"]) or 1)
        return max(1, _UNIT_DAYS[g["tunit"].lower()] // times) if times else None
    if g["ly"]:
        days = _EVERY_WORD[g["ly"].lower()]
        return max(1, days // 2) if g["ltimes"] else days
    if g["each"]:
        return 365
    if g["zunit"]:
        n = _amount_of(g["zn"])
        return round(n * _UNIT_DAYS[g["zunit"]]) if n else None
    n = _amount_of(g["bn"])
    times = (_count(g["bt"]) if g["bt"] else None) or 1
    return max(1, round(n * _UNIT_DAYS[g["bunit"]] / times)) if n else None


class Recurrence(NamedTuple):
    """A span that says how often something recurs: where it is, the days between two times, the verb said inside
    it ("两周换一次": 换), and whether it counts times in a period ("3x a week") rather than naming an interval."""

    start: int
    end: int
    days: int
    verb: str
    counted: bool


@reader
def recurrences(text: str) -> list[Recurrence]:
    """Every span that says how often something recurs, in order: "every 3 days" 3, "weekly" 7, "twice a year" 182,
    "每两周" 14, "每个季度" 91, "三个月一次" 90, "两周换一次" 14, "一周一洗" 7."""
    found = []
    for m in _RECURRING.finditer(text):
        days = _interval_days(m)
        if days:
            counted = bool(m.group("times") or m.group("ltimes") or m.group("bt"))
            found.append(Recurrence(m.start(), m.end(), days, m.group("verb") or "", counted))
    return found


@reader
def every_days(text: str) -> int | None:
    """The interval a recurring task has, in days: the first the request says ("every 3 days" 3, "weekly" 7,
    "每两周" 14, "每月" 30)."""
    spans = recurrences(text)
    return spans[0].days if spans else None


_ME_AND = re.compile(
    r"\b(?:(?:me|myself|i)\s+(?:and|&|plus)|with\s+my)\s+(\d+|two|three|four|five|six|seven|eight|nine|ten)\s+"
    r"(?:roommates?|flatmates?|housemates?|friends?|others?|people|colleagues?|coworkers?|mates?|guys)",
    re.IGNORECASE,
)
_ZH_ME_AND = re.compile(r"我(?:和|跟|加上?)(\d+|[两二三四五六七八九十])\s*(?:个|位)?(?:室友|朋友|同事|人|舍友)")


@reader
def head_count(text: str) -> int | None:
    """How many people share something, the speaker included ("me and 3 roommates" is 4, "五个人" is 5)."""
    m = _ME_AND.search(text) or _ZH_ME_AND.search(text)
    if m:
        n = _count(m.group(1))
        return n + 1 if n else None
    return find_people_count(text)


@reader
def years(text: str) -> float | None:
    """A term in years ("over 30 years", "30年", "a 15-year loan")."""
    m = re.search(r"(\d+(?:\.\d+)?)[\s-]*(?:years?|yrs?|year-)\b", text, re.IGNORECASE)
    if m:
        return float(m.group(1))
    m = re.search(r"(\d+|[一两二三四五六七八九十]+)\s*年(?!级)", text)
    if m:
        n = _count(m.group(1))
        return float(n) if n and n < 100 else None
    return None


@reader
def months(text: str) -> float | None:
    """A term in months ("in 18 months", "24个月")."""
    m = re.search(r"(\d+)\s*months?\b", text, re.IGNORECASE) or re.search(r"(\d+)\s*个月", text)
    return float(m.group(1)) if m else None


_PER = re.compile(
    r"\b(?:per|by|for each|for every|each)\s+(client|customer|person|family member|member|kid|child|friend|"
    r"project|category|subject|room|plant|pet|car|account|player|course|class|store|shop)s?\b",
    re.IGNORECASE,
)
_ZH_PER = re.compile(r"(?:每个|每位|每一个|按|分)(客户|人|家人|孩子|朋友|项目|类别|科目|房间|宠物|玩家|课程)")
_ZH_PER_NAMES = {"客户": "client", "人": "person", "家人": "family member", "孩子": "kid", "朋友": "friend",
                 "项目": "project", "类别": "category", "科目": "subject", "房间": "room", "宠物": "pet",
                 "玩家": "player", "课程": "course"}  # fmt: skip


@reader
def per(text: str) -> str | None:
    """What rows are grouped by, when the request says ("hours per client" -> 'client')."""
    m = _PER.search(text)
    if m:
        return m.group(1).lower()
    m = _ZH_PER.search(text)
    return _ZH_PER_NAMES[m.group(1)] if m else None


_EVERYONES = re.compile(
    r"\b(?:(?:the |my |our )?(?:whole|entire) family|everyone in the (?:family|house)|each of us|all of us|"
    r"(?:wife|husband|partner|son|daughter|mum|mom|dad|parents)'s?\s+and\s+mine|"
    r"mine and (?:my|the) (?:wife|husband|partner|kids|children)'s?)\b|"
    r"全家|一家人|家里人|家人的|家里每个人|每个人的|我们俩的",
    re.IGNORECASE,
)


@reader
def everyones(text: str) -> bool:
    """Whether what the request keeps belongs to several people of a household, each row someone's ("passports for
    the whole family", "全家人的证件"): the rows say whose."""
    return bool(_EVERYONES.search(text))


_EN_OBJECT = re.compile(
    r"\b(?:track(?:ing)?|log(?:ging)?|record(?:ing)?|keep track of|monitor(?:ing)?|(?:note|jot|write) down"
    r"|keep (?:a )?(?:list|log|record|count|tally) of|count(?:ing)?|list of|collection of|list(?:ing)? (?:all )?)\s+"
    r"(?:(?:all|each|every)\s+)?"
    r"(?:of\s+)?"
    r"(?:my|our|the|a|all|how (?:much|many|often)|when)?\s*(?P<object>[a-z][a-z' -]{1,40}?)"
    r"(?=\s+(?:in|per|each|every|and|with|by|for|so|to|on|that|which|i|over|at|from|this|week|day|month)\b|[,.!?]|$)",
    re.IGNORECASE,
)
_ZH_OBJECT = re.compile(
    r"(?:记录|记一下|记下|追踪|跟踪|统计|整理|管理|列出|收集)(?:一下)?(?:我的|我们的|家里的|每天的|每周的|每次|每天|每周|一下)?的?"
    r"(?P<object>[\u4e00-\u9fff]{1,8}?)(?:的(?:情况|次数|时间|数据|记录)|情况|清单|列表|记录|$|，|。|！|吧|呀|啊)"
)


@reader
def tracked_object(text: str) -> str | None:
    """What a tracking or listing verb is about ("track my houseplants": 'houseplants'; "记录每天的冥想": '冥想')."""
    m = _EN_OBJECT.search(text)
    if m:
        words = m.group("object").strip(" -'").lower()
        words = re.sub(r"^(my|our|the|a|an)\s+", "", words)
        return words or None
    m = _ZH_OBJECT.search(text)
    return m.group("object") if m else None


# An amount: digits, then a multiplier that is a word of its own ("28k", "300万", "2万5"), not a unit's first
# letter ("600 km", "1500W", "L/100km" are no thousands, ten-thousands or millions).
_AMOUNT = re.compile(  # (thousands never given back: "$2,600/mo" is 2600, not 2; "/mo" says per what, not a ratio)
    r"(?<![\d.:/])(\d+(?:,\d{3})*+(?:\.\d+)?)\s*(?:(k|K|m|M)(?![a-zA-Z])|(千|万)(\d)?)?"
    r"(?![\d%:a-zA-Z]|/(?!(?:mo|month|yr|year|wk|week|day|night|hr|hour|person|head|pp)\b))"
)
_SKIP = re.compile(
    r"\d+(?:\.\d+)?\s*(?:%|percent|个点)|\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}|\d+\s*(?:years?|yrs?|months?|年|个月|天|days?)"
    r"|\d{1,2}月\d{1,2}[日号]",
    re.IGNORECASE,
)


@reader
def amounts(text: str) -> list[float]:
    """Every amount in the text, in order ("28k", "3,000", "300万", "1.5m"), skipping rates, terms and dates."""
    text = _SKIP.sub(" ", text)
    scale = {"k": 1e3, "千": 1e3, "万": 1e4, "m": 1e6}
    found = []
    for m in _AMOUNT.finditer(text):
        value = float(m.group(1).replace(",", ""))
        multiplier = scale.get((m.group(2) or m.group(3) or "").lower(), 1)
        if m.group(4):  # "2万5" is 2.5万
            value += int(m.group(4)) / 10
        found.append(value * multiplier)
    return found


_MEASURES = {  # a number written with its unit: which input it fills is read by the unit, not by its place
    "kg": r"kgs?|kilos?|kilograms?|公斤|千克",
    "cm": r"cm|厘米|公分",
    "g": r"g|grams?|克",
    "min": r"mins?|minutes?|分钟",
    "m²": r"m²|m2|sq ?m|square met(?:er|re)s?|平方米|平米|平",
    "mg/kg": r"mg ?(?:/|per|a|an) ?(?:kg|kilo(?:gram)?)|milligrams? (?:per|a) (?:kg|kilo(?:gram)?)",
    "mg": r"mg|milligrams?|毫克",
    "ml": r"ml|mls|millilit(?:er|re)s?|毫升",
}
_MEASURE = re.compile(
    r"(\d+(?:\.\d+)?)\s*(?:" + "|".join(f"(?P<u{k}>{v})" for k, v in enumerate(_MEASURES.values())) + r")(?![a-z])",
    re.IGNORECASE,
)


_ZH_PER_KG = re.compile(r"(?:每|一)(?:公斤|千克|kg)\s*(\d+(?:\.\d+)?)\s*(?:毫克|mg)", re.IGNORECASE)


@reader
def measures(text: str) -> list[dict[str, Any]]:
    """The quantities written with their unit ("165cm, 70kg", "18平"), in order: ``{"value": 70.0, "unit": "kg"}``."""
    units = list(_MEASURES)
    found = []
    for m in _ZH_PER_KG.finditer(text):  # "每公斤15毫克": mg per kg, said before its number
        found.append({"value": float(m.group(1)), "unit": "mg/kg"})
    text = _ZH_PER_KG.sub(" ", text)
    for m in _MEASURE.finditer(text):
        unit = next(units[k] for k in range(len(units)) if m.group(f"u{k}"))
        found.append({"value": float(m.group(1)), "unit": unit})
    return found


_GOAL = re.compile(
    r"(?:goal|target|aim|limit|budget)\D{0,12}?(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*(?:[a-z]+\s){0,2}(?:goal|target)\b"
    r"|\bneed (\d+(?:\.\d+)?)\s*(?:[a-z]+\s){0,2}(?:hours|minutes|miles|km|points|pages|books|days|sessions)\b"
    r"|(?:目标|指标|攒够|凑够|达到)\D{0,4}?(\d+(?:\.\d+)?)"
    # a cap said as one: "limit my screen time to 90", "90 minutes a day at most", "每天不超过90分钟"
    r"|\blimit\b\D{0,30}?\bto\s+(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*(?:[a-z]+\s+){0,3}at most\b"
    r"|(?:不超过|不要超过|别超过|控制在)(\d+(?:\.\d+)?)",
    re.IGNORECASE,
)
_CUMULATIVE = re.compile(
    r"\b(in total|a total of|altogether|cumulative|lifetime|so far|by (?:the end of )?(?:jan|feb|mar|apr|may|jun|jul|"
    r"aug|sep|oct|nov|dec)[a-z]*|by the end|before (?:the )?(?:deadline|end))\b|累计|一共|总共|总计|攒够|凑够|截止",
    re.IGNORECASE,
)


_ELAPSED = re.compile(
    r"\bhow long (?:(?:we|i|you|they|he|she)(?:'ve| have|'d| had|'s| has) (?:had|known|been|lived|owned|kept)|since|"
    r"ago)\b|\b(?:days|weeks|months|years) (?:since|ago)\b|\bhow many (?:days|years|months) (?:since|ago|it'?s been|"
    r"(?:we|i)'?ve had)\b|\bhow long it'?s been\b"
    r"|(?:多少年|几年|多久|多少天|几个月|多长时间)了|已经.{0,6}(?:多久|几年|多少天|几个月)|到现在.{0,6}(?:多久|几年|多少天)",
    re.I,
)


@reader
def elapsed(text: str) -> bool:
    """Whether the request asks how long it has been since each date ("how long we've had them", "养了几年了")."""
    return bool(_ELAPSED.search(text))


@reader
def cumulative(text: str) -> bool:
    """Whether the request's goal is over everything it records, not per day ("40 hours by May", "累计十万")."""
    return bool(_CUMULATIVE.search(text))


@reader
def goal_value(text: str) -> float | None:
    """The number a request sets as its goal ("vs my 1800 goal", "目标2升", "aim for 10000 steps")."""
    m = _GOAL.search(text)
    if not m:
        return None
    return float(next(g for g in m.groups() if g))


# A number set as a cap to stay under, not a target to reach: "limit screen time to 2 hours", "每天不超过2小时"; and
# one said as a floor ("at least 3000", "不少于60分钟"), which keeps even a subject's usual limit a goal to reach.
_CAP = re.compile(
    r"\b(?:limit|cap|capped|budget|allowance|at most|no more than|not more than|stay under|keep (?:it )?under|"
    r"(?<!no )(?<!not )less than)\b|不超过|不要超过|别超过|不能超过|控制在|上限|(?<!不)少于|以内|限额|预算",
    re.IGNORECASE,
)
_FLOOR = re.compile(r"\b(?:at least|no less than|not less than|minimum)\b|至少|不少于|不低于|起码", re.IGNORECASE)


@reader
def capped(text: str) -> bool | None:
    """Whether the number a request sets for its figures is a limit to stay under (True), a floor to reach (False),
    or neither said (None)."""
    if goal_value(text) is None:
        return None
    if _FLOOR.search(text):
        return False
    return True if _CAP.search(text) else None


_MANY = re.compile(
    r"\b(all (my|our|the)|everyone'?s|friends'|family'?s?|kids'|people'?s|relatives|colleagues)\b"
    r"|全家|家人|大家|每个人|每位|所有|朋友们|孩子们|亲戚|同事们",
    re.IGNORECASE,
)


@reader
def many(text: str) -> bool:
    """Whether the request is about many people or things ("my friends' birthdays", "全家人的生日"), not one."""
    return bool(_MANY.search(text))


_LIST_NAME = re.compile(r"\b(?:a|an|my|the|our)\s+([a-z][a-z-]{2,20}(?:\s[a-z][a-z-]{2,20})?)\s+(?:check)?list\b", re.I)
_ZH_LIST_NAME = re.compile(r"([\u4e00-\u9fff]{2,6}?)(?:清单|列表)")


@reader
def list_name(text: str) -> str | None:
    """What a list is of, when the request names it ("a grocery list" -> 'grocery', "打包清单" -> '打包')."""
    m = _LIST_NAME.search(text)
    if m and m.group(1).lower() not in ("to-do", "todo", "to do", "simple", "little", "new", "running", "reading"):
        return m.group(1).lower()
    m = _ZH_LIST_NAME.search(text)
    if m and not re.search(r"待办|要做|任务|一个|一份|个", m.group(1)):
        return m.group(1)
    return None


_PERIODS = {
    "week": re.compile(
        r"\b(weekly|per week|a week|each week|every week|this week|week'?s)\b|每周|每个?星期|这周|本周|一周", re.I
    ),
    "month": re.compile(
        r"\b(monthly|per month|a month|each month|every month|this month|month'?s|end of the month|month-end)\b"
        r"|每个?月|月底|这个月|本月|一个月|月度",
        re.I,
    ),
    "year": re.compile(
        r"\b(yearly|annual|annually|per year|a year|each year|this year|year'?s)\b|每年|今年|全年|一年|年度", re.I
    ),
}


@reader
def periods(text: str) -> list[str]:
    """The periods a request wants figures for ("月底看看花了多少" -> month; "weekly average" -> week). Days are not
    read: "每天" says how often something happens, and every log already has its figures per day."""
    return [name for name, pattern in _PERIODS.items() if pattern.search(text)]


# The day a lookup is asked about, most specific first: "tomorrow" in "what about tomorrow, and today?" is what the
# person plans for; "now" is read as today where a source only forecasts days.
_WHEN = {
    "tomorrow": re.compile(r"\b(tomorrow|tomorow|tommorow|tommorrow|tmrw|tmr)\b|明天|明日|明儿", re.I),
    "weekend": re.compile(r"\b(weekend'?s?|saturday|sunday)\b|周末|星期六|星期天|周六|周日", re.I),
    "today": re.compile(r"\b(today|tonight|this (morning|afternoon|evening))\b|今天|今日|今晚|今儿", re.I),
    "now": re.compile(r"\b(right now|now|currently|at the moment|at this moment)\b|现在|此刻|目前|当前|实时", re.I),
}


_RANDOM = re.compile(
    r"\b(at random|randomly|random (one|pick)|pick (one|something) for me|choose (one )?for me|surprise me)\b"
    r"|随机|随便(挑|选|抽)|抽一[个款本部家道]|帮我(挑|选)一[个款本部家道]",
    re.IGNORECASE,
)


@reader
def random_pick(text: str) -> bool:
    """Whether the request asks the tool to pick one of its rows at random ("想喝的时候随机抽一款")."""
    return _RANDOM.search(text) is not None


@reader
def when(text: str) -> str | None:
    """The day a lookup is asked about: 'now', 'today', 'tomorrow' or 'weekend', or None for no day in particular."""
    return next((name for name, pattern in _WHEN.items() if pattern.search(text)), None)


_ITEM = r"[a-z][a-z0-9.'+-]*(?:\s[a-z][a-z0-9.'+-]*){0,2}"
_EN_TRIGGER = re.compile(
    r"\b(?:track(?:ing)?|log(?:ging)?|record(?:ing)?|note(?: down)?|keep track of|measur(?:e|ing)|test(?:ing)?|"
    r"check(?:ing)?|with|including|readings? (?:of|for)|(?!(?:check)?list:)[a-z]+(?::|!+))\s+",  # "log!! spot, ..."
    re.IGNORECASE,
)
_EN_LIST = re.compile(
    rf"(?:(?:my|the|our|its|their|a|an)\s+)?"
    rf"(?P<list>{_ITEM}(?:\s*,\s*{_ITEM})*,?\s+(?:and|&)\s+{_ITEM}|{_ITEM}(?:\s*,\s*{_ITEM}){{2,}})",
    re.IGNORECASE,
)
_ZH_ITEM = r"[\u4e00-\u9fffA-Za-z0-9.]{1,6}?"
_ZH_LIST = re.compile(
    rf"(?P<list>{_ZH_ITEM}(?:(?:、|和|跟|以及|还有)(?:{_ZH_ITEM})){{1,7}})"
    r"(?=(?:都|也|这些|这几[个样项])?(?:想|要|得)?(?:记|测|录|量|写)|(?:的)?(?:数值|数据|读数|情况))"
    rf"|(?:(?:记录|日志|记录表|日记)[:：]|记录|记下|记一下|测一下|测量|记)(?:一下)?(?:每天的|每次的|每周的)?(?P<after>{_ZH_ITEM}(?:、{_ZH_ITEM}){{1,7}}(?:和{_ZH_ITEM})?)(?![\u4e00-\u9fffA-Za-z0-9])"
)
_NOT_ITEM = re.compile(
    r"\b(every|each|per|in|for|on|at|to|so|that|which|i|me|we|it|my|our|how|when|what|day|days|week|weeks|month|"
    r"months|year|years|daily|weekly|monthly|see|show|get|want|need|also|then|morning|evening|night|afternoon|"
    r"today|tonight|is|are|was|be|do|did|can|will|with|including)\b",
    re.IGNORECASE,
)
_ZH_NOT_ITEM = re.compile(
    r"每|一下|一次|想|要|看|我|你|他|她|早上|晚上|中午|下午|上午|[今明昨]天|这周|周末|这个月|月底|今年|次"
)


HEAD_END = re.compile(r"[:：]|\s[—–-]\s|——")
_ITEM_SEP = re.compile(r"[、,，;；]|\s(?:and|&)\s|和|以及|还有")
# what the name of a field ends in: a list of such things after a colon is a list of fields
_FIELD_NOUN = re.compile(
    r"(?:日期|时间|地点|名称|名字|金额|价格|费用|数量|次数|编号|类型|状态|备注|原因|天数|分数|电话|进度|结果|型号|品牌)$"
    r"|\b(?:date|time|name|place|price|cost|amount|count|number|type|status|note|location|rating|score|brand|"
    r"model|size|result)s?$",
    re.IGNORECASE,
)


@reader
def head(text: str) -> str | None:
    """What a request says its tool is, before a list after a colon or dash ("车子保养记录：日期、公里数、换了什么、
    花了多少钱" -> "车子保养记录"; "fuel log: liters, price and odometer" -> "fuel log"); None when it lists none (or
    lists places: what a ranking ranks)."""
    m = HEAD_END.search(text)
    if not m or m.start() == 0:
        return _head_before_run(text)
    rest = text[m.end() :]
    if len(_ITEM_SEP.split(rest)) < 3 or len(find_cities(rest)) >= 2:
        return None
    return text[: m.start()]


def _head_before_run(text: str) -> str | None:
    """The first clause, when what follows it is a run of attributes ("车子保养记录，每次保养的日期、公里数、花了多少钱"
    -> "车子保养记录"): it says what the tool is, the run what each row holds."""
    m = re.match(r"([^，,。；;！!？?]{2,30})[，,]\s*(.+)$", text)
    if not m or len(find_cities(m.group(2))) >= 2:
        return None
    return m.group(1) if len(listing(m.group(2))) >= 3 else None


_TOOL_NAME = re.compile(
    r"^\s*(?P<name>(?:[a-z][a-z'-]* ){0,3}(?:log|journal|diary|tracker|list|planner|checklist|logbook)|"
    r"[\u4e00-\u9fff]{1,8}(?:记录|日志|日记|清单|计划|打卡|台账))\s*[:：—–-]",
    re.I,
)


@reader
def tool_name(text: str) -> str | None:
    """The name a request gives its tool before saying what it holds ("cooking journal: what I made ...",
    "抱石记录：线路难度几级"), if it gives one."""
    m = _TOOL_NAME.match(text)
    return m.group("name").strip() if m else None


def _enumerated(text: str) -> list[str]:
    """The fields a request lists after saying what its tool is ("办签证：国家、递交日期、出签日期"): the items after
    the colon, up to where the sentence goes on, when most of them are worded as fields are (a
    name ending in 日期, price, status...; a question; a field the library knows); a list of things to do or to
    take ("floss, stretch, no phone after 10pm") is not read."""
    said = head(text)
    if said is None:
        return []
    rest = text[len(said) :].lstrip(":：—–- ")
    if not HEAD_END.search(text):  # the head is the clause before a run of attributes: the run is the list
        return listing(rest.lstrip("，, "))
    chinese = bool(re.search(r"[\u4e00-\u9fff]", rest))
    if chinese:
        clause = re.split(r"[，。；！？!?]", rest)[0]
        parts = re.split(r"、|以及|还有|和", clause)
        if len(parts) < 3:
            parts = re.split(r"[，、]|以及|还有", re.split(r"[。；！？!?]", rest)[0])
    else:
        clause = re.split(r"[.;!?]|\s[—–-]\s", rest)[0]
        parts = re.split(r"\s*,\s*(?:and\s+|&\s+)?|\s+(?:and|&)\s+", clause)
    items = [p.strip(" （）()") for p in parts if p.strip(" （）()")]
    if len(items) < 3 or any(len(p) > (16 if chinese else 32) for p in items):
        return []
    fieldlike = sum(1 for p in items if _FIELD_NOUN.search(p) or asked(p) or requested_fields(p))
    logged = shape_scores(said)["log"] >= 1.5  # "log my kite sessions: wind speed, spot, ...": what each row holds
    return items if fieldlike * 2 >= len(items) or (logged and fieldlike) else []


# The longest attribute the tagger's training phrases hold (99% of them are within): English words, Chinese characters
_LONGEST_SPAN = {"en": 5, "zh": 8}


def _with_tagged(text: str, items: list[str]) -> list[str]:
    """The items the rules read, and after them the attributes the learned tagger reads that none of them is
    (toolgen/intent/spans.py: "odometer litres price", "记品牌 宽度 图案"): those of the sentence the rules' list
    stands in, or where the rules read none, the tagger's where it reads two or more. A value (a place, a currency,
    a unit, a person), a thing to do said in Chinese ("早起、读书"), what is done how often ("每周测一次水质"), a
    Chinese phrase no glossary names, or a phrase longer than 99% of the training's attributes is none."""

    def fits(span: str) -> bool:
        zh = bool(re.search(r"[\u4e00-\u9fff]", span))
        longest = _LONGEST_SPAN["zh" if zh else "en"]
        if zh and (is_task(span) or english(span) is None):  # ("book title": English verbs name fields as often)
            return False  # (a Chinese phrase no glossary names is an instruction as often: "打完疫苗标一下")
        if recurrences(span):  # how often something is done ("每周测一次水质") is a schedule's, not a row's
            return False
        valued = is_value(span) and not _WITH_UNIT.search(span)  # ("size in grams": an attribute and its unit)
        return (len(span) if zh else len(span.split())) <= longest and not valued

    names = named_subjects(text)

    def cuts_a_name(span: str) -> bool:  # "blood" of "blood pressure": the subject, not one of its attributes
        start = text.lower().find(span.lower())
        end = start + len(span)
        return start >= 0 and any(a < end and start < b and not (start <= a and b <= end) for a, b in names)

    tagged = [span for span in attribute_spans(text) if fits(span) and not cuts_a_name(span)]
    if items:
        sentences = [s.lower() for s in _SENTENCE.split(text) if any(i.lower() in s.lower() for i in items)]
        tagged = [span for span in tagged if any(span.lower() in s for s in sentences)]
    elif len(tagged) < 2:
        return items
    said = [i.lower() for i in items]
    extra: list[str] = []
    for span in tagged:  # one said already, in words or in characters ("mileage" holds no "age"; 氨氮 holds 氨)
        if not any(_within(span.lower(), i) or _within(i, span.lower()) for i in said):
            said.append(span.lower())
            extra.append(span)
    return items + extra


def _within(part: str, whole: str) -> bool:
    """Whether a phrase is part of another: as words in English, as characters in Chinese."""
    if re.search(r"[\u4e00-\u9fff]", part):
        return part in whole
    return re.search(rf"(?<![a-z0-9]){re.escape(part)}(?![a-z0-9])", whole) is not None


_WITH_UNIT = re.compile(r"\S\s+(?:in|per)\s+\S+$|\S\s*[(（][^)）]+[)）]$", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|[。！？]")


@reader
def listed(text: str) -> list[str]:
    """The things a request lists for its tool to record ("track pH, ammonia and nitrite", "pH、氨、亚硝酸盐都想记"),
    each as the request words it, in order; lists of anything else (times, people, days) are not read."""
    items: list[str] = []
    for trigger in _EN_TRIGGER.finditer(text):
        m = _EN_LIST.match(text, trigger.end())
        if not m:
            continue
        # "indoor or outdoor" is one item, a choice; "a, b, or c" lists three
        parts = re.split(r"\s*,\s*(?:and\s+|or\s+|&\s+)?|\s+(?:and|&)\s+", m.group("list"))
        parts = [re.sub(r"^(?:my|the|our|its|their|a|an)\s+", "", p.strip(), flags=re.I) for p in parts]
        parts[-1] = _NOT_ITEM.split(parts[-1])[0].strip()  # "mood every day": the list ends where the sentence goes on
        parts[-1] = re.sub(r"\s+(?:readings?|levels?|values?|numbers?|scores?)$", "", parts[-1], flags=re.I)
        if all(p and not _NOT_ITEM.search(p) for p in parts):
            items = [p.lower() for p in parts]
            break
    if not items:
        m = _ZH_LIST.search(text)
        if m:
            parts = re.split(r"、|和|跟|以及|还有", m.group("list") or m.group("after"))
            parts[-1] = re.sub(r"(吃了什么|是多少|多少|怎么样|的?情况|的?变化)$", "", parts[-1])
            if all(p and not _ZH_NOT_ITEM.search(p) for p in parts):
                items = parts
    if not items:
        items = _enumerated(text)
    run = runs(text)  # a run of attributes anywhere in the sentence ("单词、意思、例句", "- word, meaning, example")
    if len(run) > len(items):  # read whole, where a reader above cut it short ("去年录取分数线" is no "去年")
        items = run
    items = _with_tagged(text, items)
    places = {city.lower() for city in find_cities(text)}
    named = [part for item in items for part in re.split(r"\s+or\s+", item.lower())]  # "seattle or boise"
    if sum(part in places for part in named) >= 2:  # places are what a ranking compares, not fields
        return []
    items = [without_scale(item) for item in items]
    return list(dict.fromkeys(items))[:8] if len(items) >= 2 else []


# A cost split in proportion to something each share has: a room's area, the days each was home, an income.
_WEIGHTED = {
    "area": re.compile(
        r"\b(?:by|according to|based on|in proportion to|proportional(?:ly)? to|weighted by)\s+(?:each\s+\w+'s\s+|"
        r"the\s+|their\s+)?(?:room\s+|bedroom\s+|floor\s+)?(?:area|size|square\s+(?:feet|footage|meters?)|sq\.?\s?ft|"
        r"sqm)\b|按(?:照)?(?:各自|每户|每个人|每人|房间)?的?(?:建筑|房间|套内)?(?:面积|平米|平方|大小)",
        re.IGNORECASE,
    ),
    "days": re.compile(
        r"\b(?:by|according to|based on|in proportion to|proportional(?:ly)? to)\s+(?:the\s+)?(?:number of\s+)?"
        r"(?:days|nights)\b|按(?:照)?(?:各自|每个人|每人)?(?:在家|住|在)?的?(?:天数|时间)"
        # some of them there for part of it ("2 of them only came for 2 of the 4 nights", "有两个人只住了两晚")
        r"|\bonly\s+(?:came|stayed|were there|was there|joined)\s+(?:for\s+)?(?:\d+|one|two|three|four|five|six)\s+"
        r"(?:(?:out\s+)?of\s+(?:the\s+)?\w+\s+)?(?:days?|nights?)\b"
        r"|\b(?:came|stayed|were there|was there|joined)\s+(?:for\s+)?only\s+(?:\d+|one|two|three|four|five|six)\s+"
        r"(?:(?:out\s+)?of\s+(?:the\s+)?\w+\s+)?(?:days?|nights?)\b"
        r"|\b(?:\d+|one|two|three|four|five|six)\s+(?:out\s+)?of\s+(?:the\s+)?(?:\d+|two|three|four|five|six|seven)\s+"
        r"(?:days|nights)\b"
        r"|只(?:住|待|来|玩)了?[\d一两二三四五六七八九十]+(?:晚|天)",
        re.IGNORECASE,
    ),
    "income": re.compile(
        r"\b(?:by|according to|based on|in proportion to|proportional(?:ly)? to)\s+(?:our\s+|their\s+|each\s+\w+'s\s+)?"
        r"(?:income|incomes|salary|salaries|earnings)\b|按(?:照)?(?:各自|每个人|每人)?的?(?:收入|工资)",
        re.IGNORECASE,
    ),
}
_AREA = re.compile(r"(\d+(?:\.\d+)?)\s*(?:平方米|平米|平方|平|㎡|m²|m2|sqm|sq\.?\s?ft|square (?:feet|meters?))", re.I)


@reader
def split_weight(text: str) -> str | None:
    """What a shared cost is split in proportion to ("房租按面积分" area, "by the days each was home" days)."""
    found = next(((kind, m) for kind, pattern in _WEIGHTED.items() if (m := pattern.search(text))), None)
    if found is None:
        return None
    kind, m = found  # days a person was there; nights where nights were said ("stayed 2 of the 4 nights", 住了两晚)
    return "nights" if kind == "days" and re.search(r"nights?\b|晚", m.group(0)) else kind


@reader
def areas(text: str) -> list[float]:
    """The areas a request gives, in order ("主卧20平，两个次卧15平和12平" -> [20, 15, 12])."""
    return [float(m.group(1)) for m in _AREA.finditer(text)]


# A part that says what the tool should do, not a task to do ("每周汇总一下", "want to see how it changes weekly").
_NOT_A_TASK = re.compile(
    r"\b(track|log|record|show|see|tell|when|schedule|want|how|what|summar\w*|total)\b"
    r"|想|记|看|汇总|统计|算|多少|几|什么|谁|怎么|哪",
    re.IGNORECASE,
)


def _without_recurrence(part: str, spans: list[Recurrence]) -> str:
    """What is left of a listed task once how often it recurs is cut out ("床单两周换一次" -> "床单换", "remind me to
    test the smoke alarm monthly" -> "test the smoke alarm")."""
    task = part
    for span in reversed(spans):  # what is left once how often is cut out is the task
        task = task[: span.start] + f" {span.verb} " + task[span.end :]
    task = re.sub(r"(?<=[\u4e00-\u9fff])\s+|\s+(?=[\u4e00-\u9fff])", "", task.strip())
    task = re.sub(
        r"(?<=[\u4e00-\u9fff])[一两二三四\d][次遍回趟]|[一两二三四\d][次遍回趟](?=[\u4e00-\u9fff])", "", task
    )  # "排一次污": 排污
    task = re.sub(
        r"^(?:please |and |also |plus |then )*(?:remind me to |remind me |i need to |i have to |help me )?"
        r"(?:my |the |our )?|[\s.!?-]+$|^(?:提醒我|帮我|记得)|(?<=[\u4e00-\u9fff])一$",
        "",
        task,
        flags=re.I,
    )
    task = re.sub(r"\s{2,}", " ", task).strip(" -–—")
    return task


# Where one listed task ends and the next begins: punctuation, "+", "and" before a word, 和 after a count, and a
# space between Chinese words ("体内三个月一次 体外每个月")
_TASK_SEP = re.compile(
    r"\s*[,;，；、。+]\s*|\s+and\s+(?=[a-z])|(?<=[次遍])和|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])", re.I
)


# Writing down, not looking at ("每天看一眼汇率" looks each day; "keep count of the eggs", "记一下" write down)
WRITTEN_DOWN = re.compile(
    r"\b(track|log|record|note down|write down|jot down|keep (?:a )?(?:count|track|log|record|note)s?)\b"
    r"|记录|记下|记一下|记个|写下|登记|统计",
    re.IGNORECASE,
)
# A Chinese task asked how often it recurs, its verb kept ("枕芯多久晒一次" -> 晒枕芯)
_HOW_OFTEN = re.compile(
    r"(?:应该|要|该|得)?(?:多久|多长时间|隔多久|隔几天)(?:要|该|得)?(?P<verb>[\u4e00-\u9fff]{1,3}?)一次"
)


@reader
def recurring_tasks(text: str) -> list[dict[str, Any]]:
    """The tasks a request lists with how often each recurs ("HVAC filter every 3 months, gutters twice a year",
    "每三天浇花、每个月施肥", "床单两周换一次"): ``{"task": "HVAC filter", "every_days": 90}`` each, in order; a task
    whose interval is asked ("枕芯多久晒一次") has ``None``."""
    body = re.split(r"[:：]", text, maxsplit=1)[-1]
    tasks: list[dict[str, Any]] = []
    recorded = WRITTEN_DOWN.search(text) is not None  # "记录一下宝宝多久喂一次奶": how often it happens, to log
    for part in _TASK_SEP.split(body):
        asked_how_often = None if recorded else _HOW_OFTEN.search(part)
        if asked_how_often:  # "床单被套多久换洗一次": a task whose interval the person asks, at the usual one
            thing = part[: asked_how_often.start()].strip()
            task = asked_how_often.group("verb") + thing  # 换洗床单被套, as a chore is said
            if 1 < len(thing) <= 30 and not _NOT_A_TASK.search(task):
                tasks.append({"task": task, "every_days": None})
            continue
        # more often than every third day, said as times in a period, is a habit's aim ("running 3x a week"), not a
        # task's interval
        spans = [r for r in recurrences(part) if not (r.counted and r.days < 3)]
        if not spans:
            continue
        task = _without_recurrence(part, spans)
        if 1 < len(task) <= 60 and not _NOT_A_TASK.search(task):
            tasks.append({"task": task, "every_days": spans[0].days})
    return tasks


# What ends a run of listed things: a question about them ("when does each need replacing", "多久弄一次")
_ASKING = re.compile(r"\b(when|what|how|which|who|whether|where|why)\b|多久|什么|啥|哪|几|多少|怎么|是否", re.I)


_BEFORE_A_THING = frozenset("for of on about the my our a an".split())
# Who a list may name instead of things: people are a rota's, never a schedule's tasks
_PERSON = re.compile(
    r"(?i:^(?:me|myself|i|you|us|we|him|her|them|(?:my |our )?(?:wife|husband|partner|kids?|children|son|daughter|mom|"
    r"mum|dad|parents|brother|sister|roommates?|flatmates?))$|^(?:i|we|my)\s)|^[A-Z][a-z]+$"
    r"|^(?:我|你|他|她|我们|老婆|老公|爱人|儿子|女儿|孩子|爸爸?|妈妈?|爸妈|室友|舍友|哥哥?|姐姐?|弟弟?|妹妹?)$"
)


def _last_named(piece: str) -> str:
    """The words after the last "for", "the", "my"... of a clause, when three or fewer ("defrost schedule for the
    garage fridge" -> "garage fridge"); the clause itself otherwise."""
    words = piece.split()
    at = max((i for i, w in enumerate(words) if w.lower() in _BEFORE_A_THING), default=-1)
    return " ".join(words[at + 1 :]) if at >= 0 and 1 <= len(words) - at - 1 <= 3 else piece


@reader
def enumerated(text: str) -> list[str]:
    """The things a request lists in one run, each as said ("furnace filter, smoke alarm batteries and brita filter,
    when does each need replacing" -> the three; "空调滤网、净水器滤芯、油烟机清洗，多久弄一次" -> the three; how
    often one recurs cut from it): at least two items, joined by commas or 、, each of four words (eight characters)
    or fewer; a run of fields ("date, amount, who paid") or of questions is not one."""
    best: list[str] = []
    for clause in re.split(r"[.;!?。；！？:：]|\s[-—–]\s", text):
        chinese = bool(re.search(r"[\u4e00-\u9fff]", clause))
        pieces = re.split(r"，|,", clause) if chinese else re.split(r"\s*,\s*", clause)
        run: list[str] = []
        for k, piece in enumerate(pieces):
            spans = recurrences(piece)
            piece = _without_recurrence(piece, spans) if spans else piece.strip()
            if k == 0 and not chinese:  # "defrost schedule for the garage fridge": the thing its last words name
                piece = _last_named(piece)
            elif k == 0:  # "家里的灭火器": the thing, not whose it is
                piece = re.sub(r"^.{1,4}的(?=..)", "", piece)
            parts = re.split(r"、|和|跟|以及|还有", piece) if chinese else re.split(r"\s*(?:\band\b|&|\+)\s*", piece)
            parts = [re.sub(r"^(?:and|also|plus|my|the|our)\s+", "", p.strip(), flags=re.I) for p in parts]
            short = all(p and (len(p) <= 8 if chinese else len(p.split()) <= 4) for p in parts)
            if not short or any(_ASKING.search(p) for p in parts):
                if len(run) >= 2:
                    break
                run = []
                continue
            run += parts
        joined = len(run) >= 2 and (len(pieces) > 1 or "、" in clause)  # joined by commas or 、, not "and" alone
        if joined and len(run) > len(best) and not all(_FIELD_NOUN.search(p) for p in run):
            best = run
    return [p for p in best if not _FIELD_NOUN.search(p) and not _PERSON.search(p) and not re.search(r"\d", p)][:10]


_MEASURING = re.compile(
    r"\b(tests?|levels?|readings?|measur\w*|ppm|mg|scores?|count|number of|how many|how much)\b"
    r"|测|值|含量|指标|水质|读数|多少|几",
    re.IGNORECASE,
)


@reader
def measuring(text: str) -> bool:
    """Whether the request speaks of measuring or counting what it lists ("water tests", "测水质", "多少")."""
    return bool(_MEASURING.search(text))


_HIGH_FIRST = re.compile(
    r"\b(worst|most|highest|biggest|dirtiest|rainiest|hottest|strongest)\b|最差|最高|最严重|最多|最大|最热|最强", re.I
)
_LOW_FIRST = re.compile(r"\b(least|lowest|cleanest|safest|driest|calmest)\b|最低|最少|最干净|最安全|最小", re.I)


@reader
def order(text: str) -> str | None:
    """Which end of a ranking the request asks about: 'high_first' ("哪个最差", "the rainiest"), 'low_first'
    ("the cleanest air"), or None."""
    if _HIGH_FIRST.search(text):
        return "high_first"
    return "low_first" if _LOW_FIRST.search(text) else None


_BREAKDOWN = re.compile(
    r"\b(breakdown|distribution|how often each|which \w+ (?:is |was )?(?:the )?most|most common|most often|"
    r"split by|broken down by)\b|占多少|占比|比例|分布|哪种.{0,6}最多|哪个.{0,6}最多|各种.{0,6}(多少|几次)",
    re.IGNORECASE,
)


@reader
def breakdown(text: str) -> bool:
    """Whether the request asks how its rows divide among a field's values ("月底能看各种心情占多少", "which
    category is most common")."""
    return bool(_BREAKDOWN.search(text))


ROTA_WORDS = re.compile(
    r"\b(?:tak(?:e|es|ing) turns|whose turn|rota|roster|rotat(?:e|es|ing) (?:between|among) us)\b"
    r"|轮流|轮着|轮换|轮值|轮到谁|值日",
    re.IGNORECASE,
)


@reader
def rota(text: str) -> bool:
    """Whether people take turns at what the request keeps ("take turns cooking", "每周轮换", "值日"): a rota, whose
    turn worked out by the date (rotating a mattress is no rota)."""
    return bool(ROTA_WORDS.search(text))


@reader
def details(text: str) -> dict[str, Any]:
    """Every detail the text gives, by kind; kinds it does not give are left out."""
    found = {
        "every_days": every_days(text),
        "people": find_people(text) or None,
        "people_count": head_count(text),
        "people_noun": head_noun(text),
        "amount": find_amount(text),
        "amounts": amounts(text) or None,
        "measures": measures(text) or None,
        "percent": find_percent(text),
        "years": years(text),
        "months": months(text),
        "date": find_date(text),
        "time": find_time(text),
        "units": find_units(text) or None,
        "per": per(text),
        "object": tracked_object(text),
        "goal_value": goal_value(text),
        "capped": capped(text),
        "cumulative": cumulative(text) or None,
        "periods": periods(text) or None,
        "listed": listed(text) or None,
        "enumerated": enumerated(text) or None,
        "asked": asked(text) or None,
        "grouped_by": grouped_by(text),
        "everyones": everyones(text) or None,
        "scale": scale(text),
        "elapsed": elapsed(text) or None,
        "named_as": tool_name(text),
        "measuring": measuring(text) or None,
        "breakdown": breakdown(text) or None,
        "random_pick": random_pick(text) or None,
        "rota": rota(text) or None,
    }
    return {k: v for k, v in found.items() if v is not None}
