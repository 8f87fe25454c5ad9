"""A revised tool's rows, end to end: revision 1 made by the pipeline and used, revision 2 deployed over the same
function (its package's program.json read as views by the tool's own process), and the rows read through it.
Revision 2 is deployed as the pipeline deploys a tool (its function spec, its deployer), since no stage revises yet."""

from __future__ import annotations

import copy

from tests.functional.test_pipeline import call_tool, run
from tests.functional.test_pipeline import services as services
from toolgen.accounts import Account
from toolgen.deploy.plan import live
from toolgen.pipeline import _function_spec
from toolgen.program import Migration, ToolProgram
from toolgen.table import rows_pk


def test_rows_written_under_revision_1_read_under_revision_2(services, runtime):
    # given a run log made and used under revision 1
    job = run(services, "I want to log my morning runs", user="rhea")
    assert job.status == "succeeded", job.error
    record = services.tools.get("rhea", job.tool_id)
    name = record.function_name
    body = {"date": "2026-12-01", "distance": 5, "minutes": 30, "note": "windy"}
    assert call_tool(runtime, name, "POST", "/runs", user="rhea", body=body)[0] == 201
    assert call_tool(runtime, name, "GET", "/stats", user="rhea")[1]["metrics"]["total_distance"] == 5
    # when revision 2 (miles, duration for minutes, no note) is deployed to the same function
    data = copy.deepcopy(record.program)
    fields = data["entities"]["run"]["fields"]
    fields["duration"] = fields.pop("minutes")
    del fields["note"]
    data["operations"][2]["metrics"]["pace_min_per_km"] = "round(sum(duration) / sum(distance), 2)"
    data["operations"].append({"id": "editRun", "kind": "update", "path": "/runs/{id}", "entity": "run"})
    migration = Migration(revision=2, entity="run", rename={"minutes": "duration"}, scale={"distance": 1 / 1.609344})
    data.update(revision=2, migrations=[migration.model_dump(mode="json")])
    spec = _function_spec(
        services.settings, ToolProgram.model_validate(data), name, record.tool_id, "rhea", record.home or ""
    )
    services.deployer_for(Account(record.account)).deploy(spec)
    # then the live tool reads the row in miles, under duration, without the note, and figures it so
    status, listed = call_tool(runtime, live(name), "GET", "/runs", user="rhea")
    assert status == 200
    (row,) = listed["items"]
    assert (row["distance"], row["duration"], "minutes" in row, "note" in row) == (3.106855961, 30, False, False)
    metrics = call_tool(runtime, live(name), "GET", "/stats", user="rhea")[1]["metrics"]
    assert (metrics["total_distance"], metrics["pace_min_per_km"]) == (3.11, round(30 / 3.106855961, 2))
    # and a change to the row keeps its duration, stored under the new name, and its note, hidden
    status, changed = call_tool(runtime, live(name), "PATCH", f"/runs/{row['id']}", user="rhea", body={"distance": 4})
    assert (status, changed["distance"], changed["duration"], "note" in changed) == (200, 4, 30, False)
    stored = services.table.get(rows_pk(record.home or "", "rhea"), f"run#{row['id']}")
    assert (stored["rev"], stored["data"]["duration"], stored["data"]["note"]) == (2, 30, "windy")
