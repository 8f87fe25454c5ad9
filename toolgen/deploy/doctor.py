"""`toolgen doctor`: find what the platform made that no tool record owns, and remove it.

Tools are made at run time, outside any stack, so a crash in the wrong place (a worker killed between deploy and
record, a delete that stopped half-way) can leave a function, a page or a tool's rows with nothing pointing at
them. The doctor reads the table (records, jobs, rows partitions) and the bucket's pages, and compares them with
the tool records; ``diagnose`` is pure and tested as data, like a deploy plan.

Functions are found from the table, not by listing them: every tool function is made by a job, which names its
tool id first, so the doctor asks Lambda (GetFunction, outside the control plane's 15 calls a second) only about
tool ids that something names and no record owns. ``deep`` also lists every function of every account
(ListFunctions, 50 a page, sharing those 15 calls a second with deploys: minutes at 100,000 tools): it finds
functions nothing in the table names (made by hand, or left by a forget-me that stopped half-way) and records
whose function is gone.

What is never touched: anything a job still in progress names (it is being made right now), and anything changed
within the grace period (it may belong to a job that has not recorded it yet). A running job whose heartbeat has
stopped (toolgen/jobs.py: silent for a minute) has lost its worker: its function is named, not removed, since the
queue runs the job again and that run finishes or removes it; a job that has not moved for an hour is dead.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from toolgen import aws
from toolgen.accounts import Account, Clients
from toolgen.deploy.execute import Deployer
from toolgen.ids import TOOL_ID_RE
from toolgen.jobs import SILENT_S
from toolgen.models import TERMINAL
from toolgen.table import DynamoTable, decode
from toolgen.ui.pages import PageStore, page_key

logger = logging.getLogger(__name__)
STUCK = timedelta(hours=1)  # a job not updated for this long is dead (the worker's whole retry budget is 6 min)
Kind = Literal["function", "page", "rows", "record"]


@dataclass(frozen=True)
class Finding:
    """One thing out of place; ``removable`` ones are what ``--fix`` deletes."""

    kind: Kind
    name: str
    tool_id: str
    reason: str
    removable: bool = True
    account: str = ""  # where a function finding is ("": this account; toolgen/accounts.py)

    def __str__(self) -> str:
        action = "remove" if self.removable else "report"
        return f"{action:<7} {self.kind:<9} {self.name}  ({self.reason})"


@dataclass
class Inventory:
    """What the account holds: by tool id, with when it last changed where that is known."""

    functions: dict[str, tuple[str, datetime]] = field(default_factory=dict)  # tool id -> (name, modified)
    accounts: dict[str, str] = field(default_factory=dict)  # tool id -> the account its function is in ("": own)
    pages: dict[str, datetime] = field(default_factory=dict)  # tool id -> modified
    rows: dict[str, str] = field(default_factory=dict)  # partition key -> tool id
    records: dict[str, str] = field(default_factory=dict)  # tool id -> user
    busy: dict[str, datetime] = field(default_factory=dict)  # tool id -> last update of a job not yet ended
    running: dict[str, str] = field(default_factory=dict)  # tool id -> the running job (its worker beats)
    named: set[str] = field(default_factory=set)  # tool ids any job names
    unhomed: set[str] = field(default_factory=set)  # tools recorded before per-tool partitions (toolgen/table.py)
    listed: bool = False  # functions holds every tool function (a deep survey), so a record's absence means loss


def diagnose(inventory: Inventory, *, now: datetime, grace: timedelta) -> list[Finding]:
    """Every orphan in ``inventory`` (and every record whose function is gone), oldest concern first."""
    findings: list[Finding] = []
    busy = {tool_id for tool_id, updated in inventory.busy.items() if now - updated < STUCK}
    silent = {t for t in busy & set(inventory.running) if now - inventory.busy[t] > timedelta(seconds=SILENT_S)}
    for tool_id in sorted(silent & set(inventory.functions)):
        quiet = int((now - inventory.busy[tool_id]).total_seconds())
        reason = (
            f"left by job {inventory.running[tool_id]}, whose worker stopped {quiet} s ago: the queue runs the job "
            "again, which finishes or removes it"
        )
        name = inventory.functions[tool_id][0]
        findings.append(
            Finding("function", name, tool_id, reason, removable=False, account=inventory.accounts.get(tool_id, ""))
        )

    def owned(tool_id: str, modified: datetime | None) -> bool:
        recent = modified is not None and now - modified < grace
        return tool_id in inventory.records or tool_id in busy or recent

    for tool_id, (name, modified) in sorted(inventory.functions.items()):
        if not owned(tool_id, modified):
            account = inventory.accounts.get(tool_id, "")
            findings.append(Finding("function", name, tool_id, "no tool record owns it", account=account))
    for tool_id, modified in sorted(inventory.pages.items()):
        if not owned(tool_id, modified):
            findings.append(Finding("page", page_key(tool_id), tool_id, "no tool record owns it"))
    for pk, tool_id in sorted(inventory.rows.items()):
        if not owned(tool_id, None):
            findings.append(Finding("rows", pk, tool_id, "rows of a tool that no longer exists"))
    for tool_id in sorted(inventory.unhomed & set(inventory.records)):
        reason = (
            f"{inventory.records[tool_id]}'s tool was made before per-tool partitions and its role no longer reaches "
            "its rows: delete it and ask for it again"
        )
        findings.append(Finding("record", tool_id, tool_id, reason, removable=False))
    for tool_id, user in sorted(inventory.records.items()) if inventory.listed else ():
        if tool_id not in inventory.functions and tool_id not in busy:
            reason = f"{user}'s tool has lost its function: delete it or ask for it again"
            findings.append(Finding("record", tool_id, tool_id, reason, removable=False))
    return findings


class Doctor:
    """Surveys the platform's resources and removes orphans (clients injectable, as everywhere)."""

    def __init__(
        self,
        *,
        table_name: str,
        bucket_name: str,
        tool_function_prefix: str,
        deployer: Deployer | None = None,
        clients: dict[str, Any] | None = None,
        accounts: tuple[str, ...] = (),
        account_clients: Clients | None = None,
    ) -> None:
        self.table_name, self.bucket_name, self.prefix = table_name, bucket_name, tool_function_prefix
        self._clients = clients or {}
        self.deployer = deployer or Deployer(self._clients)
        self.accounts = accounts  # the member accounts tools may be in, besides this one (toolgen/accounts.py)
        self._account_clients = account_clients or Clients()

    def _lambda(self, account: str) -> Any:
        return self.client("lambda") if not account else self._account_clients.client("lambda", Account(account))

    def client(self, service: str) -> Any:
        if service not in self._clients:
            self._clients[service] = aws.client(service)
        return self._clients[service]

    def survey(self, *, deep: bool = False) -> Inventory:
        """Read every item and page the doctor judges (a full scan: an operator's tool, not a hot path), and the
        functions of tool ids nothing owns; ``deep``: every function of every account."""
        found = Inventory(listed=deep)
        for page in (
            self.client("s3").get_paginator("list_objects_v2").paginate(Bucket=self.bucket_name, Prefix="pages/")
        ):
            for obj in page.get("Contents", []):
                parts = obj["Key"].split("/")
                if len(parts) == 3 and TOOL_ID_RE.match(parts[1]):
                    found.pages[parts[1]] = _aware(obj["LastModified"])
        scan = (
            self.client("dynamodb")
            .get_paginator("scan")
            .paginate(
                TableName=self.table_name,
                ProjectionExpression="pk, sk, #s, tool_id, updated_at, home",
                ExpressionAttributeNames={"#s": "status"},
                ConsistentRead=True,
            )
        )
        for page in scan:
            for raw in page["Items"]:
                self._sort(found, {k: decode(v) for k, v in raw.items()})
        if deep:
            for account in ("", *self.accounts):
                for page in self._lambda(account).get_paginator("list_functions").paginate():
                    for fn in page["Functions"]:
                        self._function_found(found, fn, account)
            return found
        unowned = (found.named | set(found.rows.values()) | set(found.pages)) - set(found.records)
        for tool_id in sorted(unowned):
            for account in ("", *self.accounts):
                try:
                    fn = self._lambda(account).get_function(FunctionName=self.prefix + tool_id)["Configuration"]
                except Exception as e:
                    if aws.error_code(e) == "ResourceNotFoundException":
                        continue
                    raise
                self._function_found(found, fn, account)
                break
        return found

    def _function_found(self, found: Inventory, fn: dict[str, Any], account: str) -> None:
        name = fn["FunctionName"]
        tool_id = name[len(self.prefix) :]
        if name.startswith(self.prefix) and TOOL_ID_RE.match(tool_id):
            found.functions[tool_id] = (name, _when(fn.get("LastModified")))
            found.accounts[tool_id] = account

    def _sort(self, found: Inventory, item: dict[str, Any]) -> None:
        pk, sk = str(item["pk"]), str(item["sk"])
        if pk.startswith("USER#") and sk.startswith("TOOL#"):
            found.records[sk[5:]] = pk[5:]
            if not item.get("home"):
                found.unhomed.add(sk[5:])
        elif pk.startswith("USER#") and sk.startswith("JOB#") and item.get("tool_id"):
            found.named.add(str(item["tool_id"]))
            if item.get("status") not in TERMINAL:
                found.busy[str(item["tool_id"])] = datetime.fromtimestamp(float(item.get("updated_at") or 0), UTC)
            if item.get("status") == "running":
                found.running[str(item["tool_id"])] = sk[4:]
        elif pk.startswith("TOOL#"):
            # TOOL#<role id>:<function name>[#<user>] (a tool's home), or TOOL#<tool id>[#<user>] from before homes
            owner = pk.split("#")[1].rpartition(":")[2]
            tool_id = owner.removeprefix(self.prefix) if ":" in pk.split("#")[1] else owner
            if TOOL_ID_RE.match(tool_id):
                found.rows[pk] = tool_id

    def examine(
        self, *, grace: timedelta, now: datetime | None = None, everything: bool = False, deep: bool = False
    ) -> list[Finding]:
        """What is out of place; ``everything``: every tool resource, owned or not (before tearing the stack down,
        so every function is listed); ``deep``: list every function (see the module's docstring)."""
        found = self.survey(deep=deep or everything)
        if everything:
            found.records, found.busy, grace = {}, {}, timedelta(0)
        return diagnose(found, now=now or datetime.now(UTC), grace=grace)

    def fix(self, findings: list[Finding]) -> list[Finding]:
        """Remove the removable findings; those that were removed."""
        removed = []
        for finding in findings:
            if not finding.removable:
                continue
            if finding.kind == "function":
                account = finding.account
                deployer = self.deployer if not account else Deployer({"lambda": self._lambda(account)})
                deployer.delete(finding.name)
            elif finding.kind == "page":
                PageStore(self.bucket_name, client=self.client("s3")).delete(finding.tool_id)
            elif finding.kind == "rows":
                DynamoTable(self.table_name, client=self.client("dynamodb")).delete_prefix(finding.name)
            removed.append(finding)
            logger.info("removed %s %s", finding.kind, finding.name)
        return removed


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _when(text: str | None) -> datetime:
    """Lambda's LastModified ("2026-12-02T17:00:00.000+0000"); the epoch when unreadable (so never 'recent')."""
    if not text:
        return datetime.fromtimestamp(0, UTC)
    try:
        return _aware(datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%f%z"))
    except ValueError:
        try:
            return _aware(datetime.fromisoformat(text))
        except ValueError:
            return datetime.fromtimestamp(0, UTC)
