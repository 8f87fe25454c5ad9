"""A tool's limit of calls at once, against moto's real server with an account's quota (toolgen/local/fidelity.py).

Tools reserve concurrency while the account has room; past it (or when Lambda refuses all the same) they are
deployed without one and keep their limit with lease slots in the table, across every environment they run in.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import replace

import pytest

from tests.faults import Faults
from toolgen import awslite
from toolgen.deploy import Deployer, FunctionSpec
from toolgen.deploy.package import zip_files
from toolgen.deploy.plan import live
from toolgen.ids import tool_id
from toolgen.local import fidelity
from toolgen.runtime.lease import HOLD_ENV, LIMIT_ENV, Busy, Lease, Leases

HANDLER = """
import json, os
def handler(event, context):
    return {"statusCode": 200, "body": json.dumps({"limit": os.environ.get("TOOLGEN_LEASE_LIMIT")})}
"""


def no_sleep(_: float) -> None:
    return None


def spec_for(resources) -> FunctionSpec:
    return FunctionSpec(
        function_name=f"toolgen-tool-{tool_id()}",
        role_arn=resources.tool_role_arn,
        layer_arn="",
        package=zip_files([("app.py", HANDLER.encode())]),
    )


@contextlib.contextmanager
def room_for(emulator, calls: int) -> Iterator[None]:
    """The account's quota set so that ``calls`` more can be reserved (whatever this session reserved before)."""
    unreserved = emulator.client("lambda").get_account_settings()["AccountLimit"]
    reserved = unreserved["ConcurrentExecutions"] - unreserved["UnreservedConcurrentExecutions"]
    before = fidelity.account_concurrency()
    fidelity.set_account_concurrency(reserved + fidelity.UNRESERVED_MINIMUM + calls)
    try:
        yield
    finally:
        fidelity.set_account_concurrency(before)


def reserved(emulator, name: str) -> int | None:
    found = emulator.client("lambda").get_function(FunctionName=name)
    return (found.get("Concurrency") or {}).get("ReservedConcurrentExecutions")


def test_the_emulated_account_refuses_what_aws_refuses(emulator, resources):
    lam = emulator.client("lambda")
    deployer = Deployer({"lambda": lam}, sleep=no_sleep)
    spec = spec_for(resources)
    deployer.deploy(spec)
    with room_for(emulator, 4):
        settings = lam.get_account_settings()["AccountLimit"]
        assert settings["UnreservedConcurrentExecutions"] == fidelity.UNRESERVED_MINIMUM + 4
        with pytest.raises(lam.exceptions.InvalidParameterValueException, match="minimum value of \\[100\\]"):
            lam.put_function_concurrency(FunctionName=spec.function_name, ReservedConcurrentExecutions=10)
        # What the function holds already is its own: 5 held + 4 of room makes 9 possible.
        lam.put_function_concurrency(FunctionName=spec.function_name, ReservedConcurrentExecutions=9)
    deployer.delete(spec.function_name)


def test_past_the_accounts_room_tools_are_leased_not_failed(emulator, resources, runtime):
    deployer = Deployer({"lambda": emulator.client("lambda")}, sleep=no_sleep, reserve_percent=100)
    specs = [spec_for(resources) for _ in range(3)]
    with room_for(emulator, 10):  # room for two tools of 5
        results = [deployer.deploy(spec) for spec in specs]
    assert [r.enforced_by for r in results] == ["reserved_concurrency", "reserved_concurrency", "lease"]
    assert [reserved(emulator, s.function_name) for s in specs] == [5, 5, None]
    answered = runtime.invoke(live(specs[2].function_name), {"rawPath": "/"})
    assert answered.status == "ok" and json.loads(answered.payload["body"]) == {"limit": "5"}
    config = emulator.client("lambda").get_function_configuration(FunctionName=specs[2].function_name)
    assert config["Environment"]["Variables"][HOLD_ENV] == "12"  # the timeout and a margin
    for spec in specs:
        deployer.delete(spec.function_name)


def test_a_leased_tool_takes_a_reservation_when_room_comes_back_and_gives_it_up_when_told(emulator, resources):
    deployer = Deployer({"lambda": emulator.client("lambda")}, sleep=no_sleep, reserve_percent=100)
    spec = spec_for(resources)
    with room_for(emulator, 0):
        assert deployer.deploy(spec).enforced_by == "lease"
    assert deployer.deploy(spec).enforced_by == "reserved_concurrency"
    config = emulator.client("lambda").get_function_configuration(FunctionName=spec.function_name)
    assert (
        LIMIT_ENV not in config.get("Environment", {}).get("Variables", {})
        and reserved(emulator, spec.function_name) == 5
    )
    # Redeployed while the account is full, it keeps what it holds: its own reservation is not someone else's room.
    with room_for(emulator, 0):
        assert deployer.deploy(replace(spec, description="again")).enforced_by == "reserved_concurrency"
    # An operator who sets the share to 0 has every tool give its reservation back.
    never = Deployer({"lambda": emulator.client("lambda")}, sleep=no_sleep, reserve_percent=0)
    assert never.deploy(spec).enforced_by == "lease" and reserved(emulator, spec.function_name) is None
    deployer.delete(spec.function_name)


def test_tools_reserve_up_to_their_share_of_the_quota_and_no_more(emulator, resources):
    lam = emulator.client("lambda")
    spec = spec_for(resources)
    with room_for(emulator, 1000):
        limits = lam.get_account_settings()["AccountLimit"]
        quota, held = (
            limits["ConcurrentExecutions"],
            limits["ConcurrentExecutions"] - limits["UnreservedConcurrentExecutions"],
        )
        allowed = [p for p in range(101) if Deployer({"lambda": lam}, reserve_percent=p).has_room(spec, None)]
    # The smallest share that lets one more tool of 5 reserve is the one its reservation fits in, and every larger.
    assert allowed == list(range(allowed[0], 101))
    assert (held + 5) * 100 <= allowed[0] * quota < (held + 5) * 100 + quota


def test_a_reservation_refused_after_the_check_leases_the_tool(emulator, resources):
    """Another deploy takes the last room between reading the account and reserving: the tool is still made."""
    lam = Faults(emulator.client("lambda"))
    other, spec = spec_for(resources), spec_for(resources)
    deployer = Deployer({"lambda": lam.client}, sleep=no_sleep, reserve_percent=100)
    with room_for(emulator, 10):
        deployer.deploy(replace(other, reserve=False))
        lam.then(
            "GetAccountSettings",
            lambda: emulator.client("lambda").put_function_concurrency(
                FunctionName=other.function_name, ReservedConcurrentExecutions=10
            ),
        )
        result = deployer.deploy(spec)
    assert result.enforced_by == "lease" and lam.count("PutFunctionConcurrency") == 1
    assert reserved(emulator, spec.function_name) is None
    assert (
        LIMIT_ENV in lam.client.get_function_configuration(FunctionName=spec.function_name)["Environment"]["Variables"]
    )
    for name in (spec.function_name, other.function_name):
        deployer.delete(name)


# --- the leases themselves ----------------------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["awslite", "boto3"])
def dynamodb(request, aws_env):
    from toolgen import aws

    return awslite.Client("dynamodb") if request.param == "awslite" else aws.client("dynamodb")


def test_five_calls_hold_the_five_slots_and_the_sixth_is_busy(dynamodb, aws_env):
    clock = Clock()
    leases = Leases(dynamodb, aws_env.table, tool_id(), limit=5, hold_s=12, clock=clock)
    held = [leases.acquire() for _ in range(5)]
    assert sorted(lease.slot for lease in held) == [0, 1, 2, 3, 4]
    with pytest.raises(Busy):
        leases.acquire()
    leases.release(held[2])
    assert leases.acquire().slot == held[2].slot


def test_a_slot_held_by_a_call_that_died_frees_itself_and_its_late_release_frees_nothing(dynamodb, aws_env):
    clock = Clock()
    leases = Leases(dynamodb, aws_env.table, tool_id(), limit=1, hold_s=12, clock=clock)
    dead = leases.acquire()
    clock.now += 11.9
    with pytest.raises(Busy):
        leases.acquire()
    clock.now += 0.2  # its hold is over
    alive = leases.acquire()
    leases.release(dead)  # the dead call's release must not free the slot another call now holds
    with pytest.raises(Busy):
        leases.acquire()
    leases.release(alive)
    assert leases.acquire().slot == 0


def test_tools_do_not_share_slots(dynamodb, aws_env):
    a = Leases(dynamodb, aws_env.table, tool_id(), limit=1, hold_s=12)
    b = Leases(dynamodb, aws_env.table, tool_id(), limit=1, hold_s=12)
    a.acquire()
    assert b.acquire().slot == 0


def test_an_unreachable_table_serves_the_call_without_a_slot(aws_env):
    client = awslite.Client("dynamodb", endpoint="http://127.0.0.1:9")  # nothing listens there
    leases = Leases(client, aws_env.table, tool_id(), limit=1, hold_s=12)
    lease = leases.acquire()
    assert lease == Lease(-1, lease.holder)
    leases.release(lease)  # nothing to give back, and no error


def test_a_lease_needs_a_limit_and_a_hold(aws_env):
    with pytest.raises(ValueError, match="limit"):
        Leases(awslite.Client("dynamodb"), aws_env.table, "t", limit=0, hold_s=12)


# --- a leased tool's answers --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prompt", "said"), [("I want to log my morning runs", "5 calls"), ("我想记录每天晨跑", "5 个请求")]
)
def test_a_leased_tool_answers_429_with_retry_after_while_its_slots_are_taken(aws_env, prompt, said):
    from tests.fakes import FakeTable
    from tests.helpers import tool_event
    from toolgen import auth
    from toolgen.intent import classify
    from toolgen.planner import OfflinePlanner
    from toolgen.runtime import ToolApp

    program = OfflinePlanner().plan(prompt, classify(prompt), []).program
    leases = Leases(awslite.Client("dynamodb"), aws_env.table, tool_id(), limit=5, hold_s=12)
    app = ToolApp(program, tool_id=tool_id(), owner="ann", table=FakeTable(), secret="s", leases=leases)
    path = next(op.path for op in program.operations if op.kind == "list")
    event = tool_event("GET", path, token=auth.mint("ann", "s"))
    assert app.handle(event)["statusCode"] == 200
    held = [leases.acquire() for _ in range(5)]  # five calls in flight elsewhere
    busy = app.handle(event)
    assert busy["statusCode"] == 429 and busy["headers"]["retry-after"] == "1"
    body = json.loads(busy["body"])
    assert body["code"] == "busy" and said in body["message"]
    leases.release(held[0])
    assert app.handle(event)["statusCode"] == 200
    assert app.handle(event)["statusCode"] == 200  # each call gave its slot back
    leases.acquire()  # all five taken again: a stranger is still told no, before any slot is looked for
    assert app.handle(tool_event("GET", path, token=auth.mint("bob", "s")))["statusCode"] == 403
