"""Plans for trackers: rows a person logs over time, with figures over the day, week or all time."""

from __future__ import annotations

from typing import Any

from toolgen.models import Intent
from toolgen.planner.common import Fact, field, labelled, number, op
from toolgen.planner.labels import choice, choices, text

# Choices are in the request's language (toolgen/planner/labels.py: "value.<kind>.<value>"); these lists are
# their English forms, in their order, and everything keyed by a choice (the caffeine table) follows it.
WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
DRINKS = ["coffee", "espresso", "latte", "cappuccino", "americano", "tea", "green_tea", "energy_drink", "cola", "other"]
CAFFEINE_MG = {
    "coffee": 95,
    "espresso": 63,
    "latte": 63,
    "cappuccino": 63,
    "americano": 95,
    "tea": 47,
    "green_tea": 28,
    "energy_drink": 80,
    "cola": 34,
    "other": 50,
}
BUDGET_CATEGORIES = ["food", "transport", "housing", "shopping", "fun", "health", "bills", "other"]


@labelled("run_log")
def run_log(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    start = intent.slots.get("start") or fact("run_time")
    if start is None:
        part = intent.slots.get("time_of_day") or fact("run_time_of_day")
        start = {"morning": "06:30", "afternoon": "15:00", "evening": "19:00", "night": "21:00"}.get(part or "")
    unit = "mi" if fact("distance_unit") == "mi" else "km"
    goal = intent.slots.get("goal") or {}
    weekly = goal.get("value") if goal.get("period", "week") == "week" else None
    return {
        "name": "run_log",
        "title": text("run_log.title", lang),
        "description": text("run_log.description", lang),
        "entities": {
            "run": {
                "label": text("run", lang),
                "fields": {
                    "date": field("date", "date", lang, required=True, default="$today"),
                    "distance": field("number", f"distance_{unit}", lang, required=True, minimum=0, maximum=1000),
                    "minutes": field("number", "minutes", lang, minimum=0, maximum=6000),
                    "start": field("time", "start", lang, **({"default": start} if start else {})),
                    "note": field("text", "note", lang, max_length=500),
                },
            }
        },
        "operations": [
            op("addRun", "create", "/runs", "run.add", lang, entity="run"),
            op("listRuns", "list", "/runs", "run.list", lang, entity="run", sort="-date"),
            op(
                "runStats",
                "aggregate",
                "/stats",
                "run.stats",
                lang,
                entity="run",
                metrics={
                    "runs": "count()",
                    "total_distance": "round(sum(distance), 2)",
                    "longest": "max(distance)",
                    f"pace_min_per_{unit}": "round(sum(minutes) / sum(distance), 2)",
                    "streak_days": "streak(date)",
                },
            ),
            op(
                "weekDistance",
                "aggregate",
                "/week",
                "run.week",
                lang,
                entity="run",
                period="week",
                constants={"goal": number(weekly, 20.0)},
                metrics={
                    "distance": "round(sum(distance), 2)",
                    "goal": "goal",
                    "remaining": "round(max(goal - sum(distance), 0), 2)",
                },
            ),
            op("deleteRun", "delete", "/runs/{id}", "run.delete", lang, entity="run"),
        ],
        "defaults": {"start": start, "distance_unit": unit} if start else {"distance_unit": unit},
    }


@labelled("habit_tracker")
def habit_tracker(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    habits = choices("habit", list(intent.slots.get("habits") or []), lang)
    habit = field("string", "habit", lang, required=True, max_length=60, **({"default": habits[0]} if habits else {}))
    return {
        "name": "habit_tracker",
        "title": text("habit.title", lang),
        "description": text("habit.description", lang),
        "entities": {
            "checkin": {
                "label": text("checkin", lang),
                "fields": {
                    "habit": habit,
                    "date": field("date", "date", lang, required=True, default="$today"),
                    "note": field("text", "note", lang, max_length=500),
                },
            }
        },
        "operations": [
            op("checkIn", "create", "/checkins", "habit.add", lang, entity="checkin"),
            op(
                "listCheckins",
                "list",
                "/checkins",
                "habit.list",
                lang,
                entity="checkin",
                sort="-date",
                filters=["habit"],
            ),
            op(
                "habitStreaks",
                "aggregate",
                "/streaks",
                "habit.stats",
                lang,
                entity="checkin",
                group_by="habit",
                metrics={
                    "days_done": "count()",
                    "current_streak": "streak(date)",
                    "last_day": "max(date)",
                    # the share of days since the habit's first check-in that have one (one check-in a day)
                    "completion_pct": "round(min(100, 100 * count() / (days_since(min(date)) + 1)))",
                },
            ),
            op("deleteCheckin", "delete", "/checkins/{id}", "habit.delete", lang, entity="checkin"),
        ],
        "defaults": {"habits": habits},
    }


@labelled("caffeine_tracker")
def caffeine_tracker(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    sensitive = fact("caffeine_sensitive") == "true"
    limit = number((intent.slots.get("limit") or {}).get("value"), 200.0 if sensitive else 400.0)
    cutoff = intent.slots.get("cutoff") or fact("caffeine_cutoff") or ("12:00" if sensitive else "14:00")
    return {
        "name": "caffeine_tracker",
        "title": text("caffeine.title", lang),
        "description": text("caffeine.description", lang),
        "entities": {
            "drink": {
                "label": text("drink", lang),
                "fields": {
                    "date": field("date", "date", lang, required=True, default="$today"),
                    "time": field("time", "time", lang),
                    "drink": field(
                        "string",
                        "drink",
                        lang,
                        enum=choices("drink", DRINKS, lang),
                        default=choice("drink", "coffee", lang),
                    ),
                    "mg": field("number", "mg", lang, required=True, minimum=0, maximum=1000),
                },
            }
        },
        "operations": [
            op(
                "logDrink",
                "create",
                "/drinks",
                "caffeine.add",
                lang,
                entity="drink",
                derive={"mg": "caffeine[drink]"},
                constants={"caffeine": {choice("drink", drink, lang): mg for drink, mg in CAFFEINE_MG.items()}},
            ),
            op("listDrinks", "list", "/drinks", "caffeine.list", lang, entity="drink", sort="-date", filters=["date"]),
            op(
                "today",
                "aggregate",
                "/today",
                "caffeine.today",
                lang,
                entity="drink",
                period="day",
                constants={"limit": limit, "cutoff": cutoff},
                metrics={
                    "mg": "sum(mg)",
                    "drinks": "count()",
                    "limit_mg": "limit",
                    "remaining_mg": "max(limit - sum(mg), 0)",
                    "over_limit": "sum(mg) > limit",
                    "last_time": "max(time)",
                    "past_cutoff": "max(time) > cutoff",
                },
            ),
            op(
                "week",
                "aggregate",
                "/week",
                "caffeine.week",
                lang,
                entity="drink",
                period="week",
                group_by="date",
                metrics={"mg": "sum(mg)", "drinks": "count()"},
            ),
            op("deleteDrink", "delete", "/drinks/{id}", "caffeine.delete", lang, entity="drink"),
        ],
        "defaults": {"limit_mg": limit, "cutoff": cutoff},
    }


@labelled("water_tracker")
def water_tracker(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    goal = intent.slots.get("goal") or {}
    per_unit = {"ml": 1, "l": 1000, "glass": 250}.get(goal.get("unit", "ml"), 1)
    goal_ml = number((goal.get("value") or 0) * per_unit or fact("water_goal"), 2000.0)
    return {
        "name": "water_tracker",
        "title": text("water.title", lang),
        "description": text("water.description", lang),
        "entities": {
            "intake": {
                "label": text("intake", lang),
                "fields": {
                    "date": field("date", "date", lang, required=True, default="$today"),
                    "time": field("time", "time", lang),
                    "ml": field("integer", "ml", lang, required=True, default=250, minimum=1, maximum=5000),
                },
            }
        },
        "operations": [
            op("logWater", "create", "/water", "water.add", lang, entity="intake"),
            op(
                "listWater", "list", "/water", "water.list", lang, entity="intake", sort="-created_at", filters=["date"]
            ),
            op(
                "today",
                "aggregate",
                "/today",
                "water.today",
                lang,
                entity="intake",
                period="day",
                constants={"goal": goal_ml},
                metrics={
                    "ml": "sum(ml)",
                    "goal_ml": "goal",
                    "remaining_ml": "max(goal - sum(ml), 0)",
                    "drinks": "count()",
                    "done": "sum(ml) >= goal",
                },
            ),
            op(
                "week",
                "aggregate",
                "/week",
                "water.week",
                lang,
                entity="intake",
                period="week",
                group_by="date",
                metrics={"ml": "sum(ml)"},
            ),
            op("deleteWater", "delete", "/water/{id}", "water.delete", lang, entity="intake"),
        ],
        "defaults": {"goal_ml": goal_ml},
    }


@labelled("mood_journal")
def mood_journal(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    return {
        "name": "mood_journal",
        "title": text("mood.title", lang),
        "description": text("mood.description", lang),
        "entities": {
            "entry": {
                "label": text("entry", lang),
                "fields": {
                    "date": field("date", "date", lang, required=True, default="$today"),
                    "mood": field("integer", "mood", lang, required=True, minimum=1, maximum=5),
                    "note": field("text", "note", lang, max_length=2000),
                    "tags": field("string", "tags", lang, max_length=100),
                },
            }
        },
        "operations": [
            op("addEntry", "create", "/entries", "mood.add", lang, entity="entry"),
            op("listEntries", "list", "/entries", "mood.list", lang, entity="entry", sort="-date"),
            op(
                "moodStats",
                "aggregate",
                "/stats",
                "mood.stats",
                lang,
                entity="entry",
                metrics={
                    "average": "round(avg(mood), 2)",
                    "entries": "count()",
                    "lowest": "min(mood)",
                    "highest": "max(mood)",
                    "streak_days": "streak(date)",
                },
            ),
            op(
                "week",
                "aggregate",
                "/week",
                "mood.week",
                lang,
                entity="entry",
                period="week",
                metrics={"average": "round(avg(mood), 2)", "entries": "count()"},
            ),
            op("deleteEntry", "delete", "/entries/{id}", "mood.delete", lang, entity="entry"),
        ],
    }


@labelled("budget_tracker")
def budget_tracker(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    period = intent.slots.get("period") or fact("budget_period") or "month"
    budget = number(intent.slots.get("amount") or fact("budget"), 2000.0)
    currency = (intent.slots.get("currencies") or [fact("currency") or ("CNY" if lang == "zh" else "USD")])[0]
    return {
        "name": "budget_tracker",
        "title": text("budget.title", lang),
        "description": text("budget.description", lang),
        "entities": {
            "expense": {
                "label": text("expense", lang),
                "fields": {
                    "date": field("date", "date", lang, required=True, default="$today"),
                    "amount": field("number", "amount", lang, required=True, minimum=0.01, maximum=1_000_000),
                    "category": field(
                        "string",
                        "category",
                        lang,
                        enum=choices("category", BUDGET_CATEGORIES, lang),
                        default=choice("category", "other", lang),
                    ),
                    "note": field("string", "note", lang, max_length=200),
                },
            }
        },
        "operations": [
            op("addExpense", "create", "/expenses", "budget.add", lang, entity="expense"),
            op(
                "listExpenses",
                "list",
                "/expenses",
                "budget.list",
                lang,
                entity="expense",
                sort="-date",
                filters=["category"],
            ),
            op(
                "periodBudget",
                "aggregate",
                "/budget",
                "budget.period",
                lang,
                entity="expense",
                period=period,
                constants={"budget": budget},
                metrics={
                    "spent": "round(sum(amount), 2)",
                    "budget": "budget",
                    "remaining": "round(budget - sum(amount), 2)",
                    "used_pct": "round(100 * sum(amount) / budget, 1)",
                    "over_budget": "sum(amount) > budget",
                },
            ),
            op(
                "byCategory",
                "aggregate",
                "/categories",
                "budget.categories",
                lang,
                entity="expense",
                period=period,
                group_by="category",
                metrics={"spent": "round(sum(amount), 2)", "expenses": "count()"},
            ),
            op("deleteExpense", "delete", "/expenses/{id}", "budget.delete", lang, entity="expense"),
        ],
        "defaults": {"budget": budget, "period": period, "currency": currency},
    }


@labelled("expense_splitter")
def expense_splitter(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    named = list(intent.slots.get("people") or [])
    count = int(intent.slots.get("people_count") or 0)
    people = [text("me", lang), *named]
    while len(people) < count:
        people.append(f"{text('friend', lang)} {len(people)}")
    paid_by = field("string", "paid_by", lang, required=True, max_length=60, default=people[0])
    labels: dict[str, str] = {}
    if len(people) > 1:
        paid_by["enum"] = people
    return {
        "name": "expense_splitter",
        "title": text("splitter.title", lang),
        "description": text("splitter.description", lang),
        "entities": {
            "expense": {
                "label": text("expense", lang),
                "fields": {
                    "description": field("string", "description", lang, required=True, max_length=120),
                    "amount": field("number", "amount", lang, required=True, minimum=0.01, maximum=1_000_000),
                    "paid_by": paid_by,
                    "date": field("date", "date", lang, required=True, default="$today"),
                },
            }
        },
        "operations": [
            op("addExpense", "create", "/expenses", "splitter.add", lang, entity="expense"),
            op(
                "listExpenses",
                "list",
                "/expenses",
                "splitter.list",
                lang,
                entity="expense",
                sort="-date",
                filters=["paid_by"],
            ),
            op(
                "balances",
                "aggregate",
                "/balances",
                "splitter.balances",
                lang,
                entity="expense",
                metrics={
                    "total": "round(sum(amount), 2)",
                    "per_person": "round(sum(amount) / count(people), 2)",
                    "transfers": "settle(paid_by, amount, people)",
                },
            ),
            op(
                "byPayer",
                "aggregate",
                "/paid",
                "splitter.by_payer",
                lang,
                entity="expense",
                group_by="paid_by",
                metrics={"paid": "round(sum(amount), 2)", "expenses": "count()"},
            ),
            op("deleteExpense", "delete", "/expenses/{id}", "splitter.delete", lang, entity="expense"),
            *_weighted_split(intent, people, labels),
        ],
        "defaults": {"people": people},
        # who shares the costs: a setting, so a follow-up can name them ("my roommates are Anna, Ben and Chloe")
        "settings": {"people": {"label": "成员" if lang == "zh" else "People", "value": people}},
        "labels": labels,
    }


# What a cost can be split in proportion to: each share's own figure, its label and its range.
_WEIGHTS = {
    "area": (("Area (m²)", "面积（平方米）"), 10_000.0),
    "days": (("Days", "天数"), 366.0),
    "nights": (("Nights", "晚数"), 366.0),
    "income": (("Income", "收入"), 100_000_000.0),
}


def _weighted_split(intent: Intent, people: list[str], labels: dict[str, str]) -> list[dict[str, Any]]:
    """A cost split in proportion to what each share has ("房租按面积分，主卧20平，次卧15平和12平"): the total and each
    share's figure in, each share's part out. None when the request splits evenly."""
    slots, lang = intent.slots, intent.lang
    weight = slots.get("weighted_by")
    if weight not in _WEIGHTS:
        return []
    (label_en, label_zh), top = _WEIGHTS[weight]
    given = [float(w) for w in slots.get("weights") or []][:12]
    if slots.get("households"):
        n = max(int(slots.get("people_count") or 0), len(given)) or 4
        shares = [f"第{i}户" if lang == "zh" else f"Household {i}" for i in range(1, min(n, 12) + 1)]
    else:
        shares = list(people)
        while len(shares) < len(given):
            shares.append(f"{text('friend', lang)} {len(shares)}")
        shares = shares[:12]
    amount = slots.get("amount")
    inputs: dict[str, Any] = {
        "total": {"type": "number", "label": "要分摊的总额" if lang == "zh" else "Total to split", "required": True,
                  "minimum": 0.01, "maximum": 100_000_000, **({"default": float(amount)} if amount else {})},
    }  # fmt: skip
    names = []
    for i, share in enumerate(shares, 1):
        name = f"{weight}_{i}"
        names.append(name)
        inputs[name] = {
            "type": "number",
            "label": f"{label_zh if lang == 'zh' else label_en} · {share}"[:60],
            "required": True,
            "minimum": 0,
            "maximum": top,
            **({"default": given[i - 1]} if i <= len(given) else {}),
        }
    whole = " + ".join(names)
    outputs = {}
    for i, share in enumerate(shares, 1):
        outputs[f"share_{i}"] = f"round(total * {weight}_{i} / ({whole}), 2)"
        labels[f"share_{i}"] = f"{share}应出" if lang == "zh" else f"Share · {share}"
    return [
        {
            "id": "splitByWeight",
            "kind": "compute",
            "method": "POST",
            "path": "/shares",
            "inputs": inputs,
            "outputs": outputs,
            "summary": (
                f"按{label_zh}分摊总额"
                if lang == "zh"
                else f"Split a total in proportion to each share's {label_en.split(' (')[0].lower()}"
            ),
        }
    ]


@labelled("focus_planner")
def focus_planner(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    goal = intent.slots.get("goal") or {}
    hours = number((goal.get("value") or 0) / (60 if goal.get("unit") == "minute" else 1), 10.0)
    block = int(intent.slots.get("block_minutes") or 90)
    rest = int(intent.slots.get("break_minutes") or 10)
    return {
        "name": "focus_planner",
        "title": text("focus.title", lang),
        "description": text("focus.description", lang),
        "entities": {
            "block": {
                "label": text("block", lang),
                "fields": {
                    "day": field(
                        "string",
                        "day",
                        lang,
                        required=True,
                        enum=choices("day", WEEKDAYS, lang),
                        default=choice("day", "mon", lang),
                    ),
                    "start": field("time", "start", lang, required=True, default="09:00"),
                    "minutes": field(
                        "integer", "minutes_block", lang, required=True, default=block, minimum=5, maximum=600
                    ),
                    "focus": field("string", "focus", lang, required=True, max_length=120),
                    "break_minutes": field("integer", "break_minutes", lang, default=rest, minimum=0, maximum=120),
                    "done": field("boolean", "done", lang, default=False),
                },
            }
        },
        "operations": [
            op("addBlock", "create", "/blocks", "focus.add", lang, entity="block"),
            op(
                "listBlocks",
                "list",
                "/blocks",
                "focus.list",
                lang,
                entity="block",
                sort="day",
                filters=["day"],
                computed={"hours": "round(minutes / 60, 2)"},
            ),
            op("updateBlock", "update", "/blocks/{id}", "focus.update", lang, entity="block"),
            op("deleteBlock", "delete", "/blocks/{id}", "focus.delete", lang, entity="block"),
            op(
                "weekPlan",
                "aggregate",
                "/week",
                "focus.week",
                lang,
                entity="block",
                group_by="day",
                metrics={"blocks": "count()", "minutes": "sum(minutes)", "break_minutes": "sum(break_minutes)"},
            ),
            op(
                "totals",
                "aggregate",
                "/totals",
                "focus.totals",
                lang,
                entity="block",
                constants={"goal": hours},
                metrics={
                    "hours": "round(sum(minutes) / 60, 1)",
                    "blocks_done": "count_where(done, True)",
                    "goal_hours": "goal",
                    "remaining_hours": "round(max(goal - sum(minutes) / 60, 0), 1)",
                },
            ),
        ],
        "defaults": {"goal_hours": hours},
    }
