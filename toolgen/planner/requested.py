"""What a request asks for beyond its recipe: fields it names, periods it wants figures for, and a breakdown.

A recipe (a named kind's builder, or the composer's shape) is a start, not a limit: "a reading list with the page
I'm on" adds the page to the reading list, "记账……月底看看总共花了多少" gives the budget tracker this month's
totals, and "月底能看各种心情占多少" the mood journal a count per mood. Each step works on any planned program, so
every kind of tool gets them alike.
"""

from __future__ import annotations

import re
from typing import Any

from toolgen.knowledge.base import FieldDef, Words, library
from toolgen.knowledge.fields import duplicates
from toolgen.models import Intent
from toolgen.planner.compose import (
    RESERVED,
    as_said,
    asked_fields,
    field_spec,
    listed_fields,
    pick_one,
    rescaled,
)

PERIOD_NAMES = {  # the periods toolgen/intent/details.py reads ("每天" says how often, so days are not one)
    "week": ("thisWeek", "This week", "本周"),
    "month": ("thisMonth", "This month", "本月"),
    "year": ("thisYear", "This year", "今年"),
}
SERIES_NAMES = {  # the same figures for each of the latest periods: "average pace each week", "每月用了多少"
    "week": ("byWeek", "/by-week", "Week by week", "按周"),
    "month": ("byMonth", "/by-month", "Month by month", "按月"),
    "year": ("byYear", "/by-year", "Year by year", "按年"),
}


def add_requested_fields(program: dict[str, Any], intent: Intent) -> None:
    """Fields the request names that the tool's main entity lacks join it, offered, never required."""
    entities = program.get("entities") or {}
    if not entities or not any(intent.slots.get(k) for k in ("fields", "asked", "listed", "grouped_by", "scale")):
        return
    fields = next(iter(entities.values()))["fields"]
    labels = {spec.get("label") for spec in fields.values()}
    taken = {name for op in program["operations"] for name in op.get("computed", {})}
    library_fields = library().fields
    for name in intent.slots.get("fields") or []:
        f = library_fields.get(name)
        if f is None or duplicates(f, set(fields)) or name in taken or len(fields) >= 25:
            continue
        said = (intent.slots.get("field_words") or {}).get(name)
        spec = field_spec(f.model_copy(update={"label": as_said(f, said)}) if said else f, intent.lang)
        spec.pop("required", None)  # the recipe's operations were written without it
        if spec["label"] not in labels:
            fields[name] = spec
            labels.add(spec["label"])
    own = [_as_field(name, spec) for name, spec in fields.items()]
    for f in asked_fields(intent, own):  # what it asks about each entry: "what I was doing", "有没有发票"
        spec = field_spec(f, intent.lang)
        if f.name not in fields and f.name not in taken and len(fields) < 25 and spec["label"] not in labels:
            spec.pop("required", None)
            fields[f.name] = spec
            labels.add(spec["label"])  # ("how much caffeine" is the tracker's Caffeine (mg), not a second one)
            own.append(f)
    for f in listed_fields(intent, own):  # what it lists for each entry: "word, meaning, example sentence"
        spec = field_spec(f, intent.lang)
        if f.name not in fields and f.name not in taken and f.name not in RESERVED and len(fields) < 25:
            if spec["label"] in labels:
                continue
            spec.pop("required", None)
            fields[f.name] = spec
            labels.add(spec["label"])
    for f in own:  # a rating on the scale the request says
        scaled = rescaled(f, intent)
        if scaled is not f and f.name in fields:
            shown = field_spec(scaled, intent.lang)["label"]
            fields[f.name].update(minimum=scaled.min, maximum=scaled.max, label=shown)


def _as_field(name: str, spec: dict[str, Any]) -> FieldDef:
    """A program's field spec read back as a FieldDef, enough to compare meanings and labels."""
    kind = spec.get("type", "string")
    return FieldDef(
        name=name,
        type="string" if kind == "choice" else kind,
        label=Words(en=spec.get("label") or name, zh=spec.get("label") or name),
        min=spec.get("minimum"),
        max=spec.get("maximum"),
    )


def _additive(name: str) -> bool:
    """Whether a total of the field means something (the library says so; a recipe's own field by its name)."""
    f = library().fields.get(name)
    if f is not None:
        return f.sum
    return bool(re.search(r"amount|cost|spent|minutes|hours|ml|count|total|distance|km|calories|kcal", name))


def add_period_figures(program: dict[str, Any], intent: Intent) -> None:
    """For each period the request wants figures for ("monthly", "月底") that no figure of the tool covers yet:
    the period's figures over the main dated entity (entries, and per numeric field its total or average)."""
    wanted = intent.slots.get("periods") or []
    entities = program.get("entities") or {}
    if not wanted or not entities:
        return
    entity, body = next(iter(entities.items()))
    fields = body["fields"]
    if fields.get("date", {}).get("type") != "date":
        return
    operations = program["operations"]
    ids = {op["id"] for op in operations}
    paths = {op["path"] for op in operations}
    labels = program.setdefault("labels", {})

    def label(name: str, shown: str) -> None:
        if len(labels) < 60:
            labels.setdefault(name, shown[:60])

    zh = intent.lang == "zh"
    for period in wanted:
        op_id, en, cn = PERIOD_NAMES[period]
        path = f"/{period}-figures"
        period_op = next(
            (op for op in operations if op.get("kind") == "aggregate" and op.get("period") == period), None
        )
        metrics = dict(period_op["metrics"]) if period_op else _figures_of(fields, zh, label)
        if period_op is None and op_id not in ids and path not in paths and len(operations) < 20:
            operations.append(
                {
                    "id": op_id,
                    "kind": "aggregate",
                    "path": path,
                    "entity": entity,
                    "period": period,
                    "metrics": metrics,
                    "summary": f"{cn}的统计" if zh else f"{en}'s figures",
                }
            )
        # and the same figures for each of the latest periods: what "each week" asks, beside "this week"
        series_id, series_path, series_en, series_cn = SERIES_NAMES[period]
        has_series = any(op.get("series") == period for op in operations)
        if not has_series and series_id not in ids and series_path not in paths and len(operations) < 20:
            operations.append(
                {
                    "id": series_id,
                    "kind": "aggregate",
                    "path": series_path,
                    "entity": entity,
                    "series": period,
                    "series_count": 12,
                    "metrics": {k: v for k, v in metrics.items() if "pick(" not in v},
                    "summary": series_cn if zh else series_en,
                    **{k: period_op[k] for k in ("constants", "where", "period_field") if period_op and k in period_op},
                }
            )


def _figures_of(fields: dict[str, Any], zh: bool, label: Any) -> dict[str, str]:
    """A period's figures over an entity: its entries, and per numeric field its total or its average."""
    metrics = {"entries": "count()"}
    label("entries", "条数" if zh else "Entries")
    numeric = [(n, s) for n, s in fields.items() if s.get("type") in ("number", "integer")][:5]
    for name, spec in numeric:
        shown = spec.get("label", name)
        if _additive(name):
            metrics[f"total_{name}"[:40]] = f"round(sum({name}), 2)"
            label(f"total_{name}"[:40], f"{shown}合计" if zh else f"Total {shown.lower()}")
        else:
            metrics[f"avg_{name}"[:40]] = f"round(avg({name}), 2)"
            label(f"avg_{name}"[:40], f"平均{shown}" if zh else f"Average {shown.lower()}")
    return metrics


def add_breakdown(program: dict[str, Any], intent: Intent) -> None:
    """When the request asks how the rows divide ("各种心情占多少", "most common category"): the count of rows per
    value of the main entity's first choice field (else a small scale, such as a mood from 1 to 10)."""
    entities = program.get("entities") or {}
    if not intent.slots.get("breakdown") or not entities or len(program["operations"]) >= 20:
        return
    entity, body = next(iter(entities.items()))
    fields = body["fields"]

    def small_scale(spec: dict[str, Any]) -> bool:
        low, high = spec.get("minimum"), spec.get("maximum")
        return spec.get("type") == "integer" and low is not None and high is not None and high - low <= 10

    by = next((n for n, s in fields.items() if s.get("enum")), None) or next(
        (n for n, s in fields.items() if small_scale(s)), None
    )
    operations = program["operations"]
    if by is None or any(op.get("group_by") not in (None, "date") for op in operations):
        return  # a tool already counted per group answers "which is most common" itself
    labels = program.setdefault("labels", {})
    zh = intent.lang == "zh"
    if len(labels) < 60:
        labels.setdefault("entries", "条数" if zh else "Entries")
    shown = fields[by].get("label", by)
    op_id = "breakdownBy" + "".join(p.capitalize() for p in by.split("_"))
    operations.append(
        {
            "id": op_id[:40],
            "kind": "aggregate",
            "path": f"/breakdown-{by.replace('_', '-')}",
            "entity": entity,
            "group_by": by,
            "metrics": {"entries": "count()"},
            "summary": f"按{shown}分布" if zh else f"Breakdown by {shown.lower()}",
        }
    )


def add_random_pick(program: dict[str, Any], intent: Intent) -> None:
    """When the request asks the tool to pick one at random ("想喝的时候随机抽一款") and it has no pick of its own: one
    of its rows picked at random, named by its first word field."""
    entities = program.get("entities") or {}
    operations = program["operations"]
    if not intent.slots.get("random_pick") or not entities or len(operations) >= 20:
        return
    if any("pick(" in expr for op in operations for expr in (op.get("metrics") or {}).values()):
        return
    entity, body = next(iter(entities.items()))
    named = [n for n, s in body["fields"].items() if s.get("type") == "string" and n not in ("note", "notes")]
    if not named or any(op["path"] == "/pick" for op in operations):
        return
    labels = program.setdefault("labels", {})
    if len(labels) < 59:
        operations.append(pick_one(entity, named[0], intent.lang, labels, fields=body["fields"]))
