"""The `toolgen` command as a person uses it: offline classify/spec, and new/invoke/tools against the platform."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from openapi_spec_validator import validate

from toolgen import auth


def toolgen(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolgen.cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def test_classify_json_has_the_documented_shape():
    done = toolgen("classify", "我想记录每天晨跑", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "archetype": "run_log",
        "confidence": json.loads(done.stdout)["confidence"],
        "slots": {"time_of_day": "morning"},
        "needs_external_api": False,
    }
    assert 0.45 <= json.loads(done.stdout)["confidence"] <= 1


def test_a_reader_that_goes_away_ends_the_command_quietly():
    # `toolgen spec ... | head -1`: the reader closes the pipe before the document is written
    reading, writing = os.pipe()
    os.close(reading)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "toolgen.cli", "spec", "log my morning runs", "--json"],
            stdout=writing,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(writing)
    assert done.returncode == 1 and "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr


def test_spec_prints_a_valid_document_without_deploying():
    done = toolgen("spec", "rank Beijing, Shanghai and Guangzhou by max temperature", "--json")
    assert done.returncode == 0, done.stderr
    spec = json.loads(done.stdout)
    validate(spec)
    assert [op["operationId"] for op in spec["paths"]["/ranking"].values()] == ["rankCities"]


def test_spec_of_an_unclear_request_explains_and_fails():
    done = toolgen("spec", "write my thesis", "--json")
    assert done.returncode == 2 and "not clear enough" in done.stderr and done.stdout == ""


def test_token_is_minted_with_the_local_secret(tmp_path):
    done = toolgen("token", "--user", "zoe", env={"TOOLGEN_HOME": str(tmp_path)})
    assert done.returncode == 0
    secret = (tmp_path / "secret").read_text().strip()
    assert auth.verify(done.stdout.strip(), secret) == "zoe"
    assert (tmp_path / "secret").stat().st_mode & 0o777 == 0o600


def test_new_shows_stages_then_urls_and_invoke_calls_the_tool(server):
    env = {"TOOLGEN_URL": server.url, "TOOLGEN_TOKEN": server.token("cli-user")}
    done = toolgen("new", "每天读书打卡", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    for stage in ("classify", "recall", "plan", "specify", "deploy", "render", "probe"):
        assert re.search(rf"^\s+{stage}\s+succeeded\s+\d+ ms$", done.stdout, re.MULTILINE), stage
    tool_id = re.search(r"^tool:\s+(\S+)$", done.stdout, re.MULTILINE).group(1)
    assert f"url:   {server.url}/t/{tool_id}" in done.stdout
    assert f"page:  {server.url}/p/{tool_id}#token=" in done.stdout
    added = toolgen("invoke", tool_id, "checkIn", "--data", '{"habit": "read", "date": "2026-12-02"}', env=env)
    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout)["habit"] == "read"
    streaks = json.loads(toolgen("invoke", tool_id, "habitStreaks", env=env).stdout)
    assert streaks["groups"][0]["key"] == "read" and streaks["groups"][0]["metrics"]["days_done"] == 1
    listed = toolgen("tools", env=env)
    assert tool_id in listed.stdout


def test_tools_are_listed_newest_first(server):
    from tests.e2e.conftest import generate

    made = [generate(server, prompt, user="cli-order")["tool_id"] for prompt in ("a todo list", "log my runs", "记账")]
    env = {"TOOLGEN_URL": server.url, "TOOLGEN_TOKEN": server.token("cli-order")}
    listed = toolgen("tools", "--json", env=env)
    assert listed.returncode == 0, listed.stderr
    assert [tool["tool_id"] for tool in json.loads(listed.stdout)] == made[::-1]


def test_new_says_when_the_tools_source_did_not_answer(server, upstream):
    env = {"TOOLGEN_URL": server.url, "TOOLGEN_TOKEN": server.token("cli-warned")}
    upstream.down = True
    try:
        done = toolgen("new", "rank Beijing and Shanghai by max temperature this week", env=env)
    finally:
        upstream.down = False
    assert done.returncode == 0, done.stdout + done.stderr  # the tool was made
    assert re.search(r"^warning: Made, but its data source did not answer", done.stdout, re.MULTILINE), done.stdout


def test_cli_errors_are_clear_and_nonzero(server):
    env = {"TOOLGEN_URL": server.url, "TOOLGEN_TOKEN": server.token("cli-user")}
    missing = toolgen("invoke", "t0000000000000000000z", "addRun", env=env)
    assert missing.returncode == 1 and "404 not_found" in missing.stderr
    bad = toolgen("invoke", "t0000000000000000000z", "addRun", "--data", "{oops", env=env)
    assert bad.returncode == 1 and "--data is not JSON" in bad.stderr
    down = toolgen("new", "a todo list", env={"TOOLGEN_URL": "http://127.0.0.1:9", "TOOLGEN_TOKEN": "x"})
    assert down.returncode == 1 and "cannot reach" in down.stderr


def test_spec_check_says_a_local_document_is_for_local_use_and_a_public_one_imports(tmp_path):
    local = toolgen("spec", "a todo list", "--check")
    assert local.returncode == 1 and "for local use" in local.stdout
    public = toolgen("spec", "a todo list", "--check", "--server", "https://abc.lambda-url.us-east-1.on.aws")
    assert public.returncode == 0 and "imports as it is" in public.stdout
    document = tmp_path / "doc.json"
    document.write_text(json.dumps({"openapi": "3.1.0", "info": {"title": "x", "version": "1"}, "paths": {}}))
    from_file = toolgen("spec", "--file", str(document), "--check")
    assert from_file.returncode == 1 and "no server" in from_file.stdout


def test_a_question_lists_its_candidates_and_answer_builds_the_chosen_one(server):
    env = {"TOOLGEN_URL": server.url, "TOOLGEN_TOKEN": server.token("cli-asker")}
    asked = toolgen("new", "track my coffee budget", env=env)  # not a terminal: the question is printed
    assert asked.returncode == 1 and "needs clarification:" in asked.stdout
    assert re.search(r"^  1\. \S.*: \S", asked.stdout, re.MULTILINE), asked.stdout
    job_id = re.search(r"toolgen answer (\S+)", asked.stdout).group(1)
    built = toolgen("answer", job_id, "--choice", "caffeine_tracker", env=env)
    assert built.returncode == 0, built.stdout + built.stderr
    assert re.search(r"^tool:\s+\S+$", built.stdout, re.MULTILINE)
    again = toolgen("answer", job_id, env=env)  # answered already: refused, clearly
    assert again.returncode == 1 and "409" in again.stderr


def test_an_action_in_the_world_is_refused_with_its_reason(server):
    env = {"TOOLGEN_URL": server.url, "TOOLGEN_TOKEN": server.token("cli-asker")}
    done = toolgen("new", "book me a table at a sushi restaurant tomorrow at 8", env=env)
    # a refusal is an answer, not a failure: said with its reason, and the command succeeds
    assert done.returncode == 0 and "refused (booking)" in done.stdout and "can't book" in done.stdout
    assert "toolgen answer" not in done.stdout


def test_revise_revisions_and_suggestions_as_a_person_types_them(server):
    from tests.e2e.conftest import generate, http
    from tests.e2e.test_growth import TEN_MORNINGS, log_runs

    env = {"TOOLGEN_URL": server.url, "TOOLGEN_TOKEN": server.token("cli-grow")}
    tool = generate(server, "log my runs", user="cli-grow")
    log_runs(server, env["TOOLGEN_TOKEN"], tool, TEN_MORNINGS)
    offered = toolgen("suggestions", "--tool", tool["tool_id"], env=env)
    assert offered.returncode == 0, offered.stderr
    suggestion_id = re.search(r"^(s\w+)\s+" + tool["tool_id"], offered.stdout, re.MULTILINE).group(1)
    assert "06:00" in offered.stdout
    accepted = toolgen("suggestions", "--accept", suggestion_id, env=env)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert f"revision 2 of {tool['tool_id']} is live" in accepted.stdout
    revised = toolgen("revise", tool["tool_id"], "also track my heart rate", env=env)
    assert revised.returncode == 0 and f"revision 3 of {tool['tool_id']} is live" in revised.stdout, revised.stdout
    history = toolgen("revisions", tool["tool_id"], env=env)
    lines = [line for line in history.stdout.splitlines() if re.match(r"^\s+\d+\s", line)]
    assert [line.split()[0] for line in lines] == ["3", "2", "1"] and "(live)" in lines[0], history.stdout
    restored = toolgen("revisions", tool["tool_id"], "--restore", "1", env=env)
    assert restored.returncode == 0 and "revision 4" in restored.stdout, restored.stdout
    record = http("GET", f"{server.url}/v1/tools/{tool['tool_id']}", token=env["TOOLGEN_TOKEN"]).body
    assert record["revision"] == 4
    unclear = toolgen("revise", tool["tool_id"], "the weather is nice", env=env)
    assert unclear.returncode == 1 and "422 unclear_revision" in unclear.stderr, unclear.stderr
