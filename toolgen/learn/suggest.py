"""Suggestions drafted from patterns and facts: what to change in a tool, why, and a signature of the evidence.

A draft carries the changes accepting it makes (toolgen/changes.py: the same data a follow-up request makes), the
question and its reason in the tool's language, and what it rests on. Its signature is a digest of the evidence
that matters (the typical time, the typical week, the facts), not of how many rows showed it: one more morning run
gives the same signature, so a suggestion the person turned down is not asked again, while a habit that moved
(runs now start at 07:30) is new evidence and may be.

Nothing is drafted that the tool already has: a default already at the typical time, a goal near the typical week,
a cut-off already as early as it goes.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from toolgen.changes import Change
from toolgen.learn import readings, words
from toolgen.learn.patterns import ROUND_MINUTES, Pattern
from toolgen.learn.periods import date_field, goal_field, goal_of
from toolgen.program import AggregateOp, ToolProgram, is_limit

FAR = 0.25  # a goal more than a quarter off the typical week is someone else's goal (too easy, or never met)
EARLIER = 120  # minutes: caffeine's half-life is about five hours, so an hour hardly shows in sleep; two do
EARLIEST_CUTOFF = 10 * 60  # a cut-off before 10:00 would forbid the morning coffee itself
SLEEP_FACTS = ("sleep_quality", "caffeine_sensitive")
FACT_KEYS = SLEEP_FACTS  # every fact propose() reads: the platform reads these, not every memory


@dataclass(frozen=True)
class Draft:
    kind: str  # "time_default" | "weekly_goal" | "caffeine_cutoff"
    changes: list[Change]  # what accepting does to the tool (a revision)
    text: str  # the suggestion, in the tool's language: "Set the start time of new runs to 06:30 by default?"
    reason: str  # why, in the tool's language, with the evidence
    patterns: list[str]  # keys of the patterns behind it
    facts: list[str]  # keys of the person's memories behind it ("caffeine_sensitive", ...)
    signature: str  # a digest of the evidence: the same evidence, the same signature


def propose(program: ToolProgram, patterns: list[Pattern], facts: dict[str, str]) -> list[Draft]:
    """The suggestions ``patterns`` (of this program's rows) and the person's ``facts`` support, each once."""
    drafts: list[Draft | None] = []
    for pattern in patterns:
        if pattern.kind == "time_of_day":
            drafts.append(_time_default(program, pattern))
        elif pattern.kind == "weekly_total":
            drafts.append(_weekly_goal(program, pattern, patterns))
    drafts.append(_caffeine_cutoff(program, patterns, facts))
    unique: dict[str, Draft] = {}
    for draft in drafts:
        if draft is not None:
            unique.setdefault(draft.signature, draft)
    return list(unique.values())


def _signature(*evidence: Any) -> str:
    return hashlib.sha256(json.dumps(evidence, ensure_ascii=False, default=str).encode()).hexdigest()[:16]


def _figure(value: float) -> int | float:
    return int(value) if value == int(value) else value


def _time_default(program: ToolProgram, pattern: Pattern) -> Draft | None:
    entity = program.entities.get(pattern.entity)
    spec = entity.fields.get(pattern.field) if entity else None
    typical = pattern.data.get("typical")
    wanted = readings.minutes(typical)
    if entity is None or spec is None or spec.type != "time" or wanted is None:
        return None  # a pattern of an earlier revision, about a field the tool no longer has
    now = readings.minutes(spec.default)
    if now is not None and min((now - wanted) % readings.DAY, (wanted - now) % readings.DAY) < ROUND_MINUTES:
        return None  # already there, to the quarter hour the typical time is rounded to
    cutoff = _cutoff(program)
    if cutoff is not None and wanted > cutoff:
        return None  # a default past the tool's cut-off would log every new drink as too late
    rows = words.rows_of(program, pattern.entity)
    field = words.field_of(program, entity, pattern.field)
    if rows.zh:
        text = f"把新{rows}的默认{field.name}设为 {typical}？"
        was = f"现在默认是 {spec.default}。" if now is not None else f"现在新{rows}没有默认{field.name}。"
        reason = f"{pattern.evidence}，通常在 {typical} 左右。{was}"
    else:
        text = f"Set the {field.name} of new {rows} to {typical} by default?"
        was = (
            f"The default is {spec.default} now." if now is not None else f"New {rows} have no {field.name} filled in."
        )
        reason = f"{pattern.evidence}, typically around {typical}. {was}"
    change = Change(op="set_default", entity=pattern.entity, field=pattern.field, value=typical)
    signature = _signature("time_default", pattern.entity, pattern.field, typical)
    return Draft("time_default", [change], text, reason, [pattern.key], [], signature)


def _goals(program: ToolProgram, entity: str, field: str) -> list[AggregateOp]:
    """The figures totalling ``field`` that have a numeric goal."""
    return [
        op
        for op in program.operations
        if isinstance(op, AggregateOp)
        and op.entity == entity
        and goal_field(program, op) == field
        and goal_of(op) is not None
    ]


def _weekly_goal(program: ToolProgram, pattern: Pattern, patterns: list[Pattern]) -> Draft | None:
    entity = program.entities.get(pattern.entity)
    weekly, typical = pattern.data.get("weekly"), pattern.data.get("nice")
    if entity is None or pattern.field not in entity.fields or not isinstance(weekly, int | float):
        return None
    if not isinstance(typical, int | float) or typical <= 0:
        return None
    goals = _goals(program, pattern.entity, pattern.field)
    if any(is_limit(op) for op in goals):
        return None  # a limit the person keeps to is no goal to raise to their typical week
    weekly_goals = [op for op in goals if op.period == "week"]
    value = _figure(typical)
    goal: float | None = None
    if weekly_goals:
        goal = goal_of(weekly_goals[0]) or 0.0
        if abs(weekly - goal) <= FAR * goal or value == goal:
            return None
        change = Change(op="set_goal", entity=pattern.entity, field=pattern.field, value=value)
    elif goals:
        return None  # a goal of another period (a daily one) is the person's way of aiming; not a second one
    else:
        figure = _goal_figure(program, pattern, value)
        if figure is None:
            return None
        change = Change(op="add_figure", entity=pattern.entity, field=pattern.field, operation=figure)
    rows = words.rows_of(program, pattern.entity)
    field = words.field_of(program, entity, pattern.field)
    met = next((p for p in patterns if p.key == f"goal.{pattern.entity}.{pattern.field}"), None)
    said = [pattern.evidence, *([met.evidence] if met else [])]
    shown = field.of(readings.shown(value))
    if rows.zh:
        text = f"把每周{field.name}目标设为 {shown}？" if goal is not None else f"加一个每周{field.name}目标：{shown}？"
        now = f"现在的目标是 {field.of(readings.shown(goal))}。" if goal is not None else "目前还没有每周目标。"
        reason = "；".join(said) + "。" + now
    else:
        text = (
            f"Set the weekly {field.name} goal to {shown}?"
            if goal is not None
            else f"Add a weekly {field.name} goal of {shown}?"
        )
        now = (
            f"The goal is {field.of(readings.shown(goal))} now." if goal is not None else "There is no weekly goal yet."
        )
        reason = ". ".join(said) + ". " + now
    keys = [pattern.key, *([met.key] if met else [])]
    signature = _signature("weekly_goal", pattern.entity, pattern.field, value, goal)
    return Draft("weekly_goal", [change], text, reason, keys, [], signature)


def _goal_figure(program: ToolProgram, pattern: Pattern, value: int | float) -> dict[str, Any] | None:
    """A weekly figure with a goal, for a field the person already totals by week with no goal, limit or budget;
    None when the tool has no weekly total of it (nothing says the person looks at weeks) or would be invalid."""
    entity, field = pattern.entity, pattern.field
    totalling = [op for op in program.operations if isinstance(op, AggregateOp) and goal_field(program, op) == field]
    if not any(op.period == "week" and op.entity == entity for op in totalling):
        return None
    if any(op.entity == entity and op.constants for op in totalling):
        return None  # a total held to a limit or a budget is kept down, not aimed at
    named = words.field_of(program, program.entities[entity], field)
    figure = {
        "id": "weekly" + "".join(part.capitalize() for part in field.split("_")) + "Goal",
        "kind": "aggregate",
        "method": "GET",
        "path": f"/weekly-{field.replace('_', '-')}-goal",
        "entity": entity,
        "period": "week",
        "period_field": date_field(program, entity) or "date",
        "constants": {"goal": value},
        "metrics": {
            field: f"round(sum({field}), 2)",
            "goal": "goal",
            "remaining": f"round(max(goal - sum({field}), 0), 2)",
        },
        "summary": f"每周{named.name}目标" if program.ui.lang == "zh" else f"Weekly {named.name} goal",
    }
    grown = program.model_dump(mode="json")
    grown["operations"].append(figure)
    try:
        ToolProgram.model_validate(grown)  # an id or path taken, twenty operations already: not offered
    except ValidationError:
        return None
    return figure


def _is_caffeine(program: ToolProgram) -> bool:
    named = f"{program.name} {program.title}".lower()
    constants = {name for op in program.operations for name in getattr(op, "constants", None) or {}}
    return program.archetype == "caffeine_tracker" or "caffeine" in named or "咖啡" in named or "caffeine" in constants


def _cutoff(program: ToolProgram) -> int | None:
    """The tool's cut-off time (a constant named cutoff, else its default), in minutes after midnight."""
    constants: list[dict[str, Any]] = [getattr(op, "constants", None) or {} for op in program.operations]
    said = [named["cutoff"] for named in constants if "cutoff" in named] + [program.defaults.get("cutoff")]
    return next((readings.minutes(c) for c in said if readings.minutes(c) is not None), None)


def _caffeine_cutoff(program: ToolProgram, patterns: list[Pattern], facts: dict[str, str]) -> Draft | None:
    if facts.get("sleep_quality") != "poor" or facts.get("caffeine_sensitive") != "true" or not _is_caffeine(program):
        return None
    current = _cutoff(program)
    if current is None:
        return None
    earlier = max(current - EARLIER, EARLIEST_CUTOFF)
    if earlier >= current:
        return None
    before, after = readings.clock(current), readings.clock(earlier)
    # the drinks' own habit, when it falls after the new cut-off, is part of why
    late = [p for p in patterns if p.kind == "time_of_day" and (readings.minutes(p.data.get("typical")) or 0) > earlier]
    zh = program.ui.lang == "zh"
    if zh:
        text = f"把咖啡因截止时间从 {before} 提前到 {after}？"
        reason = (
            "你说过最近睡得不好，而且对咖啡因敏感。"
            "咖啡因要在体内停留好几个小时，截止时间早一些，睡前就有更多时间让它代谢掉。"
        )
        reason += "".join(f"{p.evidence}。" for p in late)
    else:
        text = f"Move the caffeine cut-off from {before} to {after}?"
        reason = (
            "You said you have been sleeping badly and that caffeine affects you. Caffeine stays in the body for "
            "hours, so an earlier cut-off gives it more time to wear off before bed."
        )
        reason += "".join(f" {p.evidence}." for p in late)
    change = Change(op="set_constant", field="cutoff", value=after)
    signature = _signature("caffeine_cutoff", before, after, [facts.get(k) for k in SLEEP_FACTS])
    return Draft("caffeine_cutoff", [change], text, reason, [p.key for p in late], list(SLEEP_FACTS), signature)
