"""A tool's history (toolgen/revisions.py): kept whole, newest first, one revision at a time, restores exact."""

from __future__ import annotations

import pytest

from toolgen.errors import BadPageTokenError, ConflictError, NotFoundError, RevisionInProgressError
from toolgen.intent import classify
from toolgen.models import ToolRecord
from toolgen.planner import OfflinePlanner
from toolgen.program import Migration, ToolProgram
from toolgen.revisions import REVISING_HOLD_S, Revision, RevisionStore, TooManyMigrations, restored
from toolgen.table import MemoryTable


def run_log() -> ToolProgram:
    return OfflinePlanner().plan("log my runs", classify("log my runs"), [], "").program


def record(program: ToolProgram) -> ToolRecord:
    return ToolRecord(
        tool_id="t1", user="ann", title=program.title, archetype=program.archetype, prompt="log my runs",
        function_name="f", tool_url="u", ui_path="/p/t1", program=program.model_dump(mode="json"), openapi={},
    )  # fmt: skip


def revision(n: int, program: ToolProgram) -> Revision:
    return Revision(
        tool_id="t1", revision=n, by="follow_up", prompt=f"change {n}", program=program.model_dump(mode="json")
    )


def test_a_restore_undoes_every_rename_and_unit_change_after_it_newest_first():
    first = run_log()
    renamed = Migration(revision=2, entity="run", rename={"minutes": "duration"})
    miles = Migration(revision=3, entity="run", rename={"distance": "miles"}, scale={"miles": 0.621371})
    current = first.model_copy(update={"revision": 3, "migrations": [renamed, miles]})
    back = restored(current, first, 4)
    assert back.revision == 4 and back.entities == first.entities
    assert back.migrations[:2] == [renamed, miles]
    # undone in one migration: both renames back, and miles back to kilometres under the old name
    [undo] = back.migrations[2:]
    assert (undo.revision, undo.rename) == (4, {"miles": "distance", "duration": "minutes"})
    assert undo.scale == {"distance": pytest.approx(1 / 0.621371)}
    # restoring revision 2 undoes only what came after it
    second = first.model_copy(update={"revision": 2, "migrations": [renamed]})
    assert [m.rename for m in restored(current, second, 4).migrations[2:]] == [{"miles": "distance"}]


def test_restores_back_and_forth_add_one_migration_each_and_rows_read_right():
    from toolgen.runtime.migrate import Migrations

    first = run_log()
    miles = Migration(revision=2, entity="run", rename={"distance": "miles"}, scale={"miles": 0.621371})
    programs = {1: first, 2: first.model_copy(update={"revision": 2, "migrations": [miles]})}
    current = programs[2]
    for n in range(3, 23):  # restore 1, 2, 1, 2, ...: each restore was about twice the one before (2, 3, 6, 11, 22)
        target = programs[1 if n % 2 else 2]
        current = restored(current, target, n)
        assert len(current.migrations) <= n - 1
        # a row written at revision 1 (10 km) and one written at revision 2 (3.1 miles) read under today's names
        named = "distance" if n % 2 else "miles"
        factor = 1 if n % 2 else 0.621371
        read = Migrations(current.migrations)
        assert read.apply({"distance": 10.0}, 1)[named] == pytest.approx(10.0 * factor)
        assert read.apply({"miles": 3.1}, 2)[named] == pytest.approx(3.1 * factor / 0.621371)


def test_a_restore_keeps_the_names_of_fields_added_since_hidden_as_a_remove_would():
    from toolgen.changes import Change
    from toolgen.errors import RevisionNotPossibleError
    from toolgen.planner.revise import apply

    first = run_log()
    pulse = Change(op="add_field", field="pulse", spec={"type": "integer", "label": "Pulse"})
    rename = Change(op="rename_field", field="minutes", to="duration", label="Duration")
    current = apply(apply(first, [pulse, Change(op="remove_field", field="note")], 2), [rename], 3)
    back = restored(current, first, 4)
    assert back.entities["run"].hidden == {"pulse": "integer"}  # the rows since hold pulses; note is back
    with pytest.raises(RevisionNotPossibleError):  # a pulse would show as minutes
        apply(back, [Change(op="rename_field", field="minutes", to="pulse")], 5)


def test_revisions_are_kept_whole_newest_first_a_page_at_a_time_and_never_twice():
    store, program = RevisionStore(MemoryTable()), run_log()
    for n in range(1, 6):
        store.put("ann", revision(n, program))
    with pytest.raises(ConflictError):  # its number is taken: the history never forks
        store.put("ann", revision(3, program))
    page, following = store.page("ann", "t1", None, 2)
    assert [r.revision for r in page] == [5, 4] and following
    rest, end = store.page("ann", "t1", following, 10)
    assert [r.revision for r in rest] == [3, 2, 1] and end is None
    assert ToolProgram.model_validate(store.get("ann", "t1", 2).program) == program
    with pytest.raises(NotFoundError):
        store.get("bob", "t1", 2)  # another person's history is not there
    with pytest.raises(BadPageTokenError):
        store.page("ann", "t2", following, 2)  # a token of another tool's history


def test_revision_one_is_kept_from_the_record_once():
    store, program = RevisionStore(MemoryTable()), run_log()
    store.ensure_first("ann", record(program))
    store.ensure_first("ann", record(program))
    [first] = store.page("ann", "t1", None, 10)[0]
    assert (first.revision, first.by, first.prompt) == (1, "request", "log my runs")


def test_one_revision_of_a_tool_at_a_time():
    store = RevisionStore(MemoryTable())
    store.hold("ann", "t1", "j1", now=1000.0)
    with pytest.raises(RevisionInProgressError) as caught:
        store.hold("ann", "t1", "j2", now=1001.0)
    assert caught.value.details == {"job_id": "j1"}
    store.hold("bob", "t1", "j3", now=1001.0)  # another person's tool of the same id is another tool
    store.release("ann", "t1", "j2")  # only the holder lets go
    with pytest.raises(RevisionInProgressError):
        store.hold("ann", "t1", "j2", now=1002.0)
    store.release("ann", "t1", "j1")
    store.hold("ann", "t1", "j2", now=1003.0)
    store.hold("ann", "t1", "j4", now=1003.0 + REVISING_HOLD_S + 1)  # a holder long gone is taken over


def test_a_hold_whose_job_ended_is_taken_over_and_only_once():
    store = RevisionStore(MemoryTable())
    store.hold("ann", "t1", "j1", now=1000.0)
    running = {"j1": False}
    with pytest.raises(RevisionInProgressError):  # j1 still runs (waiting for Lambda, say): it keeps its tool
        store.hold("ann", "t1", "j2", ended=lambda job: running.get(job, True) is True, now=1000.0 + 3 * 3600)
    running["j1"] = True  # j1 failed without letting go (its queue message was dropped)
    store.hold("ann", "t1", "j2", ended=lambda job: running.get(job, True) is True, now=1001.0)
    assert store.holds("ann", "t1", "j2") and not store.holds("ann", "t1", "j1")


def test_a_restore_past_the_programs_limits_is_refused_not_made():
    first = run_log()
    toggles = [
        Migration(revision=n, entity="run", scale={"distance": 0.621371 if n % 2 else 1 / 0.5}) for n in range(2, 202)
    ]
    current = first.model_copy(update={"revision": 201, "migrations": toggles})
    with pytest.raises(TooManyMigrations, match="201 renames and unit changes"):
        restored(current, first, 202)  # one more to undo them: past the 200 a program may carry
