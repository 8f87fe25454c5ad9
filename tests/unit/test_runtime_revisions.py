"""A tool's rows across its revisions, against the in-memory table: each revision is a new program served over the
same partition, and every row written before it stays readable (issue 16). Rows are never rewritten by a
revision; reading one carries it through the migrations of the revisions after the one that wrote it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.fakes import FakeTable
from tests.helpers import tool_event
from toolgen import auth
from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.program import Migration, ToolProgram
from toolgen.runtime import ToolApp, view
from toolgen.table import legacy_home, rows_pk

SECRET = "tool-secret"
TOOL_ID = "t" + "7" * 20
PK = rows_pk(legacy_home(TOOL_ID), "alice")
KM_TO_MI = 1 / 1.609344
TO_MINUTES = Migration(revision=2, entity="run", rename={"minutes": "duration"})
TO_MILES = Migration(revision=2, entity="run", scale={"distance": KM_TO_MI})


def run_log() -> dict[str, Any]:
    """The planned run log as JSON, with a get, an update and a filter on minutes: revision 1."""
    prompt = "I want to log my morning runs"
    data = OfflinePlanner().plan(prompt, classify(prompt), []).program.model_dump(mode="json")
    data["operations"] += [
        {"id": "getRun", "kind": "get", "method": "GET", "path": "/runs/{id}", "entity": "run"},
        {"id": "editRun", "kind": "update", "method": "PATCH", "path": "/runs/{id}", "entity": "run"},
    ]
    data["operations"][1]["filters"] = ["minutes"]
    return data


def revised(data: dict[str, Any], *migrations: Migration, edit: Callable[[dict[str, Any]], None] | None = None) -> dict:
    """The next revision of ``data``: ``edit`` applied to a copy, with ``migrations`` added."""
    data = json.loads(json.dumps(data))
    data["revision"] += 1
    data["migrations"] += [m.model_dump(mode="json") for m in migrations]
    if edit is not None:
        edit(data)
    return data


def renamed(data: dict[str, Any]) -> None:
    """minutes is duration from now on, in the entity, the list's filter and the pace figure."""
    fields = data["entities"]["run"]["fields"]
    fields["duration"] = fields.pop("minutes")
    data["operations"][1]["filters"] = ["duration"]
    data["operations"][2]["metrics"]["pace_min_per_km"] = "round(sum(duration) / sum(distance), 2)"


def without_note(data: dict[str, Any]) -> None:
    del data["entities"]["run"]["fields"]["note"]


class Tool:
    """One deployed tool over one table, served by whichever revision was deployed last."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.table = FakeTable()
        self.deploy(data)

    def deploy(self, data: dict[str, Any]) -> None:
        program = ToolProgram.model_validate(data)
        self.app = ToolApp(program, tool_id=TOOL_ID, owner="alice", table=self.table, secret=SECRET)

    def call(self, method: str, path: str, *, body: Any = None, query: dict[str, str] | None = None) -> Any:
        response = self.app.handle(tool_event(method, path, token=auth.mint("alice", SECRET), body=body, query=query))
        assert response["statusCode"] < 300, response["body"]
        return json.loads(response["body"]) if response["body"] else None

    def stored(self, row_id: str) -> dict[str, Any]:
        return self.table.get(PK, f"run#{row_id}")


def test_a_new_field_is_absent_on_older_rows_and_each_row_records_its_revision():
    # given a run logged under revision 1
    tool = Tool(run_log())
    old = tool.call("POST", "/runs", body={"date": "2026-12-01", "distance": 5})
    # when revision 2 adds a heart rate and a run is logged with one
    tool.deploy(revised(run_log(), edit=lambda d: d["entities"]["run"]["fields"].update(heart_rate="integer")))
    new = tool.call("POST", "/runs", body={"date": "2026-12-02", "distance": 3, "heart_rate": 150})
    # then the older run has no heart rate, the newer one has, and each row says which revision wrote it
    listed = {r["id"]: r for r in tool.call("GET", "/runs")["items"]}
    assert "heart_rate" not in listed[old["id"]] and listed[new["id"]]["heart_rate"] == 150
    assert (tool.stored(old["id"])["rev"], tool.stored(new["id"])["rev"]) == (1, 2)
    assert "rev" not in new and "rev" not in listed[old["id"]]
    assert "rev" not in tool.stored(new["id"])["data"]


def test_a_removed_field_is_hidden_but_kept_and_shown_again_when_a_revision_adds_it_back():
    # given a run with a note
    tool = Tool(run_log())
    run = tool.call("POST", "/runs", body={"date": "2026-12-01", "distance": 5, "note": "windy"})
    # when revision 2 stops tracking the note
    second = revised(run_log(), edit=without_note)
    tool.deploy(second)
    # then the note is shown nowhere, and an update of the run keeps it stored
    assert "note" not in tool.call("GET", f"/runs/{run['id']}")
    assert "note" not in tool.call("GET", "/runs")["items"][0]
    assert "note" not in tool.call("PATCH", f"/runs/{run['id']}", body={"distance": 6})
    assert tool.stored(run["id"])["data"]["note"] == "windy"
    # and revision 3, tracking the note again, shows it
    tool.deploy(revised(second, edit=lambda d: d.update(entities=run_log()["entities"])))
    shown = tool.call("GET", f"/runs/{run['id']}")
    assert (shown["note"], shown["distance"]) == ("windy", 6)


def test_a_renamed_field_is_listed_got_filtered_and_figured_by_its_new_name():
    # given two runs logged with minutes
    tool = Tool(run_log())
    first = tool.call("POST", "/runs", body={"date": "2026-12-01", "distance": 5, "minutes": 30})
    tool.call("POST", "/runs", body={"date": "2026-12-02", "distance": 5, "minutes": 20})
    # when revision 2 renames minutes to duration
    tool.deploy(revised(run_log(), TO_MINUTES, edit=renamed))
    # then every read says duration, never minutes
    listed = tool.call("GET", "/runs")["items"]
    assert [(r["duration"], "minutes" in r) for r in listed] == [(20, False), (30, False)]
    assert tool.call("GET", f"/runs/{first['id']}")["duration"] == 30
    assert [r["id"] for r in tool.call("GET", "/runs", query={"duration": "30"})["items"]] == [first["id"]]
    assert tool.call("GET", "/stats")["metrics"]["pace_min_per_km"] == 5.0
    # and the rows themselves were not rewritten
    assert tool.stored(first["id"])["data"]["minutes"] == 30


def test_a_unit_change_scales_older_rows_and_a_restore_gives_the_values_back():
    # given runs of 5 and 10 km
    tool = Tool(run_log())
    for day, km in (("2026-12-01", 5), ("2026-12-02", 10)):
        tool.call("POST", "/runs", body={"date": day, "distance": km})
    # when revision 2 counts miles, and a run of 2 miles is logged under it
    second = revised(run_log(), TO_MILES)
    tool.deploy(second)
    tool.call("POST", "/runs", body={"date": "2026-12-03", "distance": 2})
    # then the older runs read in miles, to ten significant digits, and the newer one as it was given
    assert [r["distance"] for r in tool.call("GET", "/runs")["items"]] == [2, 6.213711922, 3.106855961]
    assert tool.call("GET", "/stats")["metrics"]["total_distance"] == round(2 + 6.213711922 + 3.106855961, 2)
    # and restoring revision 1's unit (the migration undone) reads every run in km again
    tool.deploy(revised(second, TO_MILES.inverse(3)))
    assert [r["distance"] for r in tool.call("GET", "/runs")["items"]] == [3.218688, 10, 5]


def test_an_update_of_an_older_row_under_a_renamed_field_keeps_its_value():
    # given a run of 30 minutes, then revision 2 renaming minutes to duration
    tool = Tool(run_log())
    run = tool.call("POST", "/runs", body={"date": "2026-12-01", "distance": 5, "minutes": 30})
    tool.deploy(revised(run_log(), TO_MINUTES, edit=renamed))
    # when another field of the run is changed
    changed = tool.call("PATCH", f"/runs/{run['id']}", body={"distance": 6})
    # then its duration is the minutes it had, stored under the new name and stamped with the new revision
    assert (changed["duration"], changed["distance"], "minutes" in changed) == (30, 6, False)
    stored = tool.stored(run["id"])
    assert (stored["data"]["duration"], "minutes" in stored["data"], stored["rev"]) == (30, False, 2)
    assert tool.call("PATCH", f"/runs/{run['id']}", body={"duration": 40})["duration"] == 40


def test_rows_written_before_revisions_were_recorded_read_as_revision_1():
    # given a run stored as tools stored them before a row recorded its revision
    tool = Tool(run_log())
    row = {"date": "2026-12-01", "distance": 5, "minutes": 30, "note": "old"}
    stamp = "2026-01-01T00:00:00.000Z"
    item = {"pk": PK, "sk": "run#r0000000000000000000a", "id": "r0000000000000000000a", "data": row}
    tool.table.put({**item, "created_at": stamp, "updated_at": stamp})
    # when revision 2 renames minutes and counts miles
    both = Migration(revision=2, entity="run", rename={"minutes": "duration"}, scale={"distance": KM_TO_MI})
    tool.deploy(revised(run_log(), both, edit=renamed))
    # then it reads through revision 2's migration
    run = tool.call("GET", "/runs/r0000000000000000000a")
    assert (run["duration"], run["distance"], run["note"]) == (30, 3.106855961, "old")


def test_a_figure_kept_under_one_revision_is_not_served_under_the_next():
    # given the run stats asked, and so kept, under revision 1
    tool = Tool(run_log())
    tool.call("POST", "/runs", body={"date": "2026-12-01", "distance": 5})
    assert tool.call("GET", "/stats")["metrics"]["total_distance"] == 5
    # when revision 2 changes the figure, with nothing written since
    doubled = {"total_distance": "sum(distance) * 2"}
    tool.deploy(revised(run_log(), edit=lambda d: d["operations"][2]["metrics"].update(doubled)))
    # then the figure is revision 2's
    assert tool.call("GET", "/stats")["metrics"]["total_distance"] == 10


def test_a_process_still_on_an_older_revision_never_stamps_a_row_back_to_it():
    # given a run logged in miles under revision 2
    tool = Tool(run_log())
    second = revised(run_log(), TO_MILES)
    tool.deploy(second)
    run = tool.call("POST", "/runs", body={"date": "2026-12-01", "distance": 2})
    # when a process still serving revision 1 (a warm Lambda as the revision is deployed) changes its note
    tool.deploy(run_log())
    tool.call("PATCH", f"/runs/{run['id']}", body={"note": "hilly"})
    # then revision 2 reads the same 2 miles, not 2 "km" turned into miles again
    tool.deploy(second)
    assert tool.call("GET", f"/runs/{run['id']}")["distance"] == 2
    assert tool.stored(run["id"])["rev"] == 2


def test_a_unit_change_past_any_number_reads_as_no_value_not_an_error():
    # given a run, then revisions whose factors together take it past any number JSON or DynamoDB can hold
    tool = Tool(run_log())
    run = tool.call("POST", "/runs", body={"date": "2026-12-01", "distance": 5, "note": "far"})
    huge = [Migration(revision=2, entity="run", scale={"distance": 1e300}) for _ in range(2)]
    tool.deploy(revised(run_log(), *huge))
    # then the distance reads as not given, the rest of the row as it was, and an update stores no infinity
    assert "distance" not in tool.call("GET", f"/runs/{run['id']}")
    assert tool.call("PATCH", f"/runs/{run['id']}", body={"note": "farther"})["note"] == "farther"


@pytest.mark.parametrize("written", ["view", "model"])
def test_a_program_written_before_revisions_existed_still_serves_its_rows(written, tmp_path):
    # given a deployed program.json of before revisions (no revision, no migrations), read as a deployed tool does
    data = run_log()
    del data["revision"], data["migrations"]
    (tmp_path / "program.json").write_text(json.dumps(data))
    program = view.load(tmp_path / "program.json") if written == "view" else ToolProgram.model_validate(data)
    tool = Tool(run_log())
    tool.app = ToolApp(program, tool_id=TOOL_ID, owner="alice", table=tool.table, secret=SECRET)
    # then its rows are written, listed, changed and figured as before
    run = tool.call("POST", "/runs", body={"date": "2026-12-01", "distance": 5, "minutes": 30})
    assert tool.call("GET", "/runs")["items"][0]["minutes"] == 30
    assert tool.call("PATCH", f"/runs/{run['id']}", body={"minutes": 31})["minutes"] == 31
    assert tool.call("GET", "/stats")["metrics"]["total_distance"] == 5
    assert tool.stored(run["id"])["rev"] == 1


def test_rows_of_different_shapes_read_in_one_call_are_each_migrated_as_their_own():
    # given rename-then-scale migrations, one migrator for a whole read (as one call's RowStore has)
    from toolgen.runtime.migrate import Migrations

    miles = Migrations([TO_MINUTES.model_copy(update={"scale": {"distance": KM_TO_MI}})])
    rows = [
        ({"distance": 5, "minutes": 30}, 1),
        ({"distance": "5 km", "minutes": 30}, 1),  # not a number: left as it is
        ({"distance": True, "duration": 10, "minutes": 30}, 1),  # a boolean is no number; duration already there
        ({"distance": 2, "duration": 20}, 2),  # written at revision 2: as it is
        ({"distance": 10, "minutes": 30}, 1),  # the first row's shape again, with other values
    ]
    # when each is read
    read = [miles.apply(data, rev) for data, rev in rows]
    # then each follows its own shape, and the stored data is not touched
    assert read == [
        {"distance": 3.106855961, "duration": 30},
        {"distance": "5 km", "duration": 30},
        {"distance": True, "duration": 10, "minutes": 30},
        {"distance": 2, "duration": 20},
        {"distance": 6.213711922, "duration": 30},
    ]
    assert rows[0][0] == {"distance": 5, "minutes": 30}
