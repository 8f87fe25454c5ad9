"""A program's trial run: what validation cannot see (a figure that never computes, a crash) is found before a
model's program is accepted, and a good program passes."""

from __future__ import annotations

import datetime as dt

import pytest

from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.planner.trial import TrialError, sample, trial
from toolgen.program import FieldSpec, ToolProgram

TODAY = dt.date(2026, 12, 6)


def calculator(outputs: dict, inputs: dict | None = None) -> ToolProgram:
    return ToolProgram.model_validate(
        {
            "name": "calc",
            "title": "Calc",
            "archetype": "custom_calculator",
            "operations": [{"id": "calc", "kind": "compute", "method": "POST", "path": "/calc",
                            "inputs": inputs or {"a": "number", "b": "number"}, "outputs": outputs}],
        }
    )  # fmt: skip


@pytest.mark.parametrize(
    "prompt",
    ["log my runs", "a todo list for chores", "mortgage calculator: 300k at 4.1% over 30 years",
     "我想记录每天晨跑", "split dinner costs with friends", "每周三倒垃圾，帮我做个提醒", "track my blood pressure"],
)  # fmt: skip
def test_the_composers_programs_pass_their_trial(prompt):
    trial(OfflinePlanner().plan(prompt, classify(prompt), []).program, TODAY)


def test_a_figure_that_never_computes_from_every_input_fails_naming_it():
    with pytest.raises(TrialError, match="could not compute ratio"):
        trial(calculator({"ratio": "a / (a - a)"}), TODAY)


def test_a_figure_whose_plausible_values_meet_a_degenerate_case_once_is_tried_again():
    # 1 / (a - 3) cannot be computed at a = 3, the first plausible number; it can at the next
    trial(calculator({"r": "1 / (a - 3)"}), TODAY)


def test_a_plausible_value_refused_by_the_tools_own_derivation_is_reported():
    program = ToolProgram.model_validate(
        {
            "name": "log",
            "title": "Log",
            "archetype": "custom_log",
            "entities": {"entry": {"fields": {"value": "number", "share": {"type": "number", "maximum": 1}}}},
            "operations": [
                {"id": "addEntry", "kind": "create", "path": "/entries", "entity": "entry",
                 "derive": {"share": "value * 100"}},
                {"id": "listEntries", "kind": "list", "path": "/entries", "entity": "entry"},
            ],
        }
    )  # fmt: skip
    with pytest.raises(TrialError, match=r"POST /entries \(addEntry\) answered 422"):
        trial(program, TODAY)


def test_samples_keep_to_a_fields_type_and_bounds():
    assert sample(FieldSpec(type="integer", minimum=10, maximum=20), TODAY) == 10
    assert sample(FieldSpec(type="number", maximum=2), TODAY, 1) == 2
    assert sample(FieldSpec(type="date"), TODAY) == "2026-12-06"
    assert sample(FieldSpec(type="date", default="$next:01-01"), TODAY) == "2027-01-01"
    assert sample(FieldSpec(type="string", enum=["low", "high"]), TODAY) == "low"
    assert sample(FieldSpec(type="time"), TODAY) == "08:00"


def test_a_list_inputs_plausible_items_keep_to_its_bounds_and_choices():
    shares = FieldSpec(type="list", items="number", maximum=1)
    sizes = FieldSpec(type="list", items="string", enum=["S", "M", "L"], max_items=2)
    assert sample(shares, TODAY) == [1.0, 1.0, 1.0]
    assert sample(sizes, TODAY) == ["S", "S"]
    program = calculator({"s": "sum(shares)"}, {"shares": {"type": "list", "items": "number", "maximum": 1}})
    trial(program, TODAY)
