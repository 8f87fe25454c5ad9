"""What tools that grow cost a person, end to end on the embedded default (issue 16), over HTTP:

- suggestions: GET /v1/suggestions?tool_id= for a run log of 10, 500 and 5,000 rows, right after a write (its rows
  are mined again: the newest 500) and asked again with nothing written (one BatchGetItem, nothing mined), 10
  times each; and GET /v1/suggestions for a person with 20 tools, one of them written to;
- a revision: POST /v1/tools/{id}/revisions, from the call to the job's end (the whole revise job: read, apply,
  deploy a new version, render, probe), 3 times per size ("also track my heart rate", "rename minutes to
  duration", "stop tracking the note");
- a list after revisions: GET /runs (first page, 100 rows) before any revision and after the rename (every row
  read through its migration), 20 times each.
p50/p95 in ms merge into bench/results.json.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import save
from rows import fill, summary, timed
from served import wait

SIZES = ((10, "10"), (500, "500"), (5_000, "5k"))
FOLLOW_UPS = ("also track my heart rate", "rename minutes to duration", "stop tracking the note")


def bench_size(local, count: int, label: str) -> dict[str, object]:
    from toolgen import auth
    from toolgen.client import Client

    user = f"grow{label}"
    client = Client(url=local.url, token=auth.mint(user, "bench"))
    job = wait(client, client.api("POST", "/v1/tools", body={"prompt": "log my runs"})["job_id"])
    assert job["status"] == "succeeded", job
    tool_id, base = job["tool_id"], job["tool_url"].rstrip("/")
    fill(local, user, tool_id, count)
    path = f"/v1/suggestions?tool_id={tool_id}"
    mined, again = [], []
    for n in range(10):
        client.request("POST", f"{base}/runs", body={"distance": 5, "start": f"06:{10 + n}"})
        mined.append(timed(lambda: client.api("GET", path)))
        again.append(timed(lambda: client.api("GET", path)))
    listed = [timed(lambda: client.request("GET", f"{base}/runs")) for _ in range(20)]
    revisions = []
    for prompt in FOLLOW_UPS:
        started = time.perf_counter()
        accepted = client.api("POST", f"/v1/tools/{tool_id}/revisions", body={"prompt": prompt})
        ended = wait(client, accepted["job_id"])
        assert ended["status"] == "succeeded", ended
        revisions.append((time.perf_counter() - started) * 1000)
    migrated = [timed(lambda: client.request("GET", f"{base}/runs")) for _ in range(20)]
    return {
        "suggestions_after_write": summary(mined),
        "suggestions_again": summary(again),
        "revision_job": summary(revisions),
        "list_before": summary(listed),
        "list_migrated": summary(migrated),
    }


def many_tools(local) -> dict[str, object]:
    """A person with 20 tools, one written to between asks."""
    from toolgen import auth
    from toolgen.client import Client

    client = Client(url=local.url, token=auth.mint("grow20", "bench"))
    prompts = ["log my runs"] + [f"track my {thing}" for thing in ("water", "sleep", "weight", "mood")]
    prompts += [f"a to-do list for {room}" for room in ("the kitchen", "the garden", "work", "the car", "school")]
    prompts += [f"a reading list of {kind}" for kind in ("novels", "poems", "papers", "comics", "essays")]
    prompts += [f"track my {thing}" for thing in ("caffeine", "blood pressure", "steps", "expenses", "study hours")]
    jobs = [wait(client, client.api("POST", "/v1/tools", body={"prompt": p})["job_id"]) for p in prompts]
    run = next(j for j in jobs if j["status"] == "succeeded")
    base = run["tool_url"].rstrip("/")
    client.api("GET", "/v1/suggestions")  # the first look at every tool
    asked = []
    for n in range(10):
        client.request("POST", f"{base}/runs", body={"distance": 5, "start": f"06:{10 + n}"})
        asked.append(timed(lambda: client.api("GET", "/v1/suggestions")))
    return {"tools": sum(j["status"] == "succeeded" for j in jobs), "suggestions_20_tools": summary(asked)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10,500,5k", help="which sizes (comma-separated labels)")
    args = parser.parse_args()
    wanted = set(args.sizes.split(","))
    from toolgen.local.serve import LocalPlatform

    local = LocalPlatform(port=0, secret="bench")
    local.start()
    results: dict[str, object] = {}
    keys = ("suggestions_after_write", "suggestions_again", "revision_job", "list_before", "list_migrated")
    try:
        print(f"{'rows':>6}" + "".join(f" {k:>24}" for k in keys))
        for count, label in SIZES:
            if label not in wanted:
                continue
            r = bench_size(local, count, label)
            print(f"{label:>6}" + "".join(f" {r[k]['p50']:>11} / {r[k]['p95']:<10}" for k in keys))  # type: ignore[index]
            for key in keys:
                results[f"growth_{key}_p50_ms_{label}"] = r[key]["p50"]  # type: ignore[index]
                results[f"growth_{key}_p95_ms_{label}"] = r[key]["p95"]  # type: ignore[index]
        r = many_tools(local)
        shown = r["suggestions_20_tools"]
        print(f"GET /v1/suggestions, {r['tools']} tools, one written to: {shown['p50']} / {shown['p95']} ms")  # type: ignore[index]
        results["growth_suggestions_20_tools_p50_ms"] = shown["p50"]  # type: ignore[index]
        results["growth_suggestions_20_tools_p95_ms"] = shown["p95"]  # type: ignore[index]
    finally:
        local.stop()
    print(f"wrote {save(results)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
