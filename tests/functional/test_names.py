"""The English names Chinese columns get, as a regression set: tests/data/names/zh_columns.jsonl, 320 column phrases of
105 requests ("买菜记账 买了啥 几斤 多少钱一斤": 几斤 is a weight), each with the names a column asked so may have,
written by a helper that opened no file of the project and read once before any work on it (2026-12-07: the glossaries
named 188 right, 58.8%; the tools of 238 showed one, 74.4%; main before that day's work 183 and 239). In the tool 240
since a yes-or-no question is named by the word it asks about before its verb (发没发烧 a fever); 207 named right and
242 in the tool since the question glossary's third batch (its writer never saw this set); 244 since the question reader
reads a question the glossary names as it names it (几号油 the fuel grade, a choice); named right 206 since a question
after two words or more is no name ("你能告诉我天气怎么样" is a sentence); in the tool 252 since a question of one
clause takes the glossary's name over the pieces the reader cut it into (默写错了几个 mistakes, not a count); 257 when
how much of a verb became an amount (喝了多少) and what someone is called their name (理发师叫啥), mends read from
blind12's misses, not this set's; 254 when the tagger left out the rows near blind13 and became the mean of sixteen
perceptrons (a refit moves a few of its readings). The 240, 244 and 252 came after reading this set's misses: tuning,
not blind figures; its blind figures are 188 and 238. 253 when how much of a verb was no longer an amount of its own (a
review's mend). 252 since the action model was refit without the rows near blind14 (2026-12-07): a coffee log that asks
whether one sleeps at night (晚上睡不睡得着) is doubted as medical advice, and its cups per day are in no tool.
"""

from __future__ import annotations

import json

import pytest

from toolgen.planner import breadth

FLOORS = {"named right": 206, "in the tool": 252}


@pytest.fixture(scope="module")
def found() -> dict[str, tuple[bool, bool]]:
    path = breadth.NAMES / "zh_columns.jsonl"
    return breadth.columns([json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line])


def test_the_set_is_320_phrases_each_a_piece_of_its_request() -> None:
    rows = [json.loads(line) for line in (breadth.NAMES / "zh_columns.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 320 and len({r["id"] for r in rows}) == 320
    assert all(r["phrase"] in r["request"] and r["names"] for r in rows)


def test_no_column_name_is_lost(found: dict[str, tuple[bool, bool]]) -> None:
    named = sum(1 for right, _ in found.values() if right)
    shown = sum(1 for _, in_tool in found.values() if in_tool)
    assert named >= FLOORS["named right"], named
    assert shown >= FLOORS["in the tool"], shown
