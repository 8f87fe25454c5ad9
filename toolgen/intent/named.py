"""The slots each named kind reads from a request: a ranking's places and measure, a conversion's units and amount,
a split's people and weights, a countdown's date and event, a focus plan's blocks and breaks.

Each kind has one extractor over the request's text; the finders it calls are the span readers of slots.py and
details.py, so this module sits above both (details reads with slots' finders: neither imports the other back).
"""

from __future__ import annotations

import re
from typing import Any

from toolgen.intent.details import areas, head_count, split_weight
from toolgen.intent.gazetteer import UNITS
from toolgen.intent.slots import (
    find_amount,
    find_cities,
    find_cuisines,
    find_currencies,
    find_date,
    find_dimension,
    find_events,
    find_goal,
    find_language,
    find_people,
    find_people_count,
    find_percent,
    find_period,
    find_time,
    find_units,
    habit_names,
    time_of_day,
    weather_metric,
)
from toolgen.knowledge.places import place_like


def _weather(text: str) -> dict[str, Any]:
    metric, order = weather_metric(text)
    # names that look like places but are none toolgen knows, so the person can be told ("Atlantis")
    return {"cities": find_cities(text), "metric": metric, "order": order, "unresolved_places": place_like(text)}


def _currency(text: str) -> dict[str, Any]:
    return {"currencies": find_currencies(text), "amount": find_amount(text)}


def _units(text: str) -> dict[str, Any]:
    units = find_units(text)
    if re.search(r"how many \S+( \S+)? (are )?in (a|an|one|\d)", text, re.IGNORECASE):
        units.reverse()  # "how many ml in a cup" converts from cups to ml
    measured = find_units(" ".join(re.findall(r"\d[\d,.]*\s?([^\d\s,.，。、?？]+(?:\s[a-z]+)?)", text)))
    if measured and measured[0] in units:  # "how many miles is 10 km": the amount's own unit is converted from
        units.remove(measured[0])
        units.insert(0, measured[0])
    dimension = find_dimension(text, units)
    return {
        "dimension": dimension,  # the first named; units of others ("inches and cm, pounds and kg") follow
        "units": sorted(units, key=lambda u: UNITS[u][0] != dimension) or None,
        "amount": find_amount(text),
    }


def _run(text: str) -> dict[str, Any]:
    goal = find_goal(text)
    return {
        "time_of_day": time_of_day(text),
        "start": find_time(text),
        "goal": {"value": goal[0], "unit": goal[1], "period": find_period(text) or "week"}
        if goal and goal[1] in ("km", "mi")
        else None,
    }


def _goal_slot(text: str, units: tuple[str, ...]) -> dict[str, Any] | None:
    goal = find_goal(text)
    return {"value": goal[0], "unit": goal[1]} if goal and goal[1] in units else None


def _budget(text: str) -> dict[str, Any]:
    return {"amount": find_amount(text), "currencies": find_currencies(text), "period": find_period(text)}


def _splitter(text: str) -> dict[str, Any]:
    weight = split_weight(text)
    return {
        "people": find_people(text),
        "people_count": head_count(text),
        "currencies": find_currencies(text),
        "weighted_by": weight,
        "weights": areas(text) if weight == "area" else None,
        "households": bool(
            re.search(r"每户|各户|住户|业主|\b(households?|apartments?|units|flats|owners)\b", text, re.I)
        )
        if weight
        else None,
        "amount": find_amount(text) if weight else None,
    }


def _tip(text: str) -> dict[str, Any]:
    return {"percent": find_percent(text), "people_count": find_people_count(text), "amount": find_amount(text)}


def _countdown(text: str) -> dict[str, Any]:
    events = find_events(text)
    return {"date": find_date(text), "event": events[0] if events else None, "events": events[1:] or None}


_MINUTES = r"(\d{1,3})\s*(?:-?\s*min(?:ute)?s?\b|分钟)"
_BLOCK = re.compile(
    _MINUTES + r"\s*(?:of\s+)?(?:focus|work|deep work|blocks?|sessions?|sprints?|pomodoros?)|"
    r"(?:每个番茄|番茄钟?|专注|每段|每块)\s*(\d{1,3})\s*分钟|(?:blocks?|sessions?) of\s+" + _MINUTES,
    re.IGNORECASE,
)
_BREAK = re.compile(_MINUTES + r"\s*(?:of\s+)?(?:breaks?|rest)|休息\s*(\d{1,3})\s*分钟|breaks? of\s+" + _MINUTES, re.I)
_POMODORO = re.compile(r"pomodoro|番茄", re.IGNORECASE)


def _focus(text: str) -> dict[str, Any]:
    """A weekly goal of hours, and the length of a block and of the break after it ("50 min focus blocks w/ 10 min
    breaks", "每个番茄25分钟，中间休息5分钟"; a pomodoro is 25 and 5 unless the request says otherwise)."""
    block = next((int(g) for m in _BLOCK.finditer(text) for g in m.groups() if g), None)
    rest = next((int(g) for m in _BREAK.finditer(text) for g in m.groups() if g), None)
    if _POMODORO.search(text):
        block, rest = block or 25, rest or 5
    goal = _goal_slot(text, ("hour", "minute"))
    if goal and goal.get("unit") == "minute" and goal.get("value") in (block, rest):
        goal = None  # "50 min focus blocks": the length of a block, not a goal for the week
    return {"goal": goal, "block_minutes": block, "break_minutes": rest}


_EXTRACTORS: dict[str, Any] = {
    "weather_ranking": _weather,
    "currency_converter": _currency,
    "unit_converter": _units,
    "run_log": _run,
    "habit_tracker": lambda t: {"habits": habit_names(t)},
    "caffeine_tracker": lambda t: {"limit": _goal_slot(t, ("mg",)), "cutoff": find_time(t)},
    "focus_planner": _focus,
    "expense_splitter": _splitter,
    "budget_tracker": _budget,
    "tip_calculator": _tip,
    "bmi_calculator": lambda t: {
        "system": "imperial" if re.search(r"pounds?|lbs?|feet|foot|inch|磅|英尺", t, re.I) else None
    },
    "countdown": _countdown,
    "todo_list": lambda t: {},
    "reading_list": lambda t: {"goal": _goal_slot(t, ("book", "page")), "period": find_period(t)},
    "flashcards": lambda t: {"topic": find_language(t)},
    "water_tracker": lambda t: {"goal": _goal_slot(t, ("ml", "l", "glass"))},
    "mood_journal": lambda t: {},
    "restaurant_picker": lambda t: {"cuisines": find_cuisines(t), "cities": find_cities(t)},
}


def extract(archetype: str | None, text: str) -> dict[str, Any]:
    """The slots an archetype reads from ``text``; slots the text does not give are left out."""
    extractor = _EXTRACTORS.get(archetype or "")
    if extractor is None:
        return {}
    return {k: v for k, v in extractor(text).items() if v not in (None, [], {})}
