"""A tool's limit of calls at once, held in the table when Lambda does not reserve it for the tool.

Reserved concurrency is a share of the account's quota (AWS keeps 100 of it unreserved), so past a point a tool
is deployed without one (toolgen/deploy/execute.py decides, and says so in the tool's environment). Such a tool
keeps its limit itself, across every Lambda environment it runs in, with ``limit`` lease slots in the table:

- a call takes a free slot with one conditional write (``until`` absent or past), trying the slots from a random
  one, and gives it back with a conditional delete (only if it still holds it) when it ends;
- a call that died (killed at its timeout, its environment gone) frees its slot when ``until`` passes: the
  function's timeout and a margin after it was taken;
- with every slot held the call is refused at once, and the caller gets 429 with Retry-After.

Cost: two writes a call when a slot is free (one to take, one to give back); a refused call has tried every slot.
bench/lease.py measures it. If the table cannot be reached the call goes ahead unlimited (and says so in the log):
the limit protects the account from one tool, it must not take the tool down with the table.

Slots live in the tool's home partition (toolgen/table.py: the only one besides ``<home>#<user>`` its credentials
reach), apart from every person's rows. Standard library only, as everything a tool's cold start imports.
"""

from __future__ import annotations

import logging
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)
LIMIT_ENV = "TOOLGEN_LEASE_LIMIT"  # set on a tool deployed without reserved concurrency: its calls at once
HOLD_ENV = "TOOLGEN_LEASE_HOLD_S"  # how long a slot stays taken by a call that never gave it back
RETRY_AFTER_S = 1


class Busy(Exception):
    """Every slot is taken: the tool is answering as many calls as it may."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"{limit} calls already in flight")
        self.limit = limit


@dataclass(frozen=True)
class Lease:
    slot: int  # -1: not held (the table could not be reached)
    holder: str


class Leases:
    """The lease slots of one tool, over a DynamoDB client that speaks the wire JSON (awslite's or boto3's)."""

    def __init__(
        self,
        client: Any,
        table_name: str,
        home: str,
        *,
        limit: int,
        hold_s: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if limit < 1 or hold_s <= 0:
            raise ValueError("a lease needs a limit of at least 1 and a positive hold")
        self.client, self.table_name, self.limit, self.hold_s, self.clock = client, table_name, limit, hold_s, clock
        self.pk = home

    def _key(self, slot: int) -> dict[str, Any]:
        return {"pk": {"S": self.pk}, "sk": {"S": f"LEASE#{slot}"}}

    def acquire(self) -> Lease:
        """A slot for this call; Busy when all are taken."""
        holder, now = uuid.uuid4().hex, self.clock()
        first = random.randrange(self.limit)  # noqa: S311 - spreading callers over slots, not a secret
        for step in range(self.limit):
            slot = (first + step) % self.limit
            try:
                self.client.update_item(
                    TableName=self.table_name,
                    Key=self._key(slot),
                    UpdateExpression="SET #holder = :holder, #until = :until",
                    ConditionExpression="attribute_not_exists(#until) OR #until < :now",
                    ExpressionAttributeNames={"#holder": "holder", "#until": "until"},
                    ExpressionAttributeValues={
                        ":holder": {"S": holder},
                        ":until": {"N": f"{now + self.hold_s:.3f}"},
                        ":now": {"N": f"{now:.3f}"},
                    },
                )
            except Exception as e:  # noqa: BLE001 - awslite's, botocore's or the network's: the call goes on
                if _code(e) == "ConditionalCheckFailedException":
                    continue  # taken: the next one
                logger.warning("lease table unreachable, serving the call unlimited: %s", e)
                return Lease(-1, holder)
            return Lease(slot, holder)
        raise Busy(self.limit)

    def release(self, lease: Lease) -> None:
        """Give the slot back, unless its hold ran out and another call has it now."""
        if lease.slot < 0:
            return
        try:
            self.client.delete_item(
                TableName=self.table_name,
                Key=self._key(lease.slot),
                ConditionExpression="#holder = :holder",
                ExpressionAttributeNames={"#holder": "holder"},
                ExpressionAttributeValues={":holder": {"S": lease.holder}},
            )
        except Exception as e:  # noqa: BLE001 - as in acquire: a slot not given back frees itself
            if _code(e) != "ConditionalCheckFailedException":
                logger.warning(
                    "could not give lease slot %d back (it frees itself when its hold ends): %s", lease.slot, e
                )


def _code(error: BaseException) -> str:
    response = getattr(error, "response", None) or {}
    return str((response.get("Error") or {}).get("Code", ""))
