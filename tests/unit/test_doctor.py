"""The doctor's judgement is data: an inventory in, findings out, with no account to read."""

from datetime import UTC, datetime, timedelta

from toolgen.deploy.doctor import Inventory, diagnose

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
OLD = NOW - timedelta(days=1)
OWNED, ORPHAN, BUSY, FRESH = ("t" + c * 20 for c in "abcd")


def inventory(**changes) -> Inventory:
    found = Inventory(
        functions={t: (f"toolgen-tool-{t}", OLD) for t in (OWNED, ORPHAN, BUSY)},
        pages={OWNED: OLD, ORPHAN: OLD},
        rows={f"TOOL#{OWNED}#ann": OWNED, f"TOOL#{ORPHAN}#ann": ORPHAN},
        records={OWNED: "ann"},
        busy={BUSY: NOW - timedelta(minutes=2)},
        listed=True,
    )
    for name, value in changes.items():
        setattr(found, name, value)
    return found


def found(findings):
    return [(f.kind, f.tool_id, f.removable) for f in findings]


def test_what_no_record_owns_is_found_and_what_a_record_owns_is_not():
    findings = diagnose(inventory(), now=NOW, grace=timedelta(minutes=15))
    assert found(findings) == [("function", ORPHAN, True), ("page", ORPHAN, True), ("rows", ORPHAN, True)]
    assert findings[1].name == f"pages/{ORPHAN}/index.html" and findings[2].name == f"TOOL#{ORPHAN}#ann"


def test_a_job_in_progress_keeps_its_function_until_it_has_been_still_for_an_hour():
    stuck = inventory(busy={BUSY: NOW - timedelta(hours=2)})
    assert ("function", BUSY, True) in found(diagnose(stuck, now=NOW, grace=timedelta(0)))
    assert ("function", BUSY, True) not in found(diagnose(inventory(), now=NOW, grace=timedelta(0)))


def test_a_running_job_whose_heartbeat_stopped_has_its_function_named_not_removed():
    # given a running job last heard from two minutes ago (its worker beats every 15 s)
    lost = inventory(running={BUSY: "j" + "0" * 20})
    findings = diagnose(lost, now=NOW, grace=timedelta(0))
    # then its function is named, with the job, and left for the job's next run
    assert ("function", BUSY, False) in found(findings)
    reason = next(f.reason for f in findings if f.tool_id == BUSY)
    assert "j" + "0" * 20 in reason and "stopped 120 s ago" in reason
    # a running job that still beats, and a queued one (no worker yet), are not findings
    beating = inventory(running={BUSY: "j" + "0" * 20}, busy={BUSY: NOW - timedelta(seconds=20)})
    assert BUSY not in [f.tool_id for f in diagnose(beating, now=NOW, grace=timedelta(0))]
    assert BUSY not in [f.tool_id for f in diagnose(inventory(), now=NOW, grace=timedelta(0))]


def test_anything_changed_within_the_grace_period_is_left_alone():
    recent = inventory(functions={FRESH: ("toolgen-tool-" + FRESH, NOW - timedelta(minutes=5))}, pages={})
    assert found(diagnose(recent, now=NOW, grace=timedelta(minutes=15))) == [
        ("rows", ORPHAN, True),
        ("record", OWNED, False),  # its function is not in this inventory
    ]
    assert ("function", FRESH, True) in found(diagnose(recent, now=NOW, grace=timedelta(minutes=1)))


def test_a_record_whose_function_is_gone_is_reported_not_removed():
    lost = inventory(functions={})
    findings = [f for f in diagnose(lost, now=NOW, grace=timedelta(0)) if f.kind == "record"]
    assert found(findings) == [("record", OWNED, False)]
    assert "ann" in findings[0].reason


def test_without_listing_every_function_a_record_is_not_taken_to_have_lost_its_function():
    table_driven = inventory(functions={}, listed=False)  # only functions of unowned tool ids were looked up
    assert [f for f in diagnose(table_driven, now=NOW, grace=timedelta(0)) if f.kind == "record"] == []


def test_a_tool_recorded_before_per_tool_partitions_is_reported_for_a_person_to_remake():
    findings = diagnose(inventory(unhomed={OWNED}), now=NOW, grace=timedelta(0))
    assert [(f.kind, f.tool_id, f.removable) for f in findings if "per-tool partitions" in f.reason] == [
        ("record", OWNED, False)
    ]


def test_an_orphan_function_says_which_account_it_is_in():
    findings = diagnose(inventory(accounts={ORPHAN: "111111111111"}), now=NOW, grace=timedelta(0))
    assert [f.account for f in findings if f.kind == "function"] == ["111111111111"]
    assert {f.account for f in diagnose(inventory(), now=NOW, grace=timedelta(0))} == {""}
