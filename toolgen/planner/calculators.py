"""Plans for calculators: pure computations over inputs, with the request's numbers as defaults."""

from __future__ import annotations

from typing import Any

from toolgen.intent.gazetteer import DEFAULT_UNITS, UNITS
from toolgen.models import Intent
from toolgen.planner.common import Fact, field, labelled, number, op
from toolgen.planner.labels import choice, choices, text

BMI_CATEGORIES = {
    "en": {"under": "underweight", "normal": "normal", "over": "overweight", "obese": "obese"},
    "zh": {"under": "偏瘦", "normal": "正常", "over": "超重", "obese": "肥胖"},
}
SYSTEMS = ["metric", "imperial"]  # in English; a tool gets them in the request's language (labels.py)


@labelled("unit_converter")
def unit_converter(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    dimension = intent.slots.get("dimension") or "length"
    given = list(intent.slots.get("units") or [])
    # "inches and cm, pounds and kg": a converter for each dimension the request names units of, its own first
    others = [d for d in dict.fromkeys(UNITS[u][0] for u in given) if d != dimension]
    value = number(intent.slots.get("amount"), 1.0)
    operations = []
    for i, dim in enumerate([dimension, *others][:3]):
        units = [u for u, spec in UNITS.items() if spec[0] == dim]
        mine = [u for u in given if u in units]
        preferred = fact("distance_unit") if dim == "length" and not given else None
        src, dst = (mine + [u for u in DEFAULT_UNITS[dim] if u not in mine])[:2]
        if preferred in units and preferred != src:
            dst = preferred
        operations.append(
            op(
                "convert" if i == 0 else f"convert{dim.capitalize()}",
                "compute",
                "/convert" if i == 0 else f"/convert-{dim}",
                "convert" if i == 0 else f"convert.title.{dim}",
                lang,
                method="GET",
                inputs={
                    "value": field("number", "value", lang, required=True, default=value if i == 0 else 1.0),
                    "from_unit": field("string", "from", lang, enum=units, default=src),
                    "to_unit": field("string", "to", lang, enum=units, default=dst),
                },
                constants={"scale": {u: UNITS[u][1] for u in units}, "offset": {u: UNITS[u][2] for u in units}},
                outputs={
                    "result": "round((value * scale[from_unit] + offset[from_unit] - offset[to_unit])"
                    " / scale[to_unit], 6)"
                },
            )
        )
    return {
        "name": f"{dimension}_converter",
        "title": text(f"convert.title.{dimension}", lang),
        "description": text("convert.description", lang),
        "operations": operations,
        "defaults": {"dimension": dimension},
    }


@labelled("tip_calculator")
def tip_calculator(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    percent = number(intent.slots.get("percent"), 10.0 if lang == "zh" else 15.0)
    people = int(number(intent.slots.get("people_count"), 1))
    bill: dict[str, Any] = {"default": intent.slots["amount"]} if intent.slots.get("amount") else {}
    return {
        "name": "tip_calculator",
        "title": text("tip.title", lang),
        "description": text("tip.description", lang),
        "operations": [
            op(
                "tip",
                "compute",
                "/tip",
                "tip.compute",
                lang,
                method="GET",
                inputs={
                    "bill": field("number", "bill", lang, required=True, minimum=0, maximum=1_000_000, **bill),
                    "percent": field("number", "percent", lang, default=percent, minimum=0, maximum=100),
                    "people": field("integer", "people", lang, default=people, minimum=1, maximum=100),
                },
                outputs={
                    "tip": "round(bill * percent / 100, 2)",
                    "total": "round(bill + tip, 2)",
                    "per_person": "round(total / people, 2)",
                },
            ),
        ],
        "defaults": {"percent": percent, "people": people},
    }


@labelled("bmi_calculator")
def bmi_calculator(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    system = intent.slots.get("system") or ("imperial" if fact("distance_unit") == "mi" else "metric")
    system, metric = choice("system", system, lang), repr(choice("system", "metric", lang))
    return {
        "name": "bmi_calculator",
        "title": text("bmi.title", lang),
        "description": text("bmi.description", lang),
        "operations": [
            op(
                "bmi",
                "compute",
                "/bmi",
                "bmi.compute",
                lang,
                method="GET",
                inputs={
                    "weight": field("number", "weight_kg", lang, required=True, minimum=1, maximum=700),
                    "height": field("number", "height_cm", lang, required=True, minimum=20, maximum=300),
                    "system": field("string", "system", lang, enum=choices("system", SYSTEMS, lang), default=system),
                },
                constants={"label": BMI_CATEGORIES[lang]},
                outputs={
                    "bmi": f"round(weight / (height / 100) ** 2, 1) if system == {metric} "
                    "else round(703 * weight / height ** 2, 1)",
                    "category": "label['under'] if bmi < 18.5 else label['normal'] if bmi < 25 "
                    "else label['over'] if bmi < 30 else label['obese']",
                    # the weights at this height a BMI of 18.5 to 24.9 means, in the unit the weight was given in
                    "healthy_weight_min": f"round(18.5 * (height / 100) ** 2, 1) if system == {metric} "
                    "else round(18.5 * height ** 2 / 703, 1)",
                    "healthy_weight_max": f"round(24.9 * (height / 100) ** 2, 1) if system == {metric} "
                    "else round(24.9 * height ** 2 / 703, 1)",
                },
            ),
        ],
        "defaults": {"system": system},
    }
