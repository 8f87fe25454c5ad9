"""Reading the clauses of a follow-up that change a name or a value: a rename, a default, the goal, a named constant,
a unit, figures per period or per group, and an edit of rows.

Each names something of this tool (revision_words.py) and a value checked against what it holds: a time field's
default is "HH:MM", a number within its range, a choice one of its choices; a unit one of the same dimension, by a
factor (a temperature, which changes by an offset, is refused).
"""

from __future__ import annotations

import re
from typing import Any

from toolgen.changes import Change
from toolgen.intent.details import breakdown, periods
from toolgen.intent.slots import find_date, find_time
from toolgen.knowledge.base import snake
from toolgen.knowledge.gloss import english
from toolgen.models import Intent
from toolgen.planner.requested import add_breakdown, add_period_figures
from toolgen.planner.revision_messages import not_possible
from toolgen.planner.revision_words import (
    UNIT_PART,
    UNIT_ZH,
    UNITS,
    bare,
    constants,
    factor,
    find_fields,
    main_entity,
    number,
    unit_label,
    unit_of,
    units_named,
)
from toolgen.program import NAME, RESERVED, FieldSpec, ToolProgram

_RENAMES = (
    re.compile(r"\brename (?:the |my )?(?P<old>.+?) (?:to|as|into) (?P<new>.+)$", re.I),
    re.compile(r"\bcall (?:the |my )?(?P<old>.+?) ['\"“‘](?P<new>[^'\"”’]+)['\"”’]", re.I),
    re.compile(r"\bname of (?:the |my )?(?P<old>.+?) to (?P<new>.+)$", re.I),
    re.compile(r"^(?:把|将)?(?P<old>.+?)(?:的名字)?(?:改名为|改名叫|改名成|改名|重命名为|重命名成|重命名|改叫做|改叫|改称为|改称|叫做)"
               r"(?P<new>.+)$"),
)  # fmt: skip
_BEFORE = re.compile(r"(\d|[零〇一二两三四五六七八九十百千万])\s*$")
_INTO = re.compile(r"\b(as|into|to|in)\s*$|(成|为|到)\s*$", re.I)
_SOURCE = re.compile(r"(instead of|rather than|not|from|而不是|不用|不要|从)\s*$", re.I)
_WORDS_BEFORE = 24  # characters: more than the longest of the words above, so a cut never makes a false \b


def _fields_said(program: ToolProgram, entity: str, lang: str) -> str:
    return ("、" if lang == "zh" else ", ").join(spec.label for spec in program.entities[entity].fields.values())


def _entity(program: ToolProgram, lang: str) -> str:
    entity = main_entity(program)
    if entity is None:
        raise not_possible("no_rows", lang)
    return entity


def _one_field(text: str, program: ToolProgram, lang: str) -> tuple[str, str]:
    entity = _entity(program, lang)
    names = find_fields(text, program)
    if not names:
        said = re.sub(r"\b(the|my|a|an)\b", " ", text, flags=re.I).strip(" '\"“”")
        raise not_possible("no_field", lang, said=" ".join(said.split()), fields=_fields_said(program, entity, lang))
    return entity, names[0]


def read_rename(clause: str, program: ToolProgram, lang: str) -> list[Change]:
    """'rename minutes to duration', "call the note 'comment'", '把备注改名为心得': the field's new name and label."""
    m = next((m for p in _RENAMES if (m := p.search(clause.strip()))), None)
    if m is None:
        return []
    entity, name = _one_field(m.group("old"), program, lang)
    fields = program.entities[entity].fields
    new = m.group("new").strip(" '\"“”‘’。.!吧了")
    new = re.sub(r"^(the|a|an)\s+", "", new, flags=re.I)
    chinese = bool(re.search(r"[\u4e00-\u9fff]", new))
    if not new or len(new) > 40:
        raise not_possible("bad_name", lang, name=new)
    to_words = (english(new) or "") if chinese else new
    to = snake(to_words) if to_words else None
    unit = UNIT_PART.search(fields[name].label)
    shown = new if chinese else new[:1].upper() + new[1:]
    label = (shown + (unit.group(0).strip() if unit else ""))[:60]
    taken = {bare(spec.label).lower() for n, spec in fields.items() if n != name}
    ops = [op for op in program.operations if getattr(op, "entity", None) == entity]
    names = {*fields, *RESERVED, *(c for op in ops for c in getattr(op, "computed", {}) or {})}
    names |= {c for op in ops for c in getattr(op, "constants", {}) or {}}
    if new.lower() in taken or (to is not None and to != name and to in names):
        raise not_possible("taken", lang, name=new)
    if to == name or (to is not None and not re.fullmatch(NAME, to)):
        to = None  # the same name in other words ("作家" for the author): only the label changes
    return [Change(op="rename_field", entity=entity, field=name, to=to, label=label)]


def _value(clause: str, spec: FieldSpec) -> Any:
    """The value a clause gives a field of this type, or None."""
    if spec.type == "time":
        return find_time(clause)
    if spec.type in ("number", "integer"):
        value = number(re.sub(r"\d{1,2}:\d{2}", " ", clause))
        return None if value is None else (int(value) if spec.type == "integer" else value)
    if spec.type == "boolean":
        if re.search(r"\b(yes|true|on|checked|done)\b|是|勾选|打勾", clause, re.I):
            return True
        return False if re.search(r"\b(no|false|off|unchecked)\b|否|不勾", clause, re.I) else None
    if spec.type == "date":
        return "$today" if re.search(r"\btoday\b|今天", clause, re.I) else find_date(clause)
    if spec.enum:
        return next((v for v in sorted(spec.enum, key=len, reverse=True) if v.lower() in clause.lower()), None)
    m = re.search(r"['\"“‘](.+?)['\"”’]|\b(?:to|as)\s+(.+)$|(?:改成|改为|设为|设成|是)(.+)$", clause)
    return next((g.strip() for g in m.groups() if g), None) if m else None


def _in_range(value: Any, spec: FieldSpec) -> bool:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return True
    return (spec.minimum is None or value >= spec.minimum) and (spec.maximum is None or value <= spec.maximum)


def read_default(clause: str, program: ToolProgram, lang: str) -> list[Change]:
    """'default start time 7am', '默认开始时间改成早上7点': a field's default, checked against its type."""
    entity = _entity(program, lang)
    fields = program.entities[entity].fields
    names = find_fields(clause, program)
    if not names and find_time(clause):
        names = [n for n, spec in fields.items() if spec.type == "time"][:1]
    if not names:
        raise not_possible("no_field", lang, said=clause, fields=_fields_said(program, entity, lang))
    name = names[0]
    spec = fields[name]
    value = _value(clause, spec)
    if value is None:
        raise not_possible("no_value", lang, label=spec.label)
    if not _in_range(value, spec) or (isinstance(value, str) and len(value) > spec.max_length):
        raise not_possible("bad_value", lang, label=spec.label, value=value)
    return [Change(op="set_default", entity=entity, field=name, value=value)]


def _plain(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


MAX_VALUE = 1e9  # a goal or limit past this was not meant (1e308 ml a day)


def _shown(value: float) -> Any:
    return _plain(value) if abs(value) < 1e15 else f"{value:g}"


def read_goal(clause: str, program: ToolProgram, lang: str) -> list[Change]:
    """'set my weekly goal to 30 km', '每周目标改成30公里': the goal of the figures that have one."""
    if "goal" not in constants(program):
        raise not_possible("no_goal", lang)
    value = number(clause)
    if value is None:
        raise not_possible("no_value", lang, label="goal" if lang == "en" else "目标")
    if not 0 < value <= MAX_VALUE:  # a goal of -1 or 1e308 is not one to keep (it was kept as 1)
        raise not_possible("bad_value", lang, label="goal" if lang == "en" else "目标", value=_shown(value))
    return [Change(op="set_goal", field="goal", value=_plain(value))]


def read_constant(clause: str, program: ToolProgram, name: str, lang: str) -> list[Change]:
    """'caffeine cut-off 12:00', 'daily limit 300 mg', '每月预算改成2500': a named constant, as the kind it holds."""
    current = constants(program)[name]
    if isinstance(current, str) and re.fullmatch(r"\d{2}:\d{2}", current):
        value: Any = find_time(clause)
    elif isinstance(current, int | float):
        found = number(re.sub(r"\d{1,2}:\d{2}", " ", clause))
        value = None if found is None or not 0 < found <= MAX_VALUE else _plain(found)
    else:
        value = None
    if value is None:
        raise not_possible("no_value", lang, label=name)
    return [Change(op="set_constant", field=name, value=value)]


# What comes between a setting's word and its new value: "are", "is now", "改成", "：".
_SETTING_CUE = re.compile(
    r"^\s*(?:(?:are|is|=|:|：|to|now|just|only|become|changed?|set|should be|will be|"
    r"是|为|改成|改为|换成|变成|现在是|有|了|改|换)\s*)+",
    re.IGNORECASE,
)
_ITEMS = re.compile(r"\s*(?:,|，|、|;|；|/|\band\b|&|和|及|以及|跟|与)\s*", re.IGNORECASE)
_TRAILING = re.compile(r"(?:\s*(?:now|then|please|一下|了|吧|啊|。|\.|!|！))+$", re.IGNORECASE)


_NOT_A_NAME = re.compile(
    r"\b(add|remove|delete|rename|field|column|track|record|log|show|also|please|make|default|goal)\b"
    r"|字段|一栏|记录|加上|去掉|删除|显示|默认|目标",
    re.IGNORECASE,
)


def _a_name(item: str) -> bool:
    """Whether an item of a list said as a setting's value reads as one value (a name, a room, a number), not a
    clause of another request."""
    words = item.split()
    return not _NOT_A_NAME.search(item) and len(words) <= 4 and len(item) <= 40


def read_setting(prompt: str, program: ToolProgram, name: str, word: str, lang: str) -> list[Change]:
    """'my roommates are Anna, Ben and Chloe', '室友改成小王、小李', 'rent is 7000 now': a setting's new value, of the
    kind it holds (a list of names or numbers, a number, a text), read from what follows the word that names it;
    [] when what follows is no such value (the follow-up is read clause by clause instead)."""
    setting = program.settings[name]
    lowered = prompt.lower()
    after = prompt[lowered.find(word) + len(word) :] if word in lowered else prompt
    after = _TRAILING.sub("", _SETTING_CUE.sub("", re.sub(r"^s\b", "", after)).strip())
    current = setting.value
    value: Any = None
    if isinstance(current, list):
        items = [item.strip(" '\"“”‘’") for item in _ITEMS.split(after)]
        items = [item for item in items if item]
        if not all(_a_name(item) for item in items):  # "... and add a note field": not a list of names
            return []
        if current and all(isinstance(v, int | float) for v in current):
            numbers = [number(item) for item in items]
            value = [_plain(n) for n in numbers if n is not None] if all(n is not None for n in numbers) else None
        else:
            value = items if all(len(item) <= 200 for item in items) else None
            me = current[0] if current and str(current[0]).lower() in ("me", "我") else None
            if value and me is not None and me not in value:  # "my roommates are ...": the person is one of them
                value = [me, *value]
        value = value if value and len(value) <= 50 else None
    elif isinstance(current, bool):
        value = None
    elif isinstance(current, int | float):
        found = number(after)
        value = None if found is None else _plain(found)
    elif after:
        value = after[:200]
    if value is None:
        raise not_possible("no_value", lang, label=bare(setting.label) or name)
    return [Change(op="set_setting", field=name, value=value)]


def target_unit(clause: str) -> str | None:
    """The unit a clause asks for ('show distance in miles', 'use miles instead of km', '距离改成英里'): named
    without a number before it ('30 km' is a quantity) and not as what it replaces."""
    # What comes just before each unit, read from the last words only: searching the whole text before each of a
    # clause's units ("升升升...", 2,000 of them) took time growing with the square of its length.
    said = [(clause[:start].rstrip()[-_WORDS_BEFORE:], unit) for start, _, unit in units_named(clause)]
    free = [(before, unit) for before, unit in said if not _BEFORE.search(before)]
    into = [unit for before, unit in free if _INTO.search(before)]  # "kilograms shown as pounds"
    return next(iter([*into, *(unit for before, unit in free if not _SOURCE.search(before))]), None)


def _as(unit: str, of: str) -> str:
    """The unit meant when said of a field in ``of``: ounces of a volume (water) are fluid ounces."""
    return "fl oz" if unit == "oz" and UNITS[of][0] == "volume" else unit


def read_unit(clause: str, program: ToolProgram, lang: str) -> list[Change]:
    """A field's numbers in another unit of the same dimension, by a factor."""
    entity = _entity(program, lang)
    fields = program.entities[entity].fields
    new = target_unit(clause)
    assert new is not None  # _kind read it
    units = {n: u for n, spec in fields.items() if (u := unit_of(n, spec))}
    named = [n for n in find_fields(clause, program) if n in units or not units]
    same = [n for n, u in units.items() if UNITS[u][0] == UNITS[_as(new, u)][0]]
    name = next(iter([*named, *same, *units]), None)
    if name is None:
        label = next(iter(find_fields(clause, program)), None)
        raise not_possible("no_unit", lang, label=fields[label].label if label else _fields_said(program, entity, lang))
    spec, old = fields[name], units.get(name)
    if old is None:
        raise not_possible("no_unit", lang, label=spec.label)
    shown = UNIT_ZH.get(new, new) if lang == "zh" else new
    real = _as(new, old)
    if "temperature" in (UNITS[old][0], UNITS[real][0]):
        raise not_possible("offset", lang, label=spec.label, new=shown)
    if UNITS[old][0] != UNITS[real][0]:
        raise not_possible("other_dimension", lang, label=spec.label, unit=old, new=shown)
    if old == real:
        raise not_possible("same_unit", lang, label=spec.label, unit=shown)
    label = unit_label(spec.label, old, new, program.ui.lang) if UNIT_PART.search(spec.label) else None
    label = label or f"{spec.label} ({new})"[:60]
    scale = round(factor(old, real), 6)
    return [Change(op="set_unit", entity=entity, field=name, value=new, factor=scale, label=label)]


def read_figures(clause: str, program: ToolProgram, lang: str) -> list[Change]:
    """'show monthly totals', '我想看每月的统计', 'which is most common': figures per period or per group, made as a new
    request's would be (requested.py)."""
    draft = program.model_dump(mode="json")
    slots = {"periods": periods(clause), "breakdown": breakdown(clause)}
    intent = Intent(archetype=program.archetype, confidence=1.0, slots=slots, lang=program.ui.lang)
    before = {op["id"] for op in draft["operations"]}
    add_period_figures(draft, intent)
    add_breakdown(draft, intent)
    added = [op for op in draft["operations"] if op["id"] not in before]
    if not added:
        entity = main_entity(program)
        date = program.entities[entity].fields.get("date") if entity else None
        dated = date is not None and date.type == "date"  # what requested.py counts periods by
        raise not_possible("no_figures" if slots["periods"] and not dated else "has_figures", lang)
    labels = draft.get("labels") or {}
    return [
        Change(
            op="add_figure",
            entity=op["entity"],
            operation=op,
            labels={m: labels[m] for m in op["metrics"] if m in labels and m not in program.labels},
        )
        for op in added
    ]


def read_operation(clause: str, program: ToolProgram, lang: str) -> list[Change]:
    """'let me edit entries', '可以修改记录': an update of rows, when the tool has none."""
    entity = _entity(program, lang)
    ops = [op for op in program.operations if getattr(op, "entity", None) == entity]
    if any(op.kind == "update" for op in ops):
        raise not_possible("can_edit", lang)
    create = next((op for op in ops if op.kind == "create"), None)
    base = create.path if create is not None else f"/{entity.replace('_', '-')}s"
    op_id = "update" + "".join(p.capitalize() for p in entity.split("_"))
    zh = program.ui.lang == "zh"
    operation = {"id": op_id[:64], "kind": "update", "path": f"{base}/{{id}}", "entity": entity,
                 "summary": "修改一条记录" if zh else "Change an entry"}  # fmt: skip
    return [Change(op="add_operation", entity=entity, operation=operation)]
