"""The offline planner: deterministic rules from intent, slots and memory to a ToolProgram.

No model and no network: it is the default, and the fallback when an LLM is configured but fails. Structured
memories fill slots and defaults here (a home city joins the weather ranking, a morning-run habit gives the run
log a morning start, a dark-mode preference gives a dark page); which memories did so is kept in provenance.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolgen.errors import StageError
from toolgen.intent.gazetteer import CITIES, DEFAULT_UNITS, UNITS
from toolgen.models import Intent, RecalledMemory
from toolgen.planner.labels import text
from toolgen.program import ToolProgram

WEATHER_HOST = "api.open-meteo.com"
DEFAULT_CITIES = ("Beijing", "Shanghai", "Guangzhou", "Shenzhen", "Chengdu")
# forecast metric: (open-meteo daily variable, JMESPath reducer over the week)
WEATHER_METRICS = {
    "temp_max": ("temperature_2m_max", "max"),
    "temp_min": ("temperature_2m_min", "min"),
    "precipitation": ("precipitation_sum", "sum"),
    "wind": ("wind_speed_10m_max", "max"),
}


class OfflinePlanner:
    """Planner that needs nothing but the intent."""

    def plan(self, prompt: str, intent: Intent, memories: list[RecalledMemory], context: str = "") -> ToolProgram:
        """A validated ToolProgram for ``intent``; StageError when the archetype has no plan."""
        builder = _BUILDERS.get(intent.archetype or "")
        if builder is None:
            raise StageError("plan", f"no plan for archetype {intent.archetype!r}")
        facts = {m.key: (m.value, m.memory_id) for m in memories if m.key and m.value}
        used: list[str] = []

        def fact(key: str) -> str | None:
            if key not in facts:
                return None
            value, memory_id = facts[key]
            used.append(memory_id)
            return value

        program = builder(intent, fact)
        theme = fact("theme")
        program["ui"] = {"lang": intent.lang, "mode": theme if theme in ("dark", "light") else "auto"}
        program["archetype"] = intent.archetype
        program["provenance"] = {"request": prompt, "memories": list(dict.fromkeys(used)), "planner": "offline"}
        return ToolProgram.model_validate(program)


Fact = Callable[[str], str | None]


def _run_log(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    start = intent.slots.get("start") or fact("run_time")
    if start is None:
        part = intent.slots.get("time_of_day") or fact("run_time_of_day")
        start = {"morning": "06:30", "evening": "19:00"}.get(part or "")
    unit = "mi" if fact("distance_unit") == "mi" else "km"
    return {
        "name": "run_log",
        "title": text("run_log.title", lang),
        "description": text("run_log.description", lang),
        "entities": {
            "run": {
                "label": text("run", lang),
                "fields": {
                    "date": {"type": "date", "label": text("date", lang), "required": True, "default": "$today"},
                    "distance": {
                        "type": "number",
                        "label": text(f"distance_{unit}", lang),
                        "required": True,
                        "minimum": 0,
                        "maximum": 1000,
                    },
                    "minutes": {"type": "number", "label": text("minutes", lang), "minimum": 0, "maximum": 6000},
                    "start": {"type": "time", "label": text("start", lang), **({"default": start} if start else {})},
                    "note": {"type": "text", "label": text("note", lang), "max_length": 500},
                },
            }
        },
        "operations": [
            {"id": "addRun", "kind": "create", "path": "/runs", "entity": "run", "summary": text("run.add", lang)},
            {
                "id": "listRuns",
                "kind": "list",
                "path": "/runs",
                "entity": "run",
                "sort": "-date",
                "summary": text("run.list", lang),
            },
            {
                "id": "runStats",
                "kind": "aggregate",
                "path": "/stats",
                "entity": "run",
                "summary": text("run.stats", lang),
                "metrics": {
                    "runs": "count()",
                    "total_distance": "round(sum(distance), 2)",
                    "longest": "max(distance)",
                    f"pace_min_per_{unit}": "round(sum(minutes) / sum(distance), 2)",
                    "streak_days": "streak(date)",
                },
            },
            {
                "id": "deleteRun",
                "kind": "delete",
                "path": "/runs/{id}",
                "entity": "run",
                "summary": text("run.delete", lang),
            },
        ],
        "defaults": {"start": start, "distance_unit": unit} if start else {"distance_unit": unit},
    }


def _weather_ranking(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    cities = list(intent.slots.get("cities") or [])
    home = fact("city")
    if home and home not in cities:
        cities.append(home)
    cities = cities or list(DEFAULT_CITIES)
    metric = intent.slots.get("metric", "temp_max")
    variable, reducer = WEATHER_METRICS[metric]
    descending = intent.slots.get("order", "desc") == "desc"
    return {
        "name": "weather_ranking",
        "title": text(f"weather.title.{metric}", lang),
        "description": text("weather.description", lang).format(cities=", ".join(cities)),
        "allowed_hosts": [WEATHER_HOST],
        "operations": [
            {
                "id": "rankCities",
                "kind": "fetch",
                "path": "/ranking",
                "summary": text(f"weather.title.{metric}", lang),
                "url": f"https://{WEATHER_HOST}/v1/forecast",
                "query": {
                    "latitude": ",".join(f"{CITIES[c][1]:.2f}" for c in cities),
                    "longitude": ",".join(f"{CITIES[c][2]:.2f}" for c in cities),
                    "daily": variable,
                    "timezone": "auto",
                    "forecast_days": "7",
                },
                "select": f"[*].{{value: {reducer}(daily.{variable})}}",
                "labels": cities,
                "label_field": "city",
                "fields": {"city": "string", "value": "number"},
                "sort": "-value" if descending else "value",
                "limit": len(cities),
            }
        ],
        "defaults": {"cities": cities, "metric": metric},
    }


def _unit_converter(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    dimension = intent.slots.get("dimension") or "length"
    units = [u for u, spec in UNITS.items() if spec[0] == dimension]
    given = list(intent.slots.get("units") or [])
    preferred = fact("distance_unit") if dimension == "length" and not given else None
    src, dst = (given + [u for u in DEFAULT_UNITS[dimension] if u not in given])[:2]
    if preferred in units and preferred != src:
        dst = preferred
    return {
        "name": f"{dimension}_converter",
        "title": text(f"convert.title.{dimension}", lang),
        "description": text("convert.description", lang),
        "operations": [
            {
                "id": "convert",
                "kind": "compute",
                "method": "GET",
                "path": "/convert",
                "summary": text("convert", lang),
                "inputs": {
                    "value": {"type": "number", "label": text("value", lang), "required": True, "default": 1},
                    "from_unit": {"type": "string", "label": text("from", lang), "enum": units, "default": src},
                    "to_unit": {"type": "string", "label": text("to", lang), "enum": units, "default": dst},
                },
                "constants": {"scale": {u: UNITS[u][1] for u in units}, "offset": {u: UNITS[u][2] for u in units}},
                "outputs": {
                    "result": "round((value * scale[from_unit] + offset[from_unit] - offset[to_unit])"
                    " / scale[to_unit], 6)"
                },
            }
        ],
        "defaults": {"dimension": dimension},
    }


def _habit_tracker(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    habits = list(intent.slots.get("habits") or [])
    habit_field: dict[str, Any] = {"type": "string", "label": text("habit", lang), "required": True, "max_length": 60}
    if habits:
        habit_field["default"] = habits[0]
    return {
        "name": "habit_tracker",
        "title": text("habit.title", lang),
        "description": text("habit.description", lang),
        "entities": {
            "checkin": {
                "label": text("checkin", lang),
                "fields": {
                    "habit": habit_field,
                    "date": {"type": "date", "label": text("date", lang), "required": True, "default": "$today"},
                    "note": {"type": "text", "label": text("note", lang), "max_length": 500},
                },
            }
        },
        "operations": [
            {
                "id": "checkIn",
                "kind": "create",
                "path": "/checkins",
                "entity": "checkin",
                "summary": text("habit.add", lang),
            },
            {
                "id": "listCheckins",
                "kind": "list",
                "path": "/checkins",
                "entity": "checkin",
                "sort": "-date",
                "summary": text("habit.list", lang),
            },
            {
                "id": "habitStreaks",
                "kind": "aggregate",
                "path": "/streaks",
                "entity": "checkin",
                "group_by": "habit",
                "summary": text("habit.stats", lang),
                "metrics": {"days": "count()", "current_streak": "streak(date)", "last_day": "last(date)"},
            },
            {
                "id": "deleteCheckin",
                "kind": "delete",
                "path": "/checkins/{id}",
                "entity": "checkin",
                "summary": text("habit.delete", lang),
            },
        ],
        "defaults": {"habits": habits},
    }


def _todo_list(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    return {
        "name": "todo_list",
        "title": text("todo.title", lang),
        "description": text("todo.description", lang),
        "entities": {
            "task": {
                "label": text("task", lang),
                "fields": {
                    "title": {"type": "string", "label": text("task", lang), "required": True, "max_length": 200},
                    "due": {"type": "date", "label": text("due", lang)},
                    "priority": {
                        "type": "string",
                        "label": text("priority", lang),
                        "enum": ["low", "normal", "high"],
                        "default": "normal",
                    },
                    "done": {"type": "boolean", "label": text("done", lang), "default": False},
                },
            }
        },
        "operations": [
            {"id": "addTask", "kind": "create", "path": "/tasks", "entity": "task", "summary": text("todo.add", lang)},
            {
                "id": "listTasks",
                "kind": "list",
                "path": "/tasks",
                "entity": "task",
                "sort": "created_at",
                "summary": text("todo.list", lang),
            },
            {
                "id": "updateTask",
                "kind": "update",
                "path": "/tasks/{id}",
                "entity": "task",
                "summary": text("todo.update", lang),
            },
            {
                "id": "deleteTask",
                "kind": "delete",
                "path": "/tasks/{id}",
                "entity": "task",
                "summary": text("todo.delete", lang),
            },
            {
                "id": "taskSummary",
                "kind": "aggregate",
                "path": "/summary",
                "entity": "task",
                "summary": text("todo.stats", lang),
                "metrics": {"total": "count()", "done": "sum(done)", "open": "count() - sum(done)"},
            },
        ],
    }


_BUILDERS: dict[str, Callable[[Intent, Fact], dict[str, Any]]] = {
    "run_log": _run_log,
    "weather_ranking": _weather_ranking,
    "unit_converter": _unit_converter,
    "habit_tracker": _habit_tracker,
    "todo_list": _todo_list,
}
