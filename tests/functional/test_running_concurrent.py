"""Running figures under concurrent writes, on moto's DynamoDB (the emulator every tool uses locally).

Writers create, change and delete rows from several threads while a reader asks for the figures (each ask may
rebuild the digest while rows are being written); afterwards the digest's answer is the answer over every row,
and a write that could not be taken in leaves the digest stale rather than wrong (running.py's protocol).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import threading
import time
from typing import Any

import pytest

from tests.unit.test_running import TODAY, program, random_row, same
from toolgen import awslite
from toolgen.ids import sortable_id
from toolgen.runtime import operations, running
from toolgen.runtime.rows import RowStore
from toolgen.table import DynamoTable


def store(table: DynamoTable, pk: str) -> RowStore:
    return RowStore(table, f"TOOL#{pk}", "al", program())


def figures(rows: RowStore, op_id: str) -> dict[str, Any]:
    op = next(o for o in rows.program.operations if o.id == op_id)
    return operations.aggregate(rows.program, op, rows, {}, TODAY)


def every_row(rows: RowStore, op_id: str) -> dict[str, Any]:
    op = next(o for o in rows.program.operations if o.id == op_id)
    read = rows.recent("reading", 100_000)
    return operations._over(
        rows.program.entities["reading"], op, read, {}, operations.constants(rows.program, op), TODAY
    )


@pytest.mark.parametrize(("client", "chunk"), [("boto3", 1_000), ("awslite", 1_000), ("boto3", 4)])
def test_concurrent_writes_and_reads_leave_the_digest_exact(aws_env, client, chunk, monkeypatch):
    """``chunk`` 4: each ask builds the digest a few rows a page, for at most 10 ms, while the writers write; the
    window is 10 rows, so that until it is built an answer is partial (and not kept: each ask builds on)."""
    monkeypatch.setattr(running, "CHUNK", chunk)
    # a write that died between its start and its end is in flight until this long after its start: short here,
    # so that asking on recovers within the test
    monkeypatch.setattr(running, "STUCK_MS", 2_000)
    if chunk < 100:
        monkeypatch.setattr(running, "BUILD_S", 0.01)
        monkeypatch.setattr(operations, "FIGURE_ROWS", 10)
    table = DynamoTable(aws_env.table, client=awslite.Client("dynamodb") if client == "awslite" else None)
    pk = sortable_id("t")
    seeded = store(table, pk)
    ids = [seeded.create("reading", random_row(random.Random(i)))["id"] for i in range(10)]
    figures(seeded, "stats")  # the digest is built: from here every write keeps it
    if chunk < 100:  # lost: the reader builds it again, a few pages an ask, between and around the writes
        table.delete(f"TOOL#{pk}#al", running.RUNNING + "reading")
    lock = threading.Lock()
    failures: list[BaseException] = []

    def writer(seed: int) -> None:
        rng, rows = random.Random(seed), store(table, pk)
        try:
            for _ in range(25):
                roll = rng.random()
                if roll < 0.6:
                    made = rows.create("reading", random_row(rng))
                    with lock:
                        ids.append(made["id"])
                    continue
                with lock:
                    if not ids:
                        continue
                    row_id = ids.pop(rng.randrange(len(ids))) if roll > 0.85 else rng.choice(ids)
                if roll > 0.85:
                    rows.delete("reading", row_id)
                else:
                    rows.update("reading", row_id, {"kwh": round(rng.uniform(0, 10), 1), "meter": rng.choice("abc")})
        except BaseException as e:  # noqa: BLE001 - reported by the test below
            failures.append(e)

    def reader() -> None:
        rows = store(table, pk)
        try:
            for _ in range(15):
                figures(rows, "stats")
                figures(rows, "byMeter")
        except BaseException as e:  # noqa: BLE001
            failures.append(e)

    threads = [threading.Thread(target=writer, args=(seed,)) for seed in range(4)] + [threading.Thread(target=reader)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    if chunk < 100:  # a write that died after its start (its token stays in "writing"), and a start retried
        dead = running._token(int(time.time() * 1000))
        table.add(f"TOOL#{pk}#al", running.RUNNING + "reading", {"seq": 1, "writing": frozenset({dead})})
        table.add(f"TOOL#{pk}#al", running.RUNNING + "reading", {"seq": 1, "writing": frozenset({dead})})
    check_settled(table, pk)


def check_settled(table: DynamoTable, pk: str) -> None:
    """Whatever the interleaving, a digest that says it has taken in every write answers as every row does; and
    asking on (a build a few pages at a time) makes it current."""
    rows = store(table, pk)
    plan = rows.running_plan("reading")
    assert plan is not None
    item = table.get(f"TOOL#{pk}#al", running.RUNNING + "reading") or {}
    settled = item.get("state") and item.get("version") == item.get("seq") and not item.get("writing")
    state = json.loads(item["state"]) if settled else None
    for op_id in ("stats", "byMeter"):
        op = next(o for o in rows.program.operations if o.id == op_id)
        if state is not None and running.known(state):
            names = operations.constants(rows.program, op)
            kept = running.figures(plan, rows.program.entities["reading"], op, state, names, TODAY)
            same(kept, every_row(rows, op_id))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        item = table.get(f"TOOL#{pk}#al", running.RUNNING + "reading") or {}
        # a write that died is in flight until STUCK_MS after its start: asking on then builds the digest again
        if item.get("state") and item.get("version") == item.get("seq") and not item.get("writing"):
            break
        figures(rows, "stats")
        time.sleep(0.02)
    assert item.get("state") and item["version"] == item["seq"]
    assert not item.get("writing") and not item.get("lease")
    for op_id in ("stats", "byMeter"):
        same(figures(rows, op_id), every_row(rows, op_id))


def test_a_write_from_a_process_on_another_revision_leaves_the_digest_stale(aws_env):
    table = DynamoTable(aws_env.table)
    pk = sortable_id("t")
    rows = store(table, pk)
    for i in range(5):
        rows.create("reading", {"date": (TODAY - dt.timedelta(days=i)).isoformat(), "kwh": i})
    assert figures(rows, "stats")["metrics"]["kwh"] == 10
    older = RowStore(table, f"TOOL#{pk}", "al", program().model_copy(update={"revision": 2}))
    older.create("reading", {"date": TODAY.isoformat(), "kwh": 7})  # counts nothing into a digest of another shape
    item = table.get(f"TOOL#{pk}#al", running.RUNNING + "reading")
    assert item["version"] == item["seq"] - 1
    assert figures(store(table, pk), "stats")["metrics"]["kwh"] == 17  # read as stale, rebuilt from the rows


@pytest.mark.parametrize("client", ["boto3", "awslite"])
def test_a_start_or_end_sent_twice_counts_its_write_once(aws_env, client):
    """A loaded emulator may apply a request whose answer is lost, and the client sends it again. A write's end
    sent twice once left the count of writes in flight at -1 for good: the digest was never settled again, and
    the next write's start counted 0 in flight while it wrote, so a build could read past its row. Each write is
    now one member of a set, which a retry adds or takes out to the same effect."""
    table = DynamoTable(aws_env.table, client=awslite.Client("dynamodb") if client == "awslite" else None)
    pk = sortable_id("t")
    rows = store(table, pk)
    for i in range(3):
        rows.create("reading", {"date": (TODAY - dt.timedelta(days=i)).isoformat(), "kwh": i + 1})
    assert figures(rows, "stats")["metrics"]["kwh"] == 6
    plan = rows.running_plan("reading")
    assert plan is not None
    first = running.begin(table, rows.pk, plan)
    running.finish(table, rows.pk, plan, first)
    running.finish(table, rows.pk, plan, first)  # the end again, as a retry sends it
    table.add(rows.pk, running.RUNNING + "reading", {"seq": 1})  # a start sent twice moved seq twice: stale
    second = running.begin(table, rows.pk, plan)
    item = table.get(rows.pk, running.RUNNING + "reading") or {}
    assert item["writing"] == [second.token]  # in flight: exactly the write that is
    assert rows.running("reading", plan) == (None, False)  # stale, and no build while it writes
    assert not (table.get(rows.pk, running.RUNNING + "reading") or {}).get("lease")
    running.finish(table, rows.pk, plan, second)
    item = table.get(rows.pk, running.RUNNING + "reading") or {}
    assert "writing" not in item and item["version"] < item["seq"]  # the gap stays: a build follows
    rows.create("reading", {"date": TODAY.isoformat(), "kwh": 4})
    state, _ = rows.running("reading", plan)
    assert state is not None  # built again from the rows, the last write's row among them
    names = operations.constants(rows.program, next(o for o in rows.program.operations if o.id == "stats"))
    op = next(o for o in rows.program.operations if o.id == "stats")
    kept = running.figures(plan, rows.program.entities["reading"], op, state, names, TODAY)
    assert kept["metrics"]["kwh"] == 10
