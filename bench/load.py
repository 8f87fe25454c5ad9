"""A bounded load test on loopback: many people generating tools at once, then many callers on one tool.

The platform runs as `toolgen serve` in its own process; this process is the load (threads, one keep-alive
connection each). Phase 1: PEOPLE people ask for a tool at the same time and wait for their jobs. Phase 2:
CALLERS callers each write WRITES rows to one tool, far beyond its reserved concurrency of 5: a 429 must come
with Retry-After, which the caller honours before trying again; a timeout (no answer in 15 s, or a 504) or a
5xx counts as a failure. Afterwards every acknowledged write is looked up in the table itself: a missing one is
a lost write. Prints a table; writes the figures into bench/results.json (and exits 1 on a lost write or a
timeout, so a test can run it).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import emulator  # noqa: E402 - bench/emulator.py, beside this script
from results import save  # noqa: E402 - bench/results.py, beside this script

from toolgen import auth  # noqa: E402

SECRET = "load-secret"
TIMEOUT_S = 15


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))], 1) if ordered else 0.0


class Conn:
    """One keep-alive HTTP connection to the platform."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT_S)

    def call(self, method: str, path: str, token: str, body: object = None) -> tuple[int, dict[str, str], object]:
        """One request. A GET is sent again on a dropped connection; a write is not (it might have happened)."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                answer = self.conn.getresponse()
                text = answer.read()
                return answer.status, {k.lower(): v for k, v in answer.getheaders()}, json.loads(text or b"null")
            except (ConnectionError, http.client.RemoteDisconnected, http.client.CannotSendRequest):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT_S)
                if attempt == 2 or method != "GET":
                    raise
        raise AssertionError("unreachable")

    def patient(self, method: str, path: str, token: str, body: object = None) -> tuple[int, object]:
        """A platform call that honours 429 + Retry-After (the platform's own functions have limits too)."""
        while True:
            status, headers, answer = self.call(method, path, token, body)
            if status != 429:
                return status, answer
            time.sleep(float(headers.get("retry-after", "1")) * random.uniform(0.5, 1.0))


def start_platform(home: Path) -> tuple[subprocess.Popen[str], str, str]:
    env = {**os.environ, "TOOLGEN_HOME": str(home), "TOOLGEN_SECRET": SECRET, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolgen.cli", "serve", "--port", "0", "--ephemeral"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=(home / "serve.log").open("w"),
        text=True,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        found = re.search(r"serving on (\S+)\s+\(AWS emulator: (\S+)\)", line)
        if found:
            return proc, found.group(1), found.group(2)
    proc.kill()
    raise SystemExit("toolgen serve did not start")


def generate_many(base: str, people: int) -> dict:
    latencies: list[float] = []
    failures: list[str] = []
    tools: list[dict] = []
    lock = threading.Lock()

    def person(i: int) -> None:
        conn, token = Conn(base), auth.mint(f"load-{i}", SECRET)
        started = time.perf_counter()
        status, accepted = conn.patient("POST", "/v1/tools", token, {"prompt": "a todo list for chores"})
        if status != 202:
            with lock:
                failures.append(f"POST {status}")
            return
        job_id = accepted["job_id"]  # type: ignore[index]
        while True:
            status, job = conn.patient("GET", f"/v1/jobs/{job_id}", token)
            if status != 200:
                with lock:
                    failures.append(f"GET job {status}: {job}")
                return
            if job["status"] not in ("queued", "running"):  # type: ignore[index]
                break
            time.sleep(0.05)
        with lock:
            latencies.append((time.perf_counter() - started) * 1000)
            if job["status"] == "succeeded":  # type: ignore[index]
                tools.append({"user": f"load-{i}", "job": job})
            else:
                failures.append(f"job {job['status']}: {job.get('error')}")  # type: ignore[index]

    started = time.perf_counter()
    threads = [threading.Thread(target=person, args=(i,)) for i in range(people)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    return {"latencies": latencies, "failures": failures, "tools": tools, "wall_s": wall}


def hammer(base: str, tool_url: str, user: str, callers: int, writes: int) -> dict:
    path = urlsplit(tool_url).path + "/tasks"
    token = auth.mint(user, SECRET)
    stats = {"served": 0, "throttled": 0, "throttled_without_retry_after": 0, "timeouts": 0, "errors": 0}
    latencies: list[float] = []
    acknowledged: list[str] = []
    lock = threading.Lock()

    def caller(c: int) -> None:
        conn = Conn(base)
        for w in range(writes):
            while True:
                started = time.perf_counter()
                try:
                    status, headers, body = conn.call("POST", path, token, {"title": f"c{c}-w{w}"})
                except TimeoutError:
                    with lock:
                        stats["timeouts"] += 1
                    break
                except (ConnectionError, http.client.HTTPException):
                    with lock:
                        stats["errors"] += 1
                    break
                elapsed = (time.perf_counter() - started) * 1000
                with lock:
                    stats["served"] += 1
                    latencies.append(elapsed)
                if status == 429:
                    with lock:
                        stats["throttled"] += 1
                        if "retry-after" not in headers:
                            stats["throttled_without_retry_after"] += 1
                    time.sleep(float(headers.get("retry-after", "1")) * random.uniform(0.5, 1.0))
                    continue
                with lock:
                    if status == 201:
                        acknowledged.append(body["id"])  # type: ignore[index]
                    elif status == 504:
                        stats["timeouts"] += 1
                    else:
                        stats["errors"] += 1
                break

    started = time.perf_counter()
    threads = [threading.Thread(target=caller, args=(c,)) for c in range(callers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {**stats, "latencies": latencies, "acknowledged": acknowledged, "wall_s": time.perf_counter() - started}


def stored_ids(home: Path, tool_id: str, user: str) -> set[str]:
    ddb = emulator.client(home, "dynamodb")
    ids: set[str] = set()
    record = {"pk": {"S": f"USER#{user}"}, "sk": {"S": f"TOOL#{tool_id}"}}
    home = ddb.get_item(TableName="toolgen", Key=record)["Item"]["home"]["S"]  # the tool's own partition
    for page in ddb.get_paginator("query").paginate(
        TableName="toolgen",
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": f"{home}#{user}"}},
        ConsistentRead=True,
    ):
        ids |= {item["id"]["S"] for item in page["Items"] if "id" in item}
    return ids


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--people", type=int, default=20)
    parser.add_argument("--callers", type=int, default=25)
    parser.add_argument("--writes", type=int, default=20)
    parser.add_argument("--no-results", action="store_true", help="do not write bench/results.json")
    parser.add_argument("--json", action="store_true", help="also print the figures as one JSON line")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        proc, base, _ = start_platform(Path(home))
        try:
            made = generate_many(base, args.people)
            if not made["tools"]:
                print(f"no tool was made: {made['failures'][:3]}")
                return 1
            target = made["tools"][0]
            hit = hammer(base, target["job"]["tool_url"], target["user"], args.callers, args.writes)
            stored = stored_ids(Path(home), target["job"]["tool_id"], target["user"])
        finally:
            proc.terminate()
            proc.wait(30)
    lost = sorted(set(hit["acknowledged"]) - stored)
    results = {
        "load_generate_people": args.people,
        "load_generate_failures": len(made["failures"]),
        "load_generate_ms_p50": pct(made["latencies"], 0.5),
        "load_generate_ms_p95": pct(made["latencies"], 0.95),
        "load_generate_tools_per_s": round(len(made["tools"]) / made["wall_s"], 2),
        "load_callers": args.callers,
        "load_requests": hit["served"],
        "load_rps": round(hit["served"] / hit["wall_s"], 1),
        "load_p50_ms": pct(hit["latencies"], 0.5),
        "load_p95_ms": pct(hit["latencies"], 0.95),
        "load_p99_ms": pct(hit["latencies"], 0.99),
        "load_throttled": hit["throttled"],
        "load_throttled_without_retry_after": hit["throttled_without_retry_after"],
        "load_timeouts": hit["timeouts"],
        "load_errors": hit["errors"],
        "load_writes_acknowledged": len(hit["acknowledged"]),
        "load_writes_lost": len(lost),
    }
    print(
        f"{args.people} people generating at once: {len(made['tools'])} tools in {made['wall_s']:.1f} s, "
        f"p50 {results['load_generate_ms_p50']} ms, p95 {results['load_generate_ms_p95']} ms, "
        f"{len(made['failures'])} failed"
    )
    for failure in sorted(set(made["failures"]))[:5]:
        print(f"  failed: {failure}")
    print(f"{args.callers} callers x {args.writes} writes on one tool (reserved concurrency 5):")
    for key in (
        "load_requests",
        "load_rps",
        "load_p50_ms",
        "load_p95_ms",
        "load_p99_ms",
        "load_throttled",
        "load_timeouts",
        "load_errors",
        "load_writes_acknowledged",
        "load_writes_lost",
    ):
        print(f"  {key[5:]:<22}{results[key]}")
    if args.json:
        print(json.dumps(results))
    if not args.no_results:
        print(f"wrote {save(results)}")
    bad = lost or hit["timeouts"] or hit["errors"] or made["failures"] or hit["throttled_without_retry_after"]
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
