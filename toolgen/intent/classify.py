"""The offline classifier: weighted cue phrases per archetype, a confidence from the score and the margin.

Confidence is ``(1 - exp(-top / 2)) * top / (top + runner_up)``: how strong the best archetype's cues are, times
how much of the evidence is its own. A strong cue alone gives about 0.78, more cues raise it, a tie halves it.
Below MIN_CONFIDENCE the request is ambiguous or out of scope: the archetype is None, with the likeliest
candidates so the person can be asked. When the out-of-scope cues outweigh every archetype, there are none.
"""

from __future__ import annotations

import math
import re
from functools import cache
from typing import Literal

from toolgen.intent.archetypes import ARCHETYPES, BY_NAME, OUT_OF_SCOPE, Archetype
from toolgen.intent.slots import (
    extract,
    find_cities,
    find_cuisines,
    find_currencies,
    find_date,
    find_language,
    find_percent,
    find_units,
    is_chinese,
)
from toolgen.models import Intent

MIN_CONFIDENCE = 0.45
MIN_SCORE = 1.5


@cache
def _compiled_zh(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![a-z]){pattern}(?![a-z])", re.IGNORECASE)


def _score(arch: Archetype, text: str) -> float:
    english = sum(w for p, w in arch.en if _compiled(p).search(text))
    return english + sum(w for cue, w in arch.zh if _compiled_zh(cue).search(text))


_HEIGHT = re.compile(
    r"\d\s?'\s?\d{1,2}|\d{3}\s?cm|\d(\.\d+)?\s?m\b|\d\s?(feet|foot|ft)\b|[一1]米[0-9一二三四五六七八九]|身高", re.I
)
_WEIGHT = re.compile(r"\d+\s?(kg|kgs|lbs?|pounds|公斤|斤|千克)|体重", re.I)
_UNTIL = re.compile(r"until|till|before|left|to go|还有|还剩|距离|离", re.I)
_BILL = re.compile(r"bill|check|dinner|meal|restaurant|账单|吃饭|聚餐", re.I)
_STUDY = re.compile(r"learn|study|words|drill|practi[sc]e|memori[sz]e|单词|复习|背|学", re.I)
_TEMPERATURE_READING = re.compile(r"\d+\s?°?\s?[fc]\b|\d+\s?(度|摄氏|华氏)", re.I)


def _boosts(text: str) -> dict[str, float]:
    """Evidence from what the text names rather than how it is worded."""
    boost: dict[str, float] = {}
    if len(find_currencies(text)) >= 2:  # amounts in two currencies: a currency conversion
        boost["currency_converter"] = 3.0
    elif len(find_units(text)) >= 2 or (_TEMPERATURE_READING.search(text) and find_units(text)):
        boost["unit_converter"] = 3.0
    if len(find_cities(text)) >= 2:
        boost["weather_ranking"] = 1.5
    if _HEIGHT.search(text) and _WEIGHT.search(text):
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


def scores(text: str) -> dict[str, float]:
    """Each archetype's score for ``text`` (and the out-of-scope score under its own name)."""
    result = {arch.name: _score(arch, text) for arch in (*ARCHETYPES, OUT_OF_SCOPE)}
    for name, extra in _boosts(text).items():
        result[name] += extra
    return result


def classify(text: str) -> Intent:
    """The Intent of a request: archetype (or None with candidates), confidence, slots, language."""
    lang: Literal["en", "zh"] = "zh" if is_chinese(text) else "en"
    all_scores = scores(text)
    refusal = all_scores.pop(OUT_OF_SCOPE.name)
    ranked = sorted(all_scores.items(), key=lambda kv: -kv[1])
    (top_name, top), (_, second) = ranked[0], ranked[1]
    confidence = 0.0 if top <= 0 else (1 - math.exp(-top / 2.0)) * top / (top + second)
    if refusal >= top:  # asked for something no tool does ("book me a flight"): say so, don't guess
        return Intent(archetype=None, confidence=0.0, lang=lang, candidates=[])
    candidates = [name for name, s in ranked[:3] if s >= 1.0]
    if top < MIN_SCORE or confidence < MIN_CONFIDENCE:
        return Intent(archetype=None, confidence=round(confidence, 3), lang=lang, candidates=candidates)
    return Intent(
        archetype=top_name,
        confidence=round(confidence, 3),
        slots=extract(top_name, text),
        needs_external_api=BY_NAME[top_name].needs_external_api,
        lang=lang,
    )


def clarifying_question(intent: Intent) -> str:
    """What to ask a person whose request was not clear enough to build."""
    if not intent.candidates:
        return (
            "I can build small trackers, converters, lists and rankings. What would you like the tool to do? "
            "For example: 'log my morning runs' or 'rank Beijing and Shanghai by temperature this week'."
        )
    options = " Or: ".join(BY_NAME[c].question for c in intent.candidates)
    return options
