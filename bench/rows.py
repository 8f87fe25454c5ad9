"""What a tool's list and figure calls cost with 1k, 10k and 100k rows, end to end on the embedded default.

A run log is generated through the API, then one person's runs are written straight into its partition with
BatchWriteItem, as the tool itself would have stored them (rows, and the summary counting them). Over HTTP
through the gateway, the tool's own function answering:
- list, first page: GET /runs (100 rows), 20 times;
- list, a later page: GET /runs?next=<the 5th page's token>, 20 times;
- figures, asked again: GET /stats and GET /week, 20 times each (kept between writes: toolgen/runtime/figures.py);
- the digest built: rows written straight into the partition have none (as a tool's rows made before digests
  had), so the first GET /stats calls build it, a few thousand rows a call (toolgen/runtime/running.py), answering
  over the newest bounds.FIGURE_ROWS meanwhile: how many calls and seconds until /stats counts every row;
- figures after a write: DELETE /runs/{id} then GET /stats, and POST /runs then GET /stats, 10 times each (the
  digest taken the write in: exact over every row, one read).
p50/p95 in ms merge into bench/results.json. The 100k case fills for about a minute: run it once.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from memory import percentile  # bench/memory.py, beside this script
from results import save
from served import wait

SIZES = ((1_000, "1k"), (10_000, "10k"), (100_000, "100k"))
PROMPT = "I want to log my morning runs"


def fill(local, user: str, tool_id: str, count: int) -> float:
    """``count`` runs of ``user`` in the tool's partition, and the seconds it took."""
    from toolgen.ids import sortable_id
    from toolgen.runtime.rows import SUMMARY
    from toolgen.runtime.running import RUNNING
    from toolgen.table import DynamoTable, rows_pk, user_pk

    started = time.perf_counter()
    ddb = local.emulator.client("dynamodb")
    table = DynamoTable(local.resources.table, client=ddb)
    record = table.get(user_pk(user), f"TOOL#{tool_id}")
    assert record is not None, tool_id
    pk = rows_pk(record.get("home") or f"TOOL#{tool_id}", user)
    stamp = "2026-12-01T06:30:00.000Z"
    items = []
    for i in range(count):
        row_id = sortable_id("r")
        day = f"20{24 + i % 3}-{1 + i % 12:02d}-{1 + i % 28:02d}"
        data = {"date": day, "distance": 3 + i % 9, "minutes": 20 + i % 40, "start": "06:30"}
        items.append({"pk": pk, "sk": f"run#{row_id}", "id": row_id, "data": data, "created_at": stamp})
        items[-1]["updated_at"] = stamp
    items.append({"pk": pk, "sk": SUMMARY, "rows": count, "version": 1})
    for start in range(0, len(items), 25):
        batch = [{"PutRequest": {"Item": DynamoTable._encode(item)}} for item in items[start : start + 25]]
        ddb.batch_write_item(RequestItems={local.resources.table: batch})
    # rows stored as before digests were kept: none of them is counted in one (the tool's first call made it)
    table.delete(pk, RUNNING + "run")
    return time.perf_counter() - started


def timed(call) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def timed_or_timeout(call) -> float | None:
    """Milliseconds, or None when the tool's function ran out of time (the gateway's 504)."""
    from toolgen.client import ApiError

    try:
        return timed(call)
    except ApiError as e:
        if e.status != 504:
            raise
        return None


def summary(values: list[float | None]) -> dict[str, float | str]:
    """p50 and p95 in ms; "timeout" where the call at that rank ran out of time (or none could be timed)."""
    ordered = sorted(float("inf") if v is None else v for v in values)

    def shown(value: float) -> float | str:
        return "timeout" if value == float("inf") else round(value, 1)

    if not ordered:
        return {"p50": "timeout", "p95": "timeout"}
    return {"p50": shown(statistics.median_low(ordered)), "p95": shown(percentile(ordered, 0.95))}


def bench_size(local, count: int, label: str) -> dict[str, object]:
    from toolgen import auth
    from toolgen.client import Client

    user = f"rows{label}"
    client = Client(url=local.url, token=auth.mint(user, "bench"))
    job = wait(client, client.api("POST", "/v1/tools", body={"prompt": PROMPT})["job_id"])
    assert job["status"] == "succeeded", job
    setup_s = fill(local, user, job["tool_id"], count)
    base = job["tool_url"].rstrip("/")

    def get(path: str, **query: str) -> dict:
        return client.request("GET", base + path, query=query or None)

    first = [timed(lambda: get("/runs")) for _ in range(20)]
    token = None
    for _ in range(4):  # to the 5th page
        token = get("/runs", **({"next": token} if token else {}))["next"]
    assert token, "fewer than 5 pages"
    later = [timed(lambda: get("/runs", next=token)) for _ in range(20)]
    started, calls = time.perf_counter(), 0
    while calls < 500 and "newest" in get("/stats"):  # the digest built, a few thousand rows a call
        calls += 1
    build_s = time.perf_counter() - started
    computed = [timed_or_timeout(lambda: get("/stats")), timed_or_timeout(lambda: get("/week"))]
    stats = [timed(lambda: get("/stats")) for _ in range(20)] if computed[0] is not None else []
    week = [timed(lambda: get("/week")) for _ in range(20)] if computed[1] is not None else []
    after_write = []
    for row in get("/runs", limit="10")["items"]:  # a delete first: at 100k a create meets the cap (409)
        client.request("DELETE", f"{base}/runs/{row['id']}")
        after_write.append(timed_or_timeout(lambda: get("/stats")))
        client.request("POST", f"{base}/runs", body={"date": "2026-12-01", "distance": 5, "minutes": 30})
        after_write.append(timed_or_timeout(lambda: get("/stats")))
    answer = get("/stats")
    counted = answer["metrics"]["runs"] if "newest" not in answer else f"newest {answer['newest']}"
    return {
        "setup_s": round(setup_s, 1),
        "build_calls": calls,
        "build_s": round(build_s, 1),
        "list_first": summary(first),
        "list_later": summary(later),
        "stats": summary(stats),
        "week": summary(week),
        "stats_after_write": summary(after_write),
        "runs_counted": counted,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1k,10k,100k", help="which sizes (comma-separated labels)")
    args = parser.parse_args()
    wanted = set(args.sizes.split(","))
    from toolgen.local.serve import LocalPlatform

    local = LocalPlatform(port=0, secret="bench")
    local.start()
    results: dict[str, object] = {}
    try:
        print(f"{'rows':>6} {'first page':>16} {'later page':>16} {'/stats':>16} {'/week':>16} {'after a write':>18}")
        for count, label in SIZES:
            if label not in wanted:
                continue
            r = bench_size(local, count, label)
            cells = [r[k] for k in ("list_first", "list_later", "stats", "week", "stats_after_write")]
            shown = "".join(f" {c['p50']:>7} / {c['p95']:<7}" for c in cells)  # type: ignore[index]
            print(
                f"{label:>6}{shown}  (p50 / p95 ms; filled in {r['setup_s']} s; digest built in {r['build_calls']}"
                f" calls, {r['build_s']} s; figures over {r['runs_counted']})"
            )
            results[f"rows_digest_build_calls_{label}"] = r["build_calls"]
            results[f"rows_digest_build_s_{label}"] = r["build_s"]
            results[f"rows_counted_{label}"] = r["runs_counted"]
            for key in ("list_first", "list_later", "stats", "week", "stats_after_write"):
                results[f"rows_{key}_p50_ms_{label}"] = r[key]["p50"]  # type: ignore[index]
                results[f"rows_{key}_p95_ms_{label}"] = r[key]["p95"]  # type: ignore[index]
    finally:
        local.stop()
    print(f"wrote {save(results)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
