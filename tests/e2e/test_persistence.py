"""The embedded default keeps its state: after `kill -9` of `toolgen serve` and a restart on the same home, a tool
made before, its rows, its page, the person's memories and jobs answer as before; `--ephemeral` keeps nothing."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys

from tests.e2e.conftest import ROOT, SECRET, generate, http, running_server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _titles(tool_url: str, token: str) -> list[str]:
    reply = http("GET", f"{tool_url}/tasks", token=token)
    assert reply.status == 200, reply.body
    return sorted(t["title"] for t in reply.body["items"])


def test_a_tool_its_rows_page_and_memories_survive_kill_9_and_a_restart(tmp_path):
    home, port = tmp_path / "home", _free_port()
    home.mkdir()
    token = None
    # given a person's tool with rows, a memory and a finished job, on a platform that keeps its state
    with running_server(home, {}, keep_state=True, port=port) as first:
        token = first.token("pia")
        job = generate(first, "a todo list for my chores", user="pia")
        assert job["status"] == "succeeded"
        for title in ("water the plants", "call mum", "pay rent"):
            assert http("POST", f"{job['tool_url']}/tasks", token=token, body={"title": title}).status == 201
        memory = http("POST", f"{first.url}/v1/memories", token=token, body={"text": "I live in Lisbon"}).body
        # when serve is killed with no chance to save anything
        os.kill(first.pid, signal.SIGKILL)
    # then a restart on the same home answers as before
    with running_server(home, {}, keep_state=True, port=port) as second:
        assert _titles(job["tool_url"], token) == ["call mum", "pay rent", "water the plants"]
        assert [t["tool_id"] for t in http("GET", f"{second.url}/v1/tools", token=token).body["tools"]] == [
            job["tool_id"]
        ]
        assert http("GET", f"{second.url}/v1/jobs/{job['job_id']}", token=token).body["status"] == "succeeded"
        assert http("GET", job["ui_url"].split("#")[0]).status == 200
        kept = http("GET", f"{second.url}/v1/memories", token=token).body["memories"]
        assert memory["memory_id"] in [m["memory_id"] for m in kept]
        # and it goes on working: a new row, and a new tool, are kept in turn
        assert http("POST", f"{job['tool_url']}/tasks", token=token, body={"title": "after restart"}).status == 201
        other = generate(second, "a reading list", user="pia")
        assert other["status"] == "succeeded"
        os.kill(second.pid, signal.SIGKILL)
    with running_server(home, {}, keep_state=True, port=port) as third:
        assert "after restart" in _titles(job["tool_url"], token)
        assert http("GET", f"{other['tool_url']}/books", token=token).status == 200
        assert len(http("GET", f"{third.url}/v1/tools", token=token).body["tools"]) == 2
    # with --ephemeral nothing is read or kept
    with running_server(home, {}, port=port) as fresh:
        assert http("GET", f"{fresh.url}/v1/tools", token=fresh.token("pia")).body["tools"] == []


def test_a_job_in_flight_at_the_kill_is_finished_after_the_restart(tmp_path):
    home, port = tmp_path / "home", _free_port()
    home.mkdir()
    with running_server(home, {}, keep_state=True, port=port) as first:
        token = first.token("qin")
        accepted = http("POST", f"{first.url}/v1/tools", token=token, body={"prompt": "a countdown to my trip"})
        assert accepted.status == 202
        os.kill(first.pid, signal.SIGKILL)  # the job queued or running, its message gone with the queue
    with running_server(home, {}, keep_state=True, port=port) as second:
        from tests.e2e.conftest import wait_for_job

        done = wait_for_job(second, accepted.body["job_id"], token)
        assert done["status"] == "succeeded", done


def _refused_start(home, port: int, *args: str) -> str:
    """`toolgen serve` on ``home`` that must refuse to start: its stderr, once it has ended by itself."""
    env = {**os.environ, "TOOLGEN_HOME": str(home), "TOOLGEN_SECRET": SECRET, "PYTHONUNBUFFERED": "1"}
    ended = subprocess.run(
        [sys.executable, "-m", "toolgen.cli", "serve", "--port", str(port), *args],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert ended.returncode == 1, ended.stderr[-3000:]
    assert "serving on" not in ended.stdout
    # it ended on its refusal, not on its stop's grace (which dumps every thread's stack: a hang, before)
    assert "Thread 0x" not in ended.stderr and "Timeout" not in ended.stderr, ended.stderr[-3000:]
    return ended.stderr


def test_a_damaged_journal_or_another_platform_is_refused_at_once_and_nothing_is_cut(tmp_path):
    home, port = tmp_path / "home", _free_port()
    home.mkdir()
    with running_server(home, {}, keep_state=True, port=port) as first:
        job = generate(first, "a todo list for my chores", user="pia")
        assert job["status"] == "succeeded"
    state = home / "state"
    # given one changed byte inside a record in the middle of the journal (valid JSON before checksums)
    data = bytearray((state / "journal").read_bytes())
    at = data.index(b'{"m":', len(data) // 2) + 30
    data[at] ^= 0x01
    (state / "journal").write_bytes(bytes(data))
    # then serve says so and ends, and the journal is as it was
    said = _refused_start(home, port)
    assert "damaged at record" in said and "--salvage" in said
    assert (state / "journal").read_bytes() == bytes(data)
    # and --salvage starts with the records before the damage, the file as it was set beside it
    with running_server(home, {}, ("--salvage",), keep_state=True, port=port) as salvaged:
        assert http("GET", f"{salvaged.url}/v1/health").status == 200
    (aside,) = state.glob("journal.damaged-*")
    assert aside.read_bytes() == bytes(data)
    # given a platform provisioned with other identifiers than the journal's writes were made against
    kept = json.loads((state / "resources.json").read_text())
    (state / "resources.json").write_text(json.dumps({**kept, "tool_role_id": "AROAOTHER"}))
    assert "could not reach their rows" in _refused_start(home, port)
