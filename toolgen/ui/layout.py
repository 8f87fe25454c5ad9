"""What a tool's page puts first, read from its program: the few headline figures, and the chart its data calls for.

The page (ui_templates/tool.js) shows the form first, then these figures, then every other figure under a labelled
disclosure, one heading per operation. A chart adds only what adds up: a field some figure sums (kilometres,
money, glasses) is a bar per day; a field the figures only average or take the range of (a blood pressure, a
weight, a temperature) is a line with a point per reading, one line for each such field of the same unit.
"""

from __future__ import annotations

import re
from typing import Any

from toolgen.program import AggregateOp, Entity, ToolProgram

HEADLINE_MAX = 4
# A figure's kind by its expression, in the order the page shows the kinds (a goal or a limit first).
_KINDS: list[tuple[str, re.Pattern[str]]] = [
    ("goal", re.compile(r"\b(?:goal|limit|target|budget)\b")),  # a figure over a goal constant
    ("main", re.compile(r"^(?:round\()?\s*(?:sum|avg)\(")),
    ("latest", re.compile(r"\blast\(")),
    ("count", re.compile(r"^count\(\)$")),
    ("when", re.compile(r"^max\([a-z_]*date[a-z_]*\)$|^streak\(")),
]
_AIMS = {"goal", "limit", "budget", "target"}  # constants an operation's figures are measured against
_UNIT = re.compile(r"[(（]([^)）]+)[)）]\s*$")


def headline(op: AggregateOp) -> list[str]:
    """Up to four of an aggregate's figures, one of each kind in order: the goal or limit, the main total or
    average, the latest or its change (of a measure, not of an amount), how many, when last; the first figure of
    each kind, then the program's others in its order while there is room ("Games for four")."""
    chosen: dict[str, str] = {}
    for name, expression in op.metrics.items():
        for kind, pattern in _KINDS:
            said = expression if kind == "goal" else expression.replace(" ", "")
            if kind not in chosen and pattern.search(said):
                chosen[kind] = name
                break
    main = op.metrics.get(chosen.get("main", ""), "")
    if "sum(" in main.replace(" ", ""):  # a total's rows are amounts: the last of them says little
        chosen.pop("latest", None)
    ordered = [chosen[kind] for kind, _ in _KINDS if kind in chosen]
    ordered += [name for name in op.metrics if name not in ordered]  # then as the program lists them
    return ordered[:HEADLINE_MAX]


def _fields_in(expression: str, function: str) -> set[str]:
    return set(re.findall(rf"\b{function}\(\s*([a-z][a-z0-9_]*)\s*\)", expression))


def chart(entity: Entity, aggregates: list[AggregateOp]) -> dict[str, Any] | None:
    """The chart an entity's rows call for, or None: ``{"date", "time", "how": "bar", "values": [one field]}`` for a
    field some figure sums, else ``{"how": "line", "values": [...]}`` for the fields its figures average."""
    date = next((n for n, s in entity.fields.items() if s.type == "date"), None)
    numbers = [n for n, s in entity.fields.items() if s.type in ("number", "integer") and not s.enum]
    if date is None or not numbers:
        return None
    time = next((n for n, s in entity.fields.items() if s.type == "time"), None)
    expressions = [e for op in aggregates for e in op.metrics.values()]
    summed = {f for e in expressions for f in _fields_in(e, "sum")}
    averaged = {f for e in expressions for f in _fields_in(e, "avg") | _fields_in(e, "min") | _fields_in(e, "max")}
    base = {"date": date, "time": time}
    first_summed = next((n for n in numbers if n in summed), None)
    measured = [n for n in numbers if n in averaged and n not in summed]
    if measured and (first_summed is None or numbers.index(measured[0]) < numbers.index(first_summed)):
        unit = _unit(entity, measured[0])
        same = [n for n in measured if _unit(entity, n) == unit] if unit else measured[:1]
        return {**base, "how": "line", "values": same[:3]}
    if first_summed is not None:
        return {**base, "how": "bar", "values": [first_summed]}
    return None  # no figure adds or averages a number (a rota's "who starts"): a chart of it would say nothing


def _unit(entity: Entity, name: str) -> str | None:
    found = _UNIT.search(entity.fields[name].label or "")
    return found.group(1).strip().lower() if found else None


def _picks(op: AggregateOp) -> bool:
    return any("pick(" in expression for expression in op.metrics.values())


def views(program: ToolProgram) -> dict[str, dict[str, Any]]:
    """Each entity's headline figures (its goal's or limit's where it has one, else from its first aggregate over
    every row) and its chart."""
    out: dict[str, dict[str, Any]] = {}
    for name, entity in program.entities.items():
        aggregates = [op for op in program.operations if isinstance(op, AggregateOp) and op.entity == name]
        # a random pick is asked for, not a figure to lead with ("Picked for you" on every collection's page)
        plain = [op for op in aggregates if not (op.group_by or op.series or _picks(op))]
        overall = next((op for op in plain if not op.period), plain[0] if plain else None)
        goal = next((op for op in plain if set(op.constants) & _AIMS), None)
        first: AggregateOp | None = goal or overall  # a goal or limit is what the page leads with
        if first is None:
            shown: list[str] = []
        else:
            shown = list(first.metrics)[:HEADLINE_MAX] if first is goal else headline(first)
        out[name] = {
            "headline": shown,
            "headline_op": first.id if first else None,
            "rest": first is not None and len(first.metrics) > len(shown),  # figures of it the headline leaves out
            "chart": chart(entity, aggregates),
        }
    return out
