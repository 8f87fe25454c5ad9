"""Plans for lists: things a person keeps, changes and ticks off (tasks, books, cards, places, dates)."""

from __future__ import annotations

from typing import Any

from toolgen.intent.gazetteer import CITIES
from toolgen.models import Intent
from toolgen.planner.common import Fact, field, labelled, number, op
from toolgen.planner.labels import choice, choices, text

# Choices in their English forms and order; a tool gets them in the request's language (labels.py).
PRIORITIES = ["high", "normal", "low"]
READING_STATUS = ["want", "reading", "done"]


@labelled("todo_list")
def todo_list(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    return {
        "name": "todo_list",
        "title": text("todo.title", lang),
        "description": text("todo.description", lang),
        "entities": {
            "task": {
                "label": text("task", lang),
                "fields": {
                    "title": field("string", "task", lang, required=True, max_length=200),
                    "due": field("date", "due", lang),
                    "priority": field(
                        "string",
                        "priority",
                        lang,
                        enum=choices("priority", PRIORITIES, lang),
                        default=choice("priority", "normal", lang),
                    ),
                    "done": field("boolean", "done", lang, default=False),
                },
            }
        },
        "operations": [
            op("addTask", "create", "/tasks", "todo.add", lang, entity="task"),
            op(
                "listTasks",
                "list",
                "/tasks",
                "todo.list",
                lang,
                entity="task",
                sort="created_at",
                filters=["done", "priority"],
            ),
            op("updateTask", "update", "/tasks/{id}", "todo.update", lang, entity="task"),
            op("deleteTask", "delete", "/tasks/{id}", "todo.delete", lang, entity="task"),
            op(
                "taskSummary",
                "aggregate",
                "/summary",
                "todo.stats",
                lang,
                entity="task",
                metrics={"total": "count()", "done": "count_where(done, True)", "open": "count_where(done, False)"},
            ),
        ],
    }


@labelled("reading_list")
def reading_list(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    slot = intent.slots.get("goal") or {}
    goal = number(slot.get("value") if slot.get("unit") == "book" else None, 12.0)
    done = repr(choice("status", "done", lang))  # the status a book read has, as the expressions name it
    return {
        "name": "reading_list",
        "title": text("reading.title", lang),
        "description": text("reading.description", lang),
        "entities": {
            "book": {
                "label": text("book", lang),
                "fields": {
                    "title": field("string", "title", lang, required=True, max_length=200),
                    "author": field("string", "author", lang, max_length=120),
                    "status": field(
                        "string",
                        "status",
                        lang,
                        enum=choices("status", READING_STATUS, lang),
                        default=choice("status", "want", lang),
                    ),
                    "rating": field("integer", "rating", lang, minimum=1, maximum=5),
                    "finished": field("date", "finished", lang),
                },
            }
        },
        "operations": [
            op("addBook", "create", "/books", "reading.add", lang, entity="book"),
            op("listBooks", "list", "/books", "reading.list", lang, entity="book", sort="status", filters=["status"]),
            op("updateBook", "update", "/books/{id}", "reading.update", lang, entity="book"),
            op("deleteBook", "delete", "/books/{id}", "reading.delete", lang, entity="book"),
            op(
                "readingStats",
                "aggregate",
                "/stats",
                "reading.stats",
                lang,
                entity="book",
                group_by="status",
                metrics={"books": "count()", "average_rating": "round(avg(rating), 1)"},
            ),
            op(
                "yearGoal",
                "aggregate",
                "/goal",
                "reading.goal",
                lang,
                entity="book",
                period="year",
                period_field="finished",
                constants={"goal": goal},
                metrics={
                    "read": f"count_where(status, {done})",
                    "goal": "goal",
                    "left": f"max(goal - count_where(status, {done}), 0)",
                },
            ),
        ],
        "defaults": {"yearly_goal": goal},
    }


@labelled("flashcards")
def flashcards(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    topic = choice("topic", intent.slots["topic"], lang) if intent.slots.get("topic") else None
    title = text("cards.title", lang) + (f" · {topic}" if topic else "")
    return {
        "name": "flashcards",
        "title": title,
        "description": text("cards.description", lang),
        "entities": {
            "card": {
                "label": text("card", lang),
                "fields": {
                    "front": field("string", "front", lang, required=True, max_length=300),
                    "back": field("string", "back", lang, required=True, max_length=1000),
                    "box": field("integer", "box", lang, default=1, minimum=1, maximum=5),
                    "due": field("date", "due_review", lang, required=True, default="$today"),
                },
            }
        },
        "operations": [
            op("addCard", "create", "/cards", "cards.add", lang, entity="card"),
            op(
                "listCards",
                "list",
                "/cards",
                "cards.list",
                lang,
                entity="card",
                sort="due",
                computed={"due_in_days": "days_until(due)"},
            ),
            op(
                "reviewQueue",
                "list",
                "/review",
                "cards.review",
                lang,
                entity="card",
                sort="due",
                limit=50,
                where="days_until(due) <= 0",
            ),
            op("updateCard", "update", "/cards/{id}", "cards.update", lang, entity="card"),
            op("deleteCard", "delete", "/cards/{id}", "cards.delete", lang, entity="card"),
            op(
                "schedule",
                "compute",
                "/schedule",
                "cards.schedule",
                lang,
                method="GET",
                inputs={
                    "box": field("integer", "box", lang, required=True, default=1, minimum=1, maximum=5),
                    "correct": field("boolean", "correct", lang, required=True, default=True),
                },
                outputs={
                    "next_box": "min(box + 1, 5) if correct else 1",
                    "next_due": "add_days(today(), 2 ** (next_box - 1))",
                },
            ),
        ],
        "defaults": {"topic": topic} if topic else {},
    }


@labelled("restaurant_picker")
def restaurant_picker(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    cuisines = list(intent.slots.get("cuisines") or [])
    if not cuisines:
        liked = fact("cuisine") or ("vegetarian" if fact("diet") else None)
        cuisines = [liked] if liked else []
    cuisines = choices("cuisine", cuisines, lang)
    cities = intent.slots.get("cities") or []
    area = cities[0] if cities else fact("city")
    if area and lang == "zh" and area in CITIES:  # the gazetteer's Chinese name
        area = CITIES[area][0]
    favorite = fact("favorite_restaurant")
    allergy = fact("allergy")  # "I'm allergic to peanuts": each place says whether it is safe, and a pick can ask
    safe = (
        {
            "allergy_safe": {
                "type": "boolean",
                "label": (f"{allergy}过敏也安全" if lang == "zh" else f"Safe for my {allergy} allergy")[:60],
            }
        }
        if allergy
        else {}
    )
    description = text("restaurant.description", lang)
    if favorite:  # the tool suggests it; accepting or rejecting the suggestion rewards the memory
        description += text("restaurant.suggestion", lang).format(name=favorite)
    return {
        "name": "restaurant_picker",
        "title": text("restaurant.title", lang),
        "description": description[:300],
        "entities": {
            "restaurant": {
                "label": text("restaurant", lang),
                "fields": {
                    "name": field("string", "name", lang, required=True, max_length=120),
                    "cuisine": field(
                        "string", "cuisine", lang, max_length=60, **({"default": cuisines[0]} if cuisines else {})
                    ),
                    "area": field("string", "area", lang, max_length=60, **({"default": area} if area else {})),
                    "visited": field("boolean", "visited", lang, default=False),
                    "rating": field("integer", "rating", lang, minimum=1, maximum=5),
                    **safe,
                },
            }
        },
        "operations": [
            op("addRestaurant", "create", "/restaurants", "restaurant.add", lang, entity="restaurant"),
            op(
                "listRestaurants",
                "list",
                "/restaurants",
                "restaurant.list",
                lang,
                entity="restaurant",
                sort="name",
                filters=["cuisine", "visited", "area"],
            ),
            op("updateRestaurant", "update", "/restaurants/{id}", "restaurant.update", lang, entity="restaurant"),
            op("deleteRestaurant", "delete", "/restaurants/{id}", "restaurant.delete", lang, entity="restaurant"),
            op(
                "pickOne",
                "aggregate",
                "/pick",
                "restaurant.pick",
                lang,
                entity="restaurant",
                filters=["cuisine", "visited", "area", *safe],
                metrics={"choice": "pick(name)", "options": "count()"},
            ),
        ],
        "defaults": {
            "cuisines": cuisines,
            **({"suggestion": favorite} if favorite else {}),
            **({"allergy": allergy} if allergy else {}),
        },
    }


@labelled("countdown")
def countdown(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    date = intent.slots.get("date")
    event = intent.slots.get("event") or ""
    if date is None and (not event or event == "birthday"):  # "count down to my birthday": the remembered date
        date = fact("birthday")
        event = event or ("birthday" if date else "")
    event = choice("event", event, lang) if event else ""
    others = [choice("event", e, lang) for e in intent.slots.get("events") or []]  # "还有他生日也加上"
    named = ("、" if lang == "zh" else ", ").join([event, *others]) if event else ""
    if date and len(date) == 5:  # a month and day: the next one, worked out on each call
        date_default: dict[str, Any] = {"default": f"$next:{date}"}
    elif date:
        date_default = {"default": date}
    else:
        date_default = {}
    return {
        "name": "countdown",
        "title": text("countdown.title", lang) + (f" · {named}" if named else ""),
        "description": text("countdown.description", lang),
        "entities": {
            "event": {
                "label": text("event", lang),
                "fields": {
                    "name": field(
                        "string", "event", lang, required=True, max_length=120, **({"default": event} if event else {})
                    ),
                    "date": field("date", "date", lang, required=True, **date_default),
                },
            }
        },
        "operations": [
            op(
                "daysUntil",
                "compute",
                "/countdown",
                "countdown.compute",
                lang,
                method="GET",
                inputs={"date": field("date", "date", lang, required=True, **date_default)},
                outputs={"days": "days_until(date)", "weeks": "round(days / 7, 1)", "workdays": "workdays_until(date)"},
            ),
            op("addEvent", "create", "/events", "countdown.add", lang, entity="event"),
            op(
                "listEvents",
                "list",
                "/events",
                "countdown.list",
                lang,
                entity="event",
                sort="days_left",
                computed={"days_left": "days_until(date)"},
            ),
            op("deleteEvent", "delete", "/events/{id}", "countdown.delete", lang, entity="event"),
        ],
        "defaults": {"date": date, "event": event} if date else {"event": event},
    }
