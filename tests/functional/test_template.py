"""template.yaml lints clean and says what the embedded default does (the two must not drift apart)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from cfnlint.decode import decode

from tests.sam import sam_validate
from toolgen.local import gateway, platform

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def template() -> dict:
    parsed, errors = decode(str(ROOT / "template.yaml"))
    assert not errors
    return parsed


def test_template_passes_cfn_lint():
    cfn_lint = Path(sys.executable).with_name("cfn-lint")
    done = subprocess.run([str(cfn_lint), str(ROOT / "template.yaml")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_template_and_embedded_default_agree_on_figures(template):
    res = template["Resources"]
    assert res["ApiFunction"]["Properties"]["Timeout"] == platform.API_TIMEOUT_S
    assert res["ApiFunction"]["Properties"]["MemorySize"] == platform.API_MEMORY_MB
    assert res["WorkerFunction"]["Properties"]["Timeout"] == platform.WORKER_TIMEOUT_S
    assert res["WorkerFunction"]["Properties"]["MemorySize"] == platform.WORKER_MEMORY_MB
    assert res["AuthorizerFunction"]["Properties"]["Timeout"] == platform.AUTHORIZER_TIMEOUT_S
    assert res["AuthorizerFunction"]["Properties"]["MemorySize"] == platform.AUTHORIZER_MEMORY_MB
    authorizer = res["Api"]["Properties"]["Auth"]["Authorizers"]["TokenAuthorizer"]["Identity"]["ReauthorizeEvery"]
    assert authorizer == gateway.AUTHORIZER_TTL_S
    assert res["JobsQueue"]["Properties"]["VisibilityTimeout"] == platform.JOBS_VISIBILITY_S
    assert res["JobsQueue"]["Properties"]["RedrivePolicy"]["maxReceiveCount"] == platform.JOBS_MAX_RECEIVE >= 5
    assert res["JobsQueue"]["Properties"]["MessageRetentionPeriod"] == platform.JOBS_RETENTION_S
    assert (
        res["JobsDLQ"]["Properties"]["MessageRetentionPeriod"] == platform.DLQ_RETENTION_S > platform.JOBS_RETENTION_S
    )
    assert template["Globals"]["Function"]["Runtime"] == platform.RUNTIME
    assert template["Parameters"]["ToolTimeout"]["Default"] == 10
    assert template["Parameters"]["ToolConcurrency"]["Default"] == 5


def _deployed_value(template: dict, value, name: str) -> str:
    """What a variable would hold once deployed with default parameters (a stand-in for resource references)."""
    if isinstance(value, dict) and set(value) == {"Ref"} and value["Ref"] in template["Parameters"]:
        return str(template["Parameters"][value["Ref"]].get("Default", ""))
    if isinstance(value, dict) and set(value) == {"Fn::Join"}:  # a list parameter joined: its default, joined
        _, parts = value["Fn::Join"]
        if isinstance(parts, dict) and parts.get("Ref") in template["Parameters"]:
            return str(template["Parameters"][parts["Ref"]].get("Default", ""))
    if isinstance(value, str | int):
        return str(value)
    return "https://pages.example" if name.endswith("ORIGINS") else "arn:aws:x:us-east-1:1:stand-in"


def test_every_setting_a_function_reads_is_given_by_the_template(template):
    from toolgen.config import Settings

    env = dict(template["Globals"]["Function"]["Environment"]["Variables"])
    api_env = {**env, **template["Resources"]["ApiFunction"]["Properties"]["Environment"]["Variables"]}
    worker_env = {**env, **template["Resources"]["WorkerFunction"]["Properties"]["Environment"]["Variables"]}
    for needed, given in (
        (("table_name", "bucket_name", "jobs_queue_url", "secret"), api_env),
        (("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret"), worker_env),
    ):
        fake = {name: _deployed_value(template, value, name) for name, value in given.items()}
        with pytest.MonkeyPatch.context() as mp:
            for name in (
                "TABLE_NAME",
                "BUCKET_NAME",
                "JOBS_QUEUE_URL",
                "TOOL_ROLE_ARN",
                "BASE_LAYER_ARN",
                "TOOLGEN_SECRET",
                "TOOLGEN_SECRET_ARN",
            ):
                mp.delenv(name, raising=False)
            for name, value in fake.items():
                mp.setenv(name, value)
            Settings.from_env(*needed)  # raises ConfigError naming anything the template forgot


def test_each_tool_may_reach_only_its_own_partitions_and_the_emulator_holds_it_to_the_same_policy(template):
    policy = template["Resources"]["ToolRole"]["Properties"]["Policies"][0]
    assert policy["PolicyName"] == platform.TOOL_POLICY
    statement = policy["PolicyDocument"]["Statement"][0]
    assert statement["Resource"] == {"Fn::GetAtt": ["Table", "Arn"]}
    assert {**statement, "Resource": "arn"} == platform.tool_rows_policy("arn")["Statement"][0]
    assert statement["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"] == [
        "TOOL#${aws:userid}",
        "TOOL#${aws:userid}#*",
    ]
    assert "dynamodb:Scan" not in statement["Action"]  # a scan names no partition


def _pins(text: str) -> dict[str, str]:
    found = re.findall(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)", text, re.MULTILINE)
    return {name.lower().replace("_", "-"): version for name, version in found}


@pytest.mark.parametrize("folder", ["layers/base", "functions/api", "functions/worker"])
def test_what_sam_build_installs_is_the_lock_of_what_is_imported_within_the_constraints(folder):
    """requirements.txt is `make lock`'s: every requirement of requirements.in at its version, every dependency
    pinned with its hashes (so pip installs exactly these in every build, sam build's included), and every
    version the one the platform is tested with (constraints.txt)."""
    constraints = _pins((ROOT / "constraints.txt").read_text())
    wanted = _pins((ROOT / folder / "requirements.in").read_text())
    locked_text = (ROOT / folder / "requirements.txt").read_text()
    locked = _pins(locked_text)
    assert wanted and wanted.items() <= locked.items()
    entries = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", locked_text.split("\n", 2)[2])
    assert len(entries) == len(locked)
    assert all("--hash=sha256:" in entry for entry in entries)
    assert {name: constraints.get(name) for name in locked} == locked


def test_template_passes_sam_validate_lint():
    done = sam_validate(ROOT / "template.yaml")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "is a valid SAM Template" in done.stdout + done.stderr


def test_the_platform_keeps_its_data_its_concurrency_and_its_logs(template):
    res = template["Resources"]
    for name in ("Table", "TokenSecret"):  # a stack delete or replacement keeps everyone's data and the key
        assert res[name]["DeletionPolicy"] == res[name]["UpdateReplacePolicy"] == "Retain"
    worker = res["WorkerFunction"]["Properties"]
    assert worker["ReservedConcurrentExecutions"] == {"Ref": "WorkerConcurrency"}
    assert worker["Events"]["Jobs"]["Properties"]["ScalingConfig"] == {
        "MaximumConcurrency": {"Ref": "WorkerConcurrency"}
    }
    assert worker["Environment"]["Variables"]["TOOL_RESERVE_PERCENT"] == {"Ref": "ToolReservePercent"}
    for function, parameter in (
        ("ApiFunction", "ApiReservedConcurrency"),
        ("AuthorizerFunction", "AuthorizerReservedConcurrency"),
    ):
        reserved = res[function]["Properties"]["ReservedConcurrentExecutions"]["Fn::If"]
        assert reserved[1] == {"Ref": parameter} and reserved[2] == {"Ref": "AWS::NoValue"}
        assert template["Parameters"][parameter]["Default"] > 0
    for function in ("ApiFunction", "AuthorizerFunction", "WorkerFunction"):
        assert res[function]["Properties"]["LoggingConfig"] == {"LogGroup": {"Ref": "PlatformLogs"}}
    assert worker["Environment"]["Variables"]["TOOL_LOG_GROUP"] == {"Ref": "ToolLogs"}
    for group in ("PlatformLogs", "ToolLogs"):
        assert res[group]["Properties"]["RetentionInDays"] == {"Ref": "LogRetentionDays"}
    alarm = res["JobsDeadLettersAlarm"]["Properties"]
    assert alarm["Dimensions"] == [{"Name": "QueueName", "Value": {"Fn::GetAtt": ["JobsDLQ", "QueueName"]}}]
    assert alarm["Threshold"] == 0 and alarm["ComparisonOperator"] == "GreaterThanThreshold"


def test_the_worker_may_read_the_accounts_room_and_give_a_reservation_back(template):
    statements = [
        s for p in template["Resources"]["WorkerFunction"]["Properties"]["Policies"] for s in p.get("Statement", [])
    ]
    actions = {a for s in statements for a in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])}
    assert {"lambda:GetAccountSettings", "lambda:DeleteFunctionConcurrency", "lambda:PutFunctionConcurrency"} <= actions
    settings = next(s for s in statements if s["Action"] == "lambda:GetAccountSettings")
    assert settings["Resource"] == "*"  # it has no resource-level permission


def test_the_member_account_template_passes_sam_validate_lint_and_names_the_roles_the_platform_assumes(template):
    from toolgen.accounts import DEPLOYER_ROLE, TOOL_ROLE

    member = ROOT / "docs" / "member-account.yaml"
    done = sam_validate(member)
    assert done.returncode == 0, done.stdout + done.stderr
    resources = decode(str(member))[0]["Resources"]
    assert resources["DeployerRole"]["Properties"]["RoleName"] == DEPLOYER_ROLE
    assert resources["ToolRole"]["Properties"]["RoleName"] == TOOL_ROLE
    tool_statement = resources["ToolRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"][0]
    assert {**tool_statement, "Resource": "arn"} == platform.tool_rows_policy("arn")["Statement"][0]
    # the platform may assume that role only in the accounts it lists
    worker = template["Resources"]["WorkerFunction"]["Properties"]["Policies"]
    assume = next(s for p in worker for s in p.get("Statement", []) if s.get("Action") == "sts:AssumeRole")
    assert assume["Condition"] == {"StringEquals": {"aws:ResourceAccount": {"Ref": "ToolAccounts"}}}
