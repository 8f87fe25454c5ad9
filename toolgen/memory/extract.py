"""Structured facts from free text: the key/value a memory carries when one can be read off it.

Small English and Chinese rules; a memory without a recognised fact is still kept and recalled by its words.
"""

from __future__ import annotations

import re
from typing import Literal

from toolgen.intent.slots import find_cities, find_time, time_of_day

Kind = Literal["preference", "fact", "habit", "event"]


def extract(text: str) -> tuple[Kind, str | None, str | None]:
    """(kind, key, value) for a memory's text; key and value are None when no fact is recognised."""
    t = text.lower()
    if re.search(r"dark (mode|theme)|深色|暗色|夜间模式|黑色主题", t):
        return "preference", "theme", "dark"
    if re.search(r"light (mode|theme)|浅色|亮色|白色主题", t):
        return "preference", "theme", "light"
    if re.search(r"\b(run|running|jog)|跑", t):
        when = find_time(text)
        if when:
            return "habit", "run_time", when
        part = time_of_day(text)
        if part:
            return "habit", "run_time_of_day", part
    if re.search(r"\b(live|living|based|home)\b|住在|我在|家在|来自", t):
        cities = find_cities(text)
        if cities:
            return "fact", "city", cities[0]
    if re.search(r"\bmiles?\b|imperial|英里", t):
        return "preference", "distance_unit", "mi"
    if re.search(r"\bkilomet|\bkm\b|metric|公里", t):
        return "preference", "distance_unit", "km"
    return "fact", None, None
