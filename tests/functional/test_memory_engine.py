"""The memory engine against moto: rewards folded from tool use, verification, and the recall index cache."""

from __future__ import annotations

import pytest

from tests.functional.conftest import SECRET
from tests.helpers import tool_event
from tests.upstream import Upstream
from toolgen import auth
from toolgen.config import Settings
from toolgen.ids import sortable_id
from toolgen.intent import classify
from toolgen.local.lambda_runtime import RuntimeInvoker
from toolgen.memory import rewards, verify
from toolgen.memory.verify import HttpVerifier
from toolgen.models import Job, JobMessage
from toolgen.pipeline import process
from toolgen.services import Services


@pytest.fixture
def services(aws_env, runtime) -> Services:
    return Services.from_settings(
        Settings.from_env("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret"),
        invoker=RuntimeInvoker(runtime),
    )


def make_tool(services: Services, user: str, prompt: str):
    job = services.jobs.create(Job(job_id=sortable_id("j"), user=user, prompt=prompt))
    job = process(JobMessage(job_id=job.job_id, user=user, prompt=prompt), services)
    assert job.status == "succeeded", job.error
    return services.tools.get(user, job.tool_id)


def test_tool_calls_are_folded_into_the_shaping_memories_once(services, runtime):
    dark = services.memories.learn("lea", "I prefer dark mode")
    services.memories.learn("lea", "I love jazz")
    record = make_tool(services, "lea", "a to-do list for chores")
    assert [m.memory_id for m in record.memories] == [dark.memory_id]
    token = auth.mint("lea", SECRET)
    for n in range(5):
        result = runtime.invoke(
            record.function_name, tool_event("POST", "/tasks", token=token, body={"title": f"t{n}"})
        )
        assert result.payload["statusCode"] == 201
    runtime.invoke(record.function_name, tool_event("GET", "/", token=token))  # describing it is not a use
    assert rewards.fold(services.table, services.memories, "lea") == 5
    assert rewards.fold(services.table, services.memories, "lea") == 0  # claimed: never credited twice
    assert services.memories.get("lea", dark.memory_id).uses == 5
    assert services.memories.history("lea", dark.memory_id)[-1].details == {
        "reason": f"tool {record.tool_id} used",
        "uses": 5,
    }
    jazz = next(m for m in services.memories.list("lea") if m.key is None)
    assert jazz.uses == 0  # it did not shape the tool


def test_the_probe_is_not_counted_as_a_use(services):
    make_tool(services, "max", "a to-do list for chores")
    assert rewards.fold(services.table, services.memories, "max") == 0


def test_feedback_is_credited_to_the_tools_memories_or_the_one_named(services):
    city = services.memories.learn("ned", "I live in Chengdu")
    record = make_tool(services, "ned", "rank Chengdu and Wuhan by max temperature")
    rewards.feedback(services.memories, "ned", [m.memory_id for m in record.memories], "accepted", None)
    rewards.feedback(services.memories, "ned", [m.memory_id for m in record.memories], "rejected", city.memory_id)
    m = services.memories.get("ned", city.memory_id)
    assert (m.interventions_tried, m.interventions_succeeded) == (2, 1)
    with pytest.raises(Exception, match="did not shape"):
        rewards.feedback(services.memories, "ned", [], "used", city.memory_id)


def test_an_invalid_fact_flags_the_tools_it_shaped_and_leaves_recall_at_once(services):
    luigi = services.memories.learn("ola", "my favourite restaurant is Luigi's")
    record = make_tool(services, "ola", "help me pick a restaurant")
    assert record.program["defaults"]["suggestion"] == "Luigi's"
    prompt = "help me pick a restaurant"
    assert luigi.memory_id in [m.memory_id for m in services.recaller.recall("ola", prompt, classify(prompt))]
    verify.apply(services.memories, services.tools, "ola", luigi.memory_id, False, "places API: closed")
    assert luigi.memory_id not in [m.memory_id for m in services.recaller.recall("ola", prompt, classify(prompt))]
    flagged = services.tools.get("ola", record.tool_id)
    assert flagged.stale_reason and luigi.memory_id in flagged.stale_reason


def test_recheck_asks_an_outside_verifier_over_http(services):
    checker = Upstream()
    try:
        services.memories.learn("pia", "my favourite restaurant is Luigi's")
        services.memories.learn("pia", "I live in Shanghai")
        counts = verify.recheck(services.memories, services.tools, HttpVerifier(f"{checker.url}/verify"), "pia")
    finally:
        checker.stop()
    assert counts == {"checked": 2, "verified": 1, "invalidated": 1, "unknown": 0}
    states = {m.value: m.verification for m in services.memories.list("pia")}
    assert states == {"Luigi's": "invalid", "Shanghai": "verified"}


def test_an_unreachable_verifier_changes_nothing(services):
    services.memories.learn("quin", "I live in Shanghai")
    counts = verify.recheck(services.memories, services.tools, HttpVerifier("http://127.0.0.1:9/verify", 0.5), "quin")
    assert counts["unknown"] == 1 and services.memories.list("quin")[0].verification == "unverified"


def test_a_warm_index_catches_up_by_reading_only_what_changed(services, monkeypatch):
    services.memories.learn("rae", "I live in Tokyo")
    first = services.recaller.index("rae")
    assert services.recaller.index("rae") is first and first.version == services.memories.version("rae")
    read_all = []
    monkeypatch.setattr(services.memories, "page", lambda *a, **k: read_all.append(1) or ([], {}, None))
    dark = services.memories.learn("rae", "I prefer dark mode")
    moved = services.memories.learn("rae", "I moved to Osaka")  # supersedes Tokyo
    index = services.recaller.index("rae")
    assert index is first and read_all == []  # the change log and the changed memories, not every memory
    assert sorted(m.text for m in index.memories.values()) == ["I moved to Osaka", "I prefer dark mode"]
    assert len(index) == 2 and {dark.memory_id, moved.memory_id} <= index.changed
    prompt = "rank the hottest cities"
    assert sorted(m.value for m in services.recaller.recall("rae", prompt, classify(prompt))) == ["Osaka", "dark"]


def test_a_cold_process_loads_the_snapshot_and_a_deletion_removes_it(services, monkeypatch):
    from toolgen.memory.recall import Recaller
    from toolgen.memory.snapshot import snapshot_key

    for n in range(3):
        services.memories.learn("sol", f"note {n} about my garden")
    city = services.memories.learn("sol", "I live in Lisbon")
    warm = services.recaller.index("sol")  # no snapshot yet: read from the table once, and one is written
    s3 = services.recaller.snapshots.client
    assert s3.head_object(Bucket=services.settings.bucket_name, Key=snapshot_key("sol"))
    read_all = []
    monkeypatch.setattr(services.memories, "page", lambda *a, **k: read_all.append(1) or ([], {}, None))
    cold = Recaller(services.memories, services.recaller.config, snapshots=services.recaller.snapshots)
    services.memories.learn("sol", "I prefer dark mode")  # after the snapshot: caught up from the log
    prompt = "rank the hottest cities"
    assert sorted(m.value for m in cold.recall("sol", prompt, classify(prompt))) == ["Lisbon", "dark"]
    assert read_all == [] and len(cold.index("sol")) == len(warm) + 1
    services.memories.delete("sol", city.memory_id)
    services.recaller.forget("sol")  # as DELETE /v1/memories/{id} does: the snapshot held its text
    with pytest.raises(Exception, match=r"404|Not Found|NoSuchKey"):
        s3.head_object(Bucket=services.settings.bucket_name, Key=snapshot_key("sol"))


def test_deleting_a_memory_scrubs_it_from_the_tools_it_shaped_and_flags_them(services):
    city = services.memories.learn("zoe", "I live in Chengdu")
    record = make_tool(services, "zoe", "rank the hottest cities this week")
    assert [m.memory_id for m in record.memories] == [city.memory_id]
    verify.forget(services.memories, services.tools, services.table, "zoe", city.memory_id)
    scrubbed = services.tools.get("zoe", record.tool_id)
    assert scrubbed.memories == [] and city.memory_id not in scrubbed.program["provenance"]["memories"]
    assert "Chengdu" not in scrubbed.model_dump_json(include={"memories", "stale_reason"})
    assert scrubbed.stale_reason == f"memory {city.memory_id}, which shaped it, was deleted"
    ledger = services.table.get(rewards.ledger_pk("zoe"), f"{rewards.LEDGER}{record.tool_id}")
    assert ledger is not None and ledger["memories"] == []  # its uses are no longer credited to it
    assert services.memories.list("zoe") == []
