"""What is learnt, said in the tool's own language and its own words.

A pattern's evidence and a suggestion's text name the tool's rows and fields as the tool does ("runs", "start
time"; 跑步记录, 开始时间), from the program's labels, so a Chinese tool hears Chinese sentences written the way
Chinese is written, not English ones with the words swapped.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from toolgen.program import Entity, FieldSpec, ToolProgram

WEEKDAYS_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
WEEKDAYS_ZH = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]
MONTHS_EN = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
UNIT = re.compile(r"^(.*?)\s*[（(]([^（）()]*)[）)]\s*$")
ZH_RECORDS = ("记录", "日记", "日志", "笔记", "清单")  # labels that already say "record": no 记录 after them


@dataclass(frozen=True)
class Rows:
    """How the tool names its rows: "runs" / 跑步记录."""

    zh: bool
    many: str

    def __str__(self) -> str:
        return self.many


@dataclass(frozen=True)
class Named:
    """How the tool names a field in a sentence: "start time", "distance" with its unit "km"."""

    name: str
    unit: str | None

    def of(self, figure: str) -> str:
        """A figure with the field's unit: "5.2 km", "5.2 公里"."""
        return f"{figure} {self.unit}" if self.unit else figure


def _lower(word: str) -> str:
    return word[:1].lower() + word[1:] if word[1:2].islower() or len(word) == 1 else word  # "BMI" stays


def _plural(noun: str) -> str:
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    return noun + ("es" if re.search(r"(s|x|z|ch|sh)$", noun) else "s")


def rows_of(program: ToolProgram, entity: str) -> Rows:
    """The tool's name for many of ``entity``'s rows."""
    label = program.entities[entity].label.strip()
    if program.ui.lang == "zh":
        if not label:
            return Rows(True, "记录")
        return Rows(True, label if label.endswith(ZH_RECORDS) else f"{label}记录")
    words = " ".join(_lower(w) for w in (label or entity.replace("_", " ")).split())
    head, of, rest = words.partition(" of ")  # "drink of water" -> "drinks of water"
    parts = head.split(" ")
    parts[-1] = _plural(parts[-1])
    return Rows(False, " ".join(parts) + of + rest)


def field_of(program: ToolProgram, entity: Entity, name: str) -> Named:
    """The field's label without its unit, and the unit ("Distance (km)" -> distance, km; "Mood (1-5)" has none)."""
    spec: FieldSpec = entity.fields[name]
    label = spec.label.strip() or name.replace("_", " ")
    unit = None
    hit = UNIT.match(label)
    if hit and hit.group(1):
        label, unit = hit.group(1), (hit.group(2).strip() or None)
        if unit and re.search(r"\d", unit):
            unit = None
    if program.ui.lang != "zh":
        label = " ".join(_lower(w) for w in label.split())
    return Named(label, unit)


def either(items: list[str], zh: bool) -> str:
    """ "Monday, Wednesday or Friday" / 周一、周三或周五."""
    if len(items) == 1:
        return items[0]
    if zh:
        return "、".join(items[:-1]) + "或" + items[-1]
    return ", ".join(items[:-1]) + " or " + items[-1]


def date_said(date: dt.date, zh: bool) -> str:
    return f"{date.month}月{date.day}日" if zh else f"{date.day} {MONTHS_EN[date.month - 1]}"


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


# --- evidence -----------------------------------------------------------------------------------------------


def _some(count: int, total: int, rows: Rows) -> str:
    """ "8 of 10 runs" / "All 10 runs"."""
    return f"All {total} {rows}" if count == total else f"{count} of {total} {rows}"


def time_evidence(rows: Rows, field: Named, count: int, total: int, start: str, end: str) -> str:
    if rows.zh:
        if count == total:
            return f"{total} 条{rows}的{field.name}都在 {start} 到 {end} 之间"
        return f"{total} 条{rows}中，有 {count} 条的{field.name}在 {start} 到 {end} 之间"
    return f"{_some(count, total, rows)} had {article(field.name)} {field.name} between {start} and {end}"


def weekday_evidence(rows: Rows, count: int, total: int, days: list[int]) -> str:
    if rows.zh:
        when = either([WEEKDAYS_ZH[d] for d in days], True)
        return f"{total} 条{rows}都在{when}" if count == total else f"{total} 条{rows}中，有 {count} 条在{when}"
    return f"{_some(count, total, rows)} were on a {either([WEEKDAYS_EN[d] for d in days], False)}"


def _zh_span(field: Named, low: str, high: str) -> str:
    """ "3.5–7.5 公里之间" (a unit written next to 之间, as Chinese writes it)."""
    return f"{low}–{high} {field.unit}之间" if field.unit else f"{low}–{high} 之间"


def typical_evidence(rows: Rows, field: Named, count: int, total: int, middle: str, low: str, high: str) -> str:
    every = count == total
    if rows.zh:
        said = f"{total} 条{rows}的{field.name}中位数为 {field.of(middle)}"
        if low == high:
            return f"{said}，{'都' if every else '大多'}是 {field.of(low)}"
        return f"{said}，大多在 {_zh_span(field, low, high)}"
    span = f"{'always' if every else 'mostly'} {field.of(low)}" if low == high else f"mostly {low}-{field.of(high)}"
    return f"{capital(field.name)} over {total} {rows}: median {field.of(middle)}, {span}"


def weekly_evidence(rows: Rows, field: Named, weeks: int, weekly: str) -> str:
    if rows.zh:
        return f"最近有{rows}的 {weeks} 周里，每周{field.name}合计的中位数是 {field.of(weekly)}"
    return f"Over the last {weeks} weeks with {rows}, {field.name} added up to a median of {field.of(weekly)} a week"


def streak_evidence(rows: Rows, days: int, since: dt.date) -> str:
    if rows.zh:
        return f"从 {date_said(since, True)} 起，连续 {days} 天都有{rows}"
    return f"{capital(str(rows))} on {days} days in a row, since {date_said(since, False)}"


def break_evidence(rows: Rows, days: int, ended: dt.date) -> str:
    if rows.zh:
        return f"连续 {days} 天的{rows}在 {date_said(ended, True)} 中断，之后再没有记录"
    return f"A {days}-day streak of {rows} ended on {date_said(ended, False)}, with none since"


def goal_evidence(
    zh: bool, field: Named, period: str, goal: str, met: bool, count: int, total: int, *, limit: bool = False
) -> str:
    """ "The weekly distance goal of 20 km was met in 5 of the last 6 weeks" / 最近 6 周中有 5 周达到了每周距离目标;
    a limit is kept or gone over ("The daily minutes limit of 120 was kept on 5 of the last 6 days")."""
    weekly = period == "week"
    if zh:
        span, each = ("周", "每周") if weekly else ("天", "每天")
        reached = ("没有超过" if met else "超过了") if limit else ("达到了" if met else "没有达到")
        aim = f"{each}{field.name}{'上限' if limit else '目标'}（{field.of(goal)}）"
        if count == total:
            return f"最近 {total} {span}都{reached}{aim}"
        return f"最近 {total} {span}中有 {count} {span}{reached}{aim}"
    adjective, preposition, periods = ("weekly", "in", "weeks") if weekly else ("daily", "on", "days")
    outcome = ("kept" if met else "gone over") if limit else ("met" if met else "missed")
    which = f"each of the last {total}" if count == total else f"{count} of the last {total}"
    aim = "limit" if limit else "goal"
    return f"The {adjective} {field.name} {aim} of {field.of(goal)} was {outcome} {preposition} {which} {periods}"
