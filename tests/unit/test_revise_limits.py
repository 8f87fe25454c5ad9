"""A follow-up that would take a tool past one of a program's limits is a 422 in the follow-up's language, never a
500 (issue 16 review: 26 fields added to a run log, or a unit changed on a tool holding 200 migrations, raised
pydantic's ValidationError out of apply)."""

from __future__ import annotations

from functools import cache

import pytest

from toolgen.api.errors import status_of
from toolgen.changes import Change
from toolgen.errors import RevisionNotPossibleError
from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.planner.revise import apply, read
from toolgen.program import MAX_FIELDS, MAX_MIGRATIONS, Migration, ToolProgram

RUN, RUN_ZH = "I want to log my morning runs", "我想记录每天晨跑"
NATO = ("alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec "
        "romeo sierra tango uniform victor whiskey xray yankee zulu").split()  # fmt: skip


@cache
def tool(request: str) -> ToolProgram:
    return OfflinePlanner().plan(request, classify(request), []).program


def refused(prompt: str, program: ToolProgram) -> RevisionNotPossibleError:
    with pytest.raises(RevisionNotPossibleError) as caught:
        read(prompt, program)
    assert status_of(caught.value) == 422
    return caught.value


def test_fields_added_past_an_entitys_limit_across_clauses_are_refused():
    runs = tool(RUN)
    assert len(runs.entities["run"].fields) + len(NATO) > MAX_FIELDS
    error = refused(", ".join(f"add a field for {word}" for word in NATO), runs)
    assert error.details["reason"] == "too_many" and error.message == "This tool has as many fields as a tool may have."
    one_clause = refused("add " + ", ".join(NATO), runs)  # later items share the verb
    assert one_clause.details["reason"] == "too_many"


def test_fields_added_past_the_limit_are_refused_in_chinese_by_apply_too():
    changes = [Change(op="add_field", field=word, spec={"type": "string", "label": word}) for word in NATO]
    with pytest.raises(RevisionNotPossibleError) as caught:
        apply(tool(RUN_ZH), changes, 2, lang="zh")
    assert caught.value.details["reason"] == "too_many" and caught.value.message == "这个工具的字段已经到上限了。"


def _migrated(program: ToolProgram) -> ToolProgram:
    """``program`` after MAX_MIGRATIONS revisions, each renaming its note back and forth."""
    entity = next(iter(program.entities))
    migrations = [
        Migration(revision=n + 2, entity=entity, rename={"note": "comment"} if n % 2 == 0 else {"comment": "note"})
        for n in range(MAX_MIGRATIONS)
    ]
    return program.model_copy(update={"migrations": migrations, "revision": MAX_MIGRATIONS + 1})


@pytest.mark.parametrize(("prompt", "request_", "words"), [
    ("use miles instead of km", RUN, "as many changes"), ("距离改成英里", RUN_ZH, "上限"),
    ("rename minutes to duration", RUN, "as many changes"),
])  # fmt: skip
def test_a_unit_change_or_rename_past_the_migrations_a_tool_keeps_is_refused(prompt, request_, words):
    error = refused(prompt, _migrated(tool(request_)))
    assert error.details["reason"] == "too_many_migrations" and words in error.message


def test_a_change_still_possible_on_a_tool_full_of_migrations_is_read():
    (change,) = read("make it dark", _migrated(tool(RUN)))
    assert change.op == "set_theme"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_any_program_the_changes_would_make_invalid_is_refused_not_a_500(lang):
    bad = Change(op="set_default", field="date", value="$tomorrow")  # a date's '$' default is $today or $next only
    with pytest.raises(RevisionNotPossibleError) as caught:
        apply(tool(RUN), [bad], 2, lang=lang)
    assert caught.value.details["reason"] == "invalid"
    assert caught.value.message.startswith("这个工具" if lang == "zh" else "This tool")
