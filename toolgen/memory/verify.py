"""Verification: facts re-checked, by the person or against an outside source; an invalid fact is never used again.

A memory found invalid stops being recalled at once (the index leaves it out and the plan key changes), and
every tool it shaped is flagged for regeneration. Verifier is the protocol for outside sources; HttpVerifier
asks a configured service, which answers {"valid": true | false | null} for a fact.
"""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from typing import Protocol

from toolgen.errors import NotFoundError
from toolgen.memory import rewards
from toolgen.memory.store import MemoryStore
from toolgen.models import Memory
from toolgen.table import ItemTable
from toolgen.tools import ToolStore

logger = logging.getLogger(__name__)


class Verifier(Protocol):
    name: str

    def check(self, memory: Memory) -> bool | None:
        """True: still true; False: no longer true; None: cannot tell."""
        ...


class HttpVerifier:
    """POSTs {"key", "value", "text"} to a URL and reads {"valid": true | false | null}."""

    def __init__(self, url: str, timeout_s: float = 5.0) -> None:
        self.url = url
        self.name = url
        self.timeout_s = timeout_s

    def check(self, memory: Memory) -> bool | None:
        body = json.dumps({"key": memory.key, "value": memory.value, "text": memory.text}).encode()
        request = urllib.request.Request(self.url, data=body, headers={"Content-Type": "application/json"})  # noqa: S310
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:  # noqa: S310
                answer = json.loads(response.read())
        except (urllib.error.URLError, TimeoutError, ValueError) as e:
            logger.warning("verifier %s could not check %s: %s", self.url, memory.memory_id, e)
            return None
        valid = answer.get("valid") if isinstance(answer, dict) else None
        return valid if isinstance(valid, bool) else None


def apply(store: MemoryStore, tools: ToolStore, user: str, memory_id: str, valid: bool, source: str | None) -> Memory:
    """Record a verification; an invalid fact flags every tool it shaped for regeneration."""
    memory = store.verify(user, memory_id, valid, source)
    if not valid:
        for tool_id in memory.tools:
            try:
                tools.flag(user, tool_id, f"memory {memory_id} ({memory.text!r}) was found no longer true")
            except NotFoundError:
                continue
    return memory


def forget(store: MemoryStore, tools: ToolStore, ledger: ItemTable, user: str, memory_id: str) -> None:
    """Delete a memory and every trace of it: its text and id leave the records of the tools it shaped (which are
    flagged for regeneration, since what they were built from is gone) and their reward ledgers."""
    memory = store.get(user, memory_id)
    reason = f"memory {memory_id}, which shaped it, was deleted"  # not its text: the person wanted it gone
    for tool_id in memory.tools:
        try:
            tools.scrub(user, tool_id, memory_id, reason)
        except NotFoundError:
            continue
        rewards.unlink(ledger, user, tool_id, memory_id)
    store.delete(user, memory_id)


def recheck(store: MemoryStore, tools: ToolStore, verifier: Verifier, user: str) -> dict[str, int]:
    """Ask ``verifier`` about every structured fact the person has; counts of what it said."""
    counts = {"checked": 0, "verified": 0, "invalidated": 0, "unknown": 0}
    for memory in store.list(user):
        if memory.key is None or memory.verification == "invalid":
            continue
        counts["checked"] += 1
        result = verifier.check(memory)
        if result is None:
            counts["unknown"] += 1
            continue
        apply(store, tools, user, memory.memory_id, result, verifier.name)
        counts["verified" if result else "invalidated"] += 1
    return counts
