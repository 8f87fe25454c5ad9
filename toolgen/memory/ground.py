"""Whether a value a model read is grounded in what the person wrote: said there, or read off it by rule.

The model quotes the statement a fact comes from, and the quote is checked against the text
(toolgen/memory/llm.py ``grounded``); this checks the value. Without it a hostile or careless model turned "I like
tea" into ``favorite_restaurant = "EVIL-INJECTED <b>x</b>"``, and a restaurant picker suggested it. A value is
grounded when it is one of these, in the model's statement *and* in the person's text (a statement need only
share most of its words with the text, so a padded quote cannot bring a value of its own):

- the value itself, compared without case, width, spacing or curly quotes (Chinese as a substring, Latin as
  whole words: "mi" is not in "family");
- what the offline rules read off the words: a city by any of its names, a clock time, an amount or goal with
  its unit (2 litres is 2000 ml, and a bare 2 is not), a currency, a cuisine, a date, a period;
- for a key of a few known values (theme, diet, distance unit ...), a value whose words are said.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from toolgen.intent.slots import (
    find_amount,
    find_cities,
    find_cuisines,
    find_currencies,
    find_date,
    find_period,
    find_time,
    time_of_day,
)
from toolgen.memory.extract import caffeine_cutoff, negative_fact, water_ml

# What the rules read off a piece of text, per key: the values it names.
DERIVED: dict[str, Callable[[str], list[str]]] = {
    "city": find_cities,
    "run_time": lambda t: [v for v in [find_time(t)] if v],
    "caffeine_cutoff": lambda t: [v for v in [caffeine_cutoff(t) or find_time(t)] if v],
    "run_time_of_day": lambda t: [v for v in [time_of_day(t)] if v],
    "budget": lambda t: [f"{amount:g}" for amount in [find_amount(t)] if amount],
    "budget_period": lambda t: [v for v in [find_period(t)] if v],
    "currency": find_currencies,
    "cuisine": find_cuisines,
    "birthday": lambda t: [v for v in [find_date(t)] if v],
    "water_goal": lambda t: [v for v in [water_ml(t)] if v],
    "diet": lambda t: [fact[2] for fact in [negative_fact(t)] if fact and fact[2]],
}
# The words that say each value of a key with a few known values.
SAID_BY: dict[str, dict[str, tuple[str, ...]]] = {
    "distance_unit": {
        "mi": ("mile", "miles", "mi", "imperial", "英里"),
        "km": ("km", "kms", "kilometer", "kilometers", "kilometre", "kilometres", "metric", "公里", "千米"),
    },
    "caffeine_sensitive": dict.fromkeys(("true", "false"), ("caffeine", "coffee", "espresso", "咖啡", "咖啡因")),
    "diet": {
        "vegetarian": ("vegetarian", "veggie", "meat-free", "meatless", "吃素", "素食"),
        "vegan": ("vegan", "plant-based", "纯素", "全素"),
    },
    "theme": {
        "dark": ("dark", "night mode", "深色", "暗色", "夜间模式", "黑色"),
        "light": ("light", "bright mode", "浅色", "亮色", "白色"),
    },
    "run_time_of_day": {"morning": ("morning", "早上", "早晨", "清晨", "上午"), "evening": ("evening", "晚上", "傍晚")},
    "budget_period": {"week": ("week", "weekly", "每周", "星期"), "month": ("month", "monthly", "每月", "个月")},
}
NUMBERS = frozenset({"budget", "water_goal"})  # read with their units, never as bare digits


def normal(text: str) -> str:
    """``text`` without case, width, curly quotes or runs of spacing: what comparing a value to words ignores."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text).strip()


def _says(words: str, value: str) -> bool:
    """Whether ``value`` occurs in ``words`` (both normal): a substring, whole words where it starts or ends in a
    Latin letter or digit."""
    if not value:
        return False
    before = r"(?<![a-z0-9])" if re.match(r"[a-z0-9]", value) else ""
    after = r"(?![a-z0-9])" if re.search(r"[a-z0-9]$", value) else ""
    return re.search(before + re.escape(value) + after, words) is not None


def _pieces(text: str) -> list[str]:
    """The text and its clauses: the rules read the first time or amount of what they are given."""
    return [text, *(p for p in re.split(r"[,;.!?，；。！？\n]+|\s+(?:and|but)\s+", text) if p.strip())]


def _in(key: str, value: str, text: str) -> str | None:
    """The value as grounded in ``text``, or None."""
    words = normal(text)
    if key not in NUMBERS and key not in SAID_BY and _says(words, normal(value)):
        return value
    if any(_says(words, normal(w)) for w in SAID_BY.get(key, {}).get(value, ())):
        return value
    read = [v for piece in _pieces(text) for v in DERIVED.get(key, lambda _: [])(piece)]
    if value in read:
        return value
    if key == "birthday":  # a year the words never gave: the day they did give
        return next((v for v in read if len(v) == 5 and value.endswith(v)), None)
    return None


def ground_value(key: str, value: str, statement: str, text: str) -> str | None:
    """The value to keep for a model's fact (normalised already): grounded in its statement and the text, or None
    (the fact is then dropped, and its words may still be kept as plain memory)."""
    in_statement = _in(key, value, statement)
    if in_statement is None:
        return None
    return in_statement if _in(key, in_statement, text) == in_statement else None
