"""A rota: chores (or any duty) that people take turns at, whose turn worked out from the date.

A schedule whose request has people take turns ("三个人轮流做饭，每周轮换", "take turns", "whose turn"), or whose
subject is a rota's (a chore rota, dorm duty) and whose request names or counts the people, keeps one row per duty:
who starts it, from which day, and how many days each turn lasts. The people are a setting, so a follow-up names
them ("my flatmates are Ann, Ben and Cy") and every row follows; each duty's turn is computed on every read, so it
rotates by the date with nothing to tick off. The duties the request lists are the first rows, each started by the
next person, so no one has them all at once. It imports nothing of the composer: the composer builds the rest.
"""

from __future__ import annotations

from typing import Any

from toolgen.intent.details import ROTA_WORDS as reads_rota_words
from toolgen.intent.details import rota as reads_rota
from toolgen.knowledge.base import FieldDef, Subject
from toolgen.models import Intent

# What a turn is called by how long it lasts: "Whose turn this week" (every 7 days), else by the day or the turn.
_TURN = {
    1: (("Whose turn today", "今天轮到"), ("Next day", "明天轮到"), ("Changes on", "下次轮换")),
    7: (("Whose turn this week", "本周轮到"), ("Next week", "下周轮到"), ("Next week starts", "下次轮换")),
    14: (("Whose turn this fortnight", "这两周轮到"), ("Next up", "下一轮"), ("Next turn starts", "下次轮换")),
}
_ANY_TURN = (("Whose turn now", "这一轮轮到"), ("Next up", "下一轮"), ("Next turn starts", "下次轮换"))
# A subject's own field that says whose turn it is, or the order of turns, which the rota now computes.
_TURN_FIELDS = {"assignee", "rotation", "roommate", "whose_turn", "turn"}


def is_rota(subject: Subject | None, intent: Intent) -> bool:
    """Whether a schedule is a rota: the request has people take turns, or its subject is a rota's and the request
    names or counts the people ("a chore chart for my three kids"; "my weekly chore schedule" is one person's)."""
    people = intent.slots.get("people") or intent.slots.get("people_count")
    return bool(intent.slots.get("rota") or (subject and subject.rota and people))


def _duty(listed: str) -> str | None:
    """A listed duty, without the rota's own words ("三个人轮流做饭": 做饭; "每周轮换" is none)."""
    parts = reads_rota_words.split(listed)
    duty = parts[-1].strip(" ，,、。的") if len(parts) > 1 else listed.strip()
    return duty if duty and not reads_rota(duty) else None


def people(intent: Intent) -> list[str]:
    """Who takes turns: the people the request names, then numbered places up to the head count it gives, called as
    it calls them ("three flatmates": Flatmate 1, 2 and 3; "四个人": 成员1-4), at least two; a follow-up names them."""
    zh = intent.lang == "zh"
    named = list(intent.slots.get("people") or [])
    count = max(int(intent.slots.get("people_count") or 0), len(named), 2)
    noun = "成员" if zh else intent.slots.get("people_noun") or "person"
    while len(named) < min(count, 20):
        named.append(f"{noun}{len(named) + 1}" if zh else f"{noun.capitalize()} {len(named) + 1}")
    return named


def kept(fields: list[FieldDef]) -> list[FieldDef]:
    """The subject's and the request's fields a rota keeps: not one saying whose turn it is, nor one restating the
    rota ("几个人轮流做"), which the rota computes."""
    return [
        f for f in fields if f.name not in _TURN_FIELDS and not any(reads_rota(w) for w in (f.label.en, f.label.zh))
    ]


def rota(
    intent: Intent, tasks: list[dict[str, Any]], every: int
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """A rota's own fields (who starts, from when, how long a turn lasts), computed turns, settings and starting rows,
    in the request's language; ``tasks`` the duties listed."""
    zh = intent.lang == "zh"
    who = people(intent)
    specs: dict[str, Any] = {
        # who starts, by place in the names: renaming the people (a setting) keeps every row's turn
        "first": {
            "type": "integer",
            "label": "从第几个人开始" if zh else "Starts with person no.",
            "minimum": 1,
            "maximum": 50,
            "default": 1,
            "required": True,
        },
        "start_date": {
            "type": "date",
            "label": "开始日期" if zh else "Start date",
            "default": "$today",
            "required": True,
        },
        "every_days": {
            "type": "integer",
            "label": "几天换一次" if zh else "Turn lasts (days)",
            "minimum": 1,
            "maximum": 3650,
            "default": min(every, 3650),
            "required": True,
        },
    }
    now, after, change = _TURN.get(every, _ANY_TURN)
    # turns counted from the start (none before it: a rota starting next week is in its first turn till then)
    turns = "floor(max(days_since(start_date), 0) / every_days) + first - 1"
    n = "max(count(people), 1)"
    computed = {
        "whose_turn": f"item(people, ({turns}) % {n})",
        "next_turn": f"item(people, ({turns} + 1) % {n})",
        "turn_changes": "add_days(start_date, (floor(max(days_since(start_date), 0) / every_days) + 1) * every_days)",
    }
    labels = {name: (pair[1] if zh else pair[0]) for name, pair in zip(computed, (now, after, change), strict=True)}
    settings = {"people": {"label": "轮流的人（按顺序）" if zh else "Names, in turn", "value": who}}
    duties = [{**t, "task": said} for t in tasks if (said := _duty(str(t["task"])))]
    seed = [
        {"task": t["task"][:120], "first": i % len(who) + 1, "every_days": min(int(t["every_days"]), 3650)}
        for i, t in enumerate(duties[:10])
    ]
    return specs, {"computed": computed, "labels": labels}, settings, seed
