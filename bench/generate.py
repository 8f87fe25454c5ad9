"""Time tool generation on the embedded default, stage by stage (figures, not pass/fail).

Starts the platform in this process on a free port, asks for tools over HTTP like `toolgen new` does, and reports
the median and p95 of each stage and of the whole request (POST to "succeeded"), after a warm-up request: for a
first request (a new person: plan, deploy, render, probe) and for its repeat (the same plan: the tool is reused
and probed). Writes bench/results.json.
"""

from __future__ import annotations

import argparse
import platform as host
import statistics
import time

from results import save  # bench/results.py, beside this script

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
    accepted = client.api("POST", "/v1/tools", body={"prompt": prompt})
    if accepted["status"] == "succeeded":  # answered at once (a repeat): the job is read once, not waited for
        elapsed = (time.perf_counter() - started) * 1000
        return elapsed, client.api("GET", f"/v1/jobs/{accepted['job_id']}")
    while (job := client.api("GET", f"/v1/jobs/{accepted['job_id']}"))["status"] in ("queued", "running"):
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
        generate(Client(url=local.url, token=auth.mint("warmup", secret)), PROMPTS[0])  # the shared layer's cold start
        firsts, repeats, stages = [], [], {s: [] for s in STAGES}
        for i in range(args.runs):
            # each run is a new person, so the first request plans and deploys; the repeat reuses it
            client = Client(url=local.url, token=auth.mint(f"bench{i}", secret))
            elapsed, job = generate(client, PROMPTS[i % len(PROMPTS)])
            firsts.append(elapsed)
            for stage in job["stages"]:
                stages[stage["name"]].append(stage["ms"])
            elapsed, job = generate(client, PROMPTS[i % len(PROMPTS)])
            assert job["reused"], "a repeat request should reuse the tool"
            repeats.append(elapsed)
    finally:
        local.stop()
    first, repeat = statistics.median(firsts), statistics.median(repeats)
    results = {
        "machine": f"{host.machine()} {host.python_implementation()} {host.python_version()}",
        "runs": args.runs,
        "generate_first_ms_p50": round(first, 1),
        "generate_first_ms_p95": round(p95(firsts), 1),
        "generate_repeat_ms_p50": round(repeat, 1),
        "generate_repeat_ms_p95": round(p95(repeats), 1),
        "repeat_speedup_pct": round(100 * (1 - repeat / first), 1),
        "stage_ms": {s: round(statistics.median(v), 1) for s, v in stages.items()},
        "stage_ms_p95": {s: round(p95(v), 1) for s, v in stages.items()},
    }
    print(f"tool generation on the embedded default, {args.runs} runs after a warm-up ({results['machine']})")
    print(f"{'stage':<10}{'p50 ms':>10}{'p95 ms':>10}")
    for s in STAGES:
        print(f"{s:<10}{results['stage_ms'][s]:>10}{results['stage_ms_p95'][s]:>10}")
    first_p50, first_p95 = results["generate_first_ms_p50"], results["generate_first_ms_p95"]
    print(f"{'first':<10}{first_p50:>10}{first_p95:>10}   (POST to succeeded)")
    print(
        f"{'repeat':<10}{results['generate_repeat_ms_p50']:>10}{results['generate_repeat_ms_p95']:>10}   "
        f"({results['repeat_speedup_pct']}% faster)"
    )
    print(f"wrote {save(results)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
