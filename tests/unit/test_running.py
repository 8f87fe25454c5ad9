"""Running figures (toolgen/runtime/running.py): all-time figures kept by every write, exact at any row count.

Every answer the digest gives is checked against the same operation computed over every row the tool keeps
(operations._over, the rows path), after random creates, updates and deletes through the tool's own API.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import threading
import time
from typing import Any

import pytest

from tests.unit.test_runtime_series_prev_inputs import TODAY, Tool
from toolgen.program import ToolProgram
from toolgen.runtime import operations, running
from toolgen.runtime.rows import RowStore

ALL_TIME = {
    "n": "count()",
    "metered": "count(meter)",
    "kwh": "round(sum(kwh), 2)",
    "mean": "round(avg(kwh), 2)",
    "lo": "min(kwh)",
    "hi": "max(kwh)",
    "first": "first(kwh)",
    "last": "last(kwh)",
    "change": "round(last(kwh) - first(kwh), 2)",
    "days": "streak(date)",
    "a": "count_where(meter, 'a')",
    "checked": "count_where(checked, True)",
    "since": "days_since(min(date))",
    "whole": "sum(units)",
    "left": "max(goal - sum(units), 0)",
    "transfers": "settle(meter, kwh, people)",
    "opening": "kwh[0]",
    "closing": "units[-1]",
}
COUNTS = {  # count_where as Python compares: a null counts, and True is 1
    "unmetered": "count_where(meter, None)",
    "ones": "count_where(units, True)",
    "checked_ones": "count_where(checked, 1)",
    "n": "count()",
}
BY_METER = {"n": "count()", "kwh": "round(sum(kwh), 2)", "hi": "max(kwh)", "lo": "min(units)", "last": "last(kwh)"}


def program(extra: list[dict[str, Any]] | None = None) -> ToolProgram:
    entity = "reading"
    return ToolProgram.model_validate(
        {
            "name": "meter",
            "title": "Meter",
            "archetype": "custom_log",
            "entities": {
                entity: {
                    "fields": {
                        "date": "date",
                        "kwh": "number",
                        "units": "integer",
                        "meter": {"type": "string", "enum": ["c", "a", "b"]},
                        "checked": "boolean",
                    }
                }
            },
            "operations": [
                {"id": "add", "kind": "create", "path": "/readings", "entity": entity},
                {"id": "edit", "kind": "update", "method": "PATCH", "path": "/readings/{id}", "entity": entity},
                {"id": "remove", "kind": "delete", "path": "/readings/{id}", "entity": entity},
                {
                    "id": "stats",
                    "kind": "aggregate",
                    "path": "/stats",
                    "entity": entity,
                    "metrics": ALL_TIME,
                    "constants": {"goal": 400, "people": ["a", "b", "c", "d"]},
                    "filters": ["meter"],
                },
                {
                    "id": "byMeter",
                    "kind": "aggregate",
                    "path": "/by",
                    "entity": entity,
                    "group_by": "meter",
                    "metrics": BY_METER,
                },
                {"id": "counts", "kind": "aggregate", "path": "/counts", "entity": entity, "metrics": COUNTS},
                {
                    "id": "byKwh",
                    "kind": "aggregate",
                    "path": "/bykwh",
                    "entity": entity,
                    "group_by": "kwh",
                    "metrics": {"n": "count()", "units": "sum(units)"},
                },
                *(extra or []),
            ],
        }
    )


def random_row(rng: random.Random) -> dict[str, Any]:
    row: dict[str, Any] = {"date": (TODAY - dt.timedelta(days=rng.randrange(12))).isoformat()}
    for name, value in (
        ("kwh", rng.choice([round(rng.uniform(0, 10), 1), float(rng.randrange(4))])),  # 2.0 is read back as 2
        ("units", rng.randrange(-3, 40)),
        ("meter", rng.choice("abc")),
        ("checked", rng.random() < 0.5),
    ):
        if rng.random() < 0.85:  # a field left out: null, which figures skip
            row[name] = value
    return row


def over_every_row(tool: Tool, op_id: str) -> dict[str, Any]:
    """The operation over every row, as the rows path computes it (no window)."""
    prog = tool.app.program
    op = next(o for o in prog.operations if o.id == op_id)
    rows = RowStore(tool.table, tool.app.home, "al", prog).recent("reading", 100_000)
    entity = prog.entities["reading"]
    return operations._over(entity, op, rows, {}, {**operations.constants(prog, op)}, TODAY)


def digest_item(tool: Tool) -> dict[str, Any]:
    return next(item for (pk, sk), item in tool.table.items.items() if sk == running.RUNNING + "reading")


def churn(tool: Tool, rng: random.Random, writes: int, ids: list[str]) -> None:
    for _ in range(writes):
        roll = rng.random()
        if roll < 0.6 or not ids:
            status, body = tool.call("POST", "/readings", random_row(rng))
            assert status == 201, body
            ids.append(body["id"])
        elif roll < 0.8:
            changes = {k: v for k, v in random_row(rng).items() if rng.random() < 0.5} or {"kwh": 1.5}
            assert tool.call("PATCH", f"/readings/{rng.choice(ids)}", changes)[0] == 200
        else:
            assert tool.call("DELETE", f"/readings/{ids.pop(rng.randrange(len(ids)))}")[0] == 204


@pytest.mark.parametrize("kept", [1, 2, running.K])
@pytest.mark.parametrize("seed", range(8))
def test_figures_from_the_digest_equal_figures_over_every_row_after_any_writes(seed, kept, monkeypatch):
    """``kept``: extremes kept on each side; 1 and 2 lose them to deletes often, so rebuilds are tested too."""
    monkeypatch.setattr(running, "K", kept)
    rng = random.Random(seed)
    tool, ids = Tool(program()), []
    for _ in range(6):
        churn(tool, rng, rng.randrange(1, 25), ids)
        for op_id, path in (("stats", "/stats"), ("byMeter", "/by"), ("byKwh", "/bykwh"), ("counts", "/counts")):
            same(tool.get(path), over_every_row(tool, op_id))
        item = digest_item(tool)
        assert item["version"] == item["seq"]  # current: kept by the writes, or rebuilt by the read


def same(got: dict[str, Any], want: dict[str, Any]) -> None:
    """The same answer; a sum may differ in its last rounded digit (the digest's is exact, the rows' a float)."""
    assert set(got) == set(want)
    pairs = [(got["metrics"], want["metrics"])] if "metrics" in want else []
    if "groups" in want:
        assert [g["key"] for g in got["groups"]] == [g["key"] for g in want["groups"]]
        pairs = [(a["metrics"], b["metrics"]) for a, b in zip(got["groups"], want["groups"], strict=True)]
    for a, b in pairs:
        assert set(a) == set(b)
        for name in b:
            numbers = isinstance(b[name], int | float) and not isinstance(b[name], bool)
            assert a[name] == (pytest.approx(b[name], abs=0.0100001) if numbers else b[name]), (name, a, b)


def test_each_write_keeps_the_digest_without_reading_the_rows(monkeypatch):
    """After the first figures call builds it, writes keep it current: the next figures read no row."""
    tool, rng, ids = Tool(program()), random.Random(7), []
    churn(tool, rng, 30, ids)
    tool.get("/stats")
    read: list[int] = []
    real = RowStore.recent
    monkeypatch.setattr(RowStore, "recent", lambda self, entity, most: read.append(most) or real(self, entity, most))
    churn(tool, rng, 30, ids)
    answer = tool.get("/stats")
    assert read == []
    same(answer, over_every_row(tool, "stats"))


def test_all_time_figures_count_every_row_past_the_window(monkeypatch):
    """With more rows than the window the rows path reads, the digest still counts every one."""
    monkeypatch.setattr(operations, "FIGURE_ROWS", 20)
    tool = Tool(program())
    tool.get("/stats")  # built while empty: every later row is counted as it is written
    for i in range(50):
        assert tool.call("POST", "/readings", {"date": "2026-12-01", "kwh": 1, "units": i})[0] == 201
    answer = tool.get("/stats")
    assert "newest" not in answer
    assert answer["metrics"]["n"] == 50 and answer["metrics"]["whole"] == sum(range(50))


@pytest.mark.parametrize("seed", range(4))
def test_a_digest_lost_is_built_again_a_page_a_call_while_rows_are_written(monkeypatch, seed):
    """Built a page of rows per figures call (as 100,000 rows are, a few thousand a call), with rows created,
    changed and deleted between the calls on both sides of where the build has read to: until it is done the
    figures are over the newest rows, said so; then exact."""
    monkeypatch.setattr(operations, "FIGURE_ROWS", 10)
    monkeypatch.setattr(running, "CHUNK", 7)
    monkeypatch.setattr(running, "BUILD_S", -1.0)  # one page a call
    rng, tool, ids = random.Random(seed), Tool(program()), []
    churn(tool, rng, 80, ids)
    key = next(k for k in tool.table.items if k[1] == running.RUNNING + "reading")
    tool.table.items.pop(key, None)  # lost (or never built): the next figures call starts building
    calls = 0
    while "newest" in (answer := tool.get("/stats")):
        assert answer["metrics"]["n"] == 10
        churn(tool, rng, 3, ids)
        calls += 1
        assert calls < 100
    assert calls >= 3  # it took several pages, with writes between them
    same(answer, over_every_row(tool, "stats"))
    churn(tool, rng, 20, ids)  # and kept from then on
    same(tool.get("/stats"), over_every_row(tool, "stats"))
    same(tool.get("/by"), over_every_row(tool, "byMeter"))


def test_deleting_every_kept_extreme_rebuilds_the_digest():
    tool = Tool(program())
    ids = []
    for value in range(30):
        status, body = tool.call("POST", "/readings", {"date": "2026-12-01", "kwh": float(value), "units": value})
        assert status == 201
        ids.append(body["id"])
        if value == 0:
            tool.get("/stats")
    for row_id in ids[: running.K + 2]:  # the K smallest and more: the next smallest is not kept
        assert tool.call("DELETE", f"/readings/{row_id}")[0] == 204
    assert not running.known(json.loads(digest_item(tool)["state"]))
    stats = tool.get("/stats")["metrics"]
    assert stats["lo"] == running.K + 2 and stats["hi"] == 29 and stats["n"] == 30 - running.K - 2
    assert running.known(json.loads(digest_item(tool)["state"]))  # built anew from the rows


def test_a_filter_asked_or_an_operation_the_digest_cannot_answer_reads_rows():
    extra = [
        {
            "id": "weekly",
            "kind": "aggregate",
            "path": "/week",
            "entity": "reading",
            "period": "week",
            "metrics": {"kwh": "sum(kwh)"},
        },
        {
            "id": "spread",
            "kind": "aggregate",
            "path": "/spread",
            "entity": "reading",
            "metrics": {"dearest": "max(kwh * units)", "pick": "pick(meter)", "second": "kwh[1]"},
        },
    ]
    tool, rng, ids = Tool(program(extra)), random.Random(3), []
    churn(tool, rng, 40, ids)
    plan = RowStore(tool.table, tool.app.home, "al", tool.app.program).running_plan("reading")
    assert plan is not None and plan.ops == {"stats", "byMeter", "byKwh", "counts"}
    filtered = tool.get("/stats", meter="a")["metrics"]
    rows = RowStore(tool.table, tool.app.home, "al", tool.app.program).recent("reading", 1000)
    assert filtered["n"] == sum(1 for r in rows if r.get("meter") == "a")
    assert tool.get("/spread")["metrics"]["dearest"] == over_every_row(tool, "spread")["metrics"]["dearest"]


@pytest.mark.parametrize(
    ("metric", "needs"),
    [
        ("round(avg(kwh), 2)", {"kwh": {"s"}}),
        ("days_since(min(date))", {"date": {"lo"}}),
        ("last(kwh) - first(kwh)", {"kwh": {"ord"}}),
        ("count_where(meter, 'a') + count()", {"meter": {"v"}}),
        ("streak(date)", {"date": {"v"}}),
        ("count(meter)", {"meter": set()}),
        ("max(goal - sum(units), 0)", {"units": {"s"}}),
        ("sum(kwh * units)", None),  # a column in arithmetic: only rows can answer
        ("kwh[0] - units[-1]", {"kwh": {"head"}, "units": {"tail"}}),
        ("settle(meter, kwh)", {"meter": set(), "kwh": {"by:meter"}}),
        ("kwh[1]", None),
        ("settle(meter, meter)", None),
        ("pick(meter)", None),
        ("sum(meter)", None),  # not a number
        ("count_where(meter, meter)", None),
        ("min(kwh, units)", None),
    ],
)
def test_what_a_metric_needs_of_its_columns(metric, needs):
    types = {"date": "date", "kwh": "number", "units": "integer", "meter": "string"}
    op = ToolProgram.model_validate(
        {
            "name": "m",
            "title": "M",
            "archetype": "custom_log",
            "entities": {"r": {"fields": {"date": "date", "kwh": "number", "units": "integer", "meter": "string"}}},
            "operations": [
                {
                    "id": "s",
                    "kind": "aggregate",
                    "path": "/s",
                    "entity": "r",
                    "metrics": {"x": metric},
                    "constants": {"goal": 5},
                },
            ],
        }
    ).operations[0]
    assert running._column_needs(op, types) == needs


def test_a_revision_gives_the_digest_another_shape():
    first = program()
    second = first.model_copy(update={"revision": 2})
    assert running.plan_for(first, "reading").shape != running.plan_for(second, "reading").shape


def test_a_write_waits_while_a_build_reads_rows(monkeypatch):
    """A build holds a lease while it reads a page: a write that starts meanwhile waits for it (so that no row
    is read half-written and counted twice, or not at all), then is counted as the build left the digest."""
    monkeypatch.setattr(running, "CHUNK", 5)
    tool, rng, ids = Tool(program()), random.Random(5), []
    churn(tool, rng, 30, ids)
    tool.table.items.pop(next(k for k in tool.table.items if k[1] == running.RUNNING + "reading"))
    done: list[float] = []
    reading = threading.Event()
    real = tool.table.query_page

    def slow_page(*args: Any, **kwargs: Any) -> Any:
        if not reading.is_set() and kwargs.get("limit") == 5:
            reading.set()
            time.sleep(0.3)  # a slow page, as 1,000 rows are in the emulator
        return real(*args, **kwargs)

    def write() -> None:
        reading.wait()
        assert tool.call("POST", "/readings", {"date": "2026-12-09", "kwh": 9.5})[0] == 201
        done.append(time.monotonic())

    monkeypatch.setattr(tool.table, "query_page", slow_page)
    writer = threading.Thread(target=write)
    writer.start()
    tool.get("/stats")
    built = time.monotonic()
    writer.join()
    assert done and done[0] >= built - 0.05  # the write finished only once the build let go
    same(tool.get("/stats"), over_every_row(tool, "stats"))


def test_figures_asked_while_a_write_is_in_flight_are_not_kept_without_it(monkeypatch):
    """A figure computed between a write's row and its change reaching the digest leaves the write out; it must
    not be kept as current once the write has finished."""
    tool = Tool(program())
    assert tool.call("POST", "/readings", {"date": "2026-12-01", "kwh": 1.0})[0] == 201
    tool.get("/stats")
    inside, go = threading.Event(), threading.Event()
    real = running._take_in

    def paused(*args: Any, **kwargs: Any) -> None:
        inside.set()
        go.wait(5)
        real(*args, **kwargs)

    monkeypatch.setattr(running, "_take_in", paused)
    writer = threading.Thread(target=lambda: tool.call("POST", "/readings", {"date": "2026-12-02", "kwh": 2.0}))
    writer.start()
    inside.wait(5)
    during = tool.get("/stats")["metrics"]["n"]  # the digest as of the writes that finished
    go.set()
    writer.join()
    assert during == 1 and tool.get("/stats")["metrics"]["n"] == 2


def test_a_digest_grown_past_an_item_is_given_up_and_writes_go_on(monkeypatch):
    monkeypatch.setattr(running, "MAX_STATE", 2_000)  # bytes
    extra = [{"id": "byNote", "kind": "aggregate", "path": "/bynote", "entity": "reading", "group_by": "date",
              "metrics": {"n": "count()", "kwh": "sum(kwh)"}}]  # fmt: skip
    tool = Tool(program(extra))
    tool.get("/bynote")  # built while empty
    for day in range(40):  # each a group of its own: the digest grows past its bound
        status, _ = tool.call("POST", "/readings", {"date": f"2026-11-{1 + day % 28:02d}", "kwh": day % 5})
        assert status == 201
    item = digest_item(tool)
    assert item.get("skip") == RowStore(tool.table, tool.app.home, "al", tool.app.program).running_plan("reading").shape
    same(tool.get("/bynote"), over_every_row(tool, "byNote"))
    same(tool.get("/stats"), over_every_row(tool, "stats"))


def test_figures_of_a_shape_given_up_are_kept_between_writes(monkeypatch):
    monkeypatch.setattr(running, "MAX_VALUES", 3)  # a streak over more days than this is not counted
    monkeypatch.setattr(operations, "FIGURE_ROWS", 5)
    tool = Tool(program())
    for day in range(8):
        assert tool.call("POST", "/readings", {"date": f"2026-12-0{1 + day}", "kwh": 1.0})[0] == 201
    first = tool.get("/stats")
    assert first["newest"] == 5  # over the newest rows, for good: said so
    read: list[int] = []
    real = RowStore.recent
    monkeypatch.setattr(RowStore, "recent", lambda self, entity, most: read.append(most) or real(self, entity, most))
    assert tool.get("/stats") == first and read == []  # kept: asking again reads no row
