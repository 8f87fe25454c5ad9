"""A tool's cold start, its package and the base layer, measured (figures, not pass/fail).

Cold start: a fresh Python process that imports the tool's handler (the runtime, from the layer), loads its
ToolProgram and serves its first data operation (a create, written to DynamoDB on moto's server), timed from
process start to exit, as Lambda would run it: Python 3.12 with only the task and the layer on the path
(`make layer` builds build/layer for python3.12 on x86_64). Beside it, the same process doing nothing, and one
that only imports boto3 and makes a DynamoDB client (what the runtime no longer does).

Beside it, in the same run and the same way: the baseline, the same tool's create written the usual way
(bench/baseline_tool.py: Powertools, pydantic, boto3 and cryptography, built for python3.12 by `make baseline`); and the
warm invoke, the same handler's later calls in the same process.

A tool deployed without reserved concurrency keeps its limit with lease slots in the table (toolgen/runtime/
lease.py): its cold start and warm calls are timed the same way with leasing on, and the difference is the
limit's cost per call (two conditional writes to moto's DynamoDB on loopback here; on AWS each is a DynamoDB
round trip, single-digit milliseconds in the same region).

Sizes: the per-tool package of a typical tool, the layer unzipped and zipped. Results merge into results.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results import save  # bench/results.py, beside this script

from toolgen import auth
from toolgen.deploy.package import tool_package, zip_files
from toolgen.events import url_event
from toolgen.intent import classify
from toolgen.local.emulator import Emulator
from toolgen.planner import OfflinePlanner
from toolgen.runtime.lease import HOLD_ENV, LIMIT_ENV

ROOT = Path(__file__).resolve().parents[1]
LAYER = ROOT / "build" / "layer"
SECRET = "bench-secret"
FIRST_CALL = """
import json, sys
sys.path[:0] = {paths!r}
import app
event = json.loads({event!r})
result = app.handler(event, None)
assert result["statusCode"] == 201, result
"""
WARM_CALLS = """
import json, sys, time
sys.path[:0] = {paths!r}
import app
event = json.loads({event!r})
assert app.handler(event, None)["statusCode"] == 201  # the cold call
times = []
for _ in range({calls}):
    started = time.perf_counter()
    assert app.handler(event, None)["statusCode"] == 201
    times.append((time.perf_counter() - started) * 1000)
print(json.dumps(times))
"""
TOKEN_CHECK = """
import sys, time
sys.path[:0] = {paths!r}
started = time.perf_counter()
from toolgen import auth
assert auth.verify({token!r}, {key!r}) == "cole"
print((time.perf_counter() - started) * 1000)
"""
BASELINE = ROOT / "build" / "baseline"
BOTO3 = """
import boto3
boto3.client("dynamodb")
"""


def python312() -> str | None:
    """A working Python 3.12 (Lambda's runtime): pyenv's 3.12.1, else python3.12 on PATH; None without one."""
    candidates = []
    try:
        prefix = subprocess.run(["pyenv", "prefix", "3.12.1"], capture_output=True, text=True, check=True).stdout
        candidates.append(str(Path(prefix.strip()) / "bin" / "python3.12"))
    except (OSError, subprocess.CalledProcessError):
        pass
    candidates.append(shutil.which("python3.12") or "")
    for candidate in filter(None, candidates):
        done = subprocess.run([candidate, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True)
        if done.returncode == 0 and done.stdout.strip() == b"(3, 12)":
            return candidate
    return None


def timed(python: str, code: str, cwd: Path, env: dict[str, str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([python, "-S", "-P", "-c", code], cwd=cwd, env=env, check=True)
        times.append((time.perf_counter() - started) * 1000)
    return times


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "p50_ms": round(statistics.median(ordered), 1),
        "p95_ms": round(ordered[max(0, round(0.95 * len(ordered)) - 1)], 1),
    }


def tree_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()

    program = OfflinePlanner().plan("a todo list for chores", classify("a todo list for chores"), []).program
    package = tool_package(program)
    results: dict[str, object] = {"tool_package_kb": round(len(package) / 1024, 2)}
    print(f"tool package (a to-do list): {len(package)} bytes zipped")

    python = python312()
    layer_python = LAYER / "python"
    if python and layer_python.is_dir():
        paths, how = [str(layer_python)], "python3.12 with build/layer, as Lambda runs it"
        unzipped = tree_size(layer_python)
        files = [
            (f"python/{p.relative_to(layer_python)}", p.read_bytes()) for p in layer_python.rglob("*") if p.is_file()
        ]
        zipped = len(zip_files(files))
        results.update(base_layer_mb=round(unzipped / 2**20, 2), base_layer_zipped_mb=round(zipped / 2**20, 2))
        print(f"base layer: {unzipped / 2**20:.1f} MB unzipped, {zipped / 2**20:.1f} MB zipped")
    else:
        python = sys.executable
        site = next(p for p in sys.path if p.endswith("site-packages"))
        paths, how = [str(ROOT), site], "this interpreter with the source tree (run `make layer` for the real one)"
        print("no build/layer or python3.12: timing with the source tree instead")

    emulator = Emulator()
    emulator.start()
    try:
        ddb = emulator.client("dynamodb")
        ddb.create_table(
            TableName="coldstart",
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "S"},
            ],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        )
        env = {
            "PATH": os.environ.get("PATH", ""),
            **emulator.environment(),
            "TABLE_NAME": "coldstart",
            "TOOL_ID": "t-cold",
            "TOOL_OWNER": "cole",
            # As deployed: the public half of the token key only (the first call checks the token with it).
            "TOOLGEN_TOKEN_KEY": auth.public_key(SECRET),
            # As on Lambda, where /opt is read-only: what the layer ships is what runs (no bytecode written to it).
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        headers = [("Authorization", f"Bearer {auth.mint('cole', SECRET)}"), ("Content-Type", "application/json")]
        event = json.dumps(
            url_event("POST", "/tasks", "", headers, b'{"title": "sweep"}', source_ip="127.0.0.1", host="tool.bench")
        )
        with tempfile.TemporaryDirectory() as task:
            task_dir = Path(task)
            (task_dir / "app.py").write_bytes((ROOT / "functions" / "tool" / "app.py").read_bytes())
            (task_dir / "program.json").write_text(program.model_dump_json(indent=1))
            code = FIRST_CALL.format(paths=[str(task_dir), *paths], event=event)
            timed(python, code, task_dir, env, 2)  # warm the file cache
            cold = summary(timed(python, code, task_dir, env, args.runs))
            warm_code = WARM_CALLS.format(paths=[str(task_dir), *paths], event=event, calls=50)
            done = subprocess.run(
                [python, "-S", "-P", "-c", warm_code], cwd=task_dir, env=env, check=True, capture_output=True, text=True
            )
            warm = summary(json.loads(done.stdout))
            leased_env = {**env, LIMIT_ENV: "5", HOLD_ENV: "12"}
            leased_cold = summary(timed(python, code, task_dir, leased_env, args.runs))
            done = subprocess.run(
                [python, "-S", "-P", "-c", warm_code],
                cwd=task_dir,
                env=leased_env,
                check=True,
                capture_output=True,
                text=True,
            )
            leased_warm = summary(json.loads(done.stdout))
            check_code = TOKEN_CHECK.format(paths=paths, token=auth.mint("cole", SECRET), key=auth.public_key(SECRET))
            checks = [
                float(
                    subprocess.run(
                        [python, "-S", "-P", "-c", check_code], env=env, check=True, capture_output=True, text=True
                    ).stdout
                )
                for _ in range(args.runs)
            ]
            token_check = summary(checks)
            baseline = None
            if python != sys.executable and (BASELINE / "boto3").is_dir():
                base_dir = Path(task) / "baseline"
                base_dir.mkdir()
                (base_dir / "app.py").write_bytes((ROOT / "bench" / "baseline_tool.py").read_bytes())
                base_code = FIRST_CALL.format(paths=[str(base_dir), str(BASELINE)], event=event)
                timed(python, base_code, base_dir, env, 2)
                baseline = summary(timed(python, base_code, base_dir, env, args.runs))
            empty = summary(timed(python, "pass", task_dir, env, args.runs))
            boto3_paths = [p for p in sys.path if p.endswith("site-packages")]
            boto3_code = f"import sys; sys.path[:0] = {boto3_paths!r}\n{BOTO3}"
            boto = summary(timed(sys.executable, boto3_code, task_dir, env, max(5, args.runs // 2)))
    finally:
        emulator.stop()
    print(f"cold start ({how}): first data operation p50 {cold['p50_ms']} ms, p95 {cold['p95_ms']} ms")
    print(f"  warm invoke (the same handler's next calls): p50 {warm['p50_ms']} ms, p95 {warm['p95_ms']} ms")
    print(
        f"  the token's first check in a fresh process (import, verify with the public key): {token_check['p50_ms']} ms"
    )
    lease_cost = round(leased_warm["p50_ms"] - warm["p50_ms"], 2)
    print(
        f"  with its limit kept by leases: cold p50 {leased_cold['p50_ms']} ms, warm p50 {leased_warm['p50_ms']} ms "
        f"(the lease: {lease_cost} ms a call)"
    )
    if baseline:
        ratio = round(cold["p50_ms"] / baseline["p50_ms"], 3)
        print(f"  baseline (Powertools + pydantic + boto3 handler): p50 {baseline['p50_ms']} ms; ours is {ratio} of it")
        results.update(
            baseline_cold_start_ms_p50=baseline["p50_ms"],
            baseline_cold_start_ms_p95=baseline["p95_ms"],
            tool_to_baseline_cold_start_ratio=ratio,
        )
    else:
        print("  baseline: run `make baseline` (and have python3.12) to measure it")
    print(f"  an empty process: p50 {empty['p50_ms']} ms; importing boto3 + a DynamoDB client: p50 {boto['p50_ms']} ms")
    results.update(
        tool_cold_start_ms_p50=cold["p50_ms"],
        tool_cold_start_ms_p95=cold["p95_ms"],
        tool_warm_invoke_ms_p50=warm["p50_ms"],
        tool_warm_invoke_ms_p95=warm["p95_ms"],
        leased_cold_start_ms_p50=leased_cold["p50_ms"],
        leased_warm_invoke_ms_p50=leased_warm["p50_ms"],
        lease_cost_ms_p50=lease_cost,
        token_check_ms_p50=token_check["p50_ms"],
        empty_process_p50_ms=empty["p50_ms"],
        boto3_client_process_p50_ms=boto["p50_ms"],
    )
    print(f"wrote {save(results)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
