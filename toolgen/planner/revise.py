"""Reading a follow-up to a deployed tool ("also track my heart rate", "去掉时长") as changes to its program.

Issue 16 lets a person revise a tool by a sentence. The sentence is cut into clauses ("add heart rate and remove the
note"), each clause is read as one kind of change by the words that ask for it (add, remove, rename, a default, the
goal, a named constant, a unit, the theme, figures per period, an edit), and the things it names are looked up in
*this* tool (revision_words.py). A clause without a verb of its own shares the one before it ("remove the title,
due date and priority"). What is read is applied once as a dry run, so every change returned applies; what cannot
be read or applied is a 422 in the follow-up's own language.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from toolgen.changes import Change
from toolgen.intent.details import breakdown, periods
from toolgen.intent.slots import is_chinese
from toolgen.planner.revise_add import read_add
from toolgen.planner.revise_values import (
    read_constant,
    read_default,
    read_figures,
    read_goal,
    read_operation,
    read_rename,
    read_setting,
    read_unit,
    target_unit,
)
from toolgen.planner.revision_apply import apply
from toolgen.planner.revision_describe import describe
from toolgen.planner.revision_messages import not_possible, unclear
from toolgen.planner.revision_words import constant_words, constants, find_fields, main_entity, setting_named
from toolgen.program import MAX_REVISIONS, AggregateOp, ToolProgram, is_limit

__all__ = ["apply", "describe", "read"]

# A run of spaces is tried from its first only (the lookbehinds): tried from each, the run was read again to its end
# for each, time growing with the square of its length.
_SPLIT = re.compile(
    r",\s+|;\s*|(?<!\s)\s+and\s+(?:then\s+)?|(?<!\s)\s+plus\s+|(?<!\s)\s+also\s+|[，；。！、]|然后|并且|另外|还有|同时|和"
)
# A theme word is the page's look only as one ("dark mode", "the system theme") or as what the clause ends on ("make
# it dark", "switch to light please"): "use light years" and "...os.system('id')" name no look.
_LOOK = (
    r"(?:\s+(?:mode|theme|colou?rs?|scheme|look|background)\b"
    r"|(?=\s*(?:please|now|instead|thanks)?\s*[.!?。！]*\s*$))"
)
# Figures per period are asked for as figures: "per month", "weekly totals", "show this year", "按月统计"; a period
# word alone ("use light years") asks for none.
_FIGURE_CUE = re.compile(
    r"\b(per|by|each|every|this|last|weekly|monthly|yearly|annual|annually|daily|figures?|totals?|summar(y|ies)|"
    r"stats|statistics|breakdown|show|see|chart|average|sum)\b|每|按|本|这|今|统计|汇总|图|合计|总",
    re.I,
)
_THEMES = {
    "dark": re.compile(rf"\b(dark|night){_LOOK}|深色|暗色|黑色|夜间|暗黑", re.I),
    "light": re.compile(rf"\b(light|bright|white){_LOOK}|浅色|亮色|白色|日间", re.I),
    "auto": re.compile(rf"\b(auto|automatic|system){_LOOK}|跟随系统|自动", re.I),
}
_THEME_CUE = re.compile(r"\b(make|use|switch|turn|theme|mode|set|go|change)\b|模式|主题|换|切换|改|页面|用|弄", re.I)
_RENAME = re.compile(r"\brename\b|\bcall\b.*['\"“‘]|\bname of\b|改名|重命名|改叫|改称|叫做", re.I)
_DEFAULT = re.compile(r"\bdefaults?\b|默认|预设", re.I)
_GOAL = re.compile(r"\b(goal|target)\b|目标", re.I)
_LIMIT = re.compile(r"\b(limit|cap|allowance|budget)\b|上限|限额|预算", re.I)  # a limit's goal (compose's _limit_op)


def _has_limit(program: ToolProgram) -> bool:
    return any(isinstance(op, AggregateOp) and is_limit(op) for op in program.operations)


_REMOVE = re.compile(
    r"\b(remove|delete|drop|hide|get rid of|stop (tracking|recording|logging|noting|asking)|no longer|"
    r"(don'?t|do not) (need|want|track|record|log|care)|without)\b|去掉|删掉|删除|删去|去除|移除|拿掉|不要|不用|不需要|"
    r"不必|不想记|别记|取消",
    re.I,
)
_UNIT_CUE = re.compile(
    r"\b(in|into|as|use|using|switch|shown?|displayed|display|instead|convert|change|measure)\b|改成|换成|用|改为|显示|换算",
    re.I,
)
_EDIT = re.compile(
    r"\b(edit|modify|correct|fix)\b|\b(update|change) (my |the |an |old |past |earlier )?(entr|record|row|item)|"
    r"修改|编辑|更正|改正|改一下.{0,4}记录|改.{0,2}(以前|之前|过去|记错)的?",
    re.I,
)
_ADD = re.compile(
    r"\b(add|also|track|record|log|note|include|as well|too)\b|加|添|增|还要|也要|还想|也想|记",
    re.I,
)
_INHERITED = ("add", "remove")  # "remove the title, due date and priority": the later items share the verb


def _clauses(prompt: str) -> list[str]:
    """The prompt's clauses, each on one line with single spaces: a pattern ending in '.+$' met a line break after
    each of a clause's verbs and read on to it, time growing with the square of the clause's length."""
    return [" ".join(c.split()) for c in _SPLIT.split(prompt) if c and c.strip()]


def _names_constant(clause: str, program: ToolProgram) -> str | None:
    lowered = clause.lower()
    for name in constants(program):
        if name == "goal":
            continue
        for word in sorted(constant_words(program, name), key=len, reverse=True):
            chinese = re.search(r"[\u4e00-\u9fff]", word)
            if (word in lowered) if chinese else re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", lowered):
                return name
    return None


def _kind(clause: str, program: ToolProgram) -> str | None:
    """The kind of change a clause asks for, by the words that ask for each (None: it asks for none)."""
    if _RENAME.search(clause):
        return "rename"
    if any(p.search(clause) for p in _THEMES.values()) and _THEME_CUE.search(clause):
        return "theme"
    if _DEFAULT.search(clause):
        return "default"
    if _GOAL.search(clause) or (_LIMIT.search(clause) and _has_limit(program)):
        return "goal"
    if _REMOVE.search(clause):
        return "remove"
    if target_unit(clause) and _UNIT_CUE.search(clause):
        return "unit"
    if _names_constant(clause, program):
        return "constant"
    if _EDIT.search(clause):
        return "operation"
    if (periods(clause) and _FIGURE_CUE.search(clause)) or breakdown(clause):
        return "figures"
    if _ADD.search(clause):
        return "add"
    return None


def _read_remove(clause: str, program: ToolProgram, lang: str) -> list[Change]:
    entity = main_entity(program)
    if entity is None:
        raise not_possible("no_rows", lang)
    names = find_fields(clause, program)
    if not names:
        said = _REMOVE.sub(" ", clause)
        said = re.sub(
            r"\b(the|my|a|an|field|column|anymore|any more|please|i)\b|了|吧|这个|字段|这一项|一栏",
            " ",
            said,
            flags=re.I,
        )
        fields = [spec.label for spec in program.entities[entity].fields.values()]
        sep = "、" if lang == "zh" else ", "
        raise not_possible("no_field", lang, said=" ".join(said.split()) or clause, fields=sep.join(fields))
    return [Change(op="remove_field", entity=entity, field=name) for name in names]


def _read_theme(clause: str, program: ToolProgram, lang: str) -> list[Change]:
    mode = next(mode for mode, pattern in _THEMES.items() if pattern.search(clause))
    return [Change(op="set_theme", value=mode)]


def _read_constant(clause: str, program: ToolProgram, lang: str) -> list[Change]:
    name = _names_constant(clause, program)
    assert name is not None  # _kind read it
    return read_constant(clause, program, name, lang)


_READERS: dict[str, Callable[[str, ToolProgram, str], list[Change]]] = {
    "rename": read_rename,
    "theme": _read_theme,
    "default": read_default,
    "goal": read_goal,
    "remove": _read_remove,
    "unit": read_unit,
    "constant": _read_constant,
    "operation": read_operation,
    "figures": read_figures,
    "add": read_add,
}


def read(prompt: str, program: ToolProgram) -> list[Change]:
    """What the follow-up asks to change in this program, each change checked to apply; UnclearRevisionError when it
    asks for nothing that can be read, RevisionNotPossibleError when it asks for what this tool cannot take."""
    lang = "zh" if is_chinese(prompt) else "en"
    changes: list[Change] = []
    last: str | None = None
    named = setting_named(prompt, program)
    if named is not None:  # "my roommates are Anna, Ben and Chloe": the list is the value, not clauses to read
        changes = read_setting(prompt, program, *named, lang)
    for clause in _clauses(prompt) if not changes else []:
        kind = _kind(clause, program)
        if kind is None and last in _INHERITED and re.search(r"\w", clause):
            kind = last
        if kind is None:
            continue
        last = kind
        changes += [c for c in _READERS[kind](clause, program, lang) if c not in changes]
    if not changes:
        entity = main_entity(program)
        fields = [spec.label for spec in program.entities[entity].fields.values()] if entity else []
        raise unclear(lang, fields)
    apply(
        program, changes, min(program.revision + 1, MAX_REVISIONS), lang=lang
    )  # raises for a change this tool cannot take
    return changes
