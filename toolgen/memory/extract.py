"""Structured facts from free text: the key/value a memory carries when one can be read off it.

Small English and Chinese rules over first-person statements; a memory without a recognised fact is still kept
and recalled by its words. `mine` finds the statements in a tool request that are worth remembering, so
"I live in Shanghai, rank the hottest cities" teaches the home city while it asks for the tool. With a model
configured, toolgen/memory/llm.py reads what these rules miss.
"""

from __future__ import annotations

import re
from typing import Literal, Protocol

from toolgen.intent.numerals import NUMERAL, first_number
from toolgen.intent.slots import (
    find_amount,
    find_cuisines,
    find_currencies,
    find_date,
    find_goal,
    find_time,
    time_of_day,
)
from toolgen.knowledge.places import find_places
from toolgen.knowledge.statements import says

Kind = Literal["preference", "fact", "habit", "event"]
Fact = tuple[Kind, str | None, str | None]
NONE: Fact = ("fact", None, None)


def _theme(t: str) -> Fact | None:
    if re.search(r"dark (mode|theme)|深色|暗色|夜间模式|黑色主题", t):
        return "preference", "theme", "dark"
    if re.search(r"light (mode|theme)|浅色|亮色|白色主题", t):
        return "preference", "theme", "light"
    return None


def part_of_day(text: str) -> str | None:
    """'morning', 'afternoon', 'evening' or 'night': when in the day a habit happens (晚上 is the evening)."""
    t = text.lower()
    if re.search(r"\bnights?\b|late at night|midnight|夜跑|深夜|半夜|夜里", t):
        return "night"
    if re.search(r"afternoon|lunch ?time|下午|中午|午休", t):
        return "afternoon"
    return time_of_day(text)


def _running(text: str, t: str) -> Fact | None:
    if not re.search(r"\b(run|runs|running|ran|jog|jogs|jogging)\b|跑", t):
        return None
    when = find_time(text)
    if when:
        return "habit", "run_time", when
    part = part_of_day(text)
    return ("habit", "run_time_of_day", part) if part else None


HOME_CUE = re.compile(
    r"\b(i|we)\b[\w' ]{0,20}?\b(live|lived|living|reside|resided|residing)\s+(in|at)\b"
    r"|\b(i'?m|i am|we'?re|we are) (based|settled)\b|\bbased in\b|\bmy (home|hometown|home town)\b"
    r"|\b(i'?m|i am|we'?re|we are) (from|in)\b|住在|我在|我们在|家在|来自|老家|定居在?|落户",
    re.IGNORECASE,
)
MOVE_CUE = re.compile(
    r"\b(moved|moving|move|relocated|relocating|relocate|emigrated|settled)\b[\w' ]{0,30}?\b(to|into|in)\b"
    r"|搬(到|去|来|回|进)了?|迁(到|去|往)|回到",
    re.IGNORECASE,
)
MOVE_FROM = re.compile(
    r"\b(moved|moving|relocated|relocating|left)\b[\w' ]{0,10}?\bfrom\s+|\bleft\s+|从(?=.{1,12}搬)", re.IGNORECASE
)


def _home(text: str) -> Fact | None:
    # a move names where the person lives now: "I moved from Beijing to Shanghai" is Shanghai
    move = MOVE_CUE.search(text)
    cue = move or HOME_CUE.search(text)
    if cue is None:
        return None
    # the place the cue is about: "I grew up in Tokyo but I live in Lisbon" is about Lisbon
    places = find_places(text[cue.end() if move else cue.start() :]) or ([] if move else find_places(text))
    return ("fact", "city", places[0].name) if places else None


def left_place(text: str) -> str | None:
    """The city a move leaves ("I moved from Beijing to Shanghai", 我从北京搬到上海): no longer the person's."""
    hit = MOVE_FROM.search(text)
    if hit is None or MOVE_CUE.search(text) is None:
        return None
    places = find_places(text[hit.end() :])
    return places[0].name if places else None


# What follows a number that is no amount of money: a period or count ("一个月", "一周", "三个人"); a rank ("第一") is
# none either, and a range ("三到五千") says no one budget
_NOT_MONEY = re.compile(r"^(?:个?月|个?星期|周|天|日|年|个人|位|人|次)")
_RANGE = ("到", "至", "~", "～", "-")


def _zh_amount(text: str) -> float | None:
    """The amount of money a Chinese phrase names ("三千", "一个月三千" is 3000, "两千五"); None for a range or none."""
    for m in NUMERAL.finditer(text):
        after = text[m.end() :]
        if after.startswith(_RANGE):
            return None
        if text[m.start() - 1 : m.start()] != "第" and not _NOT_MONEY.match(after):
            return first_number(m.group(0))
    return None


def _money(text: str, t: str) -> Fact | None:
    budget = re.search(r"\bmy (monthly |weekly )?budget\b|budget (is|of)|预算(是|为)?", t)
    # in digits, or Chinese numerals ("我每个月的预算是三千", "预算两万五")
    amount = find_amount(text) if budget else None
    if budget and amount is None and re.search(r"[\u4e00-\u9fff]", text):
        amount = _zh_amount(text[budget.end() :])
    if amount is not None:
        return "fact", "budget", f"{amount:g}"
    if re.search(r"\b(i (use|spend|earn|get paid in|am paid in|think in)|my currency)\b|我(用|花|赚)", t):
        currencies = find_currencies(text)
        return ("preference", "currency", currencies[0]) if currencies else None
    return None


def _food(text: str, t: str) -> Fact | None:
    m = re.search(r"my fav(ou)?rite (restaurant|place to eat) is ([^,.;!?]+)", text, re.IGNORECASE)
    if m:
        return "preference", "favorite_restaurant", m.group(3).strip()
    m = re.search(r"我最喜欢的(餐厅|饭店|馆子)是([^，。,.;！？]+)", text)
    if m:
        return "preference", "favorite_restaurant", m.group(2).strip()
    if re.search(r"\bi'?m (a )?(vegetarian|vegan)\b|\bi am (a )?(vegetarian|vegan)\b|我吃素|素食者", t):
        return "fact", "diet", "vegan" if "vegan" in t else "vegetarian"
    # an adverb may stand between the person and the verb: "I really like", 我现在喜欢吃
    if re.search(
        r"\bi( (really|also|still|now|just|do|totally|absolutely|\w+ly))? (love|like|prefer|enjoy)\b"
        r"|我.{0,4}(爱|喜欢)吃|^(现在|如今|最近|这几年)?(更|最|还是|比较)?(爱(?!人)|喜欢|偏爱)(吃)?",
        t,
    ):
        cuisines = find_cuisines(text)
        return ("preference", "cuisine", cuisines[0]) if cuisines else None
    return None


# Negations that are themselves facts: not eating meat is a diet (toolgen/memory/statement.py asks first).
NEGATIVE_FACTS: tuple[tuple[re.Pattern[str], Fact], ...] = (
    (
        re.compile(
            r"\b(never|don'?t|do not|no longer|stopped|quit|gave up|give up|cut out)( (eat(ing)?|having|touch(ing)?))?"
            r" (any )?(meat|animal products)\b|\bmeat[- ]free\b|(从不|从来不|不|不再|戒了?)(吃)?(肉|荤)(?!类?以外)",
            re.IGNORECASE,
        ),
        ("fact", "diet", "vegetarian"),
    ),
    (
        # sleepless after a drink is a sensitivity to caffeine, not poor sleep (下午喝杯奶茶晚上就睡不着)
        re.compile(
            r"(咖啡|茶|可乐|能量饮料).{0,10}(睡不着|失眠)"
            r"|\b(coffee|tea|caffeine|cola|energy drinks?)\b.{0,30}\b(can'?t|cannot|couldn'?t) (fall )?sleep\b"
            r"|\b(can'?t|cannot|couldn'?t) (fall )?sleep\b.{0,30}\b(coffee|tea|caffeine|cola|energy drinks?)\b",
            re.IGNORECASE,
        ),
        ("fact", "caffeine_sensitive", "true"),
    ),
    (
        # Sleeping badly is mostly said with a negation of sleeping well: read as a denial, "最近睡得不好" would end a
        # good night's sleep instead of holding a poor one. Saying it plainly ("sleeping badly", 失眠) is _sleep's.
        re.compile(
            r"\b(haven'?t|have not|hasn'?t|don'?t|do not|didn'?t|did not|can'?t|cannot|can not|couldn'?t|am not|"
            r"i'?m not|isn'?t|is not|wasn'?t|not)( been)? (sleep(ing)?|slept) (well|good|much|enough)\b"
            r"|\b(can'?t|cannot|couldn'?t) (fall |get to )?sleep\b"
            r"|睡得?不(好|着|踏实|安稳|香)|没(怎么)?睡(好|着|踏实)|睡眠(质量)?(不好|不太好|不行)",
            re.IGNORECASE,
        ),
        ("fact", "sleep_quality", "poor"),
    ),
)


# A time after which the person has no caffeine ("no coffee after 2pm", 下午两点后不喝咖啡): a negation that is a fact.
CUTOFF = re.compile(
    r"\b(?:no|don'?t|do not|never|stop|avoid|cut off|won'?t)\b.{0,25}?\b(?:coffee|caffeine|espresso|tea|lattes?)\b"
    r".{0,12}?\b(?:after|past|later than|from)\s+(?P<en>\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?|noon|midday)"
    r"|\b(?:coffee|caffeine)\b.{0,12}?\b(?:cut-?off|cutoff)\b.{0,8}?(?P<en2>\d{1,2}(?::\d{2})?\s*(?:am|pm)?|noon)"
    r"|(?P<zh>(?:上午|中午|下午|晚上)?[\d零一二两三四五六七八九十]{1,3}[点:：][\d半]{0,2}分?)(?:钟)?(?:以后|之后|后|过后)"
    r"(?:就)?(?:不|别|不再|不能)(?:再)?喝(?:咖啡|茶|奶茶|含咖啡因)",
    re.IGNORECASE,
)


def caffeine_cutoff(text: str) -> str | None:
    """The clock time after which the person drinks no caffeine, if the text says one."""
    hit = CUTOFF.search(text)
    if hit is None:
        return None
    said = next(g for g in (hit.group("en"), hit.group("en2"), hit.group("zh")) if g)
    if said.lower() in ("noon", "midday"):
        return "12:00"
    bare = re.fullmatch(r"(\d{1,2})", said.strip())
    if bare:  # "no coffee after 2": an afternoon, as a cut-off is
        hour = int(bare.group(1))
        return f"{hour + 12 if hour < 8 else hour:02d}:00"
    if hit.group("zh") and not re.match(r"上午|中午|下午|晚上", said):
        said = "下午" + said  # 两点后不喝: 14:00, the afternoon a cut-off is
    return find_time(said)


def negative_fact(text: str) -> Fact | None:
    """The fact a negation states (never eating meat is being vegetarian), if it is one of those."""
    cutoff = caffeine_cutoff(text)
    if cutoff is not None:
        return "habit", "caffeine_cutoff", cutoff
    for pattern, fact in NEGATIVE_FACTS:
        if pattern.search(text):
            return fact
    return None


def _sleep(t: str) -> Fact | None:
    """How the person sleeps, said plainly (the negated ways of saying it are NEGATIVE_FACTS)."""
    if re.search(
        r"\b(sleep(ing|s)?|slept) (badly|poorly|terribly|very little|too little)\b|\binsomnia\b|\btrouble sleeping\b"
        r"|\bbad (sleep|nights)\b|\bsleep(ing)? (is |has been )?(bad|awful|terrible)\b"
        r"|失眠|睡(得|眠)(很|特别|非常|太|比较)?(差|糟)|睡眠质量(很|特别|比较)?差",
        t,
    ):
        return "fact", "sleep_quality", "poor"
    if re.search(
        r"\b(sleep(ing|s)?|slept) (well|better|great|soundly|fine|good)\b|\bgood (sleep|nights)\b"
        r"|睡(得|眠)(很|挺|特别|非常|比较|还)?(好|香|踏实|安稳)|睡眠质量(很|挺|还)?好",
        t,
    ):
        return "fact", "sleep_quality", "good"
    return None


# What the person is allergic to ("I'm allergic to peanuts", "I have a shellfish allergy", 我对花生过敏): lasting.
ALLERGY = re.compile(
    r"\b(?:i'?m|i am|i'?ve been|i have been)\s+(?:severely |very |badly |mildly |quite )?allergic to\s+"
    r"([a-z][a-z -]{1,30}?)(?=\s*(?:[.,;!?]|$|\band\b|\bso\b|\bbut\b))"
    r"|\bi have (?:an? (?:severe |bad |mild |serious |slight )?)?([a-z][a-z -]{1,25}?) allergy\b"
)
ALLERGY_ZH = re.compile(r"我对([\u4e00-\u9fff]{1,8}?)(?:严重|有点|特别|非常|比较)?过敏")


def _body(text: str, t: str) -> Fact | None:
    sleep = _sleep(t)
    if sleep is not None:
        return sleep
    allergy = ALLERGY.search(t) or ALLERGY_ZH.search(text)
    if allergy is not None:
        return "fact", "allergy", next(g for g in allergy.groups() if g).strip()
    if re.search(
        r"caffeine[- ]sensitive|sensitive to caffeine|coffee keeps me (up|awake)|咖啡因.{0,2}敏感|喝咖啡.{0,3}睡不着", t
    ):
        return "fact", "caffeine_sensitive", "true"
    if re.search(r"\bi (try to |want to |aim to )?drink\b|我(每天)?(要|想|尽量)?喝", t):
        ml = water_ml(text)
        if ml:
            return "habit", "water_goal", ml
    if re.search(r"\bmy birthday\b|我的生日", t):
        date = find_date(text)
        return ("event", "birthday", date) if date else None
    return None


def water_ml(text: str) -> str | None:
    """An amount of water the text names, in millilitres ("2 litres" is 2000, "8 glasses" 2000)."""
    goal = find_goal(text)
    ounces = re.search(r"(\d+(?:\.\d+)?)\s*(?:fl\.?\s*)?(?:oz|ounces?)\b", text, re.IGNORECASE)
    if (goal is None or goal[1] not in ("ml", "l", "glass")) and ounces:  # "64 oz": US fluid ounces
        return f"{round(float(ounces.group(1)) * 29.5735):g}"
    if goal is None or goal[1] not in ("ml", "l", "glass"):
        return None
    return f"{goal[0] * {'ml': 1, 'l': 1000, 'glass': 250}[goal[1]]:g}"


def extract(text: str) -> Fact:
    """(kind, key, value) for a memory's text; key and value are None when no fact is recognised."""
    t = text.lower()
    for rule in (
        lambda: _theme(t),
        lambda: _body(text, t),
        lambda: _running(text, t),
        lambda: _home(text),
        lambda: _money(text, t),
        lambda: _food(text, t),
    ):
        fact = rule()
        if fact is not None:
            return fact
    if re.search(r"\bi (use|think|prefer|switched|changed|measure|go by)|我(用|习惯)|改(成|用|为)|换(成|用)", t):
        if re.search(r"\bmiles?\b|imperial|英里", t):
            return "preference", "distance_unit", "mi"
        if re.search(r"\bkilomet(er|re)s?\b|\bkms?\b|metric|公里|千米", t):
            return "preference", "distance_unit", "km"
    return NONE


FIRST_PERSON = re.compile(r"\b(i|i'm|i've|my|me)\b|我", re.IGNORECASE)
# A clause that names someone (or something) else as who it is about, or asks for something: not the person going on.
_NEW_SUBJECT = re.compile(
    r"^\s*(?:you|he|she|they|we|it|this|that|there|the|a|an|please|can|could|make|give|help|rank|log|track|list|"
    r"show|what|how|which|when|where|who)\b|^\s*(?:你|他|她|它|他们|我们|帮|给|请|做|弄|查|看|列|排|记录|有没有|哪|什么|怎么|"
    r"爱人|老婆|老公|对象|孩子|儿子|女儿|妈妈|爸爸|父母|爸妈)",
    re.IGNORECASE,
)


def statements(request: str) -> list[str]:
    """A request cut into its clauses (a comma or point between digits is a number's: "$2,500", "5.5 km"); a clause
    that takes back the one before it ("I live in Tokyo, just kidding", 开玩笑的) goes with it, so that the two are
    read together."""
    clauses = re.split(
        r"[;!?，；。！？\n]+|(?<!\d)[,.]+|[,.]+(?!\d)|\s+(?:and|but)\s+(?=(?:i|i'm|i've|my)\b)",
        request,
        flags=re.IGNORECASE,
    )
    parts: list[str] = []
    for part in (p.strip() for p in clauses if p and p.strip()):
        if parts and says("retraction", part):
            parts[-1] = f"{parts[-1]}, {part}"
        else:
            parts.append(part)
    return parts


def mine(request: str) -> list[str]:
    """The parts of a request worth remembering: first-person statements that hold a recognised fact now, or end
    one ("I'm not vegetarian anymore"); someone else's facts, wishes and plans are not (toolgen/memory/statement.py).
    """
    from toolgen.memory import statement

    kept, speaking = [], False
    for part in statements(request):
        # a clause goes on with the person's own statement where it names no one ("我对咖啡因敏感，下午两点后不喝咖啡")
        speaking = bool(FIRST_PERSON.search(part)) or (speaking and not _NEW_SUBJECT.search(part))
        if speaking and statement.read(part, extract).says_something:
            kept.append(part)
    return kept


def held_fact(text: str) -> Fact:
    """The fact a statement holds now, as the rules read it ("I'm not vegetarian anymore" holds none)."""
    from toolgen.memory import statement

    return statement.read(text, extract).fact


class Reader(Protocol):
    """What the store learns facts with: the rules below, or a model with the rules beside it (memory/llm.py)."""

    def read(self, text: str) -> Fact:
        """(kind, key, value) of a memory's text."""
        ...

    def mine(self, request: str) -> list[tuple[str, Fact]]:
        """The statements of a request worth remembering, each with its fact."""
        ...


class RuleReader:
    """The offline reader: English and Chinese rules, no model."""

    name = "rules"

    def read(self, text: str) -> Fact:
        return extract(text)

    def mine(self, request: str) -> list[tuple[str, Fact]]:
        return [(statement, held_fact(statement)) for statement in mine(request)]
