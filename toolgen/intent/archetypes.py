"""The archetypes the offline classifier knows: cue phrases with weights, in English and Chinese.

Data, so that widening coverage means adding rows, not code. English cues are regular expressions matched on
word boundaries, case-insensitively; Chinese cues are substrings.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Archetype:
    name: str
    needs_external_api: bool
    en: tuple[tuple[str, float], ...]
    zh: tuple[tuple[str, float], ...]
    question: str  # asked when the request might be this but is not clear enough


ARCHETYPES: tuple[Archetype, ...] = (
    Archetype(
        "run_log",
        False,
        en=(
            (r"runs?", 2),
            (r"running", 2),
            (r"jog(s|ging)?", 2),
            (r"morning runs?", 2),
            (r"marathon", 2),
            (r"pace", 1),
            (r"\d+\s?k(m)?\b", 0.5),
            (r"log", 0.5),
            (r"track(er)?", 0.5),
        ),
        zh=(("跑步", 3), ("晨跑", 3), ("夜跑", 3), ("慢跑", 3), ("跑", 1), ("配速", 2), ("马拉松", 2), ("记录", 0.5)),
        question="Do you want to log your runs (date, distance, time)?",
    ),
    Archetype(
        "weather_ranking",
        True,
        en=(
            (r"weather", 3),
            (r"forecasts?", 3),
            (r"(hottest|coldest|warmest|coolest|windiest|rainiest|wettest)", 3),
            (r"temperatures?", 2),
            (r"rain(fall|y)?", 1.5),
            (r"wind(y)?", 1),
            (r"cities", 2),
            (r"city", 1),
            (r"rank(ing|ed)?", 1),
            (r"sunn(y|iest)", 1.5),
        ),
        zh=(
            ("天气", 3),
            ("预报", 3),
            ("最热", 3),
            ("最冷", 3),
            ("气温", 3),
            ("温度", 2),
            ("降雨", 2),
            ("下雨", 2),
            ("降水", 2),
            ("风力", 2),
            ("城市", 2),
            ("排名", 1),
            ("排行", 1),
            ("排序", 1),
        ),
        question="Do you want to rank cities by this week's forecast (temperature, rain or wind)?",
    ),
    Archetype(
        "unit_converter",
        False,
        en=(
            (r"convert(er|ing|s)?", 3),
            (r"conversions?", 3),
            (r"units?", 2),
            (r"how many \w+ (in|are in) an?", 2),
        ),
        zh=(("换算", 3), ("转换", 3), ("单位", 2), ("转成", 2), ("换成", 2), ("等于多少", 2)),
        question="Do you want to convert between units (length, weight, temperature, volume)?",
    ),
    Archetype(
        "habit_tracker",
        False,
        en=(
            (r"habits?", 3),
            (r"streaks?", 2),
            (r"check[- ]?ins?", 2),
            (r"daily", 1),
            (r"every ?day", 1),
            (r"meditat(e|ion)", 1),
            (r"floss(ing)?", 1),
        ),
        zh=(("习惯", 3), ("打卡", 3), ("坚持", 2), ("每天", 1), ("每日", 1), ("连续", 1), ("冥想", 1)),
        question="Do you want to track a daily habit and its streak?",
    ),
    Archetype(
        "todo_list",
        False,
        en=(
            (r"to-?dos?", 3),
            (r"to do list", 3),
            (r"tasks?", 2),
            (r"checklists?", 3),
            (r"chores?", 2),
            (r"things (i need )?to do", 3),
            (r"errands?", 2),
        ),
        zh=(("待办", 3), ("任务", 2), ("清单", 2), ("要做的事", 3), ("事项", 2), ("家务", 2)),
        question="Do you want a to-do list you can add tasks to and tick off?",
    ),
)

BY_NAME = {a.name: a for a in ARCHETYPES}
