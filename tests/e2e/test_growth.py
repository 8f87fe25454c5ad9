"""Tools that grow with the person, end to end over HTTP against `toolgen serve` (issue 16).

A run log used for ten mornings offers a morning default; accepting it, then asking for heart rate, makes two
revisions behind the same URL with every row still there; the history lists three and a restore brings the first
back. A rejected suggestion lowers its memories' reward on that tool (not for other tools) and never comes back.
"""

from __future__ import annotations

import datetime as dt
import urllib.parse

from tests.e2e.conftest import generate, http, wait_for_job

TEN_MORNINGS = ["06:05", "06:20", "06:30", "06:40", "06:35", "07:10", "06:50", "07:45", "06:15", "06:30"]


def log_runs(server, token: str, tool: dict, starts: list[str], path: str = "/runs") -> None:
    today = dt.date.today()
    for n, start in enumerate(starts):
        day = (today - dt.timedelta(days=len(starts) - n)).isoformat()
        row = {"date": day, "distance": 5 + n / 10, "minutes": 30, "start": start}
        reply = http("POST", f"{tool['tool_url']}{path}", token=token, body=row)
        assert reply.status == 201, reply.body


def suggestions(server, token: str, tool_id: str) -> list[dict]:
    reply = http("GET", f"{server.url}/v1/suggestions?tool_id={tool_id}", token=token)
    assert reply.status == 200, reply.body
    return reply.body["suggestions"]


def revised(server, token: str, reply) -> dict:
    assert reply.status == 202, reply.body
    job = wait_for_job(server, reply.body["job_id"], token)
    assert job["status"] == "succeeded", job
    assert job["kind"] == "revise"
    return job


def rows(server, token: str, tool: dict) -> list[dict]:
    reply = http("GET", f"{tool['tool_url']}/runs", token=token)
    assert reply.status == 200, reply.body
    return reply.body["items"]


def test_a_run_log_grows_by_a_suggestion_and_a_follow_up_and_can_be_restored(server):
    token = server.token("gail")
    tool = generate(server, "log my runs", user="gail")
    assert tool["status"] == "succeeded"
    log_runs(server, token, tool, TEN_MORNINGS)

    # ten mornings offer a morning default, with its evidence and the memory behind it
    offered = suggestions(server, token, tool["tool_id"])
    assert [s["kind"] for s in offered] == ["time_default"], offered
    morning = offered[0]
    assert "06:00" in morning["reason"] and "10" in morning["reason"], morning
    assert morning["memories"], morning
    pattern = http("GET", f"{server.url}/v1/memories", token=token).body["memories"]
    assert any(
        m["memory_id"] in morning["memories"] and m["value"] == "06:00-08:00" and "10" in m["text"] for m in pattern
    )

    # accepting it makes revision 2: a morning default, the same URL, all ten rows listed
    job = revised(
        server,
        token,
        http("POST", f"{server.url}/v1/suggestions/{morning['suggestion_id']}", token=token, body={"accept": True}),
    )
    assert job["revision"] == 2 and job["tool_id"] == tool["tool_id"] and job["tool_url"] == tool["tool_url"]
    record = http("GET", f"{server.url}/v1/tools/{tool['tool_id']}", token=token).body
    default = record["program"]["entities"]["run"]["fields"]["start"]["default"]
    assert record["revision"] == 2 and "06:00" <= default < "08:00", default
    assert len(rows(server, token, tool)) == 10
    assert suggestions(server, token, tool["tool_id"]) == []  # answered: not offered again
    made = http("POST", f"{tool['tool_url']}/runs", token=token, body={"distance": 4.0})
    assert made.status == 201 and made.body["start"] == default  # the new version is the one answering

    # "also track my heart rate" adds the field; the rows stay, the new field empty on them
    job = revised(
        server,
        token,
        http(
            "POST",
            f"{server.url}/v1/tools/{tool['tool_id']}/revisions",
            token=token,
            body={"prompt": "also track my heart rate"},
        ),
    )
    assert job["revision"] == 3
    fields = http("GET", f"{server.url}/v1/tools/{tool['tool_id']}", token=token).body["program"]["entities"]["run"][
        "fields"
    ]
    pulse = next(name for name, spec in fields.items() if "heart" in spec["label"].lower() or name == "pulse")
    listed = rows(server, token, tool)
    assert len(listed) == 11 and all(r.get(pulse) is None for r in listed)
    beat = http("POST", f"{tool['tool_url']}/runs", token=token, body={"distance": 6.0, pulse: 150})
    assert beat.status == 201 and beat.body[pulse] == 150

    # the history shows three revisions, newest first, each with who made it and what changed
    history = http("GET", f"{server.url}/v1/tools/{tool['tool_id']}/revisions", token=token).body
    assert history["live"] == 3
    assert [(r["revision"], r["by"], r["live"]) for r in history["revisions"]] == [
        (3, "follow_up", True),
        (2, "suggestion", False),
        (1, "request", False),
    ]
    assert history["revisions"][0]["changes"] and history["revisions"][1]["changes"]
    assert history["revisions"][1]["suggestion_id"] == morning["suggestion_id"]
    assert set(morning["memories"]) <= set(history["revisions"][1]["memories"])

    # the page says what changed
    page = http("GET", f"{server.url}/p/{tool['tool_id']}").body
    assert history["revisions"][0]["changes"][0] in page

    # restoring revision 1 is revision 4: no heart rate shown (kept on its row), no morning default
    job = revised(
        server, token, http("POST", f"{server.url}/v1/tools/{tool['tool_id']}/revisions/1/restore", token=token)
    )
    assert job["revision"] == 4
    record = http("GET", f"{server.url}/v1/tools/{tool['tool_id']}", token=token).body
    assert pulse not in record["program"]["entities"]["run"]["fields"]
    assert record["program"]["entities"]["run"]["fields"]["start"]["default"] is None
    listed = rows(server, token, tool)
    assert len(listed) == 12 and all(pulse not in r for r in listed), [r for r in listed if pulse in r]
    # and bringing revision 3 back shows the heart rate that was never deleted
    revised(server, token, http("POST", f"{server.url}/v1/tools/{tool['tool_id']}/revisions/3/restore", token=token))
    assert [r.get(pulse) for r in rows(server, token, tool)].count(150) == 1


def test_a_rejected_suggestion_lowers_its_memories_on_that_tool_and_does_not_return(server):
    token = server.token("rex")
    tool = generate(server, "log my runs", user="rex")
    log_runs(server, token, tool, TEN_MORNINGS)
    [morning] = suggestions(server, token, tool["tool_id"])
    memory_id = morning["memories"][0]
    prompt = urllib.parse.quote("log my morning runs")

    def reward() -> float:
        found = http("GET", f"{server.url}/v1/recall?prompt={prompt}&all=true", token=token).body["memories"]
        return next(m["parts"]["reward"] for m in found if m["memory_id"] == memory_id)

    before = reward()
    reply = http("POST", f"{server.url}/v1/suggestions/{morning['suggestion_id']}", token=token, body={"accept": False})
    assert reply.status == 200 and reply.body["status"] == "rejected", reply.body
    # a rejection is of that suggestion on that tool: the memory shapes a new tool as before (issue 34)
    assert reward() == before
    memory = http("GET", f"{server.url}/v1/memories/{memory_id}/history", token=token).body["history"]
    assert any(h["event"] == "rewarded" and h["details"].get("interventions_tried") == 1 for h in memory)
    # the same evidence, and more of it, brings no suggestion back
    assert suggestions(server, token, tool["tool_id"]) == []
    log_runs(server, token, tool, ["06:30", "06:45"])
    assert suggestions(server, token, tool["tool_id"]) == []
    # new evidence (the typical start moves later, the same two hours) is suggested once more, with the same memory
    log_runs(server, token, tool, [f"07:{m}" for m in (20, 25, 30, 35, 40, 45, 50, 30, 35, 40, 45, 50)])
    [later] = suggestions(server, token, tool["tool_id"])
    assert later["memories"] == [memory_id] and later["suggestion_id"] != morning["suggestion_id"]
    rejected = http(
        "POST", f"{server.url}/v1/suggestions/{later['suggestion_id']}", token=token, body={"accept": False}
    )
    assert rejected.status == 200
    # rejected twice on this tool, its memory's reward there is under 0.3: even newer evidence suggests nothing more
    kept = http("GET", f"{server.url}/v1/memories?all=true", token=token).body["memories"]
    assert next(m for m in kept if m["memory_id"] == memory_id)["rejected_for"] == [tool["tool_id"]]
    assert reward() == before
    log_runs(server, token, tool, [f"07:{m}" for m in (50, 55, 55, 50, 55, 55, 50, 55, 50, 55)])
    assert suggestions(server, token, tool["tool_id"]) == []
    # answering twice is a conflict; an unknown suggestion is not found
    again = http("POST", f"{server.url}/v1/suggestions/{morning['suggestion_id']}", token=token, body={"accept": True})
    assert again.status == 409 and again.body["code"] == "conflict"
    assert (
        http("POST", f"{server.url}/v1/suggestions/s0000000000000000000", token=token, body={"accept": True}).status
        == 404
    )


def test_a_chinese_run_log_is_offered_and_revised_in_chinese(server):
    token = server.token("mei")
    tool = generate(server, "我想记录跑步", user="mei")
    log_runs(server, token, tool, TEN_MORNINGS)
    [morning] = suggestions(server, token, tool["tool_id"])
    assert any("\u4e00" <= c <= "\u9fff" for c in morning["text"] + morning["reason"]), morning
    job = revised(
        server,
        token,
        http(
            "POST", f"{server.url}/v1/tools/{tool['tool_id']}/revisions", token=token, body={"prompt": "还要记录心率"}
        ),
    )
    history = http("GET", f"{server.url}/v1/tools/{tool['tool_id']}/revisions", token=token).body["revisions"]
    assert job["revision"] == 2 and any("\u4e00" <= c <= "\u9fff" for c in history[0]["changes"][0])
    # words that ask for no change this tool can make: a 422 in Chinese, and nothing queued
    unclear = http(
        "POST", f"{server.url}/v1/tools/{tool['tool_id']}/revisions", token=token, body={"prompt": "今天天气不错"}
    )
    assert unclear.status == 422 and unclear.body["code"] == "unclear_revision", unclear.body
    assert any("\u4e00" <= c <= "\u9fff" for c in unclear.body["message"])
    # a revision that was never made is not found, in Chinese
    missing = http("POST", f"{server.url}/v1/tools/{tool['tool_id']}/revisions/9/restore", token=token)
    assert missing.status == 404 and "没有第 9 版" in missing.body["message"], missing.body
    # a morning-run log already starts at 06:30: the same mornings suggest nothing it has
    mornings = generate(server, "我想记录每天晨跑", user="mei")
    log_runs(server, token, mornings, TEN_MORNINGS)
    assert suggestions(server, token, mornings["tool_id"]) == []


def test_revisions_are_the_owners_alone(server):
    tool = generate(server, "log my runs", user="olga")
    other = server.token("mallory")
    for method, path, body in [
        ("POST", f"/v1/tools/{tool['tool_id']}/revisions", {"prompt": "also track my heart rate"}),
        ("GET", f"/v1/tools/{tool['tool_id']}/revisions", None),
        ("POST", f"/v1/tools/{tool['tool_id']}/revisions/1/restore", None),
        ("GET", f"/v1/suggestions?tool_id={tool['tool_id']}", None),
    ]:
        assert http(method, f"{server.url}{path}", token=other, body=body).status == 404, path
    restore_live = http(
        "POST", f"{server.url}/v1/tools/{tool['tool_id']}/revisions/1/restore", token=server.token("olga")
    )
    assert restore_live.status == 409
    missing = http("POST", f"{server.url}/v1/tools/{tool['tool_id']}/revisions/7/restore", token=server.token("olga"))
    assert missing.status == 404


def test_a_suggestion_the_tool_has_outgrown_is_withdrawn_not_applied(server):
    token = server.token("sal")
    tool = generate(server, "log my runs", user="sal")
    log_runs(server, token, tool, TEN_MORNINGS)
    [morning] = suggestions(server, token, tool["tool_id"])
    rename = {"prompt": "rename start to begin"}
    revised(server, token, http("POST", f"{server.url}/v1/tools/{tool['tool_id']}/revisions", token=token, body=rename))
    stale = http("POST", f"{server.url}/v1/suggestions/{morning['suggestion_id']}", token=token, body={"accept": True})
    assert stale.status == 409 and "no longer applies" in stale.body["message"], stale.body
    history = http("GET", f"{server.url}/v1/tools/{tool['tool_id']}/revisions", token=token).body
    assert history["live"] == 2  # nothing was queued
    assert all(s["suggestion_id"] != morning["suggestion_id"] for s in suggestions(server, token, tool["tool_id"]))
