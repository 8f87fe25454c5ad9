"""What the platform's functions talk to, built once per process from Settings, each piece replaceable in tests.

Clients are made on first use, so a function pays only for the services it calls (the API never invokes a tool;
the worker never sends to the jobs queue).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from toolgen import aws
from toolgen.accounts import TOOL_ROLE, Account, Clients
from toolgen.config import Settings
from toolgen.deploy import Deployer
from toolgen.deploy.invoke import Invoker, LambdaInvoker
from toolgen.jobs import JobStore
from toolgen.memory import DynamoMemoryStore, MemoryConfig, MemoryStore, Recaller
from toolgen.memory.llm import embedder_from_environment, reader_from_environment
from toolgen.memory.snapshot import SnapshotStore
from toolgen.memory.verify import HttpVerifier, Verifier
from toolgen.planner import Planner
from toolgen.planner.llm import planner_from_environment
from toolgen.plans import PlanStore
from toolgen.table import DynamoTable, ItemTable, tool_home
from toolgen.tools import ToolStore
from toolgen.ui.pages import PageStore


@dataclass
class Services:
    settings: Settings
    table: ItemTable
    jobs: JobStore
    tools: ToolStore
    memories: MemoryStore
    pages: PageStore
    deployer: Deployer
    invoker: Invoker
    planner: Planner
    plans: PlanStore
    recaller: Recaller
    verifier: Verifier | None = None
    clients: Clients = field(default_factory=Clients, repr=False)
    invokers: dict[str, Invoker] = field(default_factory=dict, repr=False)  # by account id (tests run tools locally)
    _deployers: dict[str, Deployer] = field(default_factory=dict, repr=False)
    _role_ids: dict[str, str] = field(default_factory=dict, repr=False)
    _sqs: Any = field(default=None, repr=False)

    @classmethod
    def from_settings(cls, settings: Settings, *, invoker: Invoker | None = None) -> Services:
        table = DynamoTable(settings.table_name)
        embedder = embedder_from_environment()
        memories = DynamoMemoryStore(table, reader=reader_from_environment(), embedder=embedder)
        verifier_url = os.environ.get("MEMORY_VERIFIER_URL")
        return cls(
            settings=settings,
            table=table,
            jobs=JobStore(table),
            tools=ToolStore(table),
            memories=memories,
            pages=PageStore(settings.bucket_name),
            deployer=Deployer(reserve_percent=settings.tool_reserve_percent),
            invoker=invoker or LambdaInvoker(),
            planner=planner_from_environment(),
            plans=PlanStore(table),
            recaller=Recaller(
                memories,
                MemoryConfig.from_env(),
                seed=_seed(),
                embedder=embedder,
                snapshots=SnapshotStore(settings.bucket_name) if settings.bucket_name else None,
            ),
            verifier=HttpVerifier(verifier_url) if verifier_url else None,
        )

    def deployer_for(self, account: Account) -> Deployer:
        """The deployer acting in ``account`` (its own headroom, its own control-plane rate)."""
        if account.own:
            return self.deployer
        if account.account_id not in self._deployers:
            self._deployers[account.account_id] = Deployer(
                {"lambda": self.clients.client("lambda", account)}, reserve_percent=self.deployer.reserve_percent
            )
        return self._deployers[account.account_id]

    def invoker_for(self, account: Account) -> Invoker:
        """What calls a tool of ``account`` the way its URL would (the probe)."""
        if account.own:
            return self.invoker
        if account.account_id not in self.invokers:
            self.invokers[account.account_id] = LambdaInvoker(self.clients.client("lambda", account))
        return self.invokers[account.account_id]

    def tool_home(self, account: Account, function_name: str) -> str:
        """The partition a tool's credentials reach: its role session's aws:userid (toolgen/table.py)."""
        key = account.account_id
        if key not in self._role_ids:
            if account.own and self.settings.tool_role_id:
                self._role_ids[key] = self.settings.tool_role_id
            else:
                arn = self.settings.tool_role_arn if account.own else account.role_arn(TOOL_ROLE)
                iam = self.clients.client("iam", account)
                try:
                    role = iam.get_role(RoleName=arn.rsplit("/", 1)[-1])["Role"]
                except Exception as e:
                    if not aws.is_aws_error(e):
                        raise
                    raise aws.translate(e, f"iam get_role {arn}") from e
                self._role_ids[key] = str(role["RoleId"])
        return tool_home(self._role_ids[key], function_name)

    @property
    def sqs(self) -> Any:
        if self._sqs is None:
            self._sqs = aws.client("sqs")
        return self._sqs


def _seed() -> int | None:
    """MEMORY_SAMPLING_SEED makes the order of tied memories reproducible (tests); unset, it varies per process."""
    raw = os.environ.get("MEMORY_SAMPLING_SEED")
    return int(raw) if raw else None
