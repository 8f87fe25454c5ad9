"""Asking back: a refusal with its reason, or a question that carries the tools the person can have in one step.

A request that is not clear enough to build gets its likeliest readings as candidates, each planned and summed up
in the person's language (title, fields, what it does), and the first of them as the proposal: the person
accepts it (``POST /v1/jobs/{id}/answer {"accept": true}``) or picks a candidate (``{"choice": "..."}``), and the
job goes on with that reading. An action in the world ("book me a table") is refused with its reason, and has no
candidates: there is nothing to accept.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from toolgen.errors import ToolgenError
from toolgen.intent.classify import clarifying_question, classify_as
from toolgen.intent.read import action_named
from toolgen.models import Intent
from toolgen.program import ToolProgram

logger = logging.getLogger(__name__)
MAX_CANDIDATES = 4
_REFUSED = {
    "en": "That is not something a small tool of yours can do. I make trackers, lists, reminders, date counters and "
    "calculators: what would you like to keep track of?",
    "zh": "这不是小工具能做的事。我可以做记录、清单、定期提醒、日子倒数和计算器：你想记录或计算什么？",
}
_PICK = {
    "en": "I am not sure which tool you mean. I can make the first of these now, or one of the others:",
    "zh": "我不太确定你想要哪种工具。可以直接做第一个，也可以选其他的：",
}
# An action the learned refusal reads where the rules read a tool: which one the person means is theirs to say.
_DOUBT = {
    "en": "That sounds like something to do rather than a tool to make: {reason} If you meant a tool, answer and I "
    "make this one:",
    "zh": "这听起来像是要我替你去做的事，而不是做一个工具：{reason}如果你要的是工具，回答一下我就做这个：",
}
_NOTHING = {
    "en": "What would you like the tool to do? For example: 'log my blood pressure', 'a list of gift ideas', "
    "'remind me to water the plants every 3 days', 'calculate my mortgage payment'.",
    "zh": "你想让工具做什么？比如：“记录血压”、“礼物清单”、“每三天提醒我浇花”、“算一下房贷月供”。",
}


# Places a lookup was asked for that no city or town known here has (classify.unplaced).
_UNPLACED = {
    "en": "I don't know where {names} is. Which town or city is it in or near? Ask again naming it (I know towns of "
    "15,000 people or more), for example: 'the surf forecast for Sydney'.",
    "zh": "我不知道{names}在哪里：它在哪个城市或附近？请带上城市名再说一次（人口一万五千以上的城镇我都认得），"
    "比如：“查一下三亚这周的浪高”。",
}


@dataclass
class Asked:
    question: str
    refused: str | None = None
    proposal: dict[str, Any] | None = None
    candidates: list[dict[str, Any]] = field(default_factory=list)


def summary(choice: str, program: ToolProgram) -> dict[str, Any]:
    """What a candidate tool is, in its language: what to call to get it, its title, fields and operations."""
    fields = [spec.label or name for entity in program.entities.values() for name, spec in entity.fields.items()]
    inputs = [
        spec.label or name for op in program.operations for name, spec in (getattr(op, "inputs", None) or {}).items()
    ]
    return {
        "choice": choice,
        "title": program.title,
        "description": program.description,
        "fields": (fields or inputs)[:12],
        "operations": [op.summary or op.id for op in program.operations][:8],
    }


def _candidate(prompt: str, choice: str) -> dict[str, Any] | None:
    from toolgen.planner.offline import OfflinePlanner  # the planner package imports this module's neighbours

    try:
        intent = classify_as(prompt, choice)
        return summary(choice, OfflinePlanner().plan(prompt, intent, []).program)
    except (ToolgenError, ValueError):
        logger.exception("candidate %s of %r could not be planned", choice, prompt[:80])
        return None


def ask(prompt: str, intent: Intent) -> Asked:
    """What to answer a request that gets no tool yet: a refusal with its reason, or a question with choices."""
    lang = intent.lang
    if intent.refusal is not None:
        action = action_named(intent.refusal)  # the rules' or the learned model's kind of action
        reason = action.reason(lang) if action is not None else _REFUSED[lang]
        return Asked(question=reason, refused=intent.refusal)
    if intent.unresolved:
        quoted = [f"“{name}”" if lang == "zh" else f"'{name}'" for name in intent.unresolved[:3]]
        names = "、".join(quoted) if lang == "zh" else " or ".join(quoted)
        return Asked(question=_UNPLACED[lang].format(names=names))
    candidates = [c for c in (_candidate(prompt, choice) for choice in intent.candidates[:MAX_CANDIDATES]) if c]
    if intent.doubt is not None:  # refused, with the tool the rules read offered: a person who meant it answers
        action = action_named(intent.doubt)
        reason = action.reason(lang) if action is not None else _REFUSED[lang]
        if not candidates:
            return Asked(question=reason, refused=intent.doubt)
        question = f"{_DOUBT[lang].format(reason=reason.rstrip())} {candidates[0]['title']}"
        return Asked(question=question, refused=intent.doubt, proposal=candidates[0], candidates=candidates)
    if not candidates:
        return Asked(question=_NOTHING[lang] if not intent.candidates else clarifying_question(intent))
    titles = "; ".join(f"{i}. {c['title']}" for i, c in enumerate(candidates, 1))
    return Asked(question=f"{_PICK[lang]} {titles}", proposal=candidates[0], candidates=candidates)
