"""What a request pays for memory, end to end on the embedded default: GET /v1/recall over HTTP and the recall
stage of a job, for one person with 10, 1k and 10k memories: 10,000 is what one person may keep
(bounds.MAX_MEMORIES_PER_PERSON). A 100k size wrote ten times that straight into the table, a state the platform
never reaches, and the API function (512 MB) ran out of memory loading it, so `make bench` never reached its end.

For each size the person's memories are written to the table as they would stand after a life of use (with the
snapshot the platform keeps of them in the bucket), then:
- cold: the API's environments are recycled, so the first GET /v1/recall pays a new process, the snapshot's load
  and the ranking;
- warm: 100 GET /v1/recall with different requests, the API process kept;
- after a write: POST /v1/memories, then GET /v1/recall (the warm index catches up from the change log), 20 times;
- jobs: POST /v1/tools for three requests; the recall stage of each job as the job reports it (the first is the
  worker's first sight of this person);
- without a snapshot (1k and 10k only): the first recall of a person whose memories were never indexed, which
  reads every memory once.
The in-memory ranking for the same sizes is bench/memory.py's. Results merge into bench/results.json.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from memory import corpus, percentile  # bench/memory.py, beside this script
from results import save

from toolgen.bounds import MAX_MEMORIES_PER_PERSON

SIZES = ((10, "10"), (1_000, "1k"), (10_000, "10k"))
assert SIZES[-1][0] <= MAX_MEMORIES_PER_PERSON
JOBS = ("rank Tokyo and Paris by temperature this week", "a to-do list for chores", "track my water intake")


def fill_table(local, user: str, count: int) -> tuple[list, str]:
    """``count`` memories of ``user`` in the table, and the memory version they stand at."""
    from toolgen.ids import sortable_id
    from toolgen.table import DynamoTable, user_pk

    memories, prompts = corpus(count, seed=count)
    memories = [m.model_copy(update={"user": user}) for m in memories]
    ddb = local.emulator.client("dynamodb")
    encode = DynamoTable._encode
    table = local.resources.table
    items = [{"pk": user_pk(user), "sk": f"MEM#{m.memory_id}", **m.model_dump()} for m in memories]
    version = sortable_id("v")
    items.append({"pk": user_pk(user), "sk": "PROFILE", "memory_version": version})
    for start in range(0, len(items), 25):
        batch = [{"PutRequest": {"Item": encode(item)}} for item in items[start : start + 25]]
        ddb.batch_write_item(RequestItems={table: batch})
    return memories, version, prompts


def wait(client, job_id: str, timeout_s: float = 180) -> dict:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        job = client.api("GET", f"/v1/jobs/{job_id}")
        if job["status"] in ("succeeded", "failed", "needs_clarification", "refused"):
            return job
        time.sleep(0.2)
    raise TimeoutError(f"job {job_id} did not end in {timeout_s} s")


def timed(call) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def summary(values: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(values), 1), "p95": round(percentile(values, 0.95), 1)}


def bench_size(local, count: int, label: str, *, jobs: bool) -> dict[str, object]:
    from toolgen import auth
    from toolgen.client import Client
    from toolgen.ids import id_time
    from toolgen.local.platform import API_FUNCTION
    from toolgen.memory.snapshot import Snapshot, SnapshotStore

    user = f"served{label}"
    started = time.perf_counter()
    memories, version, prompts = fill_table(local, user, count)
    SnapshotStore(local.resources.bucket, client=local.emulator.client("s3")).put(
        user, Snapshot(version, id_time(version), memories, {}, None)
    )
    setup_s = time.perf_counter() - started
    client = Client(url=local.url, token=auth.mint(user, "bench"))

    def recall(prompt: str) -> None:
        client.api("GET", "/v1/recall", query={"prompt": prompt})

    local.runtime._discard_idle(API_FUNCTION)  # a cold API process
    cold = timed(lambda: recall(prompts[0]))
    warm = [timed(lambda p=p: recall(p)) for p in prompts[1:101]]
    after_write = []
    for i in range(20):
        client.api("POST", "/v1/memories", body={"text": f"served note {i}: I like green tea on sundays"})
        after_write.append(timed(lambda i=i: recall(prompts[101 + i])))
    result: dict[str, object] = {
        "setup_s": round(setup_s, 1),
        "cold_ms": round(cold, 1),
        "warm": summary(warm),
        "after_write": summary(after_write),
    }
    if jobs:
        stages = []
        for prompt in JOBS:
            job_id = client.api("POST", "/v1/tools", body={"prompt": prompt})["job_id"]
            job = wait(client, job_id)
            stages.append(next(s["ms"] for s in job["stages"] if s["name"] == "recall"))
        result["job_recall_ms"] = stages
    return result


def bench_unindexed(local, count: int, label: str) -> float:
    """The first recall of a person with no snapshot: every memory read once (then a snapshot is written)."""
    from toolgen import auth
    from toolgen.client import Client

    user = f"unindexed{label}"
    _, _, prompts = fill_table(local, user, count)
    client = Client(url=local.url, token=auth.mint(user, "bench"))
    return round(timed(lambda: client.api("GET", "/v1/recall", query={"prompt": prompts[0]})), 1)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10,1k,10k", help="which sizes (comma-separated labels)")
    args = parser.parse_args()
    wanted = set(args.sizes.split(","))
    from toolgen.local.serve import LocalPlatform

    local = LocalPlatform(port=0, secret="bench")
    local.start()
    results: dict[str, object] = {}
    try:
        head = f"{'memories':>9} {'cold ms':>8} {'warm p50':>9} {'warm p95':>9} {'write p50':>10} {'write p95':>10}"
        print(f"{head}  job recall ms")
        for count, label in SIZES:
            if label not in wanted:
                continue
            r = bench_size(local, count, label, jobs=True)
            warm, write = r["warm"], r["after_write"]
            print(
                f"{label:>9} {r['cold_ms']:>8} {warm['p50']:>9} {warm['p95']:>9} {write['p50']:>10} {write['p95']:>10}"
                f"  {r['job_recall_ms']}   (setup {r['setup_s']} s)"
            )
            results[f"served_recall_cold_ms_{label}"] = r["cold_ms"]
            results[f"served_recall_p50_ms_{label}"] = warm["p50"]
            results[f"served_recall_p95_ms_{label}"] = warm["p95"]
            results[f"served_recall_after_write_p95_ms_{label}"] = write["p95"]
            results[f"job_recall_stage_ms_{label}"] = r["job_recall_ms"]
        for count, label in ((1_000, "1k"), (10_000, "10k")):
            if label in wanted:
                ms = bench_unindexed(local, count, label)
                print(f"first recall with no snapshot, {label} memories: {ms} ms")
                results[f"served_recall_unindexed_ms_{label}"] = ms
    finally:
        local.stop()
    print(f"wrote {save(results)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
