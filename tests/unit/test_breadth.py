"""The breadth measurement: how a request of the breadth set is judged, and that every part of the set is well
formed (the kept-aside part is checked for form only; its results are read once, at the end of a round)."""

from __future__ import annotations

import json
import re

import pytest

from toolgen import cli
from toolgen.intent import classify
from toolgen.planner import breadth
from toolgen.planner.offline import OfflinePlanner

NAMED = {
    "run_log", "habit_tracker", "caffeine_tracker", "water_tracker", "mood_journal", "budget_tracker",
    "expense_splitter", "focus_planner", "todo_list", "reading_list", "flashcards", "restaurant_picker", "countdown",
    "unit_converter", "tip_calculator", "bmi_calculator", "weather_ranking", "currency_converter",
}  # fmt: skip


def _row(text: str, expect: str = "tool", named: str | None = None, needs: list[list[str]] | None = None) -> dict:
    return {"id": "t1", "text": text, "lang": "en", "expect": expect, "named": named, "needs": needs or []}


def test_a_tool_with_every_need_met_fits_and_a_missing_need_is_wrong() -> None:
    fits = breadth.judge(_row("log my blood pressure readings", needs=[["systolic"], ["diastolic", "low"]]))
    assert fits.result == "fits", fits
    wrong = breadth.judge(_row("log my blood pressure readings", needs=[["systolic"], ["glucose", "sugar"]]))
    assert wrong.result == "wrong" and wrong.missing == [["glucose", "sugar"]]


def test_another_named_kind_is_wrong_and_a_question_is_asking_back() -> None:
    assert breadth.judge(_row("track my morning runs", named="todo_list")).result == "wrong"
    assert breadth.judge(_row("hmm, something for stuff")).result == "asks"


def test_refusals_fit_only_when_refused() -> None:
    assert breadth.judge(_row("order me a large pepperoni pizza", expect="refuse")).result == "fits"
    assert breadth.judge(_row("log my blood pressure readings", expect="refuse")).result == "wrong"
    refused_tool = breadth.judge(_row("order me a large pepperoni pizza", needs=[["pizza"]]))
    assert refused_tool.result == "wrong" and refused_tool.why.startswith("refused")


def test_a_doubt_is_a_refusal_with_a_tool_offered() -> None:
    text = "log into my paypal and send 200 to my brother"  # the rules read a log; the learned detector a payment
    intent = classify(text)
    assert intent.archetype is None and intent.refusal is None and intent.doubt == "payment"
    assert breadth.judge(_row(text, expect="refuse")).result == "fits"
    wrong = breadth.judge(_row(text, needs=[["amount"]]))
    assert wrong.result == "wrong" and wrong.why == "refused: payment"


def test_the_vocabulary_has_names_labels_plurals_and_periods() -> None:
    text = "记账用的，每天花了多少钱记一下，月底看看钱都花哪儿了"
    program = OfflinePlanner().plan(text, classify(text).model_copy(update={"lang": "en"}), []).program
    phrases = breadth.vocabulary(program)
    assert breadth.unmet([["amount"], ["monthly", "month"], ["categories"]], phrases) == []
    assert breadth.unmet([["glucose"]], phrases) == [["glucose"]]


def test_the_vocabulary_has_the_rows_a_tool_starts_with() -> None:
    text = "cleaning rota: bathroom weekly, oven monthly, gutters twice a year"
    program = OfflinePlanner().plan(text, classify(text), []).program
    assert program.seed  # the tasks are the schedule's first rows, which its page lists
    assert breadth.unmet([["bathroom"], ["oven"], ["gutters"]], breadth.vocabulary(program)) == []
    assert breadth.unmet([["bathroom"]], breadth.vocabulary(program.model_copy(update={"seed": {}}))) == [["bathroom"]]


EVERY_PART = (
    "dev holdout dev2 dev3 dev4 fresh fresh2 fresh3 fresh4 fresh5 fresh6 fresh7 model1 blind2 blind3 blind4 blind5 "
    "blind6"
).split()


@pytest.mark.parametrize("part", EVERY_PART)
def test_every_part_is_well_formed(part: str) -> None:
    rows = breadth.load(part)
    assert len(rows) >= (60 if part == "dev3" else 100)
    assert len({r["id"] for r in rows}) == len(rows)
    for r in rows:
        assert set(r) == {"id", "text", "lang", "expect", "named", "shape", "needs"}, r["id"]
        assert r["lang"] in ("en", "zh") and r["expect"] in ("tool", "refuse"), r["id"]
        assert r["named"] is None or r["named"] in NAMED, r["id"]
        if r["expect"] == "refuse":
            assert r["needs"] == [] and r["named"] is None, r["id"]
        for group in r["needs"]:
            assert group and all(re.fullmatch(r"[a-z0-9 .%'/$°-]+", w) for w in group), (r["id"], group)


def test_the_cli_reports_a_part_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["eval", "--breadth", "--part", "dev", "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    assert report["part"] == "dev" and report["all"]["total"] == len(breadth.load("dev"))
    assert report["all"]["fits"] + report["all"]["asks"] + report["all"]["wrong"] == report["all"]["total"]


def test_a_blind_reader_is_shown_what_each_request_gets() -> None:
    """`toolgen eval --breadth --describe`: the tool's fields and figures as a person sees them, a Chinese tool in
    both languages, a refusal as a refusal (docs/knowledge.md, "A blind reader of the offline path")."""
    from toolgen.planner.breadth import describe

    shown = describe("log my blood pressure every morning")
    assert shown.startswith("TOOL: ") and "Systolic" in shown and "aggregate" in shown
    chinese = describe("记录每天的血压")
    assert chinese.count("TOOL: ") == 2 and "收缩压" in chinese and "Systolic" in chinese
    assert describe("帮我订两张周六晚上的电影票").startswith("REFUSED")
