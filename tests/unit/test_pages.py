"""A tool's rows at scale, against the in-memory table: lists come a page at a time (``limit`` + ``next``), a
figure asked again does not read the rows again, and one person's rows are capped with a clear 409."""

import base64
import json

import pytest

from tests.fakes import FakeTable
from tests.helpers import tool_event
from toolgen import auth
from toolgen.bounds import FIGURE_ROWS
from toolgen.ids import sortable_id
from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.program import ToolProgram
from toolgen.runtime import ToolApp, rows
from toolgen.table import legacy_home, rows_pk

SECRET = "tool-secret"
TOOL_ID = "t" + "0" * 20


class CountingTable(FakeTable):
    """The in-memory table, counting the items each read hands back (what DynamoDB bills and moto serialises)."""

    def __init__(self) -> None:
        super().__init__()
        self.read = 0

    def get(self, pk, sk):
        self.read += 1
        return super().get(pk, sk)

    def query(self, pk, sk_prefix="", *, newest_first=False, after=None):
        found = super().query(pk, sk_prefix, newest_first=newest_first, after=after)
        self.read += len(found)
        return found

    def query_page(self, pk, sk_prefix, start=None, *, limit=None, newest_first=False):
        before = self.read  # the fake finds a page by querying everything; DynamoDB reads the page's items only
        page, following = super().query_page(pk, sk_prefix, start, limit=limit, newest_first=newest_first)
        self.read = before + len(page)
        return page, following


def runs_app(prompt: str = "I want to log my morning runs") -> ToolApp:
    program = OfflinePlanner().plan(prompt, classify(prompt), []).program
    return ToolApp(program, tool_id=TOOL_ID, owner="alice", table=CountingTable(), secret=SECRET)


def call(app: ToolApp, method: str, path: str, *, body=None, query=None):
    response = app.handle(tool_event(method, path, token=auth.mint("alice", SECRET), query=query, body=body))
    return response["statusCode"], (json.loads(response["body"]) if response["body"] else None)


def fill(app: ToolApp, count: int, user: str = "alice") -> None:
    """``count`` runs stored as the tool stores them, straight into the table (as bench/rows.py fills it)."""
    pk = rows_pk(legacy_home(TOOL_ID), user)
    for i in range(count):
        row_id = sortable_id("r")
        day = f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}"
        app.table.put(
            {
                "pk": pk,
                "sk": f"run#{row_id}",
                "id": row_id,
                "data": {"date": day, "distance": 5, "minutes": 30},
                "created_at": "2026-01-01T00:00:00.000Z",
                "updated_at": "2026-01-01T00:00:00.000Z",
            }
        )


def test_a_list_past_its_first_page_is_reached_by_next():
    # given 250 runs
    app = runs_app()
    fill(app, 250)
    # when the list is read 100 at a time, following next
    seen, token, pages = [], None, 0
    while True:
        status, page = call(app, "GET", "/runs", query={"limit": "100", **({"next": token} if token else {})})
        assert status == 200
        seen += [r["id"] for r in page["items"]]
        pages, token = pages + 1, page["next"]
        if token is None:
            break
    # then every run came once, in three pages, the last one not empty
    assert pages == 3 and len(seen) == 250 and len(set(seen)) == 250


def test_a_page_reads_its_own_rows_not_every_row():
    app = runs_app()
    fill(app, 3_000)
    app.table.read = 0
    status, page = call(app, "GET", "/runs", query={"limit": "50"})
    assert status == 200 and len(page["items"]) == 50 and page["next"]
    assert app.table.read <= 60  # the page and one row to know there is more (and a counter), not 3,000


def test_a_list_that_fits_one_page_is_sorted_whole():
    app = runs_app()
    for day in ("2026-12-02", "2026-12-03", "2026-12-01"):
        assert call(app, "POST", "/runs", body={"date": day, "distance": 5, "minutes": 30})[0] == 201
    page = call(app, "GET", "/runs")[1]
    assert [r["date"] for r in page["items"]] == ["2026-12-03", "2026-12-02", "2026-12-01"]
    assert page["next"] is None


def _token(key: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(key).encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "token",
    [
        "not-a-token",
        "!!!",
        _token(["run#r1"]),
        _token({"pk": rows_pk(legacy_home(TOOL_ID), "bob"), "sk": "run#r0000000000000000000a"}),  # bob's rows
        _token({"pk": rows_pk(legacy_home("t" + "1" * 20), "alice"), "sk": "run#r0000000000000000000a"}),  # other tool
        _token({"pk": rows_pk(legacy_home(TOOL_ID), "alice"), "sk": "SUMMARY"}),  # not a row of this list
        _token({"pk": rows_pk(legacy_home(TOOL_ID), "alice"), "sk": "run#", "extra": 1}),
        "x" * 5_000,
    ],
)
def test_a_forged_or_anothers_next_is_refused_with_422(token):
    # given bob's runs beside alice's in the same tool's table
    app = runs_app()
    fill(app, 5, user="bob")
    fill(app, 5)
    # when alice sends a token the list never gave her
    status, body = call(app, "GET", "/runs", query={"next": token})
    # then it is a 422 saying next is no token of this list (not an unknown parameter), and nothing of bob's
    assert status == 422 and body["code"] == "invalid_input" and "page token" in body["details"]["next"]


def test_a_forged_next_is_refused_in_chinese_for_a_chinese_tool():
    app = runs_app("记录我的跑步")
    status, body = call(app, "GET", "/runs", query={"next": "not-a-token"})
    assert status == 422 and "翻页" in body["message"]


def test_a_figure_asked_again_reads_no_rows():
    # given 3,000 runs stored before the tool kept a digest of them, and their figures asked once
    app = runs_app()
    fill(app, 3_000)
    app.table.read = 0
    first = call(app, "GET", "/stats")
    # (which built the digest, reading every row once: the figures count all 3,000, not the newest FIGURE_ROWS)
    assert first[1]["metrics"]["runs"] == 3_000 and "newest" not in first[1]
    assert FIGURE_ROWS < 3_000 <= app.table.read <= 3_000 + 10
    # when asked again with nothing written
    app.table.read = 0
    again = call(app, "GET", "/stats")
    # then the same figures come from what was kept: a handful of item reads
    assert again == first and app.table.read <= 3
    # and after a write, from the digest the write kept: a handful again, still every row
    assert call(app, "POST", "/runs", body={"date": "2026-12-01", "distance": 7, "minutes": 40})[0] == 201
    app.table.read = 0
    after = call(app, "GET", "/stats")
    assert after[1]["metrics"]["runs"] == 3_001 and after[1]["metrics"]["total_distance"] == 3_000 * 5 + 7
    assert app.table.read <= 6


def test_figures_over_every_row_do_not_say_newest():
    app = runs_app()
    fill(app, 30)
    status, answer = call(app, "GET", "/stats")
    assert status == 200 and answer["metrics"]["runs"] == 30 and "newest" not in answer


def test_a_figure_after_a_write_counts_the_write():
    app = runs_app()
    fill(app, 20)
    assert call(app, "GET", "/stats")[1]["metrics"]["runs"] == 20
    status, row = call(app, "POST", "/runs", body={"date": "2026-12-01", "distance": 5, "minutes": 30})
    assert status == 201 and call(app, "GET", "/stats")[1]["metrics"]["runs"] == 21
    assert call(app, "DELETE", f"/runs/{row['id']}")[0] == 204
    assert call(app, "GET", "/stats")[1]["metrics"]["runs"] == 20


def test_the_rows_cap_is_a_409_in_the_tools_language(monkeypatch):
    # given a cap of 3 rows per person
    monkeypatch.setattr(rows, "MAX_ROWS_PER_PERSON", 3)
    for prompt, words in (("I want to log my morning runs", "at most 3 rows"), ("记录我的跑步", "最多保存 3 条")):
        app = runs_app(prompt)
        for _ in range(3):
            assert call(app, "POST", "/runs", body={"date": "2026-12-01", "distance": 5, "minutes": 30})[0] == 201
        # when a fourth is added
        status, body = call(app, "POST", "/runs", body={"date": "2026-12-01", "distance": 5, "minutes": 30})
        # then it is refused, saying why, and nothing was stored
        assert status == 409 and body["code"] == "too_many_rows" and words in body["message"]
        assert len(call(app, "GET", "/runs")[1]["items"]) == 3
        # and once one is deleted, there is room again
        first = call(app, "GET", "/runs")[1]["items"][0]["id"]
        assert call(app, "DELETE", f"/runs/{first}")[0] == 204
        assert call(app, "POST", "/runs", body={"date": "2026-12-01", "distance": 5, "minutes": 30})[0] == 201


@pytest.mark.parametrize("nothing", ["", "null"])
def test_a_next_of_nothing_is_the_first_page(nothing):
    # what a model writes for an optional input it has no value for (Dify sends it as it was written)
    app = runs_app()
    fill(app, 3)
    status, page = call(app, "GET", "/runs", query={"next": nothing})
    assert status == 200 and len(page["items"]) == 3


@pytest.mark.parametrize("sort", ["-created_at", "created_at", "title"])
def test_a_page_of_long_rows_fits_gpt_actions_and_the_pages_still_hold_every_row(sort):
    # given 100 notes of 1,500 characters (one default page was 149,274 characters: GPT Actions takes 100,000)
    program = ToolProgram.model_validate(
        {
            "name": "notes",
            "title": "Notes",
            "archetype": "custom_collection",
            "entities": {"note": {"fields": {"title": "string", "body": {"type": "text", "max_length": 2000}}}},
            "operations": [
                {"id": "add", "kind": "create", "path": "/notes", "entity": "note"},
                {"id": "list", "kind": "list", "path": "/notes", "entity": "note", "sort": sort, "limit": 100},
            ],
        }
    )
    app = ToolApp(program, tool_id=TOOL_ID, owner="alice", table=CountingTable(), secret=SECRET)
    for i in range(100):
        assert call(app, "POST", "/notes", body={"title": f"n{i:03d}", "body": "x" * 1_500})[0] == 201
    seen, token, pages = [], None, 0
    while True:
        status, page = call(app, "GET", "/notes", query={"next": token} if token else None)
        # then each page's answer is under 100,000 characters
        assert status == 200 and len(json.dumps(page, ensure_ascii=False)) < 100_000
        seen += [r["title"] for r in page["items"]]
        pages, token = pages + 1, page["next"]
        if token is None:
            break
    # and following next reaches every row once
    assert pages >= 2 and sorted(seen) == [f"n{i:03d}" for i in range(100)]
