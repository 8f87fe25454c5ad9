"""A follow-up that changes a tool's settings ("my roommates are Anna, Ben and Chloe"): read whole (its list is
the value, not clauses), of the kind the setting holds, applied and said in the tool's language."""

from __future__ import annotations

import pytest

from tests.unit.test_program_values import chores, rent_split
from toolgen.errors import RevisionNotPossibleError, UnclearRevisionError
from toolgen.planner.revise import apply, describe, read
from toolgen.program import ToolProgram

EN = ToolProgram.model_validate(chores())
ZH = ToolProgram.model_validate(chores(settings={"people": {"label": "室友", "value": ["小陈"]}}))
RENT = ToolProgram.model_validate(
    rent_split(settings={"rent": {"label": "房租", "value": 6500}, "roommates": {"label": "室友", "value": ["a"]}})
)


@pytest.mark.parametrize(
    ("program", "said", "value"),
    [
        (EN, "my roommates are Anna, Ben and Chloe", ["Anna", "Ben", "Chloe"]),
        (EN, "roommates: Dan & Eve now", ["Dan", "Eve"]),
        (EN, "Roommate is just Finn", ["Finn"]),
        (ZH, "室友改成小王、小李和小张", ["小王", "小李", "小张"]),
        (ZH, "室友：小王，小李", ["小王", "小李"]),
        (RENT, "房租改成7200", 7200),
        (RENT, "房租现在是六千八", 6800),
    ],
)
def test_a_setting_is_read_as_the_kind_it_holds(program, said, value):
    (change,) = read(said, program)
    assert change.op == "set_setting" and change.value == value
    revised = apply(program, [change], program.revision + 1)
    assert revised.settings[change.field or ""].value == value and revised.revision == program.revision + 1


def test_the_change_is_said_in_the_tools_language():
    assert describe(read("my roommates are Anna, Ben and Chloe", EN), EN, "en") == ["Roommates: Anna, Ben, Chloe"]
    assert describe(read("室友改成小王、小李", ZH), ZH, "zh") == ["室友：小王、小李"]


def test_a_setting_named_without_a_value_is_refused_naming_it():
    with pytest.raises(RevisionNotPossibleError, match="房租"):
        read("房租改一下", RENT)


SPLIT = ToolProgram.model_validate(
    {
        "name": "splitter",
        "title": "Split",
        "archetype": "custom_split",
        "settings": {"people": {"label": "People", "value": ["Me", "Anna", "Ben"]}},
        "entities": {"expense": {"fields": {"amount": {"type": "number", "required": True},
                                            "paid_by": {"type": "string", "enum": ["Me", "Anna", "Ben"]}}}},
        "operations": [{"id": "addExpense", "kind": "create", "path": "/expenses", "entity": "expense"},
                       {"id": "balances", "kind": "aggregate", "path": "/balances", "entity": "expense",
                        "metrics": {"transfers": "settle(paid_by, amount, people)"}}],
    }
)  # fmt: skip


@pytest.mark.parametrize(
    "said",
    [
        "add a note field so friends know what it was for",
        "add a field for how many people were at dinner",
        "show the people who paid most",
    ],
)
def test_a_follow_up_that_only_mentions_the_people_does_not_replace_them(said):
    # read as what it asks (or not read at all), never as a new list of people
    try:
        changes = read(said, SPLIT)
    except (RevisionNotPossibleError, UnclearRevisionError):
        return
    assert not any(c.op == "set_setting" for c in changes)


def test_my_roommates_are_names_the_people_of_a_split_and_the_payers_choices_follow():
    (change,) = read("my roommates are Anna, Ben and Chloe", SPLIT)
    assert change.value == ["Me", "Anna", "Ben", "Chloe"]  # the person is one of them
    revised = apply(SPLIT, [change], 2)
    assert revised.entities["expense"].fields["paid_by"].enum == ["Me", "Anna", "Ben", "Chloe"]
