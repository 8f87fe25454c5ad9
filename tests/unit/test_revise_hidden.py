"""A removed field's name stays reserved (issue 16 review): its values stay on the rows written before, hidden, so a
field renamed onto that name would show them under a field that means something else ("remove the note", then
"rename minutes to note": old rows showed the note's words as minutes and lost their minutes)."""

from __future__ import annotations

from functools import cache

import pytest
from pydantic import ValidationError

from tests.fakes import FakeTable
from toolgen.changes import Change
from toolgen.errors import RevisionNotPossibleError
from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.planner.revise import apply, read
from toolgen.program import Entity, ToolProgram
from toolgen.runtime.rows import RowStore

RUN, RUN_ZH = "I want to log my morning runs", "我想记录每天晨跑"
OLD_RUN = {"date": "2024-01-01", "distance": 5, "minutes": 30, "start": "06:00", "note": "old note"}


@cache
def tool(request: str) -> ToolProgram:
    return OfflinePlanner().plan(request, classify(request), []).program


def without_note(request: str = RUN) -> ToolProgram:
    """Revision 2 of the run log: the note removed."""
    return apply(tool(request), [Change(op="remove_field", field="note")], 2)


def test_a_removed_field_is_kept_hidden_with_its_type_through_renames_of_other_fields():
    after = without_note()
    assert after.entities["run"].hidden == {"note": "text"} and "note" not in after.entities["run"].fields
    renamed = apply(after, read("rename minutes to duration", after), 3)
    assert renamed.entities["run"].hidden == {"note": "text"}
    moved = apply(after, [Change(op="rename_field", field="distance", to="length", label="Length (km)")], 3)
    assert moved.entities["run"].hidden == {"note": "text"}


@pytest.mark.parametrize(("prompt", "request_", "words"), [
    ("rename minutes to note", RUN, "removed earlier"),
    ("把用时改名叫note", RUN_ZH, "之前去掉"),
])  # fmt: skip
def test_renaming_a_field_onto_a_removed_fields_name_is_refused_saying_why(prompt, request_, words):
    after = without_note(request_)
    with pytest.raises(RevisionNotPossibleError) as caught:
        read(prompt, after)
    assert caught.value.code == "revision_not_possible" and caught.value.details["reason"] == "removed_name"
    assert words in caught.value.message and "note" in caught.value.message
    with pytest.raises(RevisionNotPossibleError):  # and by apply, whoever made the change
        apply(after, [Change(op="rename_field", field="minutes", to="note", label="Note")], 3)


def test_renaming_onto_a_name_removed_in_the_same_revision_is_refused():
    changes = [Change(op="remove_field", field="note"), Change(op="rename_field", field="minutes", to="note")]
    with pytest.raises(RevisionNotPossibleError) as caught:
        apply(tool(RUN), changes, 2)
    assert caught.value.details["reason"] == "removed_name"


def test_old_rows_keep_their_minutes_and_show_their_note_again_when_it_is_added_back():
    table, rows = FakeTable(), None
    rows = RowStore(table, "TOOL#t", "alice", tool(RUN))
    row = rows.create("run", OLD_RUN)
    after = without_note()
    assert "note" not in RowStore(table, "TOOL#t", "alice", after).get("run", row["id"])
    back = apply(after, read("add the note back", after), 3)
    assert back.entities["run"].hidden == {} and back.entities["run"].fields["note"].type == "text"
    shown = RowStore(table, "TOOL#t", "alice", back).get("run", row["id"])
    assert (shown["note"], shown["minutes"]) == ("old note", 30)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_adding_a_removed_fields_name_with_another_type_is_refused_in_the_follow_ups_language(lang):
    after = without_note()
    change = Change(op="add_field", field="note", spec={"type": "number", "label": "Note"})
    with pytest.raises(RevisionNotPossibleError) as caught:
        apply(after, [change], 3, lang=lang)
    assert caught.value.details["reason"] == "removed_type"
    assert ("之前去掉" if lang == "zh" else "removed earlier") in caught.value.message


def test_an_entity_holds_only_well_formed_hidden_names_that_are_not_its_fields():
    fields = {"minutes": {"type": "integer"}}
    assert Entity(fields=fields, hidden={"note": "text"}).hidden == {"note": "text"}
    for hidden in ({"minutes": "integer"}, {"Note!": "string"}, {f"f{i}": "string" for i in range(101)}):
        with pytest.raises(ValidationError):
            Entity.model_validate({"fields": fields, "hidden": hidden})
