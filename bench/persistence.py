"""What keeping the embedded default's state costs (toolgen/local/journal.py), as a person pays it.

- A served write: POST a row to a tool through the gateway, p50/p95 over 200 calls, with the journal (every write
  fsync'd before its answer) and with `--ephemeral`, one after the other on this machine.
- A restart: `toolgen serve` killed with -9 and started again on the same home, timed from process start to
  "serving on", with the journal holding N writes (a tool's rows, written through the emulator, as a tool writes
  them); and the journal's size.
Results merge into bench/results.json (persist_*).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import emulator  # bench/emulator.py, beside this script
from results import save  # bench/results.py, beside this script

from toolgen import auth

SECRET = "bench-persistence-secret"
ROOT = Path(__file__).resolve().parents[1]


def start(home: Path, *, ephemeral: bool, port: int = 0) -> tuple[subprocess.Popen[str], str, float]:
    env = {**os.environ, "TOOLGEN_HOME": str(home), "TOOLGEN_SECRET": SECRET, "PYTHONUNBUFFERED": "1"}
    args = [sys.executable, "-m", "toolgen.cli", "serve", "--port", str(port), *(["--ephemeral"] if ephemeral else [])]
    started = time.perf_counter()
    proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=(home / "serve.log").open("a"), text=True)
    assert proc.stdout is not None
    while line := proc.stdout.readline():
        if found := re.search(r"serving on (\S+)", line):
            return proc, found.group(1), time.perf_counter() - started
    raise SystemExit(f"serve did not start: {(home / 'serve.log').read_text()[-2000:]}")


def call(method: str, url: str, token: str, body: object = None) -> tuple[int, object]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    with urllib.request.urlopen(urllib.request.Request(url, data=data, method=method, headers=headers)) as answer:
        return answer.status, json.loads(answer.read() or b"null")


def make_tool(base: str, token: str) -> dict:
    _, accepted = call("POST", f"{base}/v1/tools", token, {"prompt": "a todo list for chores"})
    assert isinstance(accepted, dict)
    while True:
        _, job = call("GET", accepted["status_url"], token)
        assert isinstance(job, dict)
        if job["status"] in ("succeeded", "failed"):
            assert job["status"] == "succeeded", job
            return job
        time.sleep(0.1)


def served_writes(home: Path, *, ephemeral: bool, calls: int) -> list[float]:
    proc, base, _ = start(home, ephemeral=ephemeral)
    try:
        token = auth.mint("bench", SECRET)
        tool = make_tool(base, token)
        times = []
        for n in range(calls):
            began = time.perf_counter()
            status, _ = call("POST", f"{tool['tool_url']}/tasks", token, {"title": f"task {n}"})
            times.append((time.perf_counter() - began) * 1000)
            assert status == 201
        return times
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def restart(home: Path, writes: int) -> dict[str, float]:
    """Seconds from process start to serving after kill -9 with ``writes`` more rows journaled."""
    port = 0
    proc, base, _ = start(home, ephemeral=False)
    port = int(base.rsplit(":", 1)[1])
    token = auth.mint("bench", SECRET)
    tool = make_tool(base, token)
    ddb = emulator.client(home, "dynamodb")
    record = ddb.get_item(TableName="toolgen", Key={"pk": {"S": "USER#bench"}, "sk": {"S": f"TOOL#{tool['tool_id']}"}})
    rows = f"{record['Item']['home']['S']}#bench"
    for start_at in range(0, writes, 25):
        batch = [
            {"PutRequest": {"Item": {"pk": {"S": rows}, "sk": {"S": f"ROW#r{n:020d}"}, "title": {"S": f"row {n}"}}}}
            for n in range(start_at, min(writes, start_at + 25))
        ]
        ddb.batch_write_item(RequestItems={"toolgen": batch})
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc, base, took = start(home, ephemeral=False, port=port)
    try:
        count = ddb_count(home, rows)
        assert count == writes, (count, writes)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    journal = home / "state" / "journal"
    return {"restart_s": round(took, 2), "journal_mb": round(journal.stat().st_size / 1e6, 2)}


def ddb_count(home: Path, partition: str) -> int:
    ddb = emulator.client(home, "dynamodb")
    pages = ddb.get_paginator("query").paginate(
        TableName="toolgen",
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": partition}},
        Select="COUNT",
    )
    return sum(page["Count"] for page in pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--rows", type=int, nargs="*", default=[1000, 10000])
    args = parser.parse_args()
    figures: dict[str, float] = {}
    print(f"{'served write (POST a row)':<34}{'p50 ms':>10}{'p95 ms':>10}")
    for label, ephemeral in (("journaled", False), ("ephemeral", True)):
        with tempfile.TemporaryDirectory() as home:
            times = served_writes(Path(home), ephemeral=ephemeral, calls=args.calls)
        p50, p95 = statistics.median(times), statistics.quantiles(times, n=20)[18]
        figures[f"persist_write_{label}_p50_ms"], figures[f"persist_write_{label}_p95_ms"] = (
            round(p50, 1),
            round(p95, 1),
        )
        print(f"{label:<34}{p50:>10.1f}{p95:>10.1f}")
    print(f"{'restart after kill -9':<34}{'start s':>10}{'journal MB':>12}")
    with tempfile.TemporaryDirectory() as home:
        empty = restart(Path(home), 0)
    figures["persist_restart_0_s"] = empty["restart_s"]
    print(f"{'a tool, no rows':<34}{empty['restart_s']:>10.2f}{empty['journal_mb']:>12.2f}")
    for rows in args.rows:
        with tempfile.TemporaryDirectory() as home:
            found = restart(Path(home), rows)
        figures[f"persist_restart_{rows}_s"], figures[f"persist_journal_{rows}_mb"] = (
            found["restart_s"],
            found["journal_mb"],
        )
        print(f"{f'a tool and {rows:,} rows':<34}{found['restart_s']:>10.2f}{found['journal_mb']:>12.2f}")
    save(figures)


if __name__ == "__main__":
    main()
