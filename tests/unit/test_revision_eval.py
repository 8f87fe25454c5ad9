"""The revisions measurement: how a follow-up of tests/data/revisions.jsonl is judged, that the set is well formed,
and that the reader keeps the figure it reached on the tuned part (the held and fresh parts are checked for form
only; their results are read once, at the end of a round)."""

from __future__ import annotations

import json
import re

import pytest

from toolgen import cli
from toolgen.planner import revision_eval

TUNED_RIGHT = 86  # of 86: what the reader reached on the tuned part; a change that reads fewer is a regression
RUN = "I want to log my morning runs"


def _row(prompt: str, **expected: object) -> dict:
    return {"id": "t1", "part": "tuned", "request": RUN, "prompt": prompt, **expected}


def test_a_row_is_right_only_with_exactly_the_expected_changes_or_error():
    assert revision_eval.judge(_row("make it dark", expect=[{"op": "set_theme", "value": "dark"}])) is None
    assert revision_eval.judge(_row("make it dark", expect=[{"op": "set_theme", "value": "light"}]))
    both = _row("add heart rate and remove the note", expect=[{"op": "add_field", "field": "pulse"}])
    assert "also read" in (revision_eval.judge(both) or "")
    assert revision_eval.judge(_row("make it purple", error="unclear_revision")) is None
    assert revision_eval.judge(_row("make it dark", error="unclear_revision"))


def test_the_set_is_well_formed_half_chinese_with_25_held_out():
    rows = revision_eval.load()
    assert len(rows) >= 80 and len({row["id"] for row in rows}) == len(rows)
    assert sum(row["part"] == "held" for row in rows) == 25
    assert {row["part"] for row in rows} == {"tuned", "held", "fresh"}  # fresh: written after the reader
    chinese = sum(bool(re.search(r"[\u4e00-\u9fff]", row["prompt"])) for row in rows)
    assert abs(chinese - len(rows) / 2) <= len(rows) / 10
    assert all(("expect" in row) != ("error" in row) for row in rows)
    assert len({row["request"] for row in rows}) >= 8  # several kinds of tool


def test_the_tuned_part_stays_at_the_figure_reached():
    report = revision_eval.evaluate("tuned")
    assert report.total == 86
    assert report.right >= TUNED_RIGHT, report.misses


def test_the_cli_prints_a_parts_accuracy(capsys: pytest.CaptureFixture[str]):
    assert cli.main(["eval", "--revisions", "--part", "tuned", "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    assert (report["part"], report["total"]) == ("tuned", 86)
