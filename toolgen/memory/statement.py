"""What a statement says about the person now: the fact that holds, and the facts it says no longer hold.

The fact rules (toolgen/memory/extract.py, or a model beside them) find *what* a clause is about: city=Shanghai.
This module reads *how* the clause holds it, with the words of toolgen/knowledge/statements.py:

- someone else's fact ("my sister lives in Paris", 我妹妹住在成都) and a wish, plan, supposition or question
  ("I'd love to live in Tokyo", "I might move next year", 如果能搬到成都就好了) say nothing about the person now;
- a denied fact ("I'm not vegetarian anymore", "I never run in the morning", 我不住在上海了) ends that fact if it is
  held, and is not learnt as a fact: the rules read the clause with its negation taken out, and the reading is
  then turned around (a negation that is itself a fact, "I never eat meat", is the rules' to read);
- a fact that held once and not now ("I used to live in London", "until 2020", 以前, 曾经) ends it too;
- a fact only placed in the past ("I lived in London in 2015", 小时候, 住过) says nothing about now;
- a change names what it ends: "I moved from Beijing to Shanghai" holds Shanghai and ends Beijing;
- a statement of several clauses holds the fact of its last clause that holds one now ("I lived in Beijing until
  2020, now I live in Shanghai"; 我以前住在北京，现在住在上海), and ends what the others end;
- a dream, a game or a pretence ("I dreamt I lived in Paris", 梦见) holds nothing, nor does a statement one of
  whose clauses takes it back ("I live in Tokyo, just kidding", 开玩笑的);
- a request for a tool ("help me log my morning runs", 我想记录每天晨跑) is no statement: what it implies is not
  learnt over what the person said (a run at 5:45 is not made "morning");
- a stay, trip or visit ("I'm in Tokyo this week for a conference", 这周我在上海出差) is where the person is for a
  while (``staying_in``), never the home.

"since last month" / 从上个月开始 dates the start of what holds (``valid_from``), as Zep keeps ``valid_at``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from toolgen.knowledge import statements as words
from toolgen.memory.extract import MOVE_CUE, NONE, Fact, left_place, negative_fact
from toolgen.memory.text import cut

DAY = 86_400.0
# (a comma between digits is a thousands separator: "$2,500" is one amount, not "$2" and "500")
CLAUSES = re.compile(
    r"[;，；。！？!?\n]+|(?<!\d),+|,+(?!\d)|\.\s+|\s+(?:but|and|though|although|while|whereas)\s+|(?<=[a-z]) - ",
    re.IGNORECASE,
)
# A clause turned positive: what the fact rules read when the clause denies its fact.
EN_NEGATORS = [
    (re.compile(r"\b(do|does|did)(n't| not)\s+", re.IGNORECASE), ""),
    (re.compile(r"\b(don't|doesn't|didn't|dont|doesnt|didnt)\s+", re.IGNORECASE), ""),
    (re.compile(r"\b(am|is|are|was|were|have|has)(n't| not)\b", re.IGNORECASE), r"\1"),
    (re.compile(r"\b(isn't|aren't|wasn't|weren't)", re.IGNORECASE), "is"),
    (re.compile(r"\b(not any ?more|any ?more|any longer|not|never|no longer|no more)\b\s*", re.IGNORECASE), ""),
    (re.compile(r"\b(stopped|quit|gave up|given up|give up)\s+", re.IGNORECASE), ""),
]


@dataclass(frozen=True)
class Reading:
    """What a statement holds now, what it ends, and since when."""

    fact: Fact = NONE
    ends: tuple[tuple[str, str | None], ...] = ()  # (key, value) no longer held; value None: whatever it is
    valid_from: float | None = None  # when what it holds began, when the statement says
    clauses: tuple[str, ...] = field(default=(), compare=False)

    @property
    def says_something(self) -> bool:
        return self.fact[1] is not None or bool(self.ends)


def clauses(text: str) -> list[str]:
    return [c.strip() for c in CLAUSES.split(text) if c and c.strip()]


def _zh_negation(clause: str) -> tuple[bool, str]:
    """(whether a Chinese clause denies, the clause without its negation), read on its words: 不住 is a denial of
    住, 不错 a word of its own (praise)."""
    lists = words.zh_words()
    kept, denied = [], False
    for word in cut(clause):
        prefix = word[:1]
        if word in lists["negators"]:
            denied = True
            continue
        if len(word) > 1 and prefix in lists["prefixes"] and word not in lists["not_negations"]:
            denied, word = True, word[1:]
        kept.append(word)
    if denied:  # the adverbs that go only with a negation go with it; a closing 了 marks the change
        kept = [w for w in kept if w not in lists["with_negation"]]
        while kept and kept[-1].strip() in ("了", "。", "！", "，", ""):
            kept.pop()
    return denied, "".join(kept)


def negated(clause: str) -> bool:
    if words.CJK.search(clause):
        return _zh_negation(clause)[0]
    return words.says("negation", clause)


def positive(clause: str) -> str:
    """The clause with its negation taken out ("I'm not vegetarian anymore" -> "I'm vegetarian")."""
    if words.CJK.search(clause):
        return _zh_negation(clause)[1]
    for pattern, replacement in EN_NEGATORS:
        clause = pattern.sub(replacement, clause)
    return re.sub(r"\s+", " ", clause).strip()


def _since(clause: str, now: float) -> float | None:
    hit = words.find("since", clause)
    if hit is None:
        return None
    said = hit.group(0)
    year = re.search(r"(19|20)\d{2}", said)
    if year:
        return dt.datetime(int(year.group(0)), 1, 1, tzinfo=dt.UTC).timestamp()
    for cue, days in (("week", 7), ("周", 7), ("星期", 7), ("month", 30), ("月", 30), ("year", 365), ("年", 365)):
        if cue in said:
            count = re.search(r"\b(two|three|few|\d+)\b", said)
            n = {"two": 2, "three": 3, "few": 3}.get(count.group(1), 0) if count else 1
            n = int(count.group(1)) if count and count.group(1).isdigit() else n
            return now - n * days * DAY
    return None


def _clause(clause: str, read_fact: Callable[[str], Fact], now: float) -> Reading | None:
    """One clause's reading; None when it says nothing about the person now."""
    if words.says("other_subject", clause) or words.says("unreal", clause) or words.says("tool_request", clause):
        return None
    if words.says("irrealis", clause) and not words.says("now", clause):
        return None
    stated = negative_fact(clause)
    if stated is not None:  # a negation that is itself a fact: "I never eat meat"
        return Reading(stated, valid_from=_since(clause, now))
    denied = negated(clause)
    fact = read_fact(positive(clause) if denied else clause)
    gone = left_place(clause)
    ends = (("city", gone),) if gone and fact[1] == "city" and fact[2] != gone else ()
    if fact[1] is None:
        return Reading(ends=ends) if ends else None
    if denied or words.says("ended", clause):
        return Reading(ends=((fact[1], fact[2]), *ends))
    if words.says("past_only", clause):
        return None
    if fact[1] == "city" and words.says("stay", clause) and not MOVE_CUE.search(clause):
        return Reading(("event", "staying_in", fact[2]), ends, _since(clause, now))  # not the home: for a while
    return Reading(fact, ends, _since(clause, now))


def read(text: str, read_fact: Callable[[str], Fact], *, now: float = 0.0) -> Reading:
    """What ``text`` holds now; ``read_fact`` finds a clause's fact (the rules, or a model beside them)."""
    parts = clauses(text) or [text]
    if any(words.says("retraction", c) for c in parts):  # "I live in Tokyo, just kidding": taken back, whole
        return Reading(clauses=tuple(parts))
    readings = [r for r in (_clause(c, read_fact, now) for c in parts) if r is not None]
    held = [r for r in readings if r.fact[1] is not None]
    last = held[-1] if held else Reading()
    ends = tuple(dict.fromkeys(e for r in readings for e in r.ends if e != (last.fact[1], last.fact[2])))
    return Reading(last.fact, ends, last.valid_from, tuple(parts))


__all__ = ["Reading", "clauses", "positive", "read"]
