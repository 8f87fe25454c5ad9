"""Tools spread over several accounts (toolgen/accounts.py), on moto's server with two member accounts reached
through STS AssumeRole, as docs/member-account.yaml sets them up."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest

from toolgen.accounts import DEPLOYER_ROLE, TOOL_ROLE, Account, Clients, choose
from toolgen.config import Settings
from toolgen.ids import sortable_id, tool_id_for
from toolgen.local.emulator import MotoFunctionSource
from toolgen.local.lambda_runtime import LocalLambdaRuntime, RuntimeInvoker
from toolgen.models import Job, JobMessage
from toolgen.pipeline import process
from toolgen.services import Services

MEMBERS = ("111111111111", "222222222222")
PLATFORM = "123456789012"  # moto's default account: the platform's own
SECRET = "functional-secret"


def test_a_tool_id_always_goes_to_the_same_account_and_ids_spread_over_all_of_them():
    ids = [f"t{n:020d}" for n in range(400)]
    chosen = [choose(i, MEMBERS).account_id for i in ids]
    assert chosen == [choose(i, MEMBERS).account_id for i in ids]
    assert 150 < chosen.count(MEMBERS[0]) < 250  # about half each
    assert choose("t1", ()) == Account() and choose("t1", (PLATFORM,), own_account=PLATFORM).own
    assert Account("111111111111").role_arn(DEPLOYER_ROLE) == "arn:aws:iam::111111111111:role/toolgen-deployer"


def test_other_accounts_need_the_tables_arn_and_real_account_ids(monkeypatch):
    from toolgen.errors import ConfigError

    with pytest.raises(ConfigError, match="12-digit"):
        Settings("t", tool_accounts=("12345",)).check()
    with pytest.raises(ConfigError, match="TABLE_ARN"):
        Settings("t", tool_accounts=MEMBERS).check()
    Settings("t", tool_accounts=(PLATFORM,), platform_account_id=PLATFORM).check()  # only its own: no ARN needed


@pytest.fixture
def members(aws_env, emulator, monkeypatch, tmp_path: Path) -> Iterator[Services]:
    """The platform configured with two member accounts, each holding the member template's tool role."""
    table_arn = emulator.client("dynamodb").describe_table(TableName=aws_env.table)["Table"]["TableArn"]
    monkeypatch.setenv("TOOL_ACCOUNTS", ",".join(MEMBERS))
    monkeypatch.setenv("TABLE_ARN", table_arn)
    monkeypatch.setenv("PLATFORM_ACCOUNT_ID", PLATFORM)
    clients = Clients()
    trust = json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {"Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}
            ],
        }
    )
    for member in MEMBERS:
        iam = clients.client("iam", Account(member))
        if not any(r["RoleName"] == TOOL_ROLE for r in iam.list_roles()["Roles"]):
            iam.create_role(RoleName=TOOL_ROLE, AssumeRolePolicyDocument=trust)
    services = Services.from_settings(
        Settings.from_env("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret")
    )
    runtimes = []
    for member in (PLATFORM, *MEMBERS):  # each account's tools run from that account's functions
        env = {"PATH": "/usr/bin:/bin", **emulator.environment(), "POWERTOOLS_LOG_LEVEL": "WARNING"}
        # moto would serve a member's role session from the member's own DynamoDB, where the table is not
        runtime = LocalLambdaRuntime(MotoFunctionSource(member, sessions=member == PLATFORM), tmp_path / member, env)
        runtimes.append(runtime)
        if member == PLATFORM:
            services.invoker = RuntimeInvoker(runtime)
        else:
            services.invokers[member] = RuntimeInvoker(runtime)
    yield services
    for runtime in runtimes:
        runtime.shutdown()


def _job_for(account: str) -> str:
    """A job id whose tool the platform puts in ``account``."""
    while True:
        job_id = sortable_id("j")
        if choose(tool_id_for(job_id, SECRET), MEMBERS).account_id == account:
            return job_id


def functions(services: Services, account: str) -> set[str]:
    client = services.clients.client("lambda", Account("" if account == PLATFORM else account))
    return {f["FunctionName"] for f in client.list_functions()["Functions"]}


def test_tools_are_made_probed_found_again_and_deleted_in_their_own_accounts(members: Services):
    services, prompt = members, "a todo list for my chores"
    made = {}
    for member in MEMBERS:
        user = f"acct-{member[:3]}"
        job = services.jobs.create(Job(job_id=_job_for(member), user=user, prompt=prompt))
        done = process(JobMessage(job_id=job.job_id, user=user, prompt=prompt), services)
        assert done.status == "succeeded", done.error  # deployed there, and its probe answered from there
        made[member] = services.tools.get(user, done.tool_id)
    for member, record in made.items():
        other = next(m for m in MEMBERS if m != member)
        assert record.account == member
        assert record.function_name in functions(services, member)
        assert record.function_name not in functions(services, other) | functions(services, PLATFORM)
        config = services.clients.client("lambda", Account(member)).get_function_configuration(
            FunctionName=record.function_name
        )
        assert config["Role"] == Account(member).role_arn(TOOL_ROLE)
        assert config["Environment"]["Variables"]["TABLE_NAME"] == services.settings.table_arn
        assert "TOOLGEN_SECRET" not in config["Environment"]["Variables"]  # a member account holds no secret
    # a repeat request finds the tool in its account (not in the platform's)
    from toolgen.pipeline import understand

    first = made[MEMBERS[0]]
    again = understand(services, first.user, "a todo list for my chores", sortable_id("j"))
    assert again.live is not None and again.live.tool_id == first.tool_id and again.live.account == MEMBERS[0]
    # deleting follows the record to its account
    from toolgen.api.app import _delete_tool

    _delete_tool(services, first.user, first)
    assert first.function_name not in functions(services, MEMBERS[0])


def test_the_doctor_finds_and_removes_an_orphan_in_a_member_account(members: Services, aws_env):
    from datetime import timedelta

    from toolgen.deploy.doctor import Doctor
    from toolgen.deploy.package import zip_files
    from toolgen.deploy.plan import FunctionSpec
    from toolgen.ids import tool_id
    from toolgen.models import Job

    member = Account(MEMBERS[1])
    named, unnamed = tool_id(), tool_id()
    for orphan in (named, unnamed):
        members.deployer_for(member).deploy(
            FunctionSpec(
                services_prefix(members) + orphan, member.role_arn(TOOL_ROLE), "", zip_files([("app.py", b"x")])
            )
        )
    # a worker died after deploying one of them: its job names it, and no record owns it
    members.jobs.create(Job(job_id=sortable_id("j"), user="uma", prompt="x", tool_id=named, status="failed"))
    own_lambda = boto3.client("lambda")
    listed = []
    own_lambda.meta.events.register("before-call.lambda.ListFunctions", lambda **_: listed.append(1))
    doctor = Doctor(
        table_name=aws_env.table,
        bucket_name=aws_env.bucket,
        tool_function_prefix=services_prefix(members),
        accounts=MEMBERS,
        clients={"lambda": own_lambda},
    )
    # from the table: the one a job names is found in its account, and no function was listed
    findings = [f for f in doctor.examine(grace=timedelta(0)) if f.tool_id in (named, unnamed)]
    assert [(f.kind, f.tool_id, f.account) for f in findings] == [("function", named, MEMBERS[1])]
    assert listed == []
    # the deep survey lists them all, and finds the one nothing names
    deep = [f for f in doctor.examine(grace=timedelta(0), deep=True) if f.tool_id in (named, unnamed)]
    assert sorted(f.tool_id for f in deep) == sorted((named, unnamed)) and listed
    assert doctor.fix(deep) == deep
    assert not {services_prefix(members) + t for t in (named, unnamed)} & set(functions(members, MEMBERS[1]))


def services_prefix(services: Services) -> str:
    return services.settings.tool_function_prefix
