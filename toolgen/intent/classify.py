"""The offline classifier: weighted cue phrases per archetype, a confidence from the score and the margin.

Confidence is ``(1 - exp(-top / 2)) * top / (top + runner_up)``: how strong the best archetype's cues are, times
how much of the evidence is its own. A strong cue alone gives about 0.78, more cues raise it, a tie halves it.
Below MIN_CONFIDENCE the request is ambiguous or out of scope: the archetype is None, with the likeliest
candidates so the person can be asked. When the out-of-scope cues outweigh every archetype, there are none.
After the rules, a request they did not refuse is refused when the learned model (toolgen/intent/actions.py) reads
it as an action in the world: the rules catch the wordings someone wrote down, the model the rest.
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import cache
from typing import Any, Literal

from toolgen.intent.actions import UNSURE, Cues, judge
from toolgen.intent.archetypes import ARCHETYPES, BY_NAME, OUT_OF_SCOPE, Archetype
from toolgen.intent.asked import asked
from toolgen.intent.attributes import grouped_by, scale
from toolgen.intent.details import (
    WRITTEN_DOWN,
    breakdown,
    details,
    every_days,
    head,
    list_name,
    listed,
    many,
    order,
    periods,
    random_pick,
    recurring_tasks,
    rota,
    tracked_object,
    when,
)
from toolgen.intent.gazetteer import UNITS
from toolgen.intent.named import extract
from toolgen.intent.read import (
    CORE_SCORE,
    SUBJECT_NAMED,
    Reading,
    asks_for_a_tool,
    find_subjects,
    learned_subject,
    read,
    shape_scores,
    zh_cue,
    zh_word_spans,
)
from toolgen.intent.slots import (
    find_cities,
    find_cuisines,
    find_currencies,
    find_date,
    find_language,
    find_percent,
    find_units,
    is_chinese,
)
from toolgen.intent.spans import attribute_spans
from toolgen.intent.spelling import standard
from toolgen.knowledge.base import Subject, library, measures_named
from toolgen.knowledge.fields import requested_fields, requested_words
from toolgen.knowledge.places import place_like
from toolgen.models import Intent
from toolgen.reading import reader

# The shape each named kind is a recipe of.
NAMED_SHAPES = {
    "run_log": "log", "habit_tracker": "log", "caffeine_tracker": "log", "water_tracker": "log", "mood_journal": "log",
    "budget_tracker": "log", "expense_splitter": "split", "focus_planner": "schedule", "todo_list": "collection",
    "reading_list": "collection", "flashcards": "collection", "restaurant_picker": "collection", "countdown": "dates",
    "unit_converter": "calculator", "tip_calculator": "calculator", "bmi_calculator": "calculator",
    "weather_ranking": "lookup", "currency_converter": "lookup",
}  # fmt: skip
MIN_CONFIDENCE = 0.45
MIN_SCORE = 1.5


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    # ASCII: an English cue's letters fold only as ASCII letters do, and it compiles four times faster (a cold
    # process compiles hundreds of them: re's Unicode case folding was a fifth of its first classify)
    return re.compile(rf"(?<![a-z]){pattern}(?![a-z])", re.IGNORECASE | re.ASCII)


NAMED_OUTRIGHT = 2.0  # "tip calculator: bill, tip %, split between friends" names its tool: the split is a part of it


@cache
def _own_name(arch: Archetype) -> re.Pattern[str]:
    """The kind's own name as people write it ("tip calculator", "to-do list", "reading list")."""
    words = [re.escape(w) for w in arch.name.split("_")]
    words = [r"to-? ?do" if w == "todo" else w for w in words]
    return _compiled(r"[\s-]?".join(words) + "s?")


def _score(arch: Archetype, text: str, words: list[tuple[int, int]], folded: str) -> float:
    english = sum(w for p, w in arch.en if _compiled(p).search(folded))
    english += NAMED_OUTRIGHT if _own_name(arch).search(folded) else 0.0
    return english + sum(w for cue, w in arch.zh if _found_zh(zh_cue(cue), text, words))


def _found_zh(cue: re.Pattern[str], text: str, words: list[tuple[int, int]]) -> bool:
    """Whether a Chinese cue is in the text as itself, not across the end of a word ("日记" in "生日记一下")."""
    return any(
        not any(a < m.start() < b < m.end() for a, b in words) for m in cue.finditer(text) if m.end() > m.start()
    )


_HEIGHT = re.compile(
    r"\d\s?'\s?\d{1,2}|\d{3}\s?cm|\d(\.\d+)?\s?m\b|\d\s?(feet|foot|ft)\b|[一1]米[0-9一二三四五六七八九]|身高", re.I
)
_WEIGHT = re.compile(r"\d+\s?(kg|kgs|lbs?|pounds|公斤|斤|千克)|体重", re.I)
_UNTIL = re.compile(r"until|till|before|left|to go|还有|还剩|距离|离", re.I)
_BILL = re.compile(r"bill|check|dinner|meal|restaurant|账单|吃饭|聚餐", re.I)
_STUDY = re.compile(r"learn|study|words|drill|practi[sc]e|memori[sz]e|单词|复习|背|学", re.I)
# Measures written down over time ("量一次身高体重记下来", "track height and weight every month"): a log, not a formula.
_RECORDED = re.compile(
    r"\b(track|log|record|chart|over time|every (day|week|month)|each (day|week|month)|monthly|weekly)\b"
    r"|记录|记下|记一下|每个?月|每周|每天|变化|曲线|趋势",
    re.I,
)
_PLACES = re.compile(
    r"\b(cities|places|towns|destinations)\b|几个(旅游)?城市|哪些城市|各个?城市|几个地方|哪个城市", re.I
)
_CONVERT = re.compile(r"\b(convert|conversion|converter|in|into|to)\b|换算|转换|等于|折合|合多少|是多少", re.I)
_TEMPERATURE_READING = re.compile(r"\d+\s?°?\s?[fc]\b|\d+\s?(度|摄氏|华氏)", re.I)


def _one_dimension(units: list[str]) -> bool:
    """Two or more units of one dimension (km and miles): a conversion the unit converter does. Cups and grams
    together are a kitchen conversion by ingredient, which it does not."""
    dimensions = [UNITS[u][0] for u in units]
    return len(units) >= 2 and any(dimensions.count(d) >= 2 for d in set(dimensions)) and len(set(dimensions)) == 1


def _paired(units: list[str]) -> bool:
    """Units in pairs of one dimension each ("cups to ml, ounces to grams, fahrenheit to celsius"): several
    conversions, each one the unit converter does (grams in a cup, across dimensions, it does not)."""
    if len(units) < 4 or len(units) % 2:
        return False
    return all(UNITS[a][0] == UNITS[b][0] for a, b in zip(units[::2], units[1::2], strict=True))


def _boosts(text: str) -> dict[str, float]:
    """Evidence from what the text names rather than how it is worded."""
    boost: dict[str, float] = {}
    if len(find_currencies(text)) >= 2:  # amounts in two currencies: a currency conversion
        boost["currency_converter"] = 3.0
    elif _paired(find_units(text)) and _CONVERT.search(text):
        boost["unit_converter"] = 4.0
    elif (_one_dimension(find_units(text)) or (_TEMPERATURE_READING.search(text) and find_units(text))) and (
        _CONVERT.search(text) or not _RECORDED.search(text)
    ):  # two units of one dimension are a conversion, unless the request writes amounts down ("喝一杯记一杯")
        boost["unit_converter"] = 3.0
    if len(find_cities(text)) >= 2:
        boost["weather_ranking"] = 1.5
    height, weight = _HEIGHT.search(text), _WEIGHT.search(text)
    if height and weight and (re.search(r"\d", height.group(0) + weight.group(0)) or not _RECORDED.search(text)):
        boost["bmi_calculator"] = 3.0
    if find_date(text) and _UNTIL.search(text):
        boost["countdown"] = 1.5
    if find_percent(text) is not None and _BILL.search(text):
        boost["tip_calculator"] = 1.5
    if find_language(text) and _STUDY.search(text):
        boost["flashcards"] = 1.5
    if find_cuisines(text):
        boost["restaurant_picker"] = 1.5
    return boost


@reader
def scores(text: str) -> dict[str, float]:
    """Each archetype's score for ``text`` (and the out-of-scope score under its own name)."""
    words = zh_word_spans(text) if is_chinese(text) else []
    folded = unicodedata.normalize("NFKC", text)  # English cues are ASCII patterns: "every ３ days" is "every 3 days"
    result = {arch.name: _score(arch, text, words, folded) for arch in (*ARCHETYPES, OUT_OF_SCOPE)}
    for name, extra in _boosts(text).items():
        result[name] += extra
    return result


_SETTLE = re.compile(
    r"\bwho (needs to |should |has to |must )?(pay|pays|owe|owes|give|gives|transfer|send)s? (back )?(who|whom)\b"
    r"|\bwho owes\b|谁.{0,2}(转|给|还)给?谁|谁欠谁",
    re.IGNORECASE,
)
_EACH_TIME = re.compile(
    r"\b(?:daily|every (?:day|time|week)|each (?:day|time)|log|diary|journal)\b|每天|每次|每周|日记|日志|打卡", re.I
)


def _fields_unsaid(text: str) -> str:
    """The text without a list of three or more things it asks to record ("钓鱼日志：钓点、天气、用的什么饵": the
    weather is a field of a fishing log, not a weather ranking)."""
    items = listed(text)
    if len(items) < 3:
        return text
    for item in items:
        text = re.sub(re.escape(item), " ", text, count=1, flags=re.IGNORECASE)
    return text


_CHORE = re.compile(
    r"^(?:remind me to\s+)?(?!(?:measure|weigh|log|track|record|note|write)\b)[a-z]+\s+(?:the|my|our)\b", re.I
)


def _chore(task: str, reading: Reading) -> bool:
    """Whether one recurring task is the whole request ("water the orchids every 10 days"): a verb and its object, not
    a measurement to record, and no subject named (a subject of its own keeps its recipe)."""
    return bool(_CHORE.match(task.lower())) and reading.subject is None


_AHEAD = re.compile(
    r"\b(forecast|will it|is it going to|tomorrow|tonight|this weekend|next (?:week|month|year)|in \d+ (?:days|weeks)"
    r"|rank|compare|which city|hottest|coldest)\b|预报|明天|会不会|今晚|周末|下个?月|排名|哪个城市|最热|最冷",
    re.IGNORECASE,
)


def _looks_ahead(text: str) -> bool:
    """Whether a request asks what the weather will be, or how places compare: what a lookup reads."""
    return bool(_AHEAD.search(text) or _DAYS_AHEAD.search(text) or _PLACES.search(text))


def _looked_up_ahead(text: str, reading: Reading) -> Reading | None:
    """The days to come are looked up, not logged: a lookup subject the request names, where it asks about the days
    ahead and records nothing ("回南天又来了，未来几天湿度看一下" is the humidity forecast, not an indoor log)."""
    if reading.subject is None or reading.subject.shape == "lookup" or not _DAYS_AHEAD.search(text):
        return None
    if _RECORDED.search(text):
        return None
    ahead = next((f for f in find_subjects(text) if f[0].shape == "lookup" and f[1] >= SUBJECT_NAMED), None)
    if ahead is None:
        return None
    subject, score, word = ahead
    return Reading(subject, score, reading.shape_scores, reading.action, word)


def _yielding(text: str, reading: Reading, all_scores: dict[str, float]) -> Reading:
    """A subject named only by a noun of its own ("a sushi or thai place") gives way to a named kind in contention;
    one named only among the fields listed after a head that asks for another shape ("log my kite sessions: wind
    speed, spot") gives way to what the head names: a subject of that shape where no named kind is in contention,
    or where it names none, no subject."""
    if reading.by_noun and max(s for n, s in all_scores.items() if n != OUT_OF_SCOPE.name) >= MIN_SCORE:
        return Reading(shape_scores=reading.shape_scores)
    looked_up = _looked_up_ahead(text, reading)
    if looked_up is not None:
        return looked_up
    said = head(text)
    if said is None or reading.subject is None or reading.matched.lower() in said.lower():
        return reading
    first = read(said)
    wanted = max(first.shape_scores, key=lambda k: first.shape_scores[k])
    if first.shape_scores[wanted] < 1.5 or reading.subject.shape == wanted:
        return reading
    if first.subject is None:
        return Reading(shape_scores=reading.shape_scores)
    contended = max(s for n, s in all_scores.items() if n != OUT_OF_SCOPE.name) >= MIN_SCORE  # a named kind
    if first.subject.shape == wanted and not contended:  # the head names a subject of the shape it asks for
        head_first = (first.subject, first.subject_score, reading.shape_scores, reading.action, first.matched)
        return Reading(*head_first, by_noun=first.by_noun)
    return reading


def classify(text: str) -> Intent:
    """The Intent of a request: a named kind or a composed shape and subject (or None with candidates, or a
    refusal), with its confidence, slots and language."""
    intent, found = _by_rules(text)
    if intent.refusal is None and found is not None:  # an action the rules have no cue for, read by a learned model
        judged = judge(standard(text), found, intent.lang, read_as_tool=intent.archetype is not None)
        if judged.refused and intent.archetype is not None:  # the rules read a tool: the person says which it is
            doubted = {"archetype": None, "confidence": 0.0, "candidates": [intent.archetype], "doubt": judged.kind}
            return intent.model_copy(update=doubted)
        if judged.refused:
            return Intent(archetype=None, confidence=0.0, lang=intent.lang, refusal=judged.kind)
        if judged.wary:  # a tool to the rules, perhaps an action: where a model would read it, the person says first
            # (with the general reason: this far below the refusal's threshold the kind is too often wrong)
            return intent.model_copy(update={"wary": UNSURE})
    return intent


def unplaced(intent: Intent, text: str) -> Intent:
    """A lookup whose request names places that no city or town has, and none that one has ("surf at Narnia"), asked
    where they are (``unresolved``, no tool) rather than read for other places: the offline planner would read the
    person's city or five large cities, a forecast for somewhere they did not ask about. (A model may know the place:
    where one plans, the pipeline does not ask.)"""
    if intent.archetype is None or intent.slots.get("cities"):
        return intent
    names = [name for name in intent.slots.get("unresolved_places") or [] if _a_place_named(text, name)]
    if not names:
        return intent
    return intent.model_copy(update={"archetype": None, "confidence": 0.0, "candidates": [], "unresolved": names})


def _a_place_named(text: str, name: str) -> bool:
    """Whether an unresolved name is a place's own name, said as where ("at Narnia", "in Gondor"): no word of the
    language ("in Summer", "at Noon", "at Home", "Sunday Mass" are words) and not only after "for" ("the weather
    for Halloween" is a day)."""
    from toolgen.knowledge.gloss import english_vocabulary

    words = re.findall(r"[a-z]+", name.lower())
    if not words or any(word in english_vocabulary() for word in words):
        return False
    return re.search(rf"\b(?:in|at|near|around|to)\s+(?:the\s+)?{re.escape(name)}", text) is not None


def by_rules(text: str) -> Intent:
    """The Intent the hand-written rules alone give, the learned refusal not asked: what build_actions measures the
    learned refusal beside."""
    return _by_rules(text)[0]


def cues(text: str, reading: Reading, all_scores: dict[str, float]) -> Cues:
    """What the reading of ``text`` (in standard spelling) and its archetype scores say, for the learned refusal."""
    named = max((s for name, s in all_scores.items() if name != OUT_OF_SCOPE.name), default=0.0)
    return Cues(
        tool_words=asks_for_a_tool(text),
        subject=reading.subject_score,
        shape=max(reading.shape_scores.values(), default=0.0),
        named=named,
        no_tool=all_scores[OUT_OF_SCOPE.name],
    )


def _by_rules(text: str) -> tuple[Intent, Cues | None]:
    """The rules' Intent, and the cues of the reading it was made from (None when an action's cue refused it)."""
    text = standard(text)
    lang: Literal["en", "zh"] = "zh" if is_chinese(text) else "en"
    reading = read(text)
    if reading.action is not None:  # an action in the world: refused with its reason, whatever else it names
        return Intent(archetype=None, confidence=0.0, lang=lang, refusal=reading.action.id), None
    all_scores = scores(text)
    found = cues(text, reading, all_scores)  # before the rules below weigh the scores again
    return _ruled(text, lang, reading, all_scores), found


def _ruled(text: str, lang: Literal["en", "zh"], reading: Reading, all_scores: dict[str, float]) -> Intent:
    reading = _yielding(text, reading, all_scores)
    unsaid = _fields_unsaid(text)
    if unsaid != text:  # a lookup's words in a list of things to record are fields of a log, not a lookup
        for name, score in scores(unsaid).items():
            if name in NAMED_SHAPES and NAMED_SHAPES[name] == "lookup":
                all_scores[name] = score
    said = head(text)
    if (
        said is not None
        and reading.subject is not None
        and not _paired(find_units(text))  # a list of conversions after the head is no row's fields
        and read(said).subject == reading.subject
    ):
        # the head names the subject: a named kind is what the head says, not a word of a field listed after it
        # ("车子保养记录：…花了多少钱" is a car's service log, not a budget)
        for name, score in scores(said).items():
            if name != OUT_OF_SCOPE.name:
                all_scores[name] = min(all_scores[name], score)
    refusal = all_scores.pop(OUT_OF_SCOPE.name)
    ranked = sorted(all_scores.items(), key=lambda kv: -kv[1])
    (top_name, top), (_, second) = ranked[0], ranked[1]
    confidence = 0.0 if top <= 0 else (1 - math.exp(-top / 2.0)) * top / (top + second)
    subject_score = reading.subject_score
    # asked for something no tool does ("tell me a joke", "who won"): say so; in a request for a tool such words
    # are what it records ("log each play with who won")
    if refusal > 0 and refusal >= max(top, subject_score) and not asks_for_a_tool(text):
        return Intent(archetype=None, confidence=0.0, lang=lang, candidates=[], refusal="out_of_scope")
    named = top >= MIN_SCORE and confidence >= MIN_CONFIDENCE
    # A subject of the named kind's own shape is its more specific reading when the request is about many ("my
    # friends' birthdays" is a list of dates, not one countdown).
    same_shape_many = (
        reading.subject is not None
        and NAMED_SHAPES[top_name] == reading.subject.shape != "lookup"  # a ranking is the tool of many places
        and many(text)
        and subject_score * 1.5 >= top  # not a word in passing ("tag what I was doing: work, family, exercise")
    )
    # A formula's words in a request to write measures down over time ("每个月量一次身高体重记下来") ask for a log.
    recorded = (
        reading.subject is not None
        and NAMED_SHAPES[top_name] == "calculator"
        and reading.subject.shape == "log"
        and _RECORDED.search(text) is not None
        and not re.search(r"\d", text)
    )
    # a ranking needs places to rank: for one place (or none), a lookup subject reads its forecast day by day
    one_place = (
        reading.subject is not None
        and reading.subject.shape == "lookup"
        and NAMED_SHAPES[top_name] == "lookup"
        and len(find_cities(text)) <= 1
        and not _PLACES.search(text)
    )
    # several places read day by day, with nothing to rank ("这周每天会不会下雨"): a forecast's days, per place
    day_by_day = (
        reading.subject is not None
        and reading.subject.shape == "lookup"
        and NAMED_SHAPES[top_name] == "lookup"
        and _PER_DAY.search(text) is not None
        and order(text) is None
        and _RANKED.search(text) is None
    )
    # a lookup's words in a request to write things down, naming no place: the weather is one of the things it
    # records ("每天记一下卖了多少、成本多少、还有当天天气": a stall's sales log with the day's weather)
    # (or asking nothing of the days to come: "keep count of the eggs every day, curious if the cold weather is
    # slowing them down")
    weather_recorded = (
        NAMED_SHAPES[top_name] == "lookup"
        and _RECORDED.search(text) is not None
        and not find_cities(text)
        and (len(asked(text)) >= 2 or (WRITTEN_DOWN.search(text) is not None and not _looks_ahead(text)))
    )
    looked_up_in_a_record = (
        reading.subject is not None and reading.subject.shape in ("log", "collection") and weather_recorded
    )
    # a request that asks who pays whom ("最后算谁给谁转多少") is settling up, whatever its costs' subject (fuel)
    settles = top_name == "expense_splitter" and named and _SETTLE.search(text) is not None
    # "how long until my card is paid off": a countdown counts to a date; with none given, a formula's subject
    # (paying off a debt, reaching a savings goal) works out how long
    no_date = (
        reading.subject is not None
        and top_name == "countdown"
        and reading.subject.shape == "calculator"
        and find_date(text) is None
    )
    # tasks listed each with how often it recurs ("HVAC filter every 3 months, gutters twice a year"): a schedule of
    # those tasks, whatever the subject's own shape (a home's maintenance is otherwise a log of jobs done); one task
    # ("water the orchids every 10 days") when no subject of another shape is named
    tasks = recurring_tasks(text)
    if (
        (len(tasks) >= 2 or (len(tasks) == 1 and _chore(tasks[0]["task"], reading)))
        and any(t["every_days"] is None or t["every_days"] > 1 for t in tasks)
        and (reading.subject is None or reading.subject.shape in ("log", "collection", "schedule"))
        and not (named and NAMED_SHAPES[top_name] not in ("log", "collection"))
    ):
        # what the list is of is what its head says ("home maintenance: furnace filter every 3 months, ..."), not
        # one task's word (a filter change)
        whole = read(re.split(r"[:：]", text, maxsplit=1)[0]).subject if re.search(r"[:：]", text) else None
        return _scheduled(text, lang, whole or reading.subject, max(subject_score, 2.0), top, tasks)
    # the request names the named kind itself ("a habit tracker where I can see what percent of days"): a subject
    # of another shape that one of its words names is not the tool
    said_outright = (
        named
        and reading.subject is not None
        and NAMED_SHAPES[top_name] != reading.subject.shape
        and re.search(rf"\b{top_name.replace('_', '[ -]?')}s?\b", text, re.IGNORECASE) is not None
    )
    fielded = _named_by_its_fields(text, top_name, top) if named and not said_outright and not settles else None
    if fielded is not None:  # the kind's rival is what is left of it once the subject's fields are blanked
        return _of_subject(text, lang, *fielded, confidence)
    if (
        reading.subject is not None
        and not settles
        and (
            (subject_score > top and not said_outright)
            or not named
            or same_shape_many
            or recorded
            or one_place
            or day_by_day
            or no_date
            or looked_up_in_a_record
            or (named and reading.subject.part_of == top_name)  # the kind named, with a part of it (酒钱单算)
        )
    ):
        return _of_subject(text, lang, reading.subject, subject_score, top, confidence)
    if named and weather_recorded and reading.subject is None:  # a log of what it records, the weather among it
        return _composed(text, lang, None, "log", max(reading.shape_scores.get("log", 0.0), 2.0), top)
    if named:
        return _named_or_forecast(text, lang, top_name, top, reading, confidence)
    shape = reading.shape
    one_rival = top < MIN_SCORE or second < MIN_SCORE  # two named kinds in contention are a real choice to ask
    if (
        shape in GUESSABLE
        and not named
        and one_rival
        and (tracked_object(text) or len(listed(text)) >= 2 or asked(text) or (shape == "schedule" and rota(text)))
    ):
        # no named kind in contention, and the request says what it keeps (a thing, what each row holds, or people
        # taking turns at a schedule: a rota): guess
        return _composed(text, lang, None, shape, reading.shape_scores[shape], top)
    if shape is None and top < MIN_SCORE and (len(listed(text)) >= 3 or len(asked(text)) >= 2):
        # no shape word, but it names what each row holds ("签证进度：几个国家、要什么材料、递交日期"): rows of those
        guessed = "log" if _EACH_TIME.search(text) else "collection"
        return _composed(text, lang, None, guessed, 2.0, top)
    return _unsure(text, lang, ranked, confidence, shape)


def _named_or_forecast(
    text: str, lang: Literal["en", "zh"], name: str, score: float, reading: Reading, confidence: float
) -> Intent:
    """The named kind read; but a weather ranking of one place, or of none, is that place's forecast, and a list
    kind asked how many each day ("每天新背了多少、复习了多少") is a log of those counts."""
    if NAMED_SHAPES[name] == "collection" and _counted_each_day(text):
        return _composed(text, lang, None, "log", max(score, CORE_SCORE), score)
    if name == "weather_ranking" and reading.subject is None and _forecast(text):
        forecast = library().subjects["weather_forecast"]
        return _of_subject(text, lang, forecast, max(score, CORE_SCORE), score, confidence)
    return _named(text, lang, name, confidence)


_DAILY = re.compile(r"每天|每日|天天|\b(?:a|per|each|every) day\b|\bdaily\b", re.IGNORECASE)


def _counted_each_day(text: str) -> bool:
    """Whether a request asks how many of something each day or each time, worded for a log more than a list."""
    scores = shape_scores(text)
    counts = any(a["type"] in ("number", "integer") for a in asked(text))
    daily = _DAILY.search(text) or _EACH_TIME_LOG.search(text) or _DOING_LOG.search(text)
    return bool(counts and daily and scores.get("log", 0.0) >= 1.0 and scores["log"] > scores.get("collection", 0.0))


def _forecast(text: str) -> bool:
    """Whether the weather asked of is one place's (or of none: the person's own) with nothing to rank: its forecast,
    day by day ("weather in Lisbon this weekend?", "这几天最低气温多少度"); a ranking needs places to rank."""
    cities = find_cities(text)
    if _PLACES.search(text):
        return False
    if len(cities) == 1:  # the days of one city ("最低气温": its coldest night), not the cities near it, unless
        # a ranking is asked outright ("rank Beijing by temperature": more places to come)
        return not re.search(r"\b(?:city|town|place|rank\w*|compare)\b|城市|地方|排名|排行|排序|比较", text, re.I)
    return not cities and _RANKED.search(text) is None and order(text) is None


def _unsure(
    text: str, lang: Literal["en", "zh"], ranked: list[tuple[str, float]], confidence: float, shape: str | None
) -> Intent:
    """Where no reading is sure: two named kinds in contention, and the request says what each row holds ("shared
    flat expenses: date, amount, who paid, what for"), is the likelier with those fields; else a question."""
    top_name, top = ranked[0]
    if top >= MIN_SCORE and (len(listed(text)) >= 3 or len(asked(text)) >= 2):
        return _named(text, lang, top_name, confidence)
    says_more = bool(asked(text) or listed(text) or attribute_spans(text))  # what it keeps or asks, not only a noun
    learned = learned_subject(text) if top < MIN_SCORE and says_more else None
    if learned is not None:  # no named kind in contention: the subject the learned model is sure of, whose noun
        # the request says ("金价现在多少一克": the gold price), before a question; a request of a noun alone
        # ("something for the pigeons on my balcony") is asked back, for a model or the person to say more
        return _of_subject(text, lang, learned, CORE_SCORE, top, confidence)
    candidates = [name for name, s in ranked[:3] if s >= 1.0]
    candidates += [subject.id for subject, _, _ in find_subjects(text)[:2]]
    if shape in GUESSABLE and len(candidates) < 4:
        candidates.append(f"custom_{shape}")
    return Intent(archetype=None, confidence=round(confidence, 3), lang=lang, candidates=candidates, shape=shape)


_RANKED = re.compile(
    r"\b(rank\w*|which|best|worst|compare)\b|[a-z]est\b|排名|排行|排序|哪个|哪座|哪里|哪儿|最|比较", re.I
)
# A forecast read day by day, for every place it names ("每天会不会下雨", "for the next few days").
_PER_DAY = re.compile(
    r"\b(each|every|per) day\b|\bday by day\b|\bdaily\b|\b(next|coming) (few|couple of|\d+|two|three|five|seven) "
    r"days\b|\bfor the (next|coming) week\b|\b(next|coming) (few|couple of|\d+|two|three) weeks\b"
    r"|每天|每日|逐日|未来几天|未来[\d一二三四五六七]+天|这几天|接下来几天|最近几天|未来(几|两|[\d一二三])周|接下来(几|两)周"
    r"|\b(which|what|best|worst|good|driest|wettest|sunniest|warmest|coldest) days?\b|哪天|哪一天|哪几天",
    re.IGNORECASE,
)

_DAYS_AHEAD = re.compile(
    r"\b(next|coming) (few|couple of|\d+|two|three|five|seven) days\b|\bfor the (next|coming) (few days|week)\b"
    r"|\b(this|next) week\b|\bforecast|未来几天|未来[\d一二三四五六七]+天|这几天|接下来几天|最近几天"
    r"|这周|这个星期|下周|未来一周|预报",
    re.IGNORECASE,
)


# Shapes a tool can be guessed in for a subject the knowledge base does not know (a formula cannot be guessed).
GUESSABLE = ("log", "collection", "schedule", "dates")


@cache
def _fields_words(sid: str) -> re.Pattern[str] | None:
    """The words a subject's fields and inputs are labelled by in both languages ("Hydration (water, % of flour)":
    hydration, water), as one pattern, longest first."""
    lib = library()
    subject = lib.subjects[sid]
    words: set[str] = set()
    for f in [*lib.fields_of(subject), *lib.inputs_of(subject)]:
        en = f.label.en.lower()
        words |= {f.name.replace("_", " "), re.split(r"\s*\(", en)[0], re.split(r"[（(]", f.label.zh)[0]}
        words |= {w.strip() for inside in re.findall(r"\(([^)]*)\)", en) for w in inside.split(",")}
    words = {w for w in words if len(w) >= 2 and not re.search(r"[%\d]", w)}
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))
    return re.compile(rf"(?<![a-z])(?:{alternatives})(?![a-z])", re.IGNORECASE)


def _blank(text: str, words: re.Pattern[str], own: tuple[int, int], cues: list[tuple[int, int]]) -> str:
    """The text with the words blanked, but for those within ``own`` and those inside a longer cue."""

    def kept(m: re.Match[str]) -> bool:
        inside = any(a <= m.start() and m.end() <= b and b - a > m.end() - m.start() for a, b in cues)
        return inside or (own[0] <= m.start() and m.end() <= own[1])

    return words.sub(lambda m: m.group() if kept(m) else " " * len(m.group()), text)


def _cue_spans(name: str, text: str) -> list[tuple[int, int]]:
    """Where the kind's own cues stand in the text."""
    arch = BY_NAME[name]
    folded = unicodedata.normalize("NFKC", text)
    found = [m.span() for p, _ in arch.en for m in _compiled(p).finditer(folded)]
    return found + [m.span() for cue, _ in arch.zh for m in zh_cue(cue).finditer(text) if m.end() > m.start()]


def _named_by_its_fields(text: str, name: str, top: float) -> tuple[Subject, float, float] | None:
    """A subject the request names, when what named the kind is only its fields' words: with them blanked the kind
    scores below the subject ("baker's percentage: flour weight and hydration % -> how much water" is a baker's
    percentage, whose inputs are the flour and the water, not a log of water drunk). With the subject, its score
    and the kind's score left once the fields are blanked."""
    for subject, score, word in find_subjects(text)[:3]:
        words = _fields_words(subject.id) if score >= SUBJECT_NAMED else None
        if words is None or score > top or subject.shape == NAMED_SHAPES[name] or NAMED_SHAPES[name] == "lookup":
            # a subject of the kind's own shape is a kind of it (moving's checklist is a to-do list); a lookup's
            # words read what the subject does not ("the weather for my camping trip in Moab": a forecast)
            continue
        # the word that names the subject stays ("a healthy weight": weight is the subject, and a weight's field),
        # and a field's word inside a longer word of the kind's ("时间" in "时间表": the timetable's, not a time)
        at = text.lower().find(word.lower())
        blanked = _blank(text, words, (at, at + len(word)) if at >= 0 else (0, 0), _cue_spans(name, text))
        left = scores(blanked)[name] if blanked != text else top
        if left < score:
            return subject, score, left
    return None


def _of_subject(
    text: str, lang: Literal["en", "zh"], subject: Subject, score: float, rival: float, confidence: float
) -> Intent:
    """The intent of a request about a subject: composed from it, or the named kind it is a part of, with it."""
    if subject.part_of in BY_NAME:  # "cups to grams": the unit converter, with the kitchen's conversion
        intent = _named(text, lang, subject.part_of, max(confidence, MIN_CONFIDENCE))
        return intent.model_copy(update={"slots": {**intent.slots, "with_subject": subject.id}})
    return _composed(text, lang, subject.id, "log" if _logged(text, subject) else subject.shape, score, rival)


# Words that ask for a row each time something is done: a log, whatever the subject keeps otherwise (of a schedule's
# doing, "log" and "diary" too: a list's "freezer log" or "wine cellar log" is still the list).
_EACH_TIME_LOG = re.compile(r"\b(?:each time|every time)\b|每次|打卡", re.IGNORECASE)
_DOING_LOG = re.compile(r"\b(?:logs?|diary|journal)\b|日记|日志", re.IGNORECASE)


def _logged(text: str, subject: Subject) -> bool:
    """Whether a request asks to write down each time of what its subject keeps as a list or a schedule ("a log of
    feeding my starter", "每次给猫驱虫"): a log of the subject's fields, dated, where its wording points at no list
    or schedule (no interval, nothing due) and says a row is each time."""
    each_time = _EACH_TIME_LOG.search(text) or (subject.shape == "schedule" and _DOING_LOG.search(text))
    if subject.shape not in ("collection", "schedule") or not each_time:
        return False
    scores = shape_scores(text)
    return scores.get("log", 0.0) >= 1.0 and not scores.get(subject.shape) and not every_days(text)


def _named(text: str, lang: Literal["en", "zh"], name: str, confidence: float) -> Intent:
    slots = extract(name, text)
    if NAMED_SHAPES[name] == "collection" and (named_list := list_name(text)):
        slots["list_of"] = named_list
    fields = [f.name for f in requested_fields(text)]
    if fields:
        slots["fields"] = fields
        slots.update(_said_as(text))
    if NAMED_SHAPES[name] in ("log", "collection") and (questions := asked(text)):
        slots["asked"] = questions
    if NAMED_SHAPES[name] in ("log", "collection", "dates"):  # what each row holds, as the request words it
        for key, said in (("listed", listed(text)), ("grouped_by", grouped_by(text)), ("scale", scale(text))):
            if said:
                slots[key] = said
    if wanted := periods(text):
        slots["periods"] = wanted
    if breakdown(text):
        slots["breakdown"] = True
    if NAMED_SHAPES[name] in ("log", "collection") and random_pick(text):
        slots["random_pick"] = True
    return Intent(
        archetype=name,
        confidence=round(confidence, 3),
        slots=slots,
        needs_external_api=BY_NAME[name].needs_external_api,
        lang=lang,
        shape=NAMED_SHAPES[name],
    )


def classify_as(text: str, choice: str) -> Intent:
    """The intent of ``text`` read as ``choice`` (a named kind, a subject, or custom_<shape>): the person's answer to
    a question; ValueError for a choice that is none of those."""
    text = standard(text)
    lang: Literal["en", "zh"] = "zh" if is_chinese(text) else "en"
    if choice in BY_NAME:
        return _named(text, lang, choice, 1.0)
    subject = library().subjects.get(choice)
    if subject is not None:
        return _composed(text, lang, subject.id, subject.shape, 3.0, 0.0)
    shape = choice.removeprefix("custom_")
    if choice.startswith("custom_") and shape in GUESSABLE:
        return _composed(text, lang, None, shape, 3.0, 0.0)
    raise ValueError(f"{choice!r} is not a kind of tool")


def _said_as(text: str) -> dict[str, Any]:
    """``field_words``: the words the request names a library field by, where they are not the field's label
    ("deadline" for the due date), for the tool to label the field as the person did."""
    fields = library().fields
    said = {
        name: word
        for name, word in requested_words(text).items()
        if word.lower() not in fields[name].label.en.lower() and word not in fields[name].label.zh
    }
    return {"field_words": said} if said else {}


def _records(subject: str, word: str) -> bool:
    """Whether a subject records what a word names: the word is one of its fields' labels or names, or a word of one
    (English words compared singular: "grades" is the climb's "Grade (V scale)")."""
    lib = library()
    said = word.lower().strip()
    singular = re.sub(r"(?<=[a-z]{3})s$", "", said)
    for f in lib.fields_of(lib.subjects[subject]):
        if re.search(r"[\u4e00-\u9fff]", said):
            if said == f.label.zh or said in f.label.zh:
                return True
            continue
        words = set(re.findall(r"[a-z]+", f"{f.label.en} {f.name}".lower().replace("_", " ")))
        if said in words or singular in words or said.replace(" ", "_") == f.name:
            return True
    return False


def _fields_listed(text: str, word: str) -> bool:
    """Whether a word is said after a colon, where a request lists what each row holds ("Log my bouldering sessions:
    which gym, grades I sent"), not beside the tool's own name ("my workouts and my weight": a second subject)."""
    head = re.search(r"[:：]", text)
    return head is not None and word.lower() in text[head.end() :].lower()


def _asked_within(word: str, questions: list[Any]) -> bool:
    """Whether a subject's word is said inside a question the request asks of each row ("吃没吃药" of a migraine: a
    yes-or-no field, not a medication log besides)."""
    for question in questions:
        said = (question.get("said") if isinstance(question, dict) else getattr(question, "said", None)) or ""
        rest = iter(said.lower())
        if word and all(ch in rest for ch in word.lower()):  # the word's characters in order, "吃药" in "吃没吃药"
            return True
    return False


def _composed(
    text: str, lang: Literal["en", "zh"], subject: str | None, shape: str, score: float, rival: float
) -> Intent:
    slots = details(text)
    slots["fields"] = [f.name for f in requested_fields(text)]
    slots.update(_said_as(text))
    # "喂奶的时间和毫升，还有换尿布": one log of both subjects (of a log's own: a schedule written down each time,
    # "my sourdough starter feeding log", is its own log, not a baby's feeds besides)
    if subject and shape == "log" and library().subjects[subject].shape == "log":
        # not one named by a word the chosen subject records ("log my bouldering sessions: which gym, grades I sent":
        # the climb's grade, not a school report's courses and credits)
        others = [
            s.id
            for s, score, word in find_subjects(text)[1:3]
            if s.shape == "log"
            and s.id != subject
            and score >= 2.5
            and not (_fields_listed(text, word) and _records(subject, word))
            and not _asked_within(word, slots.get("asked", []))
        ]
        if others:
            slots["with_subjects"] = others
    if shape == "lookup":  # the places it reads, which end of the ranking the person asks about, what it shows
        measures = measures_named(text)
        words = {w.lower() for m in measures for w in [*library().measures[m].en, *library().measures[m].zh]}
        unresolved = [p for p in place_like(text) if p.lower() not in words]  # "紫外线和湿度": a measure, no place
        slots.update(cities=find_cities(text), unresolved_places=unresolved, order=order(text), measures=measures)
        slots["when"] = when(text)
        if _PER_DAY.search(text):
            slots["per_day"] = True
        # the days to come, with nothing to rank, which a current value is not ("每天看一下": now, each day)
        if _DAYS_AHEAD.search(text) and not slots["order"] and _RANKED.search(text) is None:
            slots["days_ahead"] = True
    confidence = (1 - math.exp(-score / 2.0)) * score / (score + rival) if score > 0 else 0.0
    return Intent(
        archetype=subject or f"custom_{shape}",
        confidence=round(confidence, 3),
        slots={k: v for k, v in slots.items() if v not in (None, [], {})},
        lang=lang,
        shape=shape,
        subject=subject,
    )


def _usual_interval(task: str) -> int | None:
    """How often the schedule a task's words name recurs ("换牙刷": a toothbrush's 90 days), if they name one."""
    schedules = (sub.every_days for sub, _, _ in find_subjects(task) if sub.shape == "schedule" and sub.every_days)
    return next(schedules, None)


def _scheduled(
    text: str,
    lang: Literal["en", "zh"],
    subject: Subject | None,
    score: float,
    rival: float,
    tasks: list[dict[str, Any]],
) -> Intent:
    """A schedule of the listed recurring tasks, titled by the subject when it has another shape; a task whose
    interval the person asks ("牙刷多久换一次") at the usual one of the schedule its words name, if one does."""
    tasks = [t if t["every_days"] else {**t, "every_days": _usual_interval(t["task"])} for t in tasks]
    own = subject if subject is not None and subject.shape == "schedule" else None
    intent = _composed(text, lang, own.id if own else None, "schedule", score, rival)
    # the list is the tasks, not fields of a row ("smoke alarm test monthly" is no column)
    slots = {k: v for k, v in intent.slots.items() if k not in ("listed", "asked", "fields")} | {"tasks": tasks}
    if subject is not None and own is None:  # "Home maintenance" of a log's title, as the schedule's
        title = re.sub(
            r"\s*(log|tracker|journal|diary|list)$|(记录|日志|清单|账本)$", "", subject.title.in_(lang), flags=re.I
        )
        slots["object"] = title or subject.title.in_(lang)
    return intent.model_copy(update={"slots": slots})


def clarifying_question(intent: Intent) -> str:
    """What to ask a person whose request was not clear enough to build, in the request's language."""
    if intent.lang == "zh":
        if not intent.candidates:
            return (
                "我可以做记录、换算、清单和排行之类的小工具。你希望这个工具做什么？"
                "例如：“记录我的晨跑”或“按本周气温给北京和上海排名”。"
            )
        return "还是：".join(BY_NAME[c].question_zh or BY_NAME[c].question for c in intent.candidates)
    if not intent.candidates:
        return (
            "I can build small trackers, converters, lists and rankings. What would you like the tool to do? "
            "For example: 'log my morning runs' or 'rank Beijing and Shanghai by temperature this week'."
        )
    options = " Or: ".join(BY_NAME[c].question for c in intent.candidates)
    return options
