"""One short line per change of a revision, in the tool's language, for its history and the job's answer.

"Added Pulse (bpm)", "新增 心率（bpm）", "Default start time: 06:30", "默认开始时间：06:30": said with the labels the
tool had before the revision, which is what the person knew it by.
"""

from __future__ import annotations

from typing import Any

from toolgen.changes import Change
from toolgen.planner.revision_words import CONSTANT_LABELS, UNIT_ZH, bare, constant_words
from toolgen.program import ToolProgram

_THEMES = {"dark": ("dark", "深色"), "light": ("light", "浅色"), "auto": ("as the device's", "跟随系统")}


def _label(program: ToolProgram, change: Change) -> str:
    """The field's label before the revision (its name when the program does not have it)."""
    for name, entity in program.entities.items():
        if change.entity in (None, name) and change.field in entity.fields:
            return entity.fields[change.field].label or change.field
    return change.field or ""


def _constant(program: ToolProgram, name: str, zh: bool) -> str:
    if name in CONSTANT_LABELS:
        return CONSTANT_LABELS[name][1 if zh else 0]
    words = sorted(constant_words(program, name) - {name}, key=len)
    return (words[-1] if words else name.replace("_", " ")).capitalize()


def _value(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "—" if value is None else str(value)


def _line(change: Change, program: ToolProgram, zh: bool) -> str:
    label = _label(program, change)
    op = change.op
    if op == "add_field":
        shown = (change.spec or {}).get("label") or change.label or change.field
        return f"新增 {shown}" if zh else f"Added {shown}"
    if op == "remove_field":
        return f"去掉 {label}" if zh else f"Removed {label}"
    if op == "rename_field":
        new = change.label or change.to or label
        return f"{label} 改名为 {new}" if zh else f"Renamed {label} to {new}"
    if op == "set_default":
        if change.value is None:
            return f"{bare(label)}不再有默认值" if zh else f"No default {bare(label).lower()}"
        return (
            f"默认{bare(label)}：{_value(change.value)}"
            if zh
            else f"Default {bare(label).lower()}: {_value(change.value)}"
        )
    if op == "set_goal":
        return f"目标：{_value(change.value)}" if zh else f"Goal: {_value(change.value)}"
    if op == "set_constant":
        return (
            f"{_constant(program, change.field or '', zh)}：{_value(change.value)}"
            if zh
            else (f"{_constant(program, change.field or '', zh)}: {_value(change.value)}")
        )
    if op == "set_setting":
        setting = program.settings.get(change.field or "")
        name = (bare(setting.label) if setting else "") or (change.field or "")
        value = change.value
        shown = ("、" if zh else ", ").join(map(_value, value)) if isinstance(value, list) else _value(value)
        return f"{name}：{shown}" if zh else f"{name}: {shown}"
    if op == "set_unit":
        unit = str(change.value)
        if zh:
            return f"{bare(label)}改用{UNIT_ZH.get(unit, unit)}：{change.label or label}"
        return f"{bare(label)} in {unit}: {change.label or label}"
    if op == "set_theme":
        en, cn = _THEMES.get(str(change.value), (str(change.value), str(change.value)))
        return f"页面：{cn}" if zh else f"Page: {en}"
    summary = (change.operation or {}).get("summary") or (change.operation or {}).get("id", "")
    if op == "add_figure":
        return f"新增统计：{summary}" if zh else f"Added figures: {summary}"
    return f"新增操作：{summary}" if zh else f"Added: {summary}"


def describe(changes: list[Change], program_before: ToolProgram, lang: str) -> list[str]:
    """One short line per change, in ``lang`` ('en' or 'zh'), naming things as the program before them did."""
    return [_line(change, program_before, lang == "zh") for change in changes]
