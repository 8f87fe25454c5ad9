"""What a page puts first and how it charts, read from programs the planner really makes (toolgen/ui/layout.py)."""

import json
import re

import pytest

from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.program import AggregateOp
from toolgen.ui import render_page
from toolgen.ui.layout import HEADLINE_MAX, headline, views


def program_for(prompt: str):
    return OfflinePlanner().plan(prompt, classify(prompt), []).program


def only_view(prompt: str) -> dict:
    found = views(program_for(prompt))
    assert len(found) == 1, found
    return next(iter(found.values()))


@pytest.mark.parametrize(
    "prompt",
    ["log my blood pressure readings morning and evening", "记录我每天早晚的血压"],
)
def test_a_blood_pressure_is_charted_as_readings_with_one_line_per_pressure_not_summed(prompt):
    chart = only_view(prompt)["chart"]
    # systolic and diastolic share their unit and are averaged, never summed: lines; the pulse (bpm) is not on them
    assert chart["how"] == "line" and set(chart["values"]) == {"systolic", "diastolic"}, chart
    assert chart["date"] == "date" and chart["time"] == "time"


@pytest.mark.parametrize(
    ("prompt", "summed"),
    [("log my runs", "distance"), ("track how many glasses of water I drink", None), ("记账，记录每天的花销", None)],
)
def test_what_a_figure_adds_up_is_charted_as_bars_per_day(prompt, summed):
    program = program_for(prompt)
    chart = next(iter(views(program).values()))["chart"]
    assert chart is not None and chart["how"] == "bar", chart
    # the charted field is one some figure of the tool sums
    sums = [e for op in program.operations if isinstance(op, AggregateOp) for e in op.metrics.values()]
    assert any(f"sum({chart['values'][0]})" in e.replace(" ", "") for e in sums), (chart, sums)
    if summed:
        assert chart["values"] == [summed]


def test_a_tool_without_dated_numbers_has_no_chart():
    assert only_view("a todo list for chores")["chart"] is None


def test_the_headline_puts_the_main_figure_before_the_count_and_keeps_to_four():
    view = only_view("log my blood pressure readings morning and evening")
    program = program_for("log my blood pressure readings morning and evening")
    op = next(o for o in program.operations if o.id == view["headline_op"])
    assert not (op.group_by or op.period or op.series)  # the figures over every row, not a week's or a day's
    assert view["headline"][0] == "avg_systolic" and "entries" in view["headline"]
    assert len(view["headline"]) <= HEADLINE_MAX < len(op.metrics)


def test_a_goal_or_limit_comes_first_and_a_totals_latest_row_is_left_out():
    op = AggregateOp(
        id="stats",
        path="/stats",
        entity="drink",
        kind="aggregate",
        metrics={
            "entries": "count()",
            "total_ml": "sum(ml)",
            "last_ml": "last(ml)",
            "last_date": "max(date)",
            "left_today": "round(max(goal - sum(ml), 0), 2)",
            "left_eye": "last(ml)",  # "left" in a name is no goal's
        },
        constants={"goal": 2000},
    )
    assert headline(op) == ["left_today", "total_ml", "entries", "last_date"]
    # and figures of no known kind fill what room is left, in the program's order
    few = op.model_copy(update={"metrics": {"entries": "count()", "for_four": "count_where(four, True)"}})
    assert headline(few) == ["entries", "for_four"]


def test_the_page_carries_each_entitys_view_and_the_words_for_it_in_its_language():
    for prompt, words in [("log my weight", ("All figures", "each reading")), ("记录体重", ("全部数据", "每次记录"))]:
        html = render_page(program_for(prompt), "https://t.example").html
        config = json.loads(re.search(r'id="tool-config">(.*?)</script>', html, re.S).group(1))
        assert config["views"] and all("headline" in v and "chart" in v for v in config["views"].values())
        assert config["labels"]["all_figures"] == words[0] and words[1] in config["labels"]["readings_chart"]


@pytest.mark.parametrize(
    ("prompt", "shown"),
    [
        ("track my screen time", ["so_far", "left", "over_by", "limit"]),
        ("track my steps, goal 8000 a day", ["so_far", "goal", "remaining", "reached"]),
    ],
)
def test_a_goal_or_a_limit_is_what_the_page_leads_with(prompt, shown):
    view = only_view(prompt)
    assert view["headline_op"] == "goal" and view["headline"] == shown


def test_a_limit_kept_per_day_leads_the_page_even_without_figures_over_every_row():
    view = only_view("track how much caffeine I drink")  # its figures are today's and this week's only
    assert view["headline_op"] == "today" and view["headline"][:2] == ["mg", "drinks"]
    assert "remaining_mg" in view["headline"] and view["rest"]


def test_a_number_no_figure_adds_or_averages_is_not_charted():
    # a rota's rows hold who starts and how many days a turn lasts: numbers, but no figure sums or averages them
    assert only_view("家里三个孩子轮流洗碗 排个表")["chart"] is None


def test_a_collections_random_pick_is_not_what_its_page_leads_with():
    program = program_for("a list of the board games we own with player count")
    view = next(iter(views(program).values()))
    assert any("pick(" in e for op in program.operations for e in getattr(op, "metrics", {}).values())
    assert view["headline_op"] != "pickOne" and "choice" not in view["headline"], view
