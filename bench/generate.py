"""Time tool generation on the embedded default, stage by stage (figures, not pass/fail).

Starts the platform in this process on a free port, asks for tools over HTTP like `toolgen new` does, and reports
the median and p95 of each stage and of the whole request (POST to "succeeded"), after a warm-up request.
Writes bench/results.json.
"""

from __future__ import annotations

import argparse
import json
import platform as host
import statistics
import time
from pathlib import Path

from toolgen import auth
from toolgen.client import Client
from toolgen.local.serve import LocalPlatform

PROMPTS = [
    "I want to log my morning runs",
    "我想记录每天晨跑",
    "a todo list for chores",
    "convert kilometers to miles",
    "track my daily reading habit",
]
STAGES = ["classify", "recall", "plan", "specify", "deploy", "render", "probe"]


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def generate(client: Client, prompt: str) -> tuple[float, dict]:
    started = time.perf_counter()
    job_id = client.api("POST", "/v1/tools", body={"prompt": prompt})["job_id"]
    while (job := client.api("GET", f"/v1/jobs/{job_id}"))["status"] in ("queued", "running"):
        time.sleep(0.005)
    elapsed = (time.perf_counter() - started) * 1000
    if job["status"] != "succeeded":
        raise SystemExit(f"bench: {prompt!r} ended {job['status']}: {job['error']}")
    return elapsed, job


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    secret = "bench-secret"
    local = LocalPlatform(port=0, secret=secret)
    local.start()
    try:
        client = Client(url=local.url, token=auth.mint("bench", secret))
        generate(client, PROMPTS[0])  # warm-up: the first tool's cold start of the shared layer is paid once
        totals, stages = [], {s: [] for s in STAGES}
        for i in range(args.runs):
            elapsed, job = generate(client, PROMPTS[i % len(PROMPTS)])
            totals.append(elapsed)
            for stage in job["stages"]:
                stages[stage["name"]].append(stage["ms"])
    finally:
        local.stop()
    results = {
        "machine": f"{host.machine()} {host.python_implementation()} {host.python_version()}",
        "runs": args.runs,
        "generate_ms_p50": round(statistics.median(totals), 1),
        "generate_ms_p95": round(p95(totals), 1),
        "stage_ms_p50": {s: round(statistics.median(v), 1) for s, v in stages.items()},
        "stage_ms_p95": {s: round(p95(v), 1) for s, v in stages.items()},
    }
    print(f"tool generation on the embedded default, {args.runs} runs after a warm-up ({results['machine']})")
    print(f"{'stage':<10}{'p50 ms':>10}{'p95 ms':>10}")
    for s in STAGES:
        print(f"{s:<10}{results['stage_ms_p50'][s]:>10}{results['stage_ms_p95'][s]:>10}")
    print(f"{'request':<10}{results['generate_ms_p50']:>10}{results['generate_ms_p95']:>10}   (POST to succeeded)")
    out = Path(__file__).with_name("results.json")
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
