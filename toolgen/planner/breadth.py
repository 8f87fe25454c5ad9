"""`toolgen eval --breadth`: how many everyday requests get a tool that fits what was asked.

Each request of the breadth set says what a person should get: a tool (of a named kind, or composed) whose fields
cover some needs, or a refusal (an action in the world). A need is a group of English words; it is met when one
of them is a word of the tool's vocabulary: its entity, field, input, output and figure names and their English
labels (a Chinese tool is planned once more in English for its labels, so both languages are read alike). Words
match singular or plural. A request ends one of three ways: *fits* (the tool it should get, every need met, or the
refusal it should get), *asks back* (a question instead of a tool), *wrong* (a tool that misses a need or is of
another named kind, a refusal of a tool request, or a tool for an action).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from toolgen.errors import ToolgenError
from toolgen.intent import classify
from toolgen.intent.classify import unplaced
from toolgen.knowledge.gloss import english
from toolgen.models import Intent
from toolgen.planner.offline import OfflinePlanner
from toolgen.program import ToolProgram

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "breadth"
PERIOD_WORDS = {"day": "daily today", "week": "weekly this week", "month": "monthly this month",
                "year": "yearly annual this year"}  # fmt: skip
PARTS = ("dev", "holdout", "dev2")  # what "all" reads; every part, fresh to fresh3 too, was read once before tuning


@dataclass
class Outcome:
    id: str
    text: str
    result: str  # fits, asks, wrong
    named: bool
    got: str | None
    missing: list[list[str]] = field(default_factory=list)
    why: str = ""


@dataclass
class BreadthReport:
    part: str
    outcomes: list[Outcome] = field(default_factory=list)

    def counts(self, *, named: bool | None = None) -> Counter[str]:
        return Counter(o.result for o in self.outcomes if named is None or o.named == named)

    def as_dict(self) -> dict[str, Any]:
        def share(counter: Counter[str]) -> dict[str, Any]:
            total = sum(counter.values())
            return {
                "total": total,
                **{k: counter[k] for k in ("fits", "asks", "wrong")},
                "fits_pct": round(100 * counter["fits"] / total, 1) if total else 0.0,
            }

        return {
            "part": self.part,
            "all": share(self.counts()),
            "named": share(self.counts(named=True)),
            "open_world": share(self.counts(named=False)),
            "misses": [o.__dict__ for o in self.outcomes if o.result != "fits"],
        }


@cache
def _stemmer() -> Any:
    import snowballstemmer

    return snowballstemmer.stemmer("english")


def _stem(word: str) -> str:
    """A word's stem (Snowball's English: 'reviewed' and 'review', 'expenses' and 'expense', 'turning' and 'turn' are
    one word), as memory's relevance reads words (toolgen/memory/text.py)."""
    return str(_stemmer().stemWord(word.lower()))


def _phrase(text: str) -> str:
    """The stemmed words of a name or label, numbers apart from the words they are written with ('100km')."""
    return " ".join(_stem(w) for w in re.findall(r"[a-z]+|[0-9]+(?:\.[0-9]+)?", text.lower().replace("_", " ")))


def vocabulary(*programs: ToolProgram) -> list[str]:
    """Every name and English label a tool shows, and the words of the rows it starts with, as stemmed phrases."""
    words: list[str] = []
    for program in programs:
        words += [program.title, program.name, *program.labels, *program.labels.values()]
        for name, setting in program.settings.items():  # what the tool keeps for the person and shows on its page
            words += [name, setting.label]
        for name, entity in program.entities.items():
            words += [name, entity.label]
            for field_name, spec in entity.fields.items():
                words += [field_name, spec.label, *(spec.enum or [])]
        for op in program.operations:
            words.append(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", op.id))
            for attribute in ("inputs", "outputs", "metrics", "computed"):
                for name, value in (getattr(op, attribute, None) or {}).items():
                    words.append(name)
                    if attribute == "inputs":  # an input's label, and the choices it offers (units, currencies)
                        words += [value.label, *(value.enum or [])]
            words += list(getattr(op, "fields", None) or {})
            period = getattr(op, "period", None)
            if period:  # figures of the current day, week, month or year
                words.append(PERIOD_WORDS[period])
        for rows in program.seed.values():  # the rows a tool starts with, which its page lists (a schedule's tasks)
            values = [value for row in rows for value in row.values() if isinstance(value, str)]
            # a Chinese row in English, as a Chinese label is in the English plan ("热水器排污": water heater drain)
            words += values + [gloss for gloss in map(english, values) if gloss]
    return [p for p in (_phrase(w) for w in words) if p]


def unmet(needs: list[list[str]], phrases: list[str]) -> list[list[str]]:
    """The need groups none of whose words the vocabulary has."""
    padded = [f" {p} " for p in phrases]
    return [group for group in needs if not any(f" {_phrase(a)} " in p for a in group for p in padded)]


def _plan(text: str, intent: Intent) -> list[ToolProgram]:
    planner = OfflinePlanner()
    programs = [planner.plan(text, intent, []).program]
    if intent.lang == "zh":  # the English labels of the same tool
        programs.append(planner.plan(text, intent.model_copy(update={"lang": "en"}), []).program)
    return programs


def judge(row: dict[str, Any]) -> Outcome:
    """How one request of the breadth set ends."""
    intent = unplaced(classify(row["text"]), row["text"])  # as the pipeline reads it for the offline planner
    named = row.get("named") is not None
    outcome = Outcome(id=row["id"], text=row["text"], result="wrong", named=named, got=intent.archetype)
    # a doubt ends refused too, the tool the rules read offered to a person who meant it (planner/proposal.py)
    refusal = intent.refusal or intent.doubt if intent.archetype is None else None
    if row["expect"] == "refuse":
        outcome.result = "fits" if refusal else ("asks" if intent.archetype is None else "wrong")
        outcome.got = f"refused: {refusal}" if refusal else intent.archetype
        return outcome
    if intent.archetype is None:
        outcome.result = "wrong" if refusal else "asks"
        outcome.why = f"refused: {refusal}" if refusal else "asked back"
        return outcome
    if named and intent.archetype != row["named"]:
        outcome.why = f"expected the named kind {row['named']}"
        return outcome
    try:
        programs = _plan(row["text"], intent)
    except (ToolgenError, ValueError) as e:
        outcome.why = f"no valid plan: {e}"[:300]
        return outcome
    outcome.missing = unmet(row["needs"], vocabulary(*programs))
    outcome.result = "fits" if not outcome.missing else "wrong"
    outcome.why = "missing " + "; ".join("/".join(g) for g in outcome.missing) if outcome.missing else ""
    return outcome


def describe(text: str) -> str:
    """What the offline path makes of a request, as a person would see it: the tool's rows and fields (for a Chinese
    request in Chinese and again with English labels), its figures, a calculator's inputs and formulas, a lookup's
    figures; or that it refused or asked back. A blind reader judges these (docs/knowledge.md, "A blind reader")."""
    intent = unplaced(classify(text), text)
    if intent.archetype is None:
        if intent.unresolved:
            return f"ASKED BACK: no tool was made; the person is asked where {', '.join(intent.unresolved)} is"
        if intent.refusal:
            return f"REFUSED (not built): {intent.refusal}"
        if intent.doubt:  # the tool the rules read is offered back, not built
            return f"NOT BUILT: asked whether they meant a tool ({intent.doubt} suspected)"
        return "ASKED BACK: no tool was made; the person is asked"
    shown: list[str] = []
    for program in _plan(text, intent):
        shown.append(f"TOOL: {program.title}")
        named = program.labels
        for entity_name, entity in program.entities.items():
            fields = "; ".join(
                f"{spec.label or name} ({spec.type}{': ' + '/'.join(spec.enum[:8]) if spec.enum else ''})"
                for name, spec in entity.fields.items()
            )
            shown.append(f"  rows of '{entity.label or entity_name}', each with: {fields}")
        for op in program.operations:
            if op.kind in ("create", "update", "delete", "get"):
                continue
            parts: list[str] = [op.kind, op.id]
            if op.kind == "list" and op.computed:
                parts.append("per row: " + ", ".join(f"{named.get(n, n)} = {e}" for n, e in op.computed.items()))
            if op.kind == "aggregate":
                parts += [f"per {op.group_by}:" if op.group_by else "", f"(this {op.period})" if op.period else ""]
                parts.append(", ".join(f"{named.get(n, n)} = {e}" for n, e in op.metrics.items()))
            if op.kind == "compute":
                inputs = (
                    f"{s.label or n}" + ("" if s.default is None else f" (default {s.default})")
                    for n, s in op.inputs.items()
                )
                parts.append("inputs: " + "; ".join(inputs))
                parts.append("outputs: " + "; ".join(f"{named.get(n, n)} = {e}" for n, e in op.outputs.items()))
            if op.kind == "fetch":
                parts.append("fetches public data; shows: " + ", ".join(named.get(n, n) for n in op.fields))
                parts.append(f"for {', '.join(op.labels)}" if op.labels else "")
            line = "  " + " ".join(p for p in parts if p)
            shown.append(line if len(line) <= 600 else line[:600] + " ...")
        for rows in program.seed.values():
            shown.append("  starts with rows: " + json.dumps(rows[:8], ensure_ascii=False)[:400])
    return "\n".join(shown)


def load(part: str, data: Path = DATA) -> list[dict[str, Any]]:
    """The breadth set's ``part`` ('dev', 'holdout' or 'fresh')."""
    path = data / f"{part}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def evaluate(part: str, rows: list[dict[str, Any]] | None = None) -> BreadthReport:
    report = BreadthReport(part=part)
    for row in rows if rows is not None else load(part):
        report.outcomes.append(judge(row))
    return report


def render(report: BreadthReport, *, show_misses: bool = False) -> str:
    data = report.as_dict()
    lines = [f"breadth set: {report.part}"]
    for key, title in (("all", "every request"), ("open_world", "outside the named kinds"), ("named", "named kinds")):
        d = data[key]
        lines.append(
            f"  {title:<24} {d['total']:>4}   fits {d['fits']:>4} ({d['fits_pct']}%)   asks back {d['asks']:>3}   "
            f"wrong {d['wrong']:>3}"
        )
    if show_misses:
        lines += ["", "misses:"] + [
            f"  {m['id']} {m['result']:<5} {m['got']!s:<22} {m['text'][:70]}  {m['why'][:120]}" for m in data["misses"]
        ]
    return "\n".join(lines)


NAMES = DATA.parent / "names"


def columns(rows: list[dict[str, Any]]) -> dict[str, tuple[bool, bool]]:
    """For each Chinese column phrase of an evaluation set of names (tests/data/names/: a request, one phrase of it
    and the English names a column asked so may have): whether the glossaries' English name for the phrase alone holds
    one of them as words ("pain duration" holds "duration"), and whether the tool the whole request gets shows one,
    each as a need of the breadth set is met."""
    tools: dict[str, list[str]] = {}
    for request in dict.fromkeys(row["request"] for row in rows):
        intent = classify(request)
        try:
            tools[request] = vocabulary(*_plan(request, intent)) if intent.archetype else []
        except (ToolgenError, ValueError):
            tools[request] = []
    found = {}
    for row in rows:
        name = english(row["phrase"])
        found[row["id"]] = (
            bool(name) and not unmet([row["names"]], [_phrase(name or "")]),
            not unmet([row["names"]], tools[row["request"]]),
        )
    return found
