"""Revise jobs on moto (toolgen/revising.py): a new version behind live, rows kept, a failure leaves the tool as
it was, and one revision of a tool at a time."""

from __future__ import annotations

import pytest

from tests.functional.test_pipeline import call_tool, run
from toolgen.changes import Change
from toolgen.config import Settings
from toolgen.errors import NotFoundError, RevisionInProgressError
from toolgen.ids import sortable_id
from toolgen.jobs import JobStore
from toolgen.local.lambda_runtime import RuntimeInvoker
from toolgen.models import Job, JobMessage
from toolgen.pipeline import process
from toolgen.revisions import RevisionStore
from toolgen.services import Services
from toolgen.ui.pages import PageStore


@pytest.fixture
def services(aws_env, runtime) -> Services:
    return Services.from_settings(
        Settings.from_env("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret"),
        invoker=RuntimeInvoker(runtime),
    )


def revise(services: Services, user: str, tool_id: str, prompt: str, changes: list[Change]) -> Job:
    job = Job(job_id=sortable_id("j"), user=user, prompt=prompt, kind="revise", tool_id=tool_id)
    job.changes = [c.model_dump(mode="json") for c in changes]
    RevisionStore(services.table).hold(user, tool_id, job.job_id)
    services.jobs.create(job)
    return process(JobMessage(job_id=job.job_id, user=user, prompt=prompt), services)


PULSE = Change(op="add_field", entity="run", field="pulse", spec={"type": "integer", "label": "Heart rate (bpm)"})


def test_a_revision_is_a_new_version_behind_live_and_every_row_stays(services, runtime, emulator):
    made = run(services, "log my runs", user="rev1")
    record = services.tools.get("rev1", made.tool_id)
    for n in range(3):
        assert call_tool(runtime, record.function_name, "POST", "/runs", "rev1", {"distance": 5 + n})[0] == 201
    live_before = emulator.client("lambda").get_alias(FunctionName=record.function_name, Name="live")
    job = revise(services, "rev1", made.tool_id, "also track my heart rate", [PULSE])
    assert job.status == "succeeded", job.error
    assert job.revision == 2 and [s.status for s in job.stages] == ["succeeded"] * 7
    live_after = emulator.client("lambda").get_alias(FunctionName=record.function_name, Name="live")
    assert int(live_after["FunctionVersion"]) > int(live_before["FunctionVersion"])
    revised = services.tools.get("rev1", made.tool_id)
    assert revised.revision == 2 and "pulse" in revised.program["entities"]["run"]["fields"]
    assert revised.tool_url == record.tool_url and revised.home == record.home
    status, listed = call_tool(runtime, record.function_name, "GET", "/runs", "rev1")
    assert status == 200 and len(listed["items"]) == 3 and all(r.get("pulse") is None for r in listed["items"])
    status, row = call_tool(runtime, record.function_name, "POST", "/runs", "rev1", {"distance": 4, "pulse": 140})
    assert status == 201 and row["pulse"] == 140
    history, _ = RevisionStore(services.table).page("rev1", made.tool_id, None, 10)
    assert [(r.revision, r.by) for r in history] == [(2, "follow_up"), (1, "request")]
    # the second revision could start: the first one let go of the tool
    RevisionStore(services.table).hold("rev1", made.tool_id, "j-next")


def test_a_revision_that_fails_after_going_live_leaves_the_tool_as_it_was(services, runtime):
    made = run(services, "log my runs", user="rev2")
    record = services.tools.get("rev2", made.tool_id)
    assert call_tool(runtime, record.function_name, "POST", "/runs", "rev2", {"distance": 5})[0] == 201
    services.pages = PageStore("no-such-bucket")  # the render stage fails, after the new version went live
    job = revise(services, "rev2", made.tool_id, "also track my heart rate", [PULSE])
    assert job.status == "failed" and "s3 put_object failed" in job.error
    assert [s.status for s in job.stages][4:] == ["succeeded", "failed", "skipped"]
    kept = services.tools.get("rev2", made.tool_id)
    assert kept.revision == 1 and "pulse" not in kept.program["entities"]["run"]["fields"]
    status, body = call_tool(runtime, record.function_name, "POST", "/runs", "rev2", {"distance": 4, "pulse": 140})
    assert status == 422, body  # the tool answering is the one before the revision
    assert len(call_tool(runtime, record.function_name, "GET", "/runs", "rev2")[1]["items"]) == 1
    assert RevisionStore(services.table).page("rev2", made.tool_id, None, 10)[0] == []
    RevisionStore(services.table).hold("rev2", made.tool_id, "j-next")  # let go of, failed as it did


def test_a_second_revision_while_one_runs_is_refused(services):
    made = run(services, "log my runs", user="rev3")
    RevisionStore(services.table).hold("rev3", made.tool_id, "j-first")
    with pytest.raises(RevisionInProgressError):
        revise(services, "rev3", made.tool_id, "also track my heart rate", [PULSE])


def test_each_revision_is_a_version_never_numbered_before_and_live_runs_the_newest(services, runtime, emulator):
    # moto numbered a new version by the versions left, so after the deployer pruned one, a third revision took a
    # number already taken and the alias ran the older code (found by tests/e2e/test_growth.py)
    made = run(services, "log my runs", user="rev4")
    record = services.tools.get("rev4", made.tool_id)
    morning = Change(op="set_default", entity="run", field="start", value="06:30")
    assert revise(services, "rev4", made.tool_id, "start at 06:30 by default", [morning]).status == "succeeded"
    assert revise(services, "rev4", made.tool_id, "also track my heart rate", [PULSE]).status == "succeeded"
    assert call_tool(runtime, record.function_name, "POST", "/runs", "rev4", {"distance": 4, "pulse": 140})[0] == 201
    quiet = Change(op="remove_field", entity="run", field="pulse")
    assert revise(services, "rev4", made.tool_id, "stop tracking my heart rate", [quiet]).status == "succeeded"
    lam = emulator.client("lambda")
    numbers = [v["Version"] for v in lam.list_versions_by_function(FunctionName=record.function_name)["Versions"]]
    published = [int(n) for n in numbers if n != "$LATEST"]
    assert len(published) == len(set(published)), numbers
    assert lam.get_alias(FunctionName=record.function_name, Name="live")["FunctionVersion"] == str(max(published))
    [row] = call_tool(runtime, record.function_name, "GET", "/runs", "rev4")[1]["items"]
    assert "pulse" not in row and row["start"] == "06:30"


class Meanwhile(JobStore):
    """The job store, with something the person does while a job runs: done once, as the named stage ends."""

    def __init__(self, table, stage: str, action) -> None:
        super().__init__(table)
        self.stage, self.action, self.done = stage, action, False

    def save(self, job: Job) -> None:
        super().save(job)
        if not self.done and job.kind == "revise" and job.stage(self.stage).status == "succeeded":
            self.done = True
            self.action()


def test_a_tool_deleted_while_it_is_revised_stays_deleted(services, runtime, emulator):
    from toolgen.api.app import _delete_tool

    made = run(services, "log my runs", user="rev5")
    record = services.tools.get("rev5", made.tool_id)
    services.jobs = Meanwhile(services.table, "deploy", lambda: _delete_tool(services, "rev5", record))
    job = revise(services, "rev5", made.tool_id, "also track my heart rate", [PULSE])
    assert job.status == "failed"
    with pytest.raises(NotFoundError):
        services.tools.get("rev5", made.tool_id)
    functions = [f["FunctionName"] for f in emulator.client("lambda").list_functions()["Functions"]]
    assert record.function_name not in functions  # the revision's deploy made it again; it is gone again
    with pytest.raises(NotFoundError):
        services.pages.get(made.tool_id)
    assert RevisionStore(services.table).page("rev5", made.tool_id, None, 10)[0] == []


def test_a_memory_forgotten_while_a_tool_is_revised_stays_forgotten(services):
    from toolgen.memory import verify

    home = services.memories.learn("rev6", "I usually run at 6:30 in the morning")
    made = run(services, "log my runs", user="rev6")
    assert [m.memory_id for m in services.tools.get("rev6", made.tool_id).memories] == [home.memory_id]
    forget = lambda: verify.forget(services.memories, services.tools, services.table, "rev6", home.memory_id)  # noqa: E731
    services.jobs = Meanwhile(services.table, "deploy", forget)
    job = revise(services, "rev6", made.tool_id, "also track my heart rate", [PULSE])
    assert job.status == "succeeded", job.error
    revised = services.tools.get("rev6", made.tool_id)
    assert revised.memories == [] and home.memory_id not in revised.program["provenance"]["memories"]


def test_a_job_run_again_after_its_revision_was_recorded_does_not_apply_it_twice(services, runtime):
    made = run(services, "log my runs", user="rev7")
    record = services.tools.get("rev7", made.tool_id)
    assert call_tool(runtime, record.function_name, "POST", "/runs", "rev7", {"distance": 10})[0] == 201
    miles = Change(op="set_unit", entity="run", field="distance", value="mi", label="Distance (mi)", factor=0.621371)
    job = revise(services, "rev7", made.tool_id, "show distance in miles", [miles])
    assert job.status == "succeeded", job.error
    # its worker is lost after recording the revision, before the job's end was saved: the queue delivers it again
    job.status = "running"
    services.jobs.save(job)
    again = process(JobMessage(job_id=job.job_id, user="rev7", prompt=job.prompt), services)
    assert again.status == "succeeded" and again.revision == 2
    assert services.tools.get("rev7", made.tool_id).revision == 2
    [row] = call_tool(runtime, record.function_name, "GET", "/runs", "rev7")[1]["items"]
    assert row["distance"] == pytest.approx(6.21371)  # converted once


def test_a_revision_credits_one_turn_to_the_memories_that_shaped_the_tool(services):
    home = services.memories.learn("rev8", "I usually run at 6:30 in the morning")
    made = run(services, "log my runs", user="rev8")
    before = services.memories.get("rev8", home.memory_id).turns
    assert revise(services, "rev8", made.tool_id, "also track my heart rate", [PULSE]).status == "succeeded"
    assert services.memories.get("rev8", home.memory_id).turns == before + 1
