"""Reading "also track my heart rate", "add a field for shoes", "还要记录心率", "加一个鞋子的字段" as fields to add.

A field the knowledge base knows comes with its units, range and labels in the tool's language; what a clause asks
about each entry ("where I bought it", "how many pages") is typed by its question (toolgen/intent/asked.py); any
other words are a field guessed from them: a number when they speak of an amount, else words, named in English
(the glossary names a Chinese field) and labelled as the person said it.
"""

from __future__ import annotations

import re
from typing import Any

from toolgen.changes import Change
from toolgen.intent.asked import asked
from toolgen.knowledge.base import FieldDef, Words, snake
from toolgen.knowledge.fields import duplicates, requested_fields
from toolgen.knowledge.gloss import english
from toolgen.models import Intent
from toolgen.planner.compose import asked_fields, field_spec
from toolgen.planner.revision_messages import not_possible
from toolgen.planner.revision_words import bare, main_entity, units_named
from toolgen.program import MAX_FIELDS, RESERVED, ToolProgram

# The lead words are taken whole (\b) and never given back (an atomic group): "also" listed twice, or words that may
# run together, let "alsoalso...x" be split 2^n ways before the verb is found missing (SECURITY.md, "Revisions").
_EN_LEAD = re.compile(
    r"^(?>(?:(?:please|also|and|so|i|we|can|could|you|let me|would|like|want|wanna|to|'d|too|need)\b\s*)*)"
    r"(?:add|track|record|log|note(?: down)?|keep track of|include|start (?:tracking|logging|recording)|keep)\s+",
    re.I,
)
_EN_NOISE = re.compile(
    r"\b(a|an|the|my|our|new|another|extra|field|fields|column|for|called|named|each time|too|as well|also|please)\b",
    re.I,
)
_EN_TAIL = re.compile(r"(?<!\s)\s+(of|for|per|on) (each|every|the|a|my)\b.*$|(?<!\s)\s+each\b.*$", re.I)
_ZH_LEAD = re.compile(r"^(?:我|也|还|再|另外|然后|请|帮我|能不能|可以)*(?:要|想|需要|得)?(?:再|也)?"
                      r"(?:记录一下|记录|记一下|记下|记上|记|加上|加入|添加|增加|新增|加)?")  # fmt: skip
# The trailing particles are matched only from the first of them (the lookbehind): tried from every one of a run of
# "了了了...", each try ran to the run's end, time growing with the square of its length.
_ZH_NOISE = re.compile(
    r"^(?:一个|一项|一栏|个|项|栏)|(?:的)?(?:字段|一栏|一项|这一项|这项)?(?<![吧了啊呀。])(?:吧|了|啊|呀|。)*$"
)
_AMOUNT = re.compile(r"\b(how (many|much)|number of|amount of|count of)\b|多少|几[个次张本页]?|数量", re.I)


def _own(program: ToolProgram, entity: str) -> list[FieldDef]:
    """The entity's fields read back as FieldDefs, enough to compare meanings and labels."""
    own = []
    for name, spec in program.entities[entity].fields.items():
        label = bare(spec.label) or name
        kind = spec.type
        if kind == "list":  # a row holds none (program.py): only a calculation's input may be a list
            continue
        own.append(FieldDef(name=name, type=kind, label=Words(en=label[:80], zh=label[:80])))
    return own


def _said(clause: str, lang: str) -> str:
    """The words of a clause that name what to add: 'add a field for shoes' -> 'shoes', '加一个鞋子的字段' -> '鞋子'."""
    if re.search(r"[\u4e00-\u9fff]", clause):
        rest = _ZH_LEAD.sub("", clause.strip(), count=1)
        return _ZH_NOISE.sub("", _ZH_NOISE.sub("", rest)).strip()
    rest = _EN_LEAD.sub("", clause.strip(), count=1)
    rest = _EN_TAIL.sub("", rest)
    return " ".join(_EN_NOISE.sub(" ", rest).split()).strip(" .!?'\"")


def _guessed(said: str, lang: str) -> FieldDef | None:
    """A field for words the knowledge base does not know, typed by what they speak of."""
    chinese = bool(re.search(r"[\u4e00-\u9fff]", said))
    name_words = (english(said) or "") if chinese else said
    if not said or len(said) > (6 if chinese else 40) or (not chinese and len(said.split()) > 3):
        return None  # a clause, not the name of a field
    number = bool(_AMOUNT.search(said) or units_named(said))
    name = snake(name_words) if name_words else "detail"
    label = said[:1].upper() + said[1:] if not chinese else said
    shown = Words(en=(name_words.capitalize() if chinese and name_words else label)[:80], zh=label[:80])
    if number:
        return FieldDef(name=name, type="number", label=shown, min=0, max=1_000_000)
    return FieldDef(name=name, type="string", label=shown, max_length=200)


def read_add(clause: str, program: ToolProgram, lang: str) -> list[Change]:
    """The fields a clause asks to add to the tool's rows, each not one the tool already records."""
    entity = main_entity(program)
    if entity is None:
        raise not_possible("no_rows", lang)
    tool_lang = program.ui.lang
    fields = program.entities[entity].fields
    said = _said(clause, lang)
    own = _own(program, entity)
    names = set(fields)
    ops = [op for op in program.operations if getattr(op, "entity", None) == entity]
    figures = {
        n for op in ops for n in (*(getattr(op, "computed", None) or {}), *(getattr(op, "constants", None) or {}))
    }
    labels = {bare(spec.label).lower() for spec in fields.values()}
    wanted: list[FieldDef] = [f for f in requested_fields(said or clause)]
    intent = Intent(archetype=None, confidence=1.0, slots={"asked": asked(said or clause)}, lang=tool_lang)
    wanted += asked_fields(intent, [*own, *wanted])
    if not wanted and said:
        guess = _guessed(said, lang)
        wanted += [guess] if guess else []
    changes, already = [], []
    for f in wanted:
        shown = f.label.in_(tool_lang)
        if duplicates(f, names) or shown.lower() in labels or f.label.en.lower() in labels or f.label.zh in labels:
            already.append(next((fields[n].label for n in fields if n == f.name), shown))
            continue
        if f.name in RESERVED:
            f = f.model_copy(update={"name": f"{f.name}_value"})
        if f.name in figures:  # a per-row figure or a constant of that name: the new field would shadow it
            raise not_possible("taken", lang, name=shown)
        spec: dict[str, Any] = field_spec(f, tool_lang)
        spec.pop("required", None)  # asked for after rows exist: offered, never demanded of the old ones
        changes.append(Change(op="add_field", entity=entity, field=f.name, spec=spec, label=spec["label"]))
        names.add(f.name)
        labels.add(shown.lower())
    if len(fields) + len(changes) > MAX_FIELDS:
        raise not_possible("too_many", lang)
    if not changes and already:
        raise not_possible("already", lang, label=already[0])
    return changes  # none: the clause named nothing to add, and the follow-up may be unclear
