"""What the reader of a follow-up says when it cannot change the tool, in the follow-up's language.

A follow-up is answered in the language it was written in (toolgen.intent.slots.is_chinese), whatever the tool's
own: "去掉颜色" to an English tool is answered in Chinese, naming the tool's fields by their labels.
"""

from __future__ import annotations

from typing import Any

from toolgen.errors import RevisionNotPossibleError, UnclearRevisionError

_TEXT: dict[str, tuple[str, str]] = {
    "unclear": (
        "I could not tell what to change. You can add a field, remove or rename one ({fields}), set a default, the "
        "goal or a unit, show figures per week or month, or make the page dark or light.",
        "没看懂要改什么。可以加一个字段，去掉或改名现有字段（{fields}），改默认值、目标或单位，加每周或每月的统计，"
        "或者换成深色、浅色页面。",
    ),
    "no_field": ("This tool has no field called '{said}'; its fields are: {fields}.",
                 "这个工具没有“{said}”这个字段；现有字段：{fields}。"),
    "no_rows": ("This tool keeps no rows, so it has no fields to change.", "这个工具不保存记录，没有可改的字段。"),
    "last_field": ("A tool keeps at least one field: {label} cannot be removed.",
                   "工具至少要保留一个字段：{label}不能去掉。"),
    "taken": ("This tool already has a field or figure called '{name}'.", "这个工具已经有叫“{name}”的字段或统计了。"),
    "already": ("This tool already records {label}.", "这个工具已经在记录{label}了。"),
    "too_many": ("This tool has as many fields as a tool may have.", "这个工具的字段已经到上限了。"),
    "bad_name": ("'{name}' cannot be a field's name.", "“{name}”不能作为字段名。"),
    "no_unit": ("{label} has no unit to change.", "{label}没有可以换的单位。"),
    "same_unit": ("{label} is already in {unit}.", "{label}已经是{unit}了。"),
    "other_dimension": ("{label} is in {unit}: it cannot be shown in {new}, which measures something else.",
                        "{label}的单位是{unit}，不能换成{new}：它们量的不是同一种东西。"),
    "offset": (
        "A temperature changes by an offset, not a factor (°F = °C × 9/5 + 32), so {label} cannot be switched to "
        "{new}; add a new field in {new} instead.",
        "温度换算要加减偏移量（华氏 = 摄氏 × 9/5 + 32），不是乘一个系数，所以{label}不能直接换成{new}；"
        "可以另加一个{new}的字段。",
    ),
    "no_goal": ("This tool has no goal to change.", "这个工具没有可以改的目标。"),
    "no_value": ("Say the new value for {label}.", "请说出{label}的新值。"),
    "bad_value": ("{value} is not a value {label} can take.", "{label}不能设为{value}。"),
    "has_figures": ("This tool already shows those figures.", "这个工具已经有这些统计了。"),
    "no_figures": ("This tool's rows have no date to count figures per period by.",
                   "这个工具的记录没有日期，没法按周或按月统计。"),
    "no_breakdown": ("This tool has no choice field to count its rows by.", "这个工具没有可以用来分类统计的选项字段。"),
    "bad_operation": ("That is not an operation this tool can run.", "这不是这个工具能执行的操作。"),
    "too_many_operations": ("This tool has as many operations as a tool may have.", "这个工具的操作已经到上限了。"),
    "can_edit": ("Entries of this tool can already be edited.", "这个工具的记录已经可以修改了。"),
    "too_long": ("The tool's figures would grow too long with the name '{name}'.",
                 "改成“{name}”后，工具的统计公式会太长。"),
    "removed_name": ("'{name}' is the name of a field removed earlier, whose values the old entries still hold; "
                     "choose another name.", "“{name}”是之前去掉的字段的名字，旧记录里还存着它的值；请换一个名字。"),
    "removed_type": ("A field called '{name}' was removed earlier and the old entries still hold its values, as "
                     "{was}; a new '{name}' must hold {was} too, or take another name.",
                     "之前去掉的字段“{name}”在旧记录里还存着{was}类型的值；新的“{name}”也得是{was}，或者换一个名字。"),
    "too_many_migrations": ("This tool has been through as many changes to its fields' names and units as it can "
                            "keep; make it again to change more.",
                            "这个工具改字段名和单位的次数已经到上限了；要再改，请重新生成这个工具。"),
    "invalid": ("This tool cannot take these changes: the tool they make would break a rule every tool keeps.",
                "这个工具改不了：改完的工具不符合工具的规则。"),
    "too_many_removed": ("This tool has removed as many fields as it can keep track of.",
                         "这个工具去掉的字段已经到上限了。"),
}  # fmt: skip
_TYPES = {"string": ("words", "文字"), "text": ("text", "长文本"), "number": ("numbers", "数字"),
          "integer": ("whole numbers", "整数"), "boolean": ("yes or no", "是否"), "date": ("dates", "日期"),
          "time": ("times", "时间")}  # fmt: skip


def type_said(kind: str, lang: str) -> str:
    """A field type as a person would name it ('string' -> 'words', '文字')."""
    en, zh = _TYPES.get(kind, (kind, kind))
    return zh if lang == "zh" else en


def say(key: str, lang: str, **params: Any) -> str:
    """The message ``key`` in ``lang`` ('en' or 'zh')."""
    en, zh = _TEXT[key]
    return (zh if lang == "zh" else en).format(**params)


def not_possible(key: str, lang: str, **params: Any) -> RevisionNotPossibleError:
    """The 422 for a change this tool cannot take."""
    return RevisionNotPossibleError(say(key, lang, **params), details={"reason": key, **params})


def unclear(lang: str, fields: list[str]) -> UnclearRevisionError:
    """The 422 for a follow-up with nothing to read, naming what can be changed in this tool."""
    sep = "、" if lang == "zh" else ", "
    return UnclearRevisionError(say("unclear", lang, fields=sep.join(fields)), details={"fields": fields})
