"""Operator commands that work on the platform's resources directly, with the operator's AWS credentials.

`toolgen doctor` and `toolgen jobs redrive` are not calls of the platform API (no person's token may list
everyone's tools or move everyone's jobs): they use the account itself. Where the platform is comes from, in
order: ``--stack NAME`` (the CloudFormation stack's outputs), TABLE_NAME / BUCKET_NAME / TOOL_FUNCTION_PREFIX /
JOBS_QUEUE_URL / JOBS_DLQ_URL in the environment, or a running `toolgen serve` (which writes
TOOLGEN_HOME/serve.json with its emulator's address).
"""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from toolgen import accounts, aws
from toolgen.auth import state_dir
from toolgen.config import TOOL_FUNCTION_PREFIX
from toolgen.errors import ConfigError


@dataclass(frozen=True)
class PlatformLocation:
    table: str
    bucket: str
    tool_function_prefix: str
    where: str
    jobs_queue_url: str = ""
    jobs_dlq_url: str = ""
    tool_accounts: tuple[str, ...] = ()  # more accounts holding tools (toolgen/accounts.py)


def _from_stack(stack: str) -> PlatformLocation:
    try:
        found = aws.client("cloudformation").describe_stacks(StackName=stack)["Stacks"][0]
    except Exception as e:
        if aws.is_aws_error(e):
            raise aws.translate(e, f"cloudformation describe_stacks {stack}") from e
        raise
    outputs = {o["OutputKey"]: o["OutputValue"] for o in found.get("Outputs", [])}
    missing = [k for k in ("TableName", "PagesBucketName", "ToolFunctionPrefix") if k not in outputs]
    if missing:
        raise ConfigError(f"stack {stack} has no output {', '.join(missing)}: is it a toolgen stack, up to date?")
    return PlatformLocation(
        outputs["TableName"],
        outputs["PagesBucketName"],
        outputs["ToolFunctionPrefix"],
        stack,
        jobs_queue_url=outputs.get("JobsQueueUrl", ""),
        jobs_dlq_url=outputs.get("JobsDeadLetterQueueUrl", ""),
        tool_accounts=accounts.parse(outputs.get("ToolAccounts", "")),
    )


def locate(stack: str | None) -> PlatformLocation:
    """Where the platform is (see the module's docstring); ConfigError naming the three ways when none applies."""
    if stack:
        return _from_stack(stack)
    if os.environ.get("TABLE_NAME"):
        if not os.environ.get("BUCKET_NAME"):
            raise ConfigError("TABLE_NAME is set but BUCKET_NAME is not")
        prefix = os.environ.get("TOOL_FUNCTION_PREFIX") or TOOL_FUNCTION_PREFIX
        return PlatformLocation(
            os.environ["TABLE_NAME"],
            os.environ["BUCKET_NAME"],
            prefix,
            "the environment",
            jobs_queue_url=os.environ.get("JOBS_QUEUE_URL", ""),
            jobs_dlq_url=os.environ.get("JOBS_DLQ_URL", ""),
            tool_accounts=accounts.parse(os.environ.get("TOOL_ACCOUNTS", "")),
        )
    state = state_dir() / "serve.json"
    if state.exists():
        local = _running_serve(state)
        os.environ.update(local["aws"])  # this process now talks to the running emulator
        aws.reset_clients()
        return PlatformLocation(
            local["table"],
            local["bucket"],
            local["tool_function_prefix"],
            local["url"],
            jobs_queue_url=local.get("jobs_queue_url", ""),
            jobs_dlq_url=local.get("jobs_dlq_url", ""),
        )
    raise ConfigError(
        "where is the platform? give --stack NAME, or set TABLE_NAME and BUCKET_NAME, or start `toolgen serve`"
    )


def _running_serve(state: Path) -> dict[str, Any]:
    """What serve.json says, if the `toolgen serve` that wrote it is still running; a file left by one that was
    killed (kill -9 and a power cut run no clean-up) is removed and reported, never read as a live platform."""
    try:
        local = json.loads(state.read_text())
        pid = int(local["pid"])
        missing = [k for k in ("aws", "table", "bucket", "tool_function_prefix", "url") if k not in local]
        if missing:
            raise KeyError(", ".join(missing))
    except (OSError, ValueError, KeyError, TypeError) as e:
        state.unlink(missing_ok=True)
        raise ConfigError(f"{state} was unreadable ({e!r}) and is removed: start `toolgen serve` again") from e
    if not _alive(pid):
        state.unlink(missing_ok=True)
        raise ConfigError(
            f"`toolgen serve` (pid {pid}) is no longer running; its {state.name} is removed: start it again"
        )
    return dict(local)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet waited for by its parent, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # running, as another user
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True  # no /proc (macOS): kill's answer is all there is


def cmd_doctor(args: argparse.Namespace) -> int:
    from toolgen.deploy.doctor import Doctor

    where = locate(args.stack)
    doctor = Doctor(
        table_name=where.table,
        bucket_name=where.bucket,
        tool_function_prefix=where.tool_function_prefix,
        accounts=where.tool_accounts,
    )
    findings = doctor.examine(grace=timedelta(minutes=args.grace), everything=args.all, deep=args.deep)
    for finding in findings:
        print(finding)
    removable = [f for f in findings if f.removable]
    if not findings:
        print(f"all well: every tool resource of {where.where} has its record")
        return 0
    if args.fix:
        removed = doctor.fix(removable)
        print(f"removed {len(removed)}; {len(findings) - len(removed)} to look at by hand")
        return 0 if len(removed) == len(findings) else 1
    print(f"{len(removable)} to remove (run again with --fix), {len(findings) - len(removable)} to look at by hand")
    return 1


def redrive(sqs: object, dlq_url: str, queue_url: str, *, limit: int | None = None) -> int:
    """Move messages from the dead-letter queue back to the jobs queue; how many moved. Each is sent before it is
    deleted, so a failure between the two can only deliver a job twice (which a job survives), never lose one."""
    moved = 0
    while limit is None or moved < limit:
        batch = sqs.receive_message(  # type: ignore[attr-defined]
            QueueUrl=dlq_url, MaxNumberOfMessages=10, WaitTimeSeconds=1, MessageAttributeNames=["All"]
        ).get("Messages", [])
        if not batch:
            break
        for message in batch:
            sqs.send_message(QueueUrl=queue_url, MessageBody=message["Body"])  # type: ignore[attr-defined]
            sqs.delete_message(QueueUrl=dlq_url, ReceiptHandle=message["ReceiptHandle"])  # type: ignore[attr-defined]
            moved += 1
    return moved


def cmd_jobs_redrive(args: argparse.Namespace) -> int:
    where = locate(args.stack)
    if not (where.jobs_queue_url and where.jobs_dlq_url):
        raise ConfigError(f"{where.where} does not say where its jobs queue and dead-letter queue are")
    sqs = aws.client("sqs")
    try:
        moved = redrive(sqs, where.jobs_dlq_url, where.jobs_queue_url, limit=args.limit)
    except Exception as e:
        if aws.is_aws_error(e):
            raise aws.translate(e, "sqs redrive") from e
        raise
    print(f"moved {moved} job message(s) from the dead-letter queue back to the jobs queue")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    """The operator commands, on the `toolgen` parser."""
    s = sub.add_parser("doctor", help="find tool functions, pages and rows no record owns (operator; --fix removes)")
    s.add_argument("--stack", help="the CloudFormation stack (default: environment, else a running toolgen serve)")
    s.add_argument("--fix", action="store_true", help="remove what is found")
    s.add_argument("--all", action="store_true", help="every tool's function, page and rows, owned or not (teardown)")
    s.add_argument(
        "--deep",
        action="store_true",
        help="also list every function (slow with many tools): finds functions nothing in the table names, and "
        "records whose function is gone",
    )
    s.add_argument(
        "--grace", type=float, default=15.0, help="minutes: leave alone anything changed this recently (default 15)"
    )
    s.set_defaults(func=cmd_doctor)
    s = sub.add_parser("jobs", help="operator: the jobs queue")
    jobs = s.add_subparsers(dest="jobs_command", required=True)
    r = jobs.add_parser("redrive", help="move jobs that kept failing from the dead-letter queue back to the queue")
    r.add_argument("--stack", help="the CloudFormation stack (default: environment, else a running toolgen serve)")
    r.add_argument("--limit", type=int, help="move at most this many")
    r.set_defaults(func=cmd_jobs_redrive)
