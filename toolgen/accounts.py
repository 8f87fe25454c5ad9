"""Tools spread over several AWS accounts: which account a tool lives in, and clients that act there.

One account's Lambda quotas are finite (its concurrency, its 15 control-plane calls a second, its code storage),
so an operator may give the platform more accounts for tools (TOOL_ACCOUNTS: account ids). Each holds the two
roles of docs/member-account.yaml: ``toolgen-deployer``, which the platform's worker and API assume to deploy,
invoke and delete tools there, and ``toolgen-tool``, which its tools run as (reaching the platform's table across
accounts, by its ARN). A tool's account is chosen from its id (the same id always gives the same account) and
recorded on the tool, so a later change of the list moves no existing tool; every later call about the tool uses
the recorded one. The platform's own account, listed or not, is reached with the platform's own credentials.
Each account has its own headroom (the deployer reads GetAccountSettings with that account's client) and its own
control-plane rate.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from typing import Any

from toolgen import aws

DEPLOYER_ROLE = "toolgen-deployer"
TOOL_ROLE = "toolgen-tool"
SESSION_S = 3600


@dataclass(frozen=True)
class Account:
    """Where a tool lives: ``account_id`` "" is the platform's own account."""

    account_id: str = ""
    partition: str = "aws"

    @property
    def own(self) -> bool:
        return not self.account_id

    def role_arn(self, name: str) -> str:
        return f"arn:{self.partition}:iam::{self.account_id}:role/{name}"


OWN = Account()


def parse(text: str) -> tuple[str, ...]:
    """The account ids of a comma-separated list (TOOL_ACCOUNTS, the stack's ToolAccounts output)."""
    return tuple(a.strip() for a in text.split(",") if a.strip())


def choose(tool_id: str, accounts: tuple[str, ...], own_account: str = "") -> Account:
    """The account a new tool goes to: its id spread evenly over ``accounts`` (the platform's own when none)."""
    if not accounts:
        return OWN
    index = int.from_bytes(hashlib.sha256(tool_id.encode()).digest()[:8], "big") % len(accounts)
    chosen = accounts[index]
    return OWN if chosen == own_account else Account(chosen)


class Clients:
    """boto3 clients per account: the platform's own, or through the account's deployer role (refreshed before
    the assumed credentials expire)."""

    def __init__(self, sts: Any = None) -> None:
        self._sts = sts
        self._lock = threading.Lock()
        self._sessions: dict[str, Any] = {}

    def client(self, service: str, account: Account) -> Any:
        if account.own:
            return aws.client(service)
        return self._session(account).client(service, region_name=aws.region(), config=aws.retry_config())

    def _session(self, account: Account) -> Any:
        with self._lock:
            if account.account_id not in self._sessions:
                self._sessions[account.account_id] = self._assumed(account)
            return self._sessions[account.account_id]

    def _assumed(self, account: Account) -> Any:
        import boto3
        import botocore.session
        from botocore.credentials import RefreshableCredentials

        sts = self._sts or aws.client("sts")
        role = account.role_arn(DEPLOYER_ROLE)

        def fetch() -> dict[str, str]:
            answer = sts.assume_role(RoleArn=role, RoleSessionName="toolgen-platform", DurationSeconds=SESSION_S)
            creds = answer["Credentials"]
            return {
                "access_key": creds["AccessKeyId"],
                "secret_key": creds["SecretAccessKey"],
                "token": creds["SessionToken"],
                "expiry_time": creds["Expiration"].isoformat(),
            }

        credentials = RefreshableCredentials.create_from_metadata(fetch(), fetch, "assume-role")
        core = botocore.session.get_session()
        core._credentials = credentials
        return boto3.session.Session(botocore_session=core, region_name=aws.region())
