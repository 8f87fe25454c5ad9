"""The words of one tool a follow-up can name: its fields (by name, label and the knowledge base's words), its
units, its named constants, and the values a field takes.

A follow-up ("remove minutes", "去掉时长", "show distance in miles") names things of *this* tool, so its words come
from the program itself and from the knowledge base's words for the fields it has, in both languages, whatever the
tool's own language is. The reader (revise.py) and the applier (revision_apply.py) share the unit table here, so a
factor read is the factor applied.
"""

from __future__ import annotations

import math
import re
from typing import Any

from toolgen.intent.numerals import first_number
from toolgen.knowledge.base import library
from toolgen.program import FieldSpec, ToolProgram

UNIT_PART = re.compile(r"\s*[（(]([^()（）]*)[)）]\s*$")  # "Distance (km)", "距离（公里）"

# unit: (dimension, size in the dimension's base unit, English words, Chinese words). An ounce is a mass or a
# volume by the field it is asked of (ounces of water are fluid ounces).
UNITS: dict[str, tuple[str, float, tuple[str, ...], tuple[str, ...]]] = {
    "km": ("length", 1000.0, ("km", "kilometer", "kilometre", "kms"), ("公里", "千米")),
    "mi": ("length", 1609.344, ("mile", "mi"), ("英里",)),
    "m": ("length", 1.0, ("meter", "metre"), ("米",)),
    "ft": ("length", 0.3048, ("foot", "feet", "ft"), ("英尺",)),
    "cm": ("length", 0.01, ("cm", "centimeter", "centimetre"), ("厘米",)),
    "in": ("length", 0.0254, ("inch", "inches"), ("英寸",)),
    "kg": ("mass", 1000.0, ("kg", "kilogram", "kilo", "kgs"), ("公斤", "千克")),
    "lb": ("mass", 453.59237, ("lb", "lbs", "pound"), ("磅",)),
    "g": ("mass", 1.0, ("gram",), ("克",)),
    "mg": ("mass", 0.001, ("mg", "milligram"), ("毫克",)),
    "oz": ("mass", 28.349523125, ("ounce", "oz"), ("盎司",)),
    "ml": ("volume", 1.0, ("ml", "milliliter", "millilitre"), ("毫升",)),
    "l": ("volume", 1000.0, ("liter", "litre"), ("升",)),
    "fl oz": ("volume", 29.5735295625, ("fl oz", "fluid ounce"), ()),
    "°C": ("temperature", 0.0, ("celsius", "°c", "centigrade"), ("摄氏度", "摄氏")),
    "°F": ("temperature", 0.0, ("fahrenheit", "°f"), ("华氏度", "华氏")),
}
UNIT_ZH = {"km": "公里", "mi": "英里", "kg": "公斤", "lb": "磅", "g": "克", "mg": "毫克", "oz": "盎司", "ml": "毫升",
           "l": "升", "fl oz": "液量盎司", "m": "米", "ft": "英尺", "cm": "厘米", "in": "英寸", "°C": "摄氏度",
           "°F": "华氏度"}  # fmt: skip
UNIT_NAMES = {zh: unit for unit, zh in UNIT_ZH.items()}

# The named constants a tool's figures compare with, and the words people call them by; the program adds the labels
# of the figures that show each ("Limit (mg)", "预算").
CONSTANT_WORDS: dict[str, tuple[str, ...]] = {
    "cutoff": ("cut-off", "cutoff", "cut off", "截止", "最晚"),
    "limit": ("limit", "cap", "max", "maximum", "上限", "限额", "限量", "最多"),
    "budget": ("budget", "预算"),
}
CONSTANT_LABELS = {"cutoff": ("Cut-off", "截止时间"), "limit": ("Limit", "上限"), "budget": ("Budget", "预算"),
                   "goal": ("Goal", "目标")}  # fmt: skip


def bare(label: str) -> str:
    """A label without its unit: 'Distance (km)' -> 'Distance'."""
    return UNIT_PART.sub("", label).strip()


def main_entity(program: ToolProgram) -> str | None:
    """The entity a follow-up's fields belong to: the tool's first (its rows)."""
    return next(iter(program.entities), None)


def field_words(name: str, spec: FieldSpec) -> set[str]:
    """The words that name a field: its name, its label, the knowledge base's words and labels for it, and a time's
    or date's head ('start' of 'Start time', '开始' of '开始时间')."""
    words = {name, name.replace("_", " "), bare(spec.label).lower()}
    known = library().fields.get(name)
    if known is not None:
        words |= {w.lower() for w in known.words} | {known.label.en.lower(), known.label.zh}
    for word in list(words):
        head = re.fullmatch(r"(.+?)\s+(time|date)|(.{2,})(时间|日期)", word)
        if head:
            words.add(head.group(1) or head.group(3))
    return {w for w in words if w}


def _pattern(word: str) -> str:
    if re.search(r"[\u4e00-\u9fff]", word):
        return re.escape(word)
    return rf"(?<![a-z]){re.escape(word)}(s|es)?(?![a-z])"


def find_fields(text: str, program: ToolProgram, entity: str | None = None) -> list[str]:
    """The fields of ``entity`` (the main one by default) the text names, in the order it names them; the longest
    word wins where two overlap ("开始时间" is the start, not a time)."""
    entity = entity or main_entity(program)
    if entity is None:
        return []
    words = sorted(
        ((w, n) for n, spec in program.entities[entity].fields.items() for w in field_words(n, spec)),
        key=lambda pair: -len(pair[0]),
    )
    lowered, hits = text.lower(), []
    for word, name in words:
        for m in re.finditer(_pattern(word), lowered):
            hits.append((m.start(), name))
            lowered = lowered[: m.start()] + " " * (m.end() - m.start()) + lowered[m.end() :]
    return list(dict.fromkeys(name for _, name in sorted(hits)))


def unit_words() -> list[tuple[str, str]]:
    """(word, unit) for every unit word, longest first."""
    pairs = [(w, u) for u, (_, _, en, zh) in UNITS.items() for w in (*en, *zh)]
    return sorted(pairs, key=lambda pair: -len(pair[0]))


def units_named(text: str) -> list[tuple[int, int, str]]:
    """(start, end, unit) of each unit the text names, in order."""
    lowered, found = text.lower(), []
    for word, unit in unit_words():
        chinese = bool(re.search(r"[\u4e00-\u9fff]", word))
        pattern = re.escape(word) if chinese else rf"(?<![a-z°]){re.escape(word)}(s|es)?(?![a-z])"
        for m in re.finditer(pattern, lowered):
            found.append((m.start(), m.end(), unit))
            lowered = lowered[: m.start()] + " " * (m.end() - m.start()) + lowered[m.end() :]
    return sorted(found)


def unit_of(name: str, spec: FieldSpec) -> str | None:
    """The unit a field's numbers are in: its label's ('Distance (km)', '水量（毫升）'), else the knowledge base's."""
    m = UNIT_PART.search(spec.label)
    said = m.group(1).strip() if m else ""
    for word, unit in unit_words():
        if said.lower() == word or said == unit:
            return unit
    known = library().fields.get(name)
    if known is not None and known.unit:
        return next((u for w, u in unit_words() if known.unit.lower() in (w, u.lower())), None)
    return None


def factor(old: str, new: str) -> float:
    """How many ``new`` one ``old`` is (km -> mi: 0.621371); both of one dimension, not temperature."""
    return UNITS[old][1] / UNITS[new][1]


def unit_label(label: str, old: str, new: str, lang: str) -> str:
    """A label with its unit part naming ``new`` instead of ``old``: 'Pace (min/km)' -> 'Pace (min/mi)'."""
    shown = UNIT_ZH.get(new, new) if lang == "zh" else new

    def swap(m: re.Match[str]) -> str:
        words = sorted({old, *UNITS[old][2], *UNITS[old][3]}, key=len, reverse=True)
        inner = re.sub("|".join(rf"(?<![a-z]){re.escape(w)}(?![a-z])" for w in words), shown, m.group(1), count=1)
        return m.group(0).replace(m.group(1), inner)

    return UNIT_PART.sub(swap, label)[:60]


def constants(program: ToolProgram) -> dict[str, Any]:
    """The tool's named scalar constants (a limit, a cut-off, a budget, a goal) and their values."""
    found: dict[str, Any] = {}
    for op in program.operations:
        for name, value in (getattr(op, "constants", None) or {}).items():
            if isinstance(value, int | float | str) and not isinstance(value, bool):
                found.setdefault(name, value)
    return found


# Words that name one group of people, whichever of them a setting is called by: "my roommates are ..." names a
# splitter's "people".
PEOPLE = frozenset(
    {"people", "person", "persons", "roommates", "housemates", "flatmates", "friends", "members", "participants",
     "family", "kids", "children", "group", "室友", "朋友", "成员", "大家", "家人", "孩子", "参与者", "小伙伴"}
)  # fmt: skip


# A setting is what a follow-up is about only when it is said first, then its new value: "my roommates are ...",
# "rent: 7000", "室友改成...": "add a note so friends know" mentions friends and sets nothing.
_SETTING_LEAD = r"^\s*(?:(?:my|our|the|set|change|update|now|把|我的|我们的|现在)\s*)*"
_SETTING_CUE = r"s?\s*(?:are|is|=|:|：|to|now|will be|should be|是|为|改成|改为|换成|变成|现在是|有|改|换)"


def setting_named(text: str, program: ToolProgram) -> tuple[str, str] | None:
    """The setting a follow-up sets (named by its name or label, singular or plural, or, for a group of people, by
    any word for one, at the start of the follow-up and followed by its new value), and the word that named it."""
    lowered = text.lower()
    for name, setting in program.settings.items():
        words = {name, name.replace("_", " "), bare(setting.label).lower()} - {""}
        if words & PEOPLE and isinstance(setting.value, list):
            words |= PEOPLE
        words |= {w[:-1] for w in words if w.endswith("s") and len(w) > 3}  # "roommates" said as "roommate"
        for word in sorted(words, key=len, reverse=True):
            if re.match(_SETTING_LEAD + re.escape(word) + _SETTING_CUE, lowered):
                return name, word
    return None


def constant_words(program: ToolProgram, name: str) -> set[str]:
    """The words that name one of the tool's constants: its own, and the labels of the figures that show it."""
    words = {name, name.replace("_", " "), *CONSTANT_WORDS.get(name, ())}
    for op in program.operations:
        for metric, expr in (getattr(op, "metrics", None) or {}).items():
            if expr.strip() == name and metric in program.labels:
                words.add(bare(program.labels[metric]).lower())
    return words


_SIGNED = re.compile(r"(?<![A-Za-z0-9_.])([-−+]?)\s?(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![A-Za-z0-9_.])")


def number(text: str) -> float | None:
    """The first number the text names, in digits or Chinese numerals ("2500", "两千五", "三点五"); None when none
    is named or it is malformed ("十十"), which the reader answers as a value it could not read. Written in digits,
    it is read whole, its sign and exponent too: "-1" is -1 and "1e308" 1e308 (they were 1), for the reader to
    refuse rather than take a number the person did not say."""
    found = first_number(text)
    for m in _SIGNED.finditer(text.replace(",", "")):
        value = float(m.group(2))
        if found is not None and not math.isclose(abs(float(found)), value) and "e" not in m.group(2).lower():
            continue  # not the number first_number read (a time's, a Chinese numeral's)
        return -value if m.group(1) in ("-", "−") else value
    return found
