"""`make demo`: start the platform, ask for three tools in plain language, use them, stop.

Two are named kinds (a run log shaped by a memory, a habit tracker); the third is composed from the knowledge base
(a blood pressure log: systolic and diastolic in mmHg, pulse, weekly averages), as any everyday request is.

Everything goes through the `toolgen` command a person would type, against a platform started on a free port
with its own state directory, so the demo touches nothing of yours and leaves nothing running.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

MEMORY = "我一般早上6点半跑步"  # "I usually run at 6:30 in the morning": gives the run log its default start time
CHINESE = "我想记录每天晨跑"  # "I want to log my morning run every day"
ENGLISH = "Track my daily reading habit"
COMPOSED = "log my blood pressure readings morning and evening"


def _run(args: list[str], env: dict[str, str]) -> str:
    print(f"\n$ toolgen {' '.join(_quote(a) for a in args)}", flush=True)
    done = subprocess.run([sys.executable, "-m", "toolgen.cli", *args], env=env, capture_output=True, text=True)  # noqa: S603
    print(done.stdout.rstrip(), flush=True)
    if done.returncode != 0:
        print(done.stderr.rstrip(), file=sys.stderr)
        raise SystemExit(f"demo: `toolgen {args[0]}` failed")
    return done.stdout


def _tool_id(output: str) -> str:
    match = re.search(r"^tool:\s+(\S+)", output, re.MULTILINE)
    if match is None:
        raise SystemExit("demo: `toolgen new` did not report a tool")
    return match.group(1)


def _quote(arg: str) -> str:
    return f"'{arg}'" if re.search(r"[\s{}\"]", arg) else arg


def _start(env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "toolgen.cli", "serve", "--port", "0", "--ephemeral"],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        if match := re.search(r"serving on (http://\S+)", line):
            return server, match.group(1)
        if not line and server.poll() is not None:
            break
    server.kill()
    raise SystemExit("demo: the platform did not start (see the messages above)")


def main() -> int:
    home = tempfile.mkdtemp(prefix="toolgen-demo-")
    env = {**os.environ, "TOOLGEN_HOME": home, "TOOLGEN_USER": "demo"}
    env.pop("TOOLGEN_TOKEN", None)
    started = time.monotonic()
    server, url = _start(env)
    env["TOOLGEN_URL"] = url
    print(f"platform up at {url} in {time.monotonic() - started:.1f} s (moto + local Lambda runtime, no AWS account)")
    try:
        _run(["memories", "--add", MEMORY], env)
        run_log = _tool_id(_run(["new", CHINESE], env))
        habit = _tool_id(_run(["new", ENGLISH], env))
        _run(["invoke", run_log, "addRun", "--data", '{"distance": 5.2, "minutes": 29}'], env)
        _run(["invoke", run_log, "runStats"], env)
        _run(["invoke", habit, "checkIn", "--data", '{"habit": "read", "note": "30 pages"}'], env)
        _run(["invoke", habit, "habitStreaks"], env)
        pressure = _tool_id(_run(["new", COMPOSED], env))
        _run(["invoke", pressure, "addReading", "--data", '{"systolic": 128, "diastolic": 82, "pulse": 66}'], env)
        _run(["invoke", pressure, "thisWeek"], env)
        _run(["tools"], env)
        print("\ndemo: three tools generated, deployed and used; stopping the platform (`make serve` keeps one up).")
    finally:
        server.terminate()
        server.wait(timeout=20)
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
