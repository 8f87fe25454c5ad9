"""The offline classifier: weighted cue phrases per archetype, a confidence from the score and the margin.

Confidence is ``(1 - exp(-top / 2.5)) * (top - runner_up) / top``: a strong cue alone gives about 0.7, more
cues raise it, and a close second lowers it. Below MIN_CONFIDENCE the request is ambiguous or out of scope:
the archetype is None, with the likeliest candidates so the person can be asked.
"""

from __future__ import annotations

import math
import re
from functools import cache
from typing import Literal

from toolgen.intent.archetypes import ARCHETYPES, BY_NAME
from toolgen.intent.slots import extract, find_units, is_chinese
from toolgen.models import Intent

MIN_CONFIDENCE = 0.45
MIN_SCORE = 2.0


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![a-z]){pattern}(?![a-z])", re.IGNORECASE)


def scores(text: str) -> dict[str, float]:
    """Each archetype's cue score for ``text``."""
    result: dict[str, float] = {}
    for arch in ARCHETYPES:
        score = sum(w for p, w in arch.en if _compiled(p).search(text))
        score += sum(w for cue, w in arch.zh if cue in text)
        result[arch.name] = score
    # Two units of one dimension ("km to miles") are a conversion whatever the wording.
    if len(find_units(text)) >= 2 and re.search(r"\bto\b|\binto\b|\bin\b|换|转|等于|是多少|->", text, re.IGNORECASE):
        result["unit_converter"] += 3
    return result


def classify(text: str) -> Intent:
    """The Intent of a request: archetype (or None with candidates), confidence, slots, language."""
    lang: Literal["en", "zh"] = "zh" if is_chinese(text) else "en"
    ranked = sorted(scores(text).items(), key=lambda kv: -kv[1])
    (top_name, top), (_, second) = ranked[0], ranked[1]
    confidence = 0.0 if top <= 0 else (1 - math.exp(-top / 2.5)) * (top - second) / top
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
