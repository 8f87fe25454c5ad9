"""The words that say how a statement holds its facts, in English and Chinese (data/statements.json).

Categories: ``other_subject`` (the fact is someone else's: "my sister lives in Paris", 我妹妹住在成都),
``irrealis`` (wished, planned, supposed or asked: "I'd love to", "next year", 如果, 打算, 吗), ``now`` (a plan that
starts now is a change, not a wish: "from now on"), ``negation`` (not, never, no longer, 不, 没, 不再),
``ended`` (held once, not now: "used to", "until", 以前, 曾经), ``past_only`` (held once, nothing said about now:
"in 2015", "grew up", 小时候, 住过), ``since`` (when a state began: "since last month", 从上个月开始),
``unreal`` (a dream, a game, a pretence: "I dreamt I lived in Paris", 梦见), ``retraction`` (a clause that takes
back what came before it: "just kidding", 开玩笑的), ``stay`` (a place for a while, not the home: "this week for a
conference", 出差), ``tool_request`` (a request for a tool, no statement: "help me log my morning runs",
我想记录每天晨跑) and ``correction`` (the words before a value that corrects the fact just stated: "sorry, I meant",
"Not Beijing,", 不对，是).
toolgen/memory/statement.py reads a clause with them; they live here, below memory, so intent and the planner
can read the same words.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "statements.json"
CATEGORIES = (
    "other_subject",
    "irrealis",
    "now",
    "negation",
    "ended",
    "past_only",
    "since",
    "unreal",
    "retraction",
    "stay",
    "tool_request",
    "correction",
)
CJK = re.compile(r"[\u4e00-\u9fff]")


@cache
def _patterns() -> dict[str, tuple[re.Pattern[str], re.Pattern[str]]]:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    missing = [c for c in CATEGORIES if c not in raw]
    if missing:
        raise ValueError(f"{DATA.name} lacks {', '.join(missing)}")
    return {
        c: (
            re.compile("|".join(f"(?:{p})" for p in raw[c]["en"])),
            re.compile("|".join(f"(?:{p})" for p in raw[c]["zh"])),
        )
        for c in CATEGORIES
    }


def find(category: str, clause: str) -> re.Match[str] | None:
    """Where ``clause`` says ``category`` (English patterns on its lower-cased text, Chinese ones as written)."""
    en, zh = _patterns()[category]
    return en.search(clause.lower()) or (zh.search(clause) if CJK.search(clause) else None)


def says(category: str, clause: str) -> bool:
    return find(category, clause) is not None


@cache
def zh_words() -> dict[str, frozenset[str]]:
    """The word lists Chinese negation is read with (negators, prefixes, not_negations, with_negation)."""
    raw = json.loads(DATA.read_text(encoding="utf-8"))["zh_words"]
    return {k: frozenset(v) for k, v in raw.items() if not k.startswith("_")}


__all__ = ["CATEGORIES", "find", "says", "zh_words"]
