"""`toolgen doctor` against a running platform of its own: orphans are found and removed, live tools are not."""

from __future__ import annotations

import ctypes
import os
import platform as platform_module
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import ROOT, Server, aws_client, generate, http, running_server
from tests.fake_openai import FakeOpenAI
from toolgen.deploy import Deployer, FunctionSpec
from toolgen.deploy.package import zip_files
from toolgen.ids import tool_id

HANDLER = b"def handler(event, context):\n    return {'statusCode': 200, 'body': 'stray'}\n"


@pytest.fixture(scope="module")
def platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("doctor-home"), {}) as started:
        yield started


def doctor(server: Server, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "TABLE_NAME", "BUCKET_NAME"))}
    env["TOOLGEN_HOME"] = str(server.home)  # where the running platform says it is
    return subprocess.run(
        [sys.executable, "-m", "toolgen.cli", "doctor", *args], capture_output=True, text=True, env=env, cwd=ROOT
    )


def test_doctor_removes_what_no_record_owns_and_leaves_live_tools_working(platform):
    # given a working tool, and leftovers of tools whose records are gone: a function, a page, rows
    job = generate(platform, "a todo list for chores", user="nia")
    assert job["status"] == "succeeded", job
    live_token = platform.token("nia")
    assert http("POST", f"{job['tool_url']}/tasks", token=live_token, body={"title": "keep me"}).status == 201
    lam, s3, ddb = aws_client(platform, "lambda"), aws_client(platform, "s3"), aws_client(platform, "dynamodb")
    role = aws_client(platform, "iam").get_role(RoleName="toolgen-tool-role")["Role"]["Arn"]
    stray = tool_id()
    Deployer({"lambda": lam}).deploy(FunctionSpec(f"toolgen-tool-{stray}", role, "", zip_files([("app.py", HANDLER)])))
    s3.put_object(Bucket="toolgen-pages", Key=f"pages/{stray}/index.html", Body=b"<p>stray</p>")
    ddb.put_item(TableName="toolgen", Item={"pk": {"S": f"TOOL#{stray}#nia"}, "sk": {"S": "ROW#r1"}})

    # when the doctor looks (nothing is recent enough to spare with --grace 0), listing every function (no job
    # names the stray one)
    looked = doctor(platform, "--grace", "0", "--deep")

    # then it names the three leftovers, and not the live tool
    assert looked.returncode == 1, looked.stdout + looked.stderr
    assert f"toolgen-tool-{stray}" in looked.stdout and f"pages/{stray}/index.html" in looked.stdout
    assert f"TOOL#{stray}#nia" in looked.stdout
    assert job["tool_id"] not in looked.stdout
    assert "3 to remove" in looked.stdout

    # and with --fix they are gone, while the live tool still answers with its data
    fixed = doctor(platform, "--grace", "0", "--deep", "--fix")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "removed 3" in fixed.stdout
    names = [f["FunctionName"] for f in lam.list_functions()["Functions"]]
    assert f"toolgen-tool-{stray}" not in names
    assert "Contents" not in s3.list_objects_v2(Bucket="toolgen-pages", Prefix=f"pages/{stray}/")
    assert not ddb.query(
        TableName="toolgen",
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": f"TOOL#{stray}#nia"}},
    )["Items"]
    rows = http("GET", f"{job['tool_url']}/tasks", token=live_token).body["items"]
    assert [r["title"] for r in rows] == ["keep me"]
    assert "all well" in doctor(platform, "--grace", "0").stdout
    # before a teardown, --all names every tool's resources, owned or not
    everything = doctor(platform, "--all").stdout
    assert f"toolgen-tool-{job['tool_id']}" in everything and f"pages/{job['tool_id']}/index.html" in everything


def test_doctor_reports_a_tool_that_lost_its_function_and_spares_recent_leftovers(platform):
    job = generate(platform, "a reading list", user="oli")
    assert job["status"] == "succeeded", job
    aws_client(platform, "lambda").delete_function(FunctionName=f"toolgen-tool-{job['tool_id']}")
    assert job["tool_id"] not in doctor(platform).stdout  # the table alone cannot tell: it takes a listing
    looked = doctor(platform, "--deep")  # the default grace: a leftover made a moment ago might be someone's job
    assert looked.returncode == 1
    assert (
        f"report  record    {job['tool_id']}" in looked.stdout and "oli's tool has lost its function" in looked.stdout
    )
    assert doctor(platform, "--deep", "--fix").returncode == 1  # a lost function is for a person to decide


def test_doctor_without_a_platform_says_where_to_look(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("TABLE_NAME", "BUCKET_NAME")}
    env["TOOLGEN_HOME"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "toolgen.cli", "doctor"], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert done.returncode == 1
    assert "--stack NAME" in done.stderr and "toolgen serve" in done.stderr


def _children(pid: int) -> set[int]:
    """The processes ``pid`` started (the local runtime's function environments)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


def test_kill_9_mid_job_leaves_no_function_process_and_doctor_explains_the_stale_file(tmp_path):
    # given a platform whose worker is busy with a job (its model takes 30 s to answer)
    fake = FakeOpenAI()
    fake.scripts["PlannerAnswer"] = [("delay", 30)]
    env = {"OPENAI_API_KEY": "e2e-key", "OPENAI_BASE_URL": fake.base_url, "TOOLGEN_LLM_TIMEOUT": "40"}
    try:
        (tmp_path / "home").mkdir()
        with running_server(tmp_path / "home", env) as server:
            accepted = http("POST", f"{server.url}/v1/tools", token=server.token("kim"), body={"prompt": "a todo list"})
            job_url = accepted.body["status_url"]
            deadline = time.monotonic() + 30
            while http("GET", job_url, token=server.token("kim")).body["status"] != "running":
                assert time.monotonic() < deadline, "the job never started"
                time.sleep(0.1)
            while not any(FakeOpenAI.schema_name(r["body"]) == "PlannerAnswer" for r in fake.requests):
                assert time.monotonic() < deadline, "the worker never asked the model"
                time.sleep(0.1)
            functions = _children(server.pid)  # the worker among them, waiting for the model's answer
            assert len(functions) >= 3  # the API, the authorizer and the busy worker at least
            # when serve is killed with no chance to clean up
            os.kill(server.pid, signal.SIGKILL)
            # then every function environment ends by itself, the busy worker too
            deadline = time.monotonic() + 10
            while _alive(functions) and time.monotonic() < deadline:
                time.sleep(0.2)
            assert not _alive(functions), "function processes outlived serve"
            # and the doctor says serve is gone instead of failing on its stale serve.json
            assert (server.home / "serve.json").exists()
            found = doctor(server)
            assert found.returncode == 1 and "Traceback" not in found.stderr, found.stderr
            assert "no longer running" in found.stderr
            assert not (server.home / "serve.json").exists()
    finally:
        fake.stop()


def _tgkill(pid: int, tid: int, signum: int) -> None:
    """Send a signal to one thread of another process, as the kernel does when it picks that thread for a
    process-directed signal (the syscall's number is the architecture's)."""
    number = {"x86_64": 234, "aarch64": 131}[platform_module.machine()]
    assert ctypes.CDLL(None, use_errno=True).syscall(number, pid, tid, signum) == 0, os.strerror(ctypes.get_errno())


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_taken_by_a_thread_other_than_the_main_one_still_stops_serve(tmp_path, signum):
    # given a running platform, its threads (the emulator, the gateway, the pollers) started
    with running_server(tmp_path, {}) as server:
        others = sorted(int(t.name) for t in Path(f"/proc/{server.pid}/task").iterdir() if int(t.name) != server.pid)
        assert len(others) >= 3 and (server.home / "serve.json").exists()
        # when the stop signal lands on one of them rather than on the main thread
        _tgkill(server.pid, others[-1], signum)
        # then serve stops by itself within seconds (and running_server's exit checks it ended with status 0)
        deadline = time.monotonic() + 20
        while _alive({server.pid}) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive({server.pid}), "serve never acted on the signal"
        assert not (server.home / "serve.json").exists()  # it stopped through its own handler
