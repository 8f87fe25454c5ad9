"""The composer: one planning mechanism for any subject, driven by the knowledge base.

A request read as a shape and a subject becomes a ToolProgram by the shape's rules, filled with the subject's
data: a *log* records rows over time with figures over all time, this week and per group, and progress against a
goal; a *collection* keeps things with a status and picks one at random; a *schedule* keeps recurring tasks with
their next due date; *dates* keeps dates with the days until each one's next occurrence; a *calculator* evaluates
the subject's formula. The fields come from the subject, then from the attributes the request itself names
("price", "过期日期"); a subject the knowledge base does not know still gets a tool of its shape (a date, a value
in the unit the request names, a note), and the composition says which fields were inferred and which guessed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from toolgen.intent.attributes import attribute_worded
from toolgen.knowledge.base import LOOKUP_APIS, FieldDef, FieldKind, Lookup, LookupValue, Subject, Words, library, snake
from toolgen.knowledge.fields import duplicates, known_type
from toolgen.knowledge.gloss import asked_entry, asked_name, done_name, english
from toolgen.models import Intent
from toolgen.planner.common import Fact
from toolgen.planner.rota import is_rota, kept, rota

RESERVED = {"id", "created_at", "updated_at"}


@dataclass
class Composition:
    """How a composed tool was made: what the platform read, and which fields it had to guess."""

    shape: str
    subject: str | None
    inferred: list[str] = field(default_factory=list)
    guessed: list[str] = field(default_factory=list)


def _plural(word: str) -> str:
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ies"
    if re.search(r"(s|x|ch|sh)$", word):
        return word + "es"
    return word + "s"


def _camel(*words: str) -> str:
    parts = [p for w in words for p in re.split(r"[_\s]+", w) if p]
    return parts[0].lower() + "".join(p.capitalize() for p in parts[1:])


class _Labels:
    """Display names of the figures a program computes, in its language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.names: dict[str, str] = {}

    def add(self, name: str, en: str, zh: str) -> str:
        self.names[name] = (zh if self.lang == "zh" else en)[:60]
        return name


# A yes-or-no field saying a row is done with (a film watched, a book read): a pick leaves those rows out.
_DONE_WITH = re.compile(r"^(?:watched|seen|read|finished|done|completed|is_done|is_read|is_watched)$")


def pick_one(
    entity: str,
    name: str,
    lang: str,
    labels: dict[str, str],
    filters: list[str] | None = None,
    fields: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The operation that picks one row of ``entity`` at random, shown by its ``name`` field (a collection's, or any
    tool's asked to pick one), among the rows not yet done with (``fields``' watched, read, done: a watchlist's pick
    is a film not yet watched); its figures' labels join ``labels``."""
    zh = lang == "zh"
    labels.setdefault("choice", "随机选中" if zh else "Picked for you")
    labels.setdefault("options", "可选数量" if zh else "Options")
    done = [n for n, spec in (fields or {}).items() if spec.get("type") == "boolean" and _DONE_WITH.match(n)]
    return {
        "id": "pickOne",
        "kind": "aggregate",
        "path": "/pick",
        "entity": entity,
        **({"filters": filters} if filters is not None else {}),
        **({"where": " and ".join(f"not {n}" for n in done)} if done else {}),
        "metrics": {"choice": f"pick({name})", "options": "count()"},
        "summary": _say(lang, "Pick one at random", "随机选一个"),
    }


def field_spec(f: FieldDef, lang: str, **override: Any) -> dict[str, Any]:
    """A FieldDef as a ToolProgram field spec, in ``lang`` (a choice's values are words of that language)."""
    spec: dict[str, Any] = {"type": "string" if f.type == "choice" else f.type, "label": f.display(lang)[:60]}
    if f.choices:
        spec["enum"] = [c.in_(lang) for c in f.choices]
    if f.min is not None:
        spec["minimum"] = f.min
    if f.max is not None:
        spec["maximum"] = f.max
    if f.required:
        spec["required"] = True
    if f.max_length:
        spec["max_length"] = f.max_length
    default = override.pop("default", f.default)
    if default is not None:
        if f.choices and isinstance(default, str):
            default = next((c.in_(lang) for c in f.choices if default in (c.en, c.zh)), spec["enum"][0])
        spec["default"] = default
    spec.update(override)
    return spec


def _fields(subject: Subject | None, intent: Intent, composition: Composition) -> list[FieldDef]:
    """The subject's fields, then those the request names that the subject lacks."""
    lib = library()
    own = lib.fields_of(subject) if subject else []
    names = {f.name for f in own}
    composition.inferred += [f.name for f in own]
    said = intent.slots.get("field_words") or {}
    for f in (lib.fields[n] for n in intent.slots.get("fields", []) if n in lib.fields):
        if (
            not duplicates(f, names)
            and not same_label(f, own)
            and not kept_already(f, own, subject)
            and f.name not in RESERVED
            and len(own) < 20
        ):
            label = as_said(f, said[f.name]) if f.name in said else f.label  # "deadline": the due date, so called
            own.append(f.model_copy(update={"required": False, "label": label}))  # asked for, so offered
            names.add(f.name)
            composition.inferred.append(f.name)
    for other in intent.slots.get("with_subjects", []):  # another subject the request names: its fields, offered
        for f in lib.fields_of(lib.subjects[other]) if other in lib.subjects else []:
            if not duplicates(f, names) and f.name not in RESERVED and len(own) < 16:
                own.append(f.model_copy(update={"required": False}))
                names.add(f.name)
                composition.inferred.append(f.name)
    for f in asked_fields(intent, own):
        if f.name not in names and f.name not in RESERVED and not kept_already(f, own, subject) and len(own) < 20:
            own.append(f)
            names.add(f.name)
            composition.inferred.append(f.name)
    for f in listed_fields(intent, own):
        if f.name not in names and f.name not in RESERVED and not kept_already(f, own, subject) and len(own) < 20:
            own.append(f)
            names.add(f.name)
            composition.inferred.append(f.name)
    return [rescaled(f, intent) for f in own]


_GENERIC = {"use", "used", "time", "total", "number", "amount", "level", "kind", "type", "note", "day", "date"}


def _stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


_QUESTION = re.compile(
    r"多少|几|什么|啥|哪|有没有|是否|(.)没\1|还是|好不好|怎么样|多久|多重|多远|多[高深宽厚粗大长]|谁|\b(how|which|whether|what|who|where)\b"
)
_ASKED_TYPES = {"number", "integer", "boolean", "choice", "time", "date", "string", "text"}


def _is_start(f: FieldDef) -> bool:
    """The time of day an entry began ("几点开始的", "when it started")."""
    return f.type == "time" and ("start" in f.name or "开始" in f.label.zh)


def kept_already(f: FieldDef, own: list[FieldDef], subject: Subject | None = None) -> bool:
    """Whether the tool already keeps what a field the request names or asks records, under another name: the time
    the entry itself began ("几点开始疼的" of a migraine log with its "Started"; not "几点开始运动的" of a fasting log,
    another thing's start). How long something lasted is not so read: a second duration is often another one
    ("加班多久" beside the hours worked)."""
    if not (_is_start(f) and any(_is_start(o) for o in own)):
        return False
    what = re.sub(r"开始|时间|几点|的|[\s（）()]", "", f.label.zh)  # what began, if the question says
    names = "".join(subject.zh) if subject else ""
    return not what or any(ch in names for ch in what)


def asked_fields(intent: Intent, own: list[FieldDef]) -> list[FieldDef]:
    """A field for each thing the request asks about each entry ("有没有发票", "how many pages", "what I was doing",
    toolgen/intent/asked.py) that the tool lacks: the library's field where the words are one of its, else one typed
    by the question, labelled with the request's words."""
    lib = library().fields
    names = {f.name for f in own}
    labels = {w for f in own for w in (f.label.en.lower(), f.label.zh)}
    fields: list[FieldDef] = []
    for k, item in enumerate(intent.slots.get("asked") or [], start=1):
        said = str(item["said"])  # (a question the question glossary knows comes named: toolgen/intent/asked.py)
        known = lib.get(item.get("field") or "")
        if known is not None and item["type"] in ("number", "integer") and known.type not in ("number", "integer"):
            known = None  # "背了多少个单词" counts words: a number, not the word field
        if known is not None:
            if not duplicates(known, names | {f.name for f in fields}):
                fields.append(known.model_copy(update={"required": False}))
            continue
        if _asked_already(said, labels):
            continue
        english = str(item.get("name") or item.get("en") or "") or None
        if item.get("of"):  # "背了多少个单词": the words, named by the things counted
            thing = _english(str(item["of"]))
            if thing and len(thing.split()) <= 2:
                english = thing if thing.endswith("s") else _plural(thing)
        if english is None and item["type"] == "boolean":  # "取没取货": picked up; 发没发烧 the glossary's fever
            english = asked_name(said) or done_name(said)  # (not 发's "sent"; 学没学会 no "institute")
        if english is None and _HAN.search(said):
            english = _english(said)
        name = snake(english) if english else f"asked_{k}"
        if name in names or not name:
            continue
        kind = str(item["type"]) if item["type"] in _ASKED_TYPES else "string"
        shown = english if english and _HAN.search(said) else re.sub(r"\bi\b", "I", said)  # "what I made"
        label = Words(en=(shown[:1].upper() + shown[1:])[:80], zh=said[:80])
        spec: dict[str, Any] = {"name": name, "type": kind, "label": label, "unit": item.get("unit")}
        if kind in ("number", "integer"):
            low, high = item.get("min"), item.get("max")
            spec.update(min=0 if kind == "integer" else -1_000_000, max=1_000_000, sum=bool(item.get("sum")))
            spec.update({bound: v for bound, v in (("min", low), ("max", high)) if v is not None})
        elif kind == "choice":
            spec.update(choices=[Words(en=c, zh=c) for c in item["choices"]])
        elif kind == "boolean":
            spec.update(default=False)
        else:
            spec.update(max_length=500 if kind == "text" else 200)
        fields.append(FieldDef(**spec))
    return fields


_HAN = re.compile(r"[\u4e00-\u9fff]")
_QUESTION_WORDS = {"how", "what", "when", "where", "who", "which", "why", "whose"}


def _asked_already(said: str, labels: set[str]) -> bool:
    """Whether a field of the tool is already labelled as a question asks ("pages" of "pages read"): in English a
    label that is a whole word of it and no question word ("How" a client was met answers no "how long")."""
    if said.lower() in labels:
        return True
    if _HAN.search(said):
        return any(said in label or label in said for label in labels if len(label) >= 2)
    return any(
        said.lower() in label or (label not in _QUESTION_WORDS and re.search(rf"\b{re.escape(label)}\b", said.lower()))
        for label in labels
        if len(label) >= 2
    )


def _english(said: str) -> str | None:
    """The English name of a field the request words in Chinese (toolgen/knowledge/gloss.py), None if it has none;
    the words of an English request are their own name."""
    if not _HAN.search(said):
        return said
    name = english(said)
    return name if name and snake(name) else None


def _named_field(item: str) -> list[FieldDef]:
    """The library's field a listed item is by name ("date", "the place"), if it is one."""
    said = re.sub(r"^(?:the|a|an|my)\s+", "", item.strip().lower())
    lib = library().fields
    if re.fullmatch(r"[\u4e00-\u9fff]{2,4}", said):  # "日期、地点": the library's own label of one of its fields
        gloss = snake(english(said) or "") or said
        plain = [f for f in lib.values() if said == f.label.zh and f.name in (gloss, snake(f.label.en))]  # 金额: amount
        return plain[:1]
    worded = [f for f in lib.values() if said in (w.lower() for w in f.words)]  # "roast level", "人均": its words
    if worded:
        return worded[:1]
    if not re.fullmatch(r"[a-z]+", said):  # one English word; a Chinese item keeps the words it was said in
        return []
    if said in lib:
        return [lib[said]]
    # a field only labelled as said is that field when it offers no choices of its own subject ("Status": a gift's
    # idea, bought, given is no university application's status)
    return [f for f in lib.values() if said == f.label.en.lower() and not f.choices][:1]


def listed_fields(intent: Intent, own: list[FieldDef]) -> list[FieldDef]:
    """A field for each thing the request lists that no field of the tool is already ("pH, ammonia and nitrite"):
    numbers in a log whose request speaks of measuring, else words."""
    names = [w.lower() for f in own for w in (f.name.replace("_", " "), f.label.en, f.label.zh, *f.words)]
    tokens = {_stem(t) for n in names for t in re.findall(r"[a-z]{3,}", n)}
    subjects = library().subjects  # a subject the list names ("blood pressure and weight") is the tool, not a field
    phrases: list[set[str]] = []  # a subject's names, each whole: "kiln" is not the "kiln firing" it is a part of
    for sid in [intent.subject, *intent.slots.get("with_subjects", [])]:
        if sid in subjects:
            names += [w.lower() for w in subjects[sid].zh]
            phrases += [{_stem(t) for t in re.findall(r"[a-z]{3,}", w.lower())} - _GENERIC for w in subjects[sid].en]
    fields: list[FieldDef] = []
    numeric = intent.shape == "log" and bool(intent.slots.get("measuring"))
    questions = [str(a["said"]).lower() for a in intent.slots.get("asked") or []]
    for k, item in enumerate(intent.slots.get("listed") or [], start=1):
        said = item.lower()
        if _QUESTION.search(said) and any(_overlap(said, question, loose=True) for question in questions):
            continue  # read as a question, with its type (asked_fields)
        if any(said in n or (len(n) >= 2 and n in said) for n in names if re.search(r"[\u4e00-\u9fff]", n + said)):
            continue  # 氨 is 氨氮
        choice = _CHOICE.fullmatch(said)
        if choice:  # "home vs public charger", "indoor or outdoor": one field, a choice between them
            options = [choice.group("a").strip(), choice.group("b").strip()]
            if not any(set(options) & {c.en.lower() for c in f.choices or []} for f in [*own, *fields]):
                noun = (choice.group("noun") or "").strip()
                name = snake(noun) if noun else "kind"
                if name not in {f.name for f in [*own, *fields]}:
                    shown = f"{noun.capitalize() or 'Kind'} ({' or '.join(options)})"
                    words = [Words(en=o, zh=o) for o in options]
                    fields.append(FieldDef(name=name, type="choice", label=Words(en=shown, zh=shown), choices=words))
            continue
        if _said_already(item, tokens, phrases, own):
            continue
        bounds = intent.slots.get("scale")
        if bounds and _RATED.search(said) and any(_rating(f) for f in own):
            continue  # "score out of 10" is the tool's rating, on that scale (rescaled)
        if bounds and _RATES.search(said) and not any(_rating(f) for f in [*own, *fields]):
            low, high = bounds  # "rate the course 1-10": a rating of that scale, named as said
            english = _english(item) or "rating"
            label = Words(en=f"{english.capitalize()} ({low}-{high})", zh=f"{item}（{low}-{high}）")
            fields.append(FieldDef(name=snake(english) or "rating", type="integer", label=label, min=low, max=high))
            continue
        known = _named_field(item)
        if known:  # "the date and the place": the library's date and place, typed as it types them
            taken = {f.name for f in [*own, *fields]}
            if not duplicates(known[0], taken) and not same_label(known[0], own) and known[0].name not in RESERVED:
                fields.append(known[0].model_copy(update={"required": False, "label": as_said(known[0], item)}))
            continue
        made = _said_field(item, k, {f.name for f in [*own, *fields]}, numeric)
        if made is not None:
            fields.append(made)
    return fields + _grouping_and_scale(intent, [*own, *fields], names)


def as_said(f: FieldDef, item: str) -> Words:
    """A library field's label in the words the request named it by, where they are other words than the label's
    ("deadline" is the library's due date, shown as Deadline; "截止日期" as 截止日期)."""
    said = re.sub(r"^(?:the|a|an|my)\s+", "", item.strip())
    if _QUESTION.search(said.lower()):  # "放了多长时间", "how long": a question, where the label is the answer's name
        return f.label
    if _HAN.search(said):
        return f.label if said in f.label.zh else Words(en=f.label.en, zh=said[:80])
    if said.lower() in f.label.en.lower():
        return f.label
    return Words(en=(said[:1].upper() + said[1:])[:80], zh=f.label.zh)


def _said_already(item: str, tokens: set[str], phrases: list[set[str]], own: list[FieldDef]) -> bool:
    """Whether a listed item is a field the tool has: by its English words, or by the name the question glossary
    gives a Chinese question ("印象咋样" is the impression a dating log has)."""
    content = {_stem(t) for t in re.findall(r"[a-z]{3,}", item.lower())} - _GENERIC
    if content and _named_already(content, tokens, phrases):
        return True
    named = asked_name(item) if _HAN.search(item) else None
    words = {_stem(t) for t in re.findall(r"[a-z]{3,}", (named or "").lower())} - _GENERIC
    return bool(words and _named_already(words, tokens, [])) or bool(named and snake(named) in {f.name for f in own})


def _named_already(content: set[str], tokens: set[str], phrases: list[set[str]]) -> bool:
    """Whether a listed item's words are mostly a field's ("eggs laid" is "eggs collected", but "predict when the next
    starts" is no "start date"), or hold one of the subject's names whole ("blood pressure readings")."""
    return len(tokens & content) * 2 >= len(content) or any(phrase and phrase <= content for phrase in phrases)


def same_label(f: FieldDef, own: list[FieldDef]) -> bool:
    """Whether a field of the tool is already called what ``f`` is called, in either language (a pet's 生日 is its
    born_on, whatever the library calls its birthday field)."""
    return any(f.label.en.lower() == o.label.en.lower() or f.label.zh == o.label.zh for o in own)


def _said_field(item: str, k: int, taken: set[str], numeric: bool) -> FieldDef | None:
    """A field for one listed item, named in English and typed by how it is said: a yes-or-no question is a yes or
    no, "start time" a time, "due date" a date, "cost" a number (any item of a log that measures, too)."""
    flag = _FLAG.search(item)
    if flag and flag.start() > 0:  # "shimmer y/n", "带没带伞（是/否）": a yes or no, named by what it asks
        item = item[: flag.start()]
        named = _english(item) if _HAN.search(item) else item
        name = snake(named) if named else f"measure_{k}"
        if name and name not in taken and name not in RESERVED:
            label = Words(en=(named or item).capitalize(), zh=item)
            return FieldDef(name=name, type="boolean", label=label, default=False)
    said = item.lower()
    if not re.search(r"[a-z\u4e00-\u9fff]", said):
        return None  # "1-10" alone is a scale (scale()), not a field
    english = _english(item) if _HAN.search(item) else item
    if english is None and _QUESTION.search(said):
        return None  # a question with no name of its own ("去了哪"): the tool's own fields answer it or none does
    name = snake(english) if english else f"measure_{k}"
    if name in taken or name in RESERVED:
        name = f"measure_{k}"
    shown = re.sub(r"(?:怎么样|怎样|如何|是多少|多少|有多少|几[个次]?)$", "", item) or item  # 天气怎样: 天气
    label = Words(en=english.capitalize() if english else item, zh=shown)
    heads = (english.lower(), said) if english else (said,)
    typed = next((kind for kind, pattern in _TYPED_BY_HEAD for head in heads if pattern.search(head)), None)
    entry = asked_entry(item) if _HAN.search(item) else None  # as the question glossary types it ("练哪": words)
    if entry and entry[1] in ("string", "text", "date", "time", "boolean"):
        kind = entry[1]
        if kind == "boolean":
            return FieldDef(name=name, type="boolean", label=label, default=False)
        if kind == "date" or kind == "time":
            return FieldDef(name=name, type="date" if kind == "date" else "time", label=label)
        return FieldDef(name=name, type="string", label=label, max_length=500 if kind == "text" else 200)
    if _YES_NO.search(said):  # "绝育没", "would i order again": yes or no
        return FieldDef(name=name, type="boolean", label=label, default=False)
    if typed in ("time", "date"):  # "start time", "due date": typed by the word that heads them
        return FieldDef(name=name, type=typed, label=label)
    if numeric or typed == "number" or (typed is None and english and known_type(english) == "number"):
        return FieldDef(name=name, type="number", label=label, min=-1_000_000, max=1_000_000)
    return FieldDef(name=name, type="string", label=label, max_length=200)


# A yes-or-no item written as such after what it asks ("shimmer y/n", "refund? yes/no", "带伞（是/否）")
_FLAG = re.compile(r"\s*[(（]?\s*(?:y/n|yes/no|y or n|yes or no|是/否|是否)\s*[)）]?\s*$", re.IGNORECASE)


# Fields that already say whose a row is.
WHOSE_FIELDS = {
    "person", "family_member", "child", "kid", "member", "owner", "patient", "borrower", "recipient", "guest",
    "full_name", "roommate", "student", "employee", "client", "name_of_person", "who", "holder", "assignee", "whose",
    "owner_name", "traveller", "traveler", "passenger",
}  # fmt: skip


def _grouping_and_scale(intent: Intent, own: list[FieldDef], names: list[str]) -> list[FieldDef]:
    """The field the rows are grouped or tagged by ("tagged by cuisine", "按大洲分"), and a rating on the scale the
    request says ("rate my day 1-5"), where the tool has neither."""
    fields: list[FieldDef] = []
    taken = {f.name for f in own}
    group = intent.slots.get("grouped_by")
    if group and not any(group in n or (len(n) >= 2 and n in group) for n in names):
        english_name = _english(group)
        known = library().fields.get(snake(english_name or ""))
        if known is not None and not duplicates(known, taken):
            fields.append(known.model_copy(update={"required": False}))
        elif english_name and snake(english_name) and snake(english_name) not in taken | RESERVED:
            label = Words(en=english_name.capitalize(), zh=group)
            fields.append(FieldDef(name=snake(english_name), type="string", label=label, max_length=80))
    # a household's things, each someone's ("passports for the whole family"), say whose, where the tool does not
    if intent.slots.get("everyones") and not taken & WHOSE_FIELDS and "person" not in names:
        fields.append(library().fields["person"].model_copy(update={"required": False}))
    bounds = intent.slots.get("scale")
    rated = any(_rating(f) for f in own)
    scaled = bounds and any(f.type == "integer" and (f.min, f.max) == tuple(bounds) for f in own)  # mood (1-5)
    if bounds and not rated and not scaled and "rating" not in taken:  # (a rating the tool has: rescaled())
        low, high = bounds
        label = Words(en=f"Rating ({low}-{high})", zh=f"评分（{low}-{high}）")
        fields.append(FieldDef(name="rating", type="integer", label=label, min=low, max=high))
    return fields


_RATED = re.compile(r"rating|score|stars|评分|打分|分数", re.IGNORECASE)
_RATES = re.compile(r"\brat(?:e|ed|ing)\b|评分|打分|打个分", re.IGNORECASE)  # an item that rates something


def _rating(f: FieldDef) -> bool:
    """Whether a field is a rating: named so, an integer, on a small scale (a golf score of 85 is no rating)."""
    return f.type == "integer" and (f.max or 0) <= 10 and bool(_RATED.search(f"{f.name} {f.label.en} {f.label.zh}"))


def rescaled(f: FieldDef, intent: Intent) -> FieldDef:
    """A rating field on the scale the request says ("score out of 10": 1 to 10, not the library's 1 to 5)."""
    bounds = intent.slots.get("scale")
    if not bounds or not _rating(f):
        return f  # (a golf score of 85 is no rating: only a rating's scale is the one the request says)
    low, high = bounds
    label = Words(
        en=re.sub(r"\s*\(\d+-\d+\)$", "", f.label.en) + f" ({low}-{high})",
        zh=re.sub(r"（\d+-\d+）$", "", f.label.zh) + f"（{low}-{high}）",
    )
    return f.model_copy(update={"min": low, "max": high, "label": label})


def _overlap(a: str, b: str, *, loose: bool = False) -> bool:
    """Whether two wordings of an item share most of their words or characters (an item the question reader read);
    ``loose``, a Chinese question and what the reader kept of it share a word's character ("几点吃的", "吃时间")."""
    if _HAN.search(a):
        shared = set(a) & set(b) - set("几多少什么啥哪谁了的吗没不是有")
        return bool(shared) if loose else len(set(a) & set(b)) * 2 >= min(len(set(a)), len(set(b)))
    words = set(re.findall(r"[a-z]{3,}", a)) - {"how", "what", "which", "much", "many", "long", "often"}
    return not words or bool(words & set(re.findall(r"[a-z]{3,}", b)))  # "how much" is only the question


# A yes-or-no item: "绝育没", "去没去过", "还会再点吗", "would i order again", "is it signed"
_YES_NO = re.compile(
    r"(?:(?<![出淹沉埋吞隐湮覆])没|没有|了吗|吗|与否|是否.*)$|^是否|(.)没\1"
    r"|^(?:would|did|do|does|is|was|are|were|have|has|can) (?:i|you|we|they|he|she|it|the|a|an|my|our|this|that)\b"
)


# An item that is a choice between two ("home vs public charger", "indoor or outdoor", "breast/bottle")
_CHOICE = re.compile(
    r"(?P<a>[a-z][a-z-]*)\s*(?:\bvs\.?|\bversus\b|\bor\b|/)\s*(?P<b>[a-z][a-z-]*)(?:\s+(?P<noun>[a-z][a-z -]*))?"
)
# What an English item's words say it holds: its head noun names the type ("start time", "number of guests")
_TYPED_BY_HEAD: list[tuple[FieldKind, re.Pattern[str]]] = [
    ("date", re.compile(r"(?:什么时候|啥时候)$")),  # when, a day: "上次穿是啥时候" (its English may end in "time")
    ("time", re.compile(r"\btime$|\bo'?clock$")),
    ("date", re.compile(r"\b(date|day|deadline)$|(birth|pay|due|start|end)day$")),
    ("number", re.compile(r"^(number of|how many|# of|count of)\b|\b(cost|price|amount|paid|spent|total|fee)$")),
    ("date", re.compile(r"(日期|日子|哪天|哪一天|几号|生日)$")),  # a Chinese item, by the word that ends it
    ("number", re.compile(r"(多少钱?|几[个次条只块斤公里]|多[长重久远高]|多长时间|金额|价格|费用|次数|数量|时长)$")),
    ("time", re.compile(r"(?<![长睡用花])(时间|几点|时刻)$")),  # (睡眠时间, 花了多长时间: how long, a number)
]


def _unknown_value(intent: Intent, composition: Composition) -> FieldDef:
    """The value a log of an unknown subject records: in the unit the request names, if it names one."""
    units = intent.slots.get("units") or []
    composition.guessed.append("value")
    return FieldDef(
        name="value",
        type="number",
        label=Words(en="Value", zh="数值"),
        unit=units[0] if units else None,
        required=True,
        min=-1_000_000,
        max=1_000_000,
        sum=False,
    )


def _title(subject: Subject | None, intent: Intent, shape_title: Words) -> str:
    if subject is not None:
        return subject.title.in_(intent.lang)
    thing = intent.slots.get("object")
    if not thing and intent.slots.get("named_as"):  # "cooking journal: what I made ...": the name it was given
        named = str(intent.slots["named_as"])
        return (named if intent.lang == "zh" else named[:1].upper() + named[1:])[:80]
    if not thing:
        return shape_title.in_(intent.lang)
    if intent.lang == "zh":
        return f"{thing}{shape_title.zh}"[:80]
    return f"{thing.title()} {shape_title.en}"[:80]


def _numeric(fields: list[FieldDef]) -> list[FieldDef]:
    return [f for f in fields if f.type in ("number", "integer") and f.name not in ("rating",)]


def _entity(subject: Subject | None, intent: Intent, default: Words) -> tuple[str, str, str]:
    """(entity name, its plural for paths, its label)."""
    item = subject.item if subject else default
    name = snake(item.en)
    return name, _plural(name), item.in_(intent.lang)


def _figures(fields: list[FieldDef], labels: _Labels) -> dict[str, str]:
    """Per numeric field: the total when totals mean something, else the average, lowest and highest (and for the
    first three, the change since the first reading); at most 19 figures, so an operation's entries fit too."""
    metrics: dict[str, str] = {}
    zh = labels.lang == "zh"
    for i, f in enumerate(_numeric(fields)[:5]):
        label = f.display(labels.lang)
        if f.sum:
            metrics[labels.add(f"total_{f.name}"[:40], f"Total {label.lower()}", f"{label}合计")] = (
                f"round(sum({f.name}), 2)"
            )
        metrics[labels.add(f"avg_{f.name}"[:40], f"Average {label.lower()}", f"平均{label}")] = (
            f"round(avg({f.name}), 2)"
        )
        if not f.sum:
            metrics[labels.add(f"min_{f.name}"[:40], f"Lowest {label.lower()}", f"最低{label}")] = f"min({f.name})"
            metrics[labels.add(f"max_{f.name}"[:40], f"Highest {label.lower()}", f"最高{label}")] = f"max({f.name})"
            if i < 3:  # since the first reading: grown, lost, improved
                change = labels.add(f"change_{f.name}"[:40], f"Change in {label.lower()}", f"{label}变化")
                metrics[change] = f"round(last({f.name}) - first({f.name}), 2)"
    del zh
    return metrics


def _log(subject: Subject | None, intent: Intent, fact: Fact, c: Composition) -> dict[str, Any]:
    lang, labels = intent.lang, _Labels(intent.lang)
    fields = _fields(subject, intent, c)
    if not _numeric(fields) and subject is None and not (intent.slots.get("listed") or intent.slots.get("asked")):
        fields.insert(0, _unknown_value(intent, c))  # the request said nothing of what a row holds: a value
    entity, plural, entity_label = _entity(subject, intent, Words(en="entry", zh="记录"))
    lib = library()
    specs: dict[str, Any] = {}
    if "date" not in {f.name for f in fields}:
        specs["date"] = field_spec(lib.fields["date"], lang)
    for f in fields:
        specs[f.name] = field_spec(f, lang)
    if "note" not in specs and len(specs) < 20:
        specs["note"] = field_spec(lib.fields["note"], lang)
    date_field = "date" if specs.get("date", {}).get("type") == "date" else None
    path = f"/{plural}"
    group = subject.per if subject and subject.per else _per_field(intent, specs)
    filters = [n for n, s in specs.items() if s.get("enum") or n == group][:5]
    derive = dict(subject.derive) if subject else {}
    computed = {labels.add(n, o.label.en, o.label.zh): o.expr for n, o in (subject.computed if subject else {}).items()}
    ops: list[dict[str, Any]] = [
        {
            "id": _camel("add", entity),
            "kind": "create",
            "path": path,
            "entity": entity,
            "derive": derive,
            "constants": dict(subject.constants) if subject else {},
            "summary": _say(lang, f"Log a {entity_label.lower()}", f"记一条{entity_label}"),
        },
        {
            "id": _camel("list", plural),
            "kind": "list",
            "path": path,
            "entity": entity,
            "sort": "-date" if date_field else "-created_at",
            "filters": filters,
            "computed": computed,
            "constants": dict(subject.constants) if subject else {},
            "summary": _say(lang, "List entries, newest first", "按日期列出记录"),
        },
        *_change_ops(entity, path, lang, ("Change an entry", "修改一条记录"), ("Delete an entry", "删除一条记录")),
    ]
    numeric = [f for f in fields if f.name in specs and f.type in ("number", "integer")]
    metrics = {labels.add("entries", "Entries", "条数"): "count()"}
    if date_field:
        metrics[labels.add("last_date", "Last entry", "最近一次")] = "max(date)"
        metrics[labels.add("streak_days", "Days in a row", "连续天数")] = "streak(date)"
    metrics.update(
        {labels.add(n, o.label.en, o.label.zh): o.expr for n, o in (subject.figures if subject else {}).items()}
    )
    for name, expr in _figures(numeric, labels).items():  # the subject's own figures first, then per field
        if len(metrics) < 20:
            metrics.setdefault(name, expr)
    ops.append(
        {
            "id": "stats",
            "constants": dict(subject.constants) if subject else {},
            "kind": "aggregate",
            "path": "/stats",
            "entity": entity,
            "metrics": metrics,
            "summary": _say(lang, "Figures over all entries", "全部记录的统计"),
        }
    )
    if date_field:
        week = {labels.add("entries", "Entries", "条数"): "count()", **_figures(numeric, labels)}
        ops.append(
            {
                "id": "thisWeek",
                "kind": "aggregate",
                "path": "/week",
                "entity": entity,
                "period": "week",
                "metrics": week,
                "summary": _say(lang, "This week's figures", "本周统计"),
            }
        )
        ops.append(
            {
                "id": "byDay",
                "kind": "aggregate",
                "path": "/days",
                "entity": entity,
                "group_by": "date",
                "metrics": week,
                "summary": _say(lang, "Figures per day", "每天的统计"),
            }
        )
    if group and group != "date":
        per = {labels.add("entries", "Entries", "条数"): "count()", **_figures(numeric, labels)}
        ops.append(
            {
                "id": _camel("by", group),
                "kind": "aggregate",
                "path": f"/by-{group.replace('_', '-')}",
                "entity": entity,
                "group_by": group,
                "metrics": per,
                "summary": _say(lang, f"Figures per {specs[group]['label'].lower()}", f"按{specs[group]['label']}统计"),
            }
        )
    goal = _goal(subject, intent, numeric)
    if goal is not None and date_field:
        f, period, value, how, cap = goal
        ops.append(_goal_op(entity, f, period, value, how, labels, cap=cap))
    return {
        "name": snake(subject.id if subject else f"{intent.slots.get('object') or 'custom'}_log"),
        "title": _title(subject, intent, Words(en="Log", zh="记录")),
        "description": _say(
            lang,
            f"Log each {entity_label.lower()} and see your figures over time.",
            f"记录每一次{entity_label}，查看随时间变化的统计。",
        ),
        "entities": {entity: {"label": entity_label, "fields": specs}},
        "operations": ops,
        "labels": labels.names,
    }


def _change_ops(
    entity: str, path: str, lang: str, change: tuple[str, str], delete: tuple[str, str]
) -> list[dict[str, Any]]:
    """The update and delete operations on one row of ``entity`` (every shape that keeps rows has both)."""
    row = f"{path}/{{id}}"
    return [
        {
            "id": _camel("update", entity),
            "kind": "update",
            "path": row,
            "entity": entity,
            "summary": _say(lang, *change),
        },
        {
            "id": _camel("delete", entity),
            "kind": "delete",
            "path": row,
            "entity": entity,
            "summary": _say(lang, *delete),
        },
    ]


def _add_and_list(
    entity: str,
    plural: str,
    lang: str,
    add: tuple[str, str],
    listing: tuple[str, str],
    sort: str,
    computed: dict[str, str],
    **create: Any,
) -> list[dict[str, Any]]:
    """The create and list operations of ``entity`` at /``plural`` (the list with its ``computed`` figures, sorted by
    ``sort``); ``create`` adds to the create (its derived fields and constants)."""
    path = f"/{plural}"
    return [
        {"id": _camel("add", entity), "kind": "create", "path": path, "entity": entity, **create,
         "summary": _say(lang, *add)},
        {"id": _camel("list", plural), "kind": "list", "path": path, "entity": entity, "sort": sort,
         "computed": computed, "summary": _say(lang, *listing)},
    ]  # fmt: skip


def _say(lang: str, en: str, zh: str) -> str:
    return (zh if lang == "zh" else en)[:300]


def _per_field(intent: Intent, specs: dict[str, Any]) -> str | None:
    per = intent.slots.get("per")
    if not per:
        return None
    name = snake(per)
    return name if name in specs else None


def _goal(
    subject: Subject | None, intent: Intent, numeric: list[FieldDef]
) -> tuple[FieldDef, str, float, str, bool] | None:
    """A target from the request ("a 1800 goal", "目标2升") or the subject's usual one; the last item says whether
    it is a limit to stay under (the subject's, or the request's: "limit it to 2 hours", "不超过2小时")."""
    by_name = {f.name: f for f in numeric}
    wanted = intent.slots.get("goal_value")
    said = intent.slots.get("capped")  # True: a limit said; False: a floor said ("at least"); None: neither
    said_cap = said is True
    if subject and subject.goal and subject.goal.field in by_name:
        g = subject.goal
        cap = (g.limit if said is None else said_cap) and g.how == "sum"
        return by_name[g.field], g.period, float(wanted or g.value), g.how, cap
    if wanted and numeric:
        summed = [f for f in numeric if f.sum]
        if summed:  # a total to reach: per day, or over everything when the request says so ("by May", "累计")
            return summed[0], "all" if intent.slots.get("cumulative") else "day", float(wanted), "sum", said_cap
        return numeric[0], "all", float(wanted), "last", False  # a reading to reach: "目标11公斤"
    return None


def _goal_op(
    entity: str, f: FieldDef, period: str, value: float, how: str, labels: _Labels, *, cap: bool = False
) -> dict[str, Any]:
    """The figures against a goal: so far, the goal, what is still to go, whether it is reached; a reading's (how
    "last") how far the latest is from it; a limit's (``cap``) what is left of it, by how much it is over, whether
    it is kept: good while under it. The constant is "goal" either way ("set my limit to 90" revises it, revise.py)."""
    lang, label = labels.lang, f.display(labels.lang)
    done = f"{how}({f.name})"
    when = {"day": ("Today", "今天"), "week": ("This week", "本周"), "month": ("This month", "本月"),
            "year": ("This year", "今年"),
            "all": ("So far", "累计") if how != "last" else ("Latest", "最新")}[period]  # fmt: skip
    if how == "last":  # a reading to reach (a weight): how far the latest one is from it, either way
        metrics = {
            labels.add("latest", f"Latest {label.lower()}", f"最新{label}"): f"last({f.name})",
            labels.add("goal", "Goal", "目标"): "goal",
            labels.add("to_goal", "Difference from goal", "离目标还差"): f"round(abs(last({f.name}) - goal), 2)",
        }
    elif cap:
        metrics = {
            labels.add("so_far", f"{when[0]}: {label.lower()}", f"{when[1]}{label}"): f"round({done}, 2)",
            labels.add("left", "Left", "还剩"): f"round(max(goal - {done}, 0), 2)",
            labels.add("over_by", "Over by", "超出"): f"round(max({done} - goal, 0), 2)",
            labels.add("limit", "Limit", "上限"): "goal",
            labels.add("within_limit", "Within the limit", "未超标"): f"{done} <= goal",
        }
    else:
        metrics = {
            labels.add("so_far", f"{when[0]}: {label.lower()}", f"{when[1]}{label}"): f"round({done}, 2)",
            labels.add("goal", "Goal", "目标"): "goal",
            labels.add("remaining", "Still to go", "还差"): f"round(max(goal - {done}, 0), 2)",
            labels.add("reached", "Goal reached", "已达标"): f"{done} >= goal",
        }
    against = ("limit", "上限") if cap else ("goal", "目标")
    return {
        "id": "goal",
        "kind": "aggregate",
        "path": "/goal",
        "entity": entity,
        **({"period": period} if period != "all" else {}),
        "constants": {"goal": value},
        "metrics": metrics,
        "summary": _say(lang, f"{when[0]} against your {against[0]}", f"{when[1]}与{against[1]}对比"),
    }


# A date a thing runs out or falls due on (an expiry, a renewal, a deadline), not one it happened on.
_AHEAD = re.compile(
    r"expir|due|deadline|renew|next|until|ends?\b|valid|best_before|use_by|_by\b|\bby$|到期|过期|截止|续费|有效期|期限",
    re.I,
)


def _collection(subject: Subject | None, intent: Intent, fact: Fact, c: Composition) -> dict[str, Any]:
    lang, labels, lib = intent.lang, _Labels(intent.lang), library()
    fields = _fields(subject, intent, c)
    entity, plural, entity_label = _entity(subject, intent, Words(en="item", zh="条目"))
    specs: dict[str, Any] = {}
    key = next((f for f in fields if f.type == "string" and f.required), None)
    if key is None:
        key = FieldDef(
            name="name",
            type="string",
            label=Words(
                en=entity_label.capitalize() if lang == "en" else "名称", zh=entity_label if lang == "zh" else "名称"
            ),
            required=True,
            max_length=200,
        )
        if subject is None:
            c.guessed.append("name")
        specs["name"] = field_spec(key, lang)
    for f in fields:
        specs.setdefault(f.name, field_spec(f, lang))
    if "note" not in specs and len(specs) < 20:
        specs["note"] = field_spec(lib.fields["note"], lang)
    path = f"/{plural}"
    group = subject.per if subject and subject.per else _per_field(intent, specs)
    flags = [n for n, s in specs.items() if s["type"] == "boolean"]
    choices = [n for n, s in specs.items() if s.get("enum")]
    filters = list(dict.fromkeys([*([group] if group else []), *choices, *flags]))[:6]
    constants = dict(subject.constants) if subject else {}
    computed = {labels.add(n, o.label.en, o.label.zh): o.expr for n, o in (subject.computed if subject else {}).items()}
    both = {f.name: f"{f.label.en} {f.label.zh}" for f in fields}  # one tool in either language: both labels read
    ahead = [n for n, s in specs.items() if s["type"] == "date" and _AHEAD.search(f"{n} {both.get(n, s['label'])}")]
    if ahead and "days_left" not in specs and "days_left" not in computed:  # an expiry, a renewal: days until it
        computed[labels.add("days_left", "Days left", "剩余天数")] = f"days_until({ahead[0]})"
    dated = ahead or [n for n, s in specs.items() if s["type"] == "date"]
    sort = dated[0] if dated else key.name  # what runs out first comes first
    ops: list[dict[str, Any]] = [
        {
            "id": _camel("add", entity),
            "kind": "create",
            "path": path,
            "entity": entity,
            "derive": dict(subject.derive) if subject else {},
            "constants": constants,
            "summary": _say(lang, f"Add a {entity_label.lower()}", f"添加{entity_label}"),
        },
        {
            "id": _camel("list", plural),
            "kind": "list",
            "path": path,
            "entity": entity,
            "sort": sort,
            "filters": filters,
            "computed": computed,
            "constants": constants,
            "summary": _say(lang, "List everything", "列出全部"),
        },
        *_change_ops(entity, path, lang, ("Change one", "修改"), ("Delete one", "删除")),
        pick_one(entity, key.name, lang, labels.names, filters, specs),
    ]
    summary: dict[str, str] = {labels.add("total", "Total", "总数"): "count()"}
    for flag in flags[:2]:
        summary[labels.add(flag, specs[flag]["label"], specs[flag]["label"])] = f"count_where({flag}, True)"
    numeric = [f for f in fields if f.type in ("number", "integer") and f.sum]
    summary.update(
        {
            labels.add(
                f"total_{f.name}"[:40], f"Total {f.display(lang).lower()}", f"{f.display(lang)}合计"
            ): f"round(sum({f.name}), 2)"
            for f in numeric[:3]
        }
    )
    for n, o in (subject.figures if subject else {}).items():  # the subject's own figures over its rows
        if len(summary) < 20:
            summary[labels.add(n, o.label.en, o.label.zh)] = o.expr
    ops.append(
        {
            "id": "summary",
            "kind": "aggregate",
            "path": "/summary",
            "entity": entity,
            "constants": constants,
            "metrics": summary,
            "summary": _say(lang, "How many, and totals", "数量和合计"),
        }
    )
    by = group or (choices[0] if choices else None)
    if by:
        ops.append(
            {
                "id": _camel("by", by),
                "kind": "aggregate",
                "path": f"/by-{by.replace('_', '-')}",
                "entity": entity,
                "group_by": by,
                "constants": constants,
                "metrics": dict(summary),
                "summary": _say(lang, f"Per {specs[by]['label'].lower()}", f"按{specs[by]['label']}"),
            }
        )
    return {
        "name": snake(subject.id if subject else f"{intent.slots.get('object') or 'custom'}_list"),
        "title": _title(subject, intent, Words(en="List", zh="清单")),
        "description": _say(
            lang,
            f"Keep your {_plural(entity_label.lower())} in one place, and let the tool pick one.",
            f"把{entity_label}都记在一处，也可以让工具随机挑一个。",
        ),
        "entities": {entity: {"label": entity_label, "fields": specs}},
        "operations": ops,
        "labels": labels.names,
    }


def _a_column(item: str, subject: Subject | None) -> bool:
    """Whether a listed item is a column of each row ("owner name, phone, breed"), not a chore to do: worded as an
    attribute, or one of the subject's own fields by name or label (a bill schedule's "rent" is still a bill to pay)."""
    said = item.strip().lower()
    own = library().fields_of(subject) if subject else []
    return attribute_worded(item) or any(said in (f.name, f.label.en.lower(), f.label.zh) for f in own)


def _schedule(subject: Subject | None, intent: Intent, fact: Fact, c: Composition) -> dict[str, Any]:
    lang, labels, lib = intent.lang, _Labels(intent.lang), library()
    every = int(intent.slots.get("every_days") or (subject.every_days if subject else None) or 7)
    # a task whose interval the person asks ("枕芯多久晒一次") starts at the usual one
    tasks = [t if t.get("every_days") else {**t, "every_days": every} for t in intent.slots.get("tasks") or []]
    # the things the request lists with no interval of their own ("furnace filter, smoke alarm batteries and brita
    # filter, when does each need replacing") are tasks too, each at the usual interval
    listed = [item.lower() for item in intent.slots.get("listed") or []]
    # a list most of whose items are columns is what each row holds ("owner name, phone, breed"), all of it
    columns = set(listed) if sum(_a_column(i, subject) for i in listed) * 2 > len(listed) else set()
    people = {p.lower() for p in intent.slots.get("people") or []}  # a rota's people are whose turn, not chores
    things = (intent.slots.get("listed") if people else intent.slots.get("enumerated")) or []
    for thing in [t for t in things if t.lower() not in people]:
        if (
            len(tasks) < 10
            and thing.lower() not in columns
            and not _a_column(thing, subject)
            and not any(thing.lower() in t["task"].lower() or t["task"].lower() in thing.lower() for t in tasks)
        ):
            tasks.append({"task": thing, "every_days": every})
    named = {t["task"].lower() for t in tasks}  # the chores listed are its rows, not its columns (bins, bathroom)
    unlisted = [item for item in intent.slots.get("listed") or [] if item.lower() not in named]
    fields = _fields(subject, intent.model_copy(update={"slots": {**intent.slots, "listed": unlisted}}), c)
    entity, plural, entity_label = _entity(subject, intent, Words(en="task", zh="事项"))
    if is_rota(subject, intent):
        return _rota_program(subject, intent, c, tasks, fields, every)
    task_default = subject.task.in_(lang) if subject and subject.task else intent.slots.get("object")
    task = FieldDef(name="task", type="string", label=Words(en="Task", zh="事项"), required=True, max_length=120)
    specs: dict[str, Any] = {"task": field_spec(task, lang, **({"default": task_default} if task_default else {}))}
    for f in fields:
        specs.setdefault(f.name, field_spec(f, lang))
    derive: dict[str, str] = {}
    constants: dict[str, Any] = {}
    if tasks:  # the tasks the request listed: the first is the form's default, each one's interval derived by name
        specs["task"] = field_spec(task, lang, default=tasks[0]["task"])
        specs["every_days"] = field_spec(lib.fields["every_days"].model_copy(update={"default": None}), lang)
        chain = str(every)
        for i, t in reversed(list(enumerate(tasks[:10]))):
            constants[f"task_{i}"], constants[f"every_{i}"] = t["task"], int(t["every_days"])
            chain = f"every_{i} if task == task_{i} else ({chain})"
        derive["every_days"] = chain
        every = int(tasks[0]["every_days"])
    else:
        specs["every_days"] = field_spec(lib.fields["every_days"], lang, default=every)
    # counted from today unless said: a listed task's starting row, and a task added without its last time
    specs["last_done"] = field_spec(lib.fields["last_done"], lang, **({"default": "$today"} if tasks else {}))
    if "note" not in specs:
        specs["note"] = field_spec(lib.fields["note"], lang)
    next_due = "add_days(last_done, every_days)"
    computed = {
        labels.add("next_due", "Next due", "下次日期"): next_due,
        labels.add("due_in_days", "Due in (days)", "还有几天"): f"days_until({next_due})",
        labels.add("days_since_last", "Days since last done", "距上次几天"): "days_since(last_done)",
    }
    path = f"/{plural}"
    ops = [
        *_add_and_list(
            entity,
            plural,
            lang,
            ("Add a recurring task", "添加定期事项"),
            ("Tasks, soonest due first", "按到期先后列出"),
            "due_in_days",
            computed,
            **({"derive": derive, "constants": constants} if derive else {}),
        ),
        {
            "id": "dueNow",
            "kind": "list",
            "path": "/due",
            "entity": entity,
            "sort": "due_in_days",
            "computed": dict(computed),
            "where": "due_in_days <= 0",
            "summary": _say(lang, "Due today or overdue", "今天到期或已逾期"),
        },
        *_change_ops(
            entity,
            path,
            lang,
            ("Mark done (set last done) or change a task", "标记完成（改上次完成日期）或修改"),
            ("Delete a task", "删除事项"),
        ),
    ]
    c.inferred += ["task", "every_days", "last_done"]
    return {
        "name": snake(subject.id if subject else "custom_schedule"),
        "title": _title(subject, intent, Words(en="Schedule", zh="定期提醒")),
        "description": _say(
            lang,
            f"Recurring tasks and when each is next due (every {every} days unless you say).",
            f"定期要做的事和下次到期日（默认每{every}天）。",
        )
        if not tasks
        else _say(
            lang,
            "Recurring tasks and when each is next due: "
            + "; ".join(f"{t['task']} every {t['every_days']} days" for t in tasks)
            + ".",
            "定期要做的事和下次到期日：" + "；".join(f"{t['task']}每{t['every_days']}天" for t in tasks) + "。",
        ),
        "entities": {entity: {"label": entity_label, "fields": specs}},
        "operations": ops,
        **({"defaults": {"tasks": tasks}} if tasks else {}),
        # the tasks the request listed are the schedule's first rows, each counted from the day the tool is made
        **({"seed": {entity: _seeded(tasks[:10])}} if tasks and _seedable(specs) else {}),
        "labels": labels.names,
    }


def _rota_program(
    subject: Subject | None,
    intent: Intent,
    c: Composition,
    tasks: list[dict[str, Any]],
    fields: list[FieldDef],
    every: int,
) -> dict[str, Any]:
    """A schedule whose people take turns: each duty's turn worked out from the date (planner/rota.py)."""
    lang = intent.lang
    entity, plural, entity_label = _entity(subject, intent, Words(en="duty", zh="值日"))
    own, turns, settings, seed = rota(intent, tasks, every)
    duty = subject.task.in_(lang) if subject and subject.task else None
    task = FieldDef(name="task", type="string", label=Words(en="Duty", zh="值日项目"), required=True, max_length=120)
    specs: dict[str, Any] = {"task": field_spec(task, lang, **({"default": duty} if duty else {})), **own}
    for f in kept(fields):
        specs.setdefault(snake(f.name), field_spec(f, lang))
    if "note" not in specs:
        specs["note"] = field_spec(library().fields["note"], lang)
    path = f"/{plural}"
    ops = [
        *_add_and_list(
            entity,
            plural,
            lang,
            ("Add a duty to the rota", "添加轮值项目"),
            ("Each duty and whose turn it is now", "每项值日现在轮到谁"),
            "task",
            turns["computed"],
        ),
        *_change_ops(
            entity,
            path,
            lang,
            ("Change a duty (who starts, how long a turn lasts)", "修改值日项目（谁先开始、几天一换）"),
            ("Delete a duty", "删除值日项目"),
        ),
    ]
    c.inferred += ["task", "first", "start_date", "every_days"]
    names = ", ".join(settings["people"]["value"])
    return {
        "name": snake(subject.id if subject else "rota"),
        "title": _title(subject, intent, Words(en="Rota", zh="轮值表")),
        "description": _say(
            lang,
            f"Who takes each duty, turning every {every} days by the date ({names}).",
            f"每项值日轮到谁，按日期每{every}天轮换（{'、'.join(settings['people']['value'])}）。",
        ),
        "entities": {entity: {"label": entity_label, "fields": specs}},
        "operations": ops,
        "settings": settings,
        **({"seed": {entity: seed}} if seed else {}),
        "labels": turns["labels"],
    }


def _seedable(specs: dict[str, Any]) -> bool:
    """Whether a row of only a task and its interval is one the entity stores (no other field it requires, such as
    the pet a vaccination is for, which the request did not say per task)."""
    return all(not spec.get("required") or spec.get("default") is not None or name in ("task", "every_days")
               for name, spec in specs.items())  # fmt: skip


def _seeded(tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Starting rows of the listed tasks; their last done is the last_done field's default, the day they are stored
    (a date written here would make the same request another day another plan)."""
    return [{"task": str(t["task"])[:120], "every_days": int(t["every_days"])} for t in tasks]


def _dates(subject: Subject | None, intent: Intent, fact: Fact, c: Composition) -> dict[str, Any]:
    lang, labels, lib = intent.lang, _Labels(intent.lang), library()
    fields = _fields(subject, intent, c)
    entity, plural, entity_label = _entity(subject, intent, Words(en="date", zh="日子"))
    if entity == "date":
        entity, plural = "event", "events"
    yearly = bool(subject and subject.yearly)
    specs: dict[str, Any] = {}
    key = next((f for f in fields if f.type == "string" and f.required), None)
    if key is None:
        key = lib.fields["name"]
        specs["name"] = field_spec(key, lang)
    date = next((f for f in fields if f.type == "date"), None)
    for f in fields:
        specs.setdefault(f.name, field_spec(f, lang))
    if date is None:
        date = lib.fields["event_date"].model_copy(update={"name": "date"})
        specs["date"] = field_spec(date, lang)
    when = f"next_yearly({date.name})" if yearly else date.name
    since = bool(intent.slots.get("elapsed"))  # "how long we've had them": the time since each date
    computed = {} if since and not yearly else {labels.add("days_left", "Days left", "还有几天"): f"days_until({when})"}
    if yearly:
        computed[labels.add("next_date", "Next one", "下一次")] = when
        computed[labels.add("turns", "Turns / years", "满几年")] = f"years_between({date.name}, {when})"
    if since:
        computed[labels.add("days_since", "Days since", "已经多少天")] = f"days_since({date.name})"
        computed[labels.add("years_since", "Years since", "已经几年")] = f"round(days_since({date.name}) / 365.25, 1)"
    order = "days_left" if "days_left" in computed else "-days_since"
    path = f"/{plural}"
    ops = [
        {
            "id": _camel("add", entity),
            "kind": "create",
            "path": path,
            "entity": entity,
            "summary": _say(lang, f"Add a {entity_label.lower()}", f"添加{entity_label}"),
        },
        {
            "id": _camel("list", plural),
            "kind": "list",
            "path": path,
            "entity": entity,
            "sort": order,
            "computed": computed,
            "summary": _say(lang, "Soonest first, with days left", "按剩余天数列出")
            if order == "days_left"
            else _say(lang, "Longest ago first, with the time since", "按过去的时间列出"),
        },
        *(
            [
                {
                    "id": "upcoming",
                    "kind": "list",
                    "path": "/upcoming",
                    "entity": entity,
                    "sort": "days_left",
                    "computed": dict(computed),
                    "where": "days_left >= 0 and days_left <= 30",
                    "summary": _say(lang, "In the next 30 days", "未来30天内"),
                }
            ]
            if order == "days_left"
            else []
        ),
        *_change_ops(entity, path, lang, ("Change one", "修改"), ("Delete one", "删除")),
    ]
    return {
        "name": snake(subject.id if subject else "custom_dates"),
        "title": _title(subject, intent, Words(en="Dates", zh="日子")),
        "description": _say(lang, "The dates that matter, and how many days until each.", "重要的日子，以及还有几天。"),
        "entities": {entity: {"label": entity_label, "fields": specs}},
        "operations": ops,
        "labels": labels.names,
    }


def _calculator(subject: Subject | None, intent: Intent, fact: Fact, c: Composition) -> dict[str, Any]:
    assert subject is not None  # a calculator without a formula is asked back, never guessed
    lang, labels = intent.lang, _Labels(intent.lang)
    inputs: dict[str, Any] = {}
    taken: set[str] = set()
    slots, measured = _by_unit(library().inputs_of(subject), intent.slots)
    if any(f.slot == "share" for f in library().inputs_of(subject)):
        slots = _shares(slots)
    for f in library().inputs_of(subject):
        value = measured[f.name] if f.name in measured else _slot_value(f.slot, slots, taken)
        if not _in_range(value, f):  # a number the request gives that this input cannot take: keep the default
            value = None
        spec = field_spec(f, lang, **({"default": value} if value is not None else {}))
        spec["required"] = True
        inputs[f.name] = spec
    outputs = {labels.add(name, o.label.en, o.label.zh): o.expr for name, o in subject.outputs.items()}
    c.inferred += list(inputs) + list(outputs)
    return {
        "name": snake(subject.id),
        "title": subject.title.in_(lang),
        "description": _say(
            lang,
            f"{subject.title.en}: change any number and see the result.",
            f"{subject.title.zh}：改任意数字即可看到结果。",
        ),
        "operations": [
            {
                "id": "calculate",
                "kind": "compute",
                "path": "/calculate",
                "method": "GET",
                "inputs": inputs,
                "outputs": outputs,
                "constants": dict(subject.constants),
                "summary": _say(lang, subject.title.en, subject.title.zh),
            },
        ],
        "labels": labels.names,
    }


def add_part(program: dict[str, Any], intent: Intent, fact: Fact) -> None:
    """A named kind's program gains the operation of the calculator subject the request named as a part of it ("cups
    to grams": the unit converter, and the kitchen's conversion by ingredient), first, as what was asked."""
    subject = library().subjects.get(intent.slots.get("with_subject") or "")
    if subject is None or subject.shape != "calculator" or len(program["operations"]) >= 20:
        return
    part = _calculator(subject, intent, fact, Composition(shape="calculator", subject=subject.id))
    (operation,) = part["operations"]
    item = snake(subject.item.en)  # "convertIngredient" at /convert-ingredient; a split's "calculateSplit"
    verb = "convert" if subject.part_of == "unit_converter" else "calculate"
    operation.update(id=_camel(verb, item)[:40], path=f"/{verb}-{item.replace('_', '-')}")
    program["operations"].insert(0, operation)
    program["labels"] = {**part["labels"], **(program.get("labels") or {})}
    program["title"] = part["title"]


def _by_unit(inputs: list[FieldDef], slots: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float]]:
    """Inputs filled by a quantity written in their unit ("165cm, 70kg": height and weight, whatever their order),
    and the slots without those quantities among the amounts the other inputs take in turn."""
    pool = list(slots.get("measures") or [])
    measured: dict[str, float] = {}
    for f in inputs:
        hit = next((q for q in pool if f.unit and q["unit"] == f.unit and _in_range(q["value"], f)), None)
        if hit is not None:
            measured[f.name] = hit["value"]
            pool.remove(hit)
    amounts = list(slots.get("amounts") or [])
    for value in measured.values():
        if value in amounts:
            amounts.remove(value)
    return {**slots, "amounts": amounts}, measured


def _in_range(value: Any, f: FieldDef) -> bool:
    if not isinstance(value, int | float):
        return value is None or f.type not in ("number", "integer")
    return (f.min is None or value >= f.min) and (f.max is None or value <= f.max)


def _shares(slots: dict[str, Any]) -> dict[str, Any]:
    """A split's parts, where the request says them in one unit ("主卧20平，次卧15平和12平": 20, 15 and 12 m², the
    parts, never the total): taken out of the amounts the other inputs take, and given to its 'share' inputs."""
    by_unit: dict[str, list[float]] = {}
    for q in slots.get("measures") or []:
        by_unit.setdefault(str(q["unit"]), []).append(q["value"])
    parts = max(by_unit.values(), key=len, default=[])
    if len(parts) < 2:  # no parts said in a unit: the amounts fill the inputs in turn, as for any calculator
        return {**slots, "shares": None}
    amounts = list(slots.get("amounts") or [])
    for value in parts:
        if value in amounts:
            amounts.remove(value)
    return {**slots, "amounts": amounts, "shares": parts}


def _slot_value(slot: str | None, slots: dict[str, Any], taken: set[str]) -> Any:
    """The request's quantity of kind ``slot`` (each used once: a second 'amount' input takes the next amount)."""
    if not slot:
        return None
    if slot == "share" and slots.get("shares") is None:  # no parts said in one unit: an amount, in turn
        slot = "amount"
    if slot in ("amount", "share"):
        key = "amounts" if slot == "amount" else "shares"
        values = [v for v in slots.get(key) or [] if v is not None]
        index = sum(1 for t in taken if t.startswith(slot))
        taken.add(f"{slot}{index}")
        return values[index] if index < len(values) else None
    if slot in taken:
        return None
    taken.add(slot)
    return slots.get(slot)


AIR_QUALITY_DAYS = 5  # the days Open-Meteo's air quality API forecasts by default (up to 7)


def _lookup_title(subject: Subject, lang: str, period: tuple[str, str] | None, *, forecast: bool) -> str:
    """A lookup's title, with the day or the forecast it reads ("Rain Forecast", never "... forecast" twice; current
    weather read as a forecast is "Weather forecast", not "Weather Now")."""
    title = subject.title.in_(lang)
    if forecast:
        title = re.sub(r"\s*\b(?:now|current)\b\s*|实时|现在|当前", "", title, flags=re.I).strip() or title
    if period and period[1] not in title and period[0] not in title.lower():
        title = f"{title}（{period[1]}）" if lang == "zh" else f"{title} {period[0]}"
    return title


def _forecast_of(look: Lookup, intent: Intent) -> Lookup:
    """Current weather asked over the days to come ("未来几天上海的湿度") is the daily forecast of the same figures,
    and of those the person names."""
    if look.series != "current" or look.api != "forecast" or not intent.slots.get("days_ahead"):
        return look
    if intent.slots.get("when"):
        return look
    measures = library().measures
    daily: dict[str, LookupValue] = {}
    for name in dict.fromkeys([*(intent.slots.get("measures") or []), *look.values]):
        value = measures[name].value("forecast", "daily") if name in measures else None
        if value is not None and value.var not in {v.var for v in daily.values()} and len(daily) < 8:
            daily[name] = value
    if not daily:
        return look
    sort = look.sort if look.sort and look.sort.lstrip("-") in daily else None
    return look.model_copy(update={"series": "daily", "values": daily, "sort": sort})


HOURLY_ROOM = 420  # of a select's 500 characters, what its columns of hourly values may take (dates and place besides)


def _hourly_values(look: Lookup, intent: Intent, values: dict[str, LookupValue]) -> dict[str, LookupValue]:
    """Of a lookup's values read day by day from hourly columns: the one it ranks by, then those the person named, as
    many as a select holds."""
    named = [n for n in intent.slots.get("measures") or [] if n in values]
    kept: dict[str, LookupValue] = {}
    for n in dict.fromkeys([(look.sort or "").lstrip("-"), *named, *values]):
        columns = [*kept.items(), (n, values[n])] if n in values else []
        if columns and (not kept or sum(len(name) + len(_hourly_column(v)) for name, v in columns) <= HOURLY_ROOM):
            kept[n] = values[n]
    return kept


def _hourly_column(v: LookupValue) -> str:
    """JMESPath: ``v`` for each day of an hourly forecast, as its highest hour (hours with no value skipped)."""
    return _each_day(f"max({v.var}[{{start}}:{{end}}] | [?@ != null])")


def _each_day(expression: str) -> str:
    """A JMESPath list of ``expression`` for each forecast day of hourly columns, ``{start}`` and ``{end}`` the
    day's hours."""
    return "[" + ", ".join(expression.format(start=24 * k, end=24 * k + 24) for k in range(AIR_QUALITY_DAYS)) + "]"


_REDUCE = {"max": "max({})", "min": "min({})", "sum": "sum({})", "avg": "avg({})", "first": "{}[0]"}


def _lookup(subject: Subject | None, intent: Intent, fact: Fact, c: Composition) -> dict[str, Any]:
    """A public API's figures for the request's places (else the person's city, else five large cities): a row per
    day for one place when the subject reads a daily forecast, else a row per place, ranked when it has a sort. A
    figure the person names that another API gives ("surf: wave height and wind") is read from that API besides."""
    from toolgen.planner.lookups import DEFAULT_CITIES, _places  # lookups.py plans the named lookups

    assert subject is not None  # an API cannot be guessed
    assert subject.lookup is not None
    lang, look, labels = intent.lang, _forecast_of(subject.lookup, intent), _Labels(intent.lang)
    home = fact("city")
    # the places named; else the person's city; else five large cities (the home is not added to places named)
    places = (
        _places(intent.slots.get("cities") or []) or _places([home] if home else []) or _places(list(DEFAULT_CITIES))
    )
    shown = [p.zh or p.name for p in places] if lang == "zh" else [p.name for p in places]
    values = dict(look.values)
    elsewhere: dict[tuple[str, str], dict[str, LookupValue]] = {}  # named figures another API gives, by API
    for name in intent.slots.get("measures") or []:  # what the person named besides ("UV and humidity, umbrella?")
        measure = library().measures[name]
        value = measure.value(look.api, look.series)
        if value and name not in values and value.var not in {v.var for v in values.values()} and len(values) < 8:
            values[name] = value
        elif value is None and name not in values:
            # the same time as the first reads: its series, or the days when it reads days to come or tomorrow
            ahead_days = bool(intent.slots.get("days_ahead")) or intent.slots.get("when") == "tomorrow"
            order = ("daily", "current") if ahead_days else (look.series, "daily", "current")
            reads = [(api, series) for api in LOOKUP_APIS for series in order]
            other = next((read for read in reads if read[0] != look.api and measure.value(*read)), None)
            if other is not None and len(elsewhere.get(other, {})) < 4:
                elsewhere.setdefault(other, {})[name] = measure.value(*other)  # type: ignore[assignment]
    when = intent.slots.get("when")
    # current values asked day by day ("air quality for the next few days", "这几天空气怎么样"): the highest hour of
    # each day the same API forecasts hour by hour
    hourly_days = (
        look.series == "current" and look.api == "air_quality" and bool(intent.slots.get("days_ahead")) and when is None
    )
    if hourly_days:
        values = _hourly_values(look, intent, values)
    # current values asked about tomorrow ("明天空气质量", "pollen tomorrow"): the highest of that day's hours, which
    # the same API forecasts hour by hour
    ahead = look.series == "current" and when == "tomorrow" and look.api == "air_quality"
    where = ("、" if lang == "zh" else ", ").join(shown)
    summary = _say(lang, f"{subject.title.en}: {where}", f"{subject.title.zh}：{where}")
    operations = [
        _fetch(look, values, places, shown, intent, labels, ("get", subject.id), summary, hourly_days, ahead=ahead)
    ]
    for (api, series), extra in elsewhere.items():
        besides = Lookup(api=api, series=series, values=extra, days=look.days)  # type: ignore[arg-type]
        en, zh = ", ".join(v.label.en for v in extra.values()), "、".join(v.label.zh for v in extra.values())
        said = _say(lang, f"{en}: {where}", f"{zh}：{where}")
        operations.append(
            _fetch(besides, extra, places, shown, intent, labels, ("get", subject.id, *extra), said, False, ahead=False)
        )
    c.inferred += [name for op in operations for name in op["fields"] if name not in ("city", "date")]
    day = {"now": 0, "today": 0, "tomorrow": 1}.get(when or "") if look.series == "daily" else None
    period: tuple[str, str] | None = None  # the title says which day it reads; a forecast of days says it is one
    if day is not None:
        period = {"now": ("now", "现在"), "today": ("today", "今天"), "tomorrow": ("tomorrow", "明天")}[when or ""]
    elif look.series == "current" and not hourly_days:
        period = ("tomorrow", "明天") if ahead else ("now", "现在") if when in ("now", "today") else None
    else:
        period = ("forecast", "预报")
    title = _lookup_title(subject, lang, period, forecast=look is not subject.lookup)
    return {
        "name": snake(subject.id),
        "title": title,
        "description": _say(lang, f"{subject.title.en}: {where}.", f"{subject.title.zh}：{where}。"),
        "allowed_hosts": list(dict.fromkeys(op["url"].split("/")[2] for op in operations)),
        "operations": operations,
        "defaults": {"cities": [p.name for p in places]},
        "labels": labels.names,
    }


def _fetch(
    look: Lookup,
    values: dict[str, LookupValue],
    places: list[Any],
    shown: list[str],
    intent: Intent,
    labels: _Labels,
    naming: tuple[str, ...],
    summary: str,
    hourly_days: bool,
    *,
    ahead: bool,
) -> dict[str, Any]:
    """The fetch operation that reads ``values`` from ``look``'s API for ``places``."""
    lang, when = intent.lang, intent.slots.get("when")
    for name, value in values.items():
        label = value.label.in_(lang)
        unit = f"（{value.unit}）" if lang == "zh" and value.unit else f" ({value.unit})" if value.unit else ""
        labels.add(name, value.label.en + (f" ({value.unit})" if value.unit else ""), label + unit)
    query = {
        "latitude": ",".join(f"{p.lat:.2f}" for p in places),
        "longitude": ",".join(f"{p.lon:.2f}" for p in places),
        "timezone": "auto",
        look.series: ",".join(dict.fromkeys(v.var for v in values.values())),
    }
    if ahead:
        query.update(hourly=query.pop("current"), forecast_days="2")
    if hourly_days:
        query.update(hourly=query.pop("current"), forecast_days=str(AIR_QUALITY_DAYS))
    fields: dict[str, str] = {n: v.type for n, v in values.items()}
    # a daily forecast as rows of days: for one place, or for every place when the person reads it day by day
    by_day = hourly_days or (look.series == "daily" and (len(places) == 1 or bool(intent.slots.get("per_day"))))
    sort = look.sort
    if sort and intent.slots.get("order"):  # "哪个最差": the highest first; "the cleanest": the lowest first
        sort = ("-" if intent.slots["order"] == "high_first" else "") + sort.lstrip("-")
    # the day asked about ("UV today", "明天下雨吗"): a daily forecast read for that day alone; current values are now
    day = {"now": 0, "today": 0, "tomorrow": 1}.get(when or "") if look.series == "daily" else None
    days = 1 if day is not None else AIR_QUALITY_DAYS if hourly_days else look.days
    window = f"[{day}:{day + 1}]" if day is not None else ""  # JMESPath: that day's element of each column
    if look.series == "daily":
        query["forecast_days"] = str(day + 1 if day is not None else look.days)
    # JMESPath: the columns of days, each a list of one value per day, and the object they are read from
    within, dates = ("hourly.", _each_day("time[{start}]")) if hourly_days else ("daily.", f"time{window}")

    def column(v: LookupValue) -> str:
        return _hourly_column(v) if hourly_days else v.var + window

    if by_day and len(places) == 1:  # one place: the days of its forecast, as rows
        place = json.dumps(shown[0], ensure_ascii=False).replace("`", "")
        columns = ", ".join(f"{n}: {column(v)}" for n, v in values.items())
        select = f"[0].{within}{{date: {dates}, {columns}, city: `{place}`}}"
        fields = {"date": "date", **fields, "city": "string"}
        labels.add("city", "City", "城市")
        operation: dict[str, Any] = {"labels": [], "label_field": "date", "sort": None, "limit": days}
        labels.add("date", "Date", "日期")
    elif by_day:  # several places, each day of each: the runtime names each place's days by its label
        columns = ", ".join(f"{n}: {column(v)}" for n, v in values.items())
        select = f"[*].{within}{{date: {dates}, {columns}}}"
        fields = {"city": "string", "date": "date", **fields}
        labels.add("city", "City", "城市")
        labels.add("date", "Date", "日期")
        operation = {"labels": shown, "label_field": "city", "sort": None, "limit": min(100, days * len(places))}
    else:
        series = look.series
        parts = [
            f"{n}: "
            + (
                _REDUCE[v.reduce].format(f"{series}.{v.var}{window}")
                if series == "daily"
                else f"max(hourly.{v.var}[24:48])"
                if ahead
                else f"{series}.{v.var}"
            )
            for n, v in values.items()
        ]
        select = "[*].{" + ", ".join(parts) + "}"
        fields = {"city": "string", **fields}
        operation = {"labels": shown, "label_field": "city", "sort": sort, "limit": len(places)}
        labels.add("city", "City", "城市")
    path = "/" + "-".join(naming[1:]).replace("_", "-")
    return {
        "id": _camel(*naming),
        "kind": "fetch",
        "path": path,
        "url": LOOKUP_APIS[look.api],
        "query": query,
        "select": select,
        "fields": fields,
        "summary": summary,
        **operation,
    }


SHAPES = {
    "lookup": _lookup,
    "log": _log,
    "collection": _collection,
    "schedule": _schedule,
    "dates": _dates,
    "calculator": _calculator,
}


def compose(intent: Intent, fact: Fact) -> tuple[dict[str, Any], Composition]:
    """The program for a composed intent (its shape and subject), and how it was composed."""
    subject = library().subjects.get(intent.subject or "")
    # a subject kept as a list or a schedule, asked to be written down each time, is a log of its fields (classify)
    shape = "log" if subject and intent.shape == "log" else subject.shape if subject else (intent.shape or "log")
    composition = Composition(shape=shape, subject=subject.id if subject else None)
    program = SHAPES[shape](subject, intent, fact, composition)
    own = {f.name for f in library().fields_of(subject)} if subject else set()
    computed = {name for op in program.get("operations", []) for name in op.get("computed", {})}
    for body in (program.get("entities") or {}).values():  # a field the request named that the shape computes
        for name in computed & set(body["fields"]) - own:  # ("how many days left") is the shape's figure
            del body["fields"][name]
            composition.inferred = [n for n in composition.inferred if n != name]
    composition.inferred = list(dict.fromkeys(composition.inferred))
    return program, composition
