"""Where memories live: the platform table, ``USER#u`` partition.

Items: ``MEM#<id>`` the memory; ``MEMH#<id>#<seq>`` its history, one item per change; ``MEMKEY#<key>`` the active
memory for a structured key; ``MEMTEXT#<fingerprint>`` the memory for a text; ``PROFILE`` the person's memory
version, bumped by every change so a warm process knows when its recall index is stale.

Learning a fact never deletes or duplicates: the same fact again is *restated* on the existing memory; a new
value for a key *supersedes* the old memory (kept, marked, in history) in the same transaction that adds the new.
"""

from __future__ import annotations

import builtins
import time
from typing import Any, Protocol

from toolgen.errors import ConflictError, InvalidInputError, NotFoundError
from toolgen.ids import MEMORY_ID_RE, sortable_id
from toolgen.memory.extract import extract
from toolgen.memory.text import fingerprint, tokens
from toolgen.models import HistoryEntry, Memory
from toolgen.table import Change, ItemTable, Put, user_pk

PROFILE = "PROFILE"
COUNTERS = ("uses", "turns", "interventions_tried", "interventions_succeeded")


class MemoryStore(Protocol):
    def learn(self, user: str, text: str, *, source: str = "api") -> Memory: ...
    def get(self, user: str, memory_id: str) -> Memory: ...
    def list(self, user: str, *, include_superseded: bool = False) -> builtins.list[Memory]: ...
    def search(self, user: str, query: str) -> builtins.list[Memory]: ...
    def edit(self, user: str, memory_id: str, text: str) -> Memory: ...
    def delete(self, user: str, memory_id: str) -> None: ...
    def history(self, user: str, memory_id: str) -> builtins.list[HistoryEntry]: ...
    def version(self, user: str) -> int: ...
    def credit(self, user: str, memory_ids: builtins.list[str], counters: dict[str, int], reason: str) -> None: ...
    def mark_used(self, user: str, memory_ids: builtins.list[str], tool_id: str) -> None: ...
    def verify(self, user: str, memory_id: str, valid: bool, source: str | None) -> Memory: ...
    def forget_user(self, user: str) -> int: ...


def _fields(item: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k not in ("pk", "sk")}


class DynamoMemoryStore:
    """MemoryStore on the platform table (or any ItemTable)."""

    def __init__(self, table: ItemTable, clock: Any = time.time) -> None:
        self.table = table
        self.clock = clock

    # --- reading ----------------------------------------------------------------------------------------------

    def get(self, user: str, memory_id: str) -> Memory:
        item = self.table.get(user_pk(user), f"MEM#{memory_id}") if MEMORY_ID_RE.match(memory_id or "") else None
        if item is None:
            raise NotFoundError(f"no memory {memory_id}")
        return Memory.model_validate(_fields(item))

    def list(self, user: str, *, include_superseded: bool = False) -> builtins.list[Memory]:
        memories = [Memory.model_validate(_fields(i)) for i in self.table.query(user_pk(user), "MEM#")]
        return memories if include_superseded else [m for m in memories if m.status == "active"]

    def search(self, user: str, query: str) -> builtins.list[Memory]:
        """Memories whose text or words match ``query`` (every word of it), newest first."""
        wanted = set(tokens(query))
        lowered = query.lower().strip()
        found = [
            m
            for m in self.list(user, include_superseded=True)
            if (wanted and wanted <= set(m.tokens)) or (lowered and lowered in m.text.lower())
        ]
        return sorted(found, key=lambda m: m.created_at, reverse=True)

    def history(self, user: str, memory_id: str) -> builtins.list[HistoryEntry]:
        self.get(user, memory_id)  # 404 for someone else's or a missing memory
        items = self.table.query(user_pk(user), f"MEMH#{memory_id}#")
        return [
            HistoryEntry.model_validate({k: v for k, v in i.items() if k in ("at", "event", "details")}) for i in items
        ]

    def version(self, user: str) -> int:
        item = self.table.get(user_pk(user), PROFILE)
        return int(item.get("memory_version", 0)) if item else 0

    # --- writing ----------------------------------------------------------------------------------------------

    def _history(self, user: str, memory_id: str, event: str, now: float, **details: Any) -> Put:
        item = {
            "pk": user_pk(user),
            "sk": f"MEMH#{memory_id}#{sortable_id('h')}",
            "at": now,
            "event": event,
            "details": details,
        }
        return Put(item)

    def _bump(self, user: str) -> Change:
        return Change(user_pk(user), PROFILE, adds={"memory_version": 1})

    def _put_memory(self, memory: Memory) -> Put:
        return Put({"pk": user_pk(memory.user), "sk": f"MEM#{memory.memory_id}", **memory.model_dump()})

    def _pointer(self, user: str, sk: str, memory_id: str) -> Put:
        return Put({"pk": user_pk(user), "sk": sk, "memory_id": memory_id})

    def learn(self, user: str, text: str, *, source: str = "api") -> Memory:
        """Remember ``text``: restated if known, superseding the old value of its key, or new."""
        now = self.clock()
        kind, key, value = extract(text)
        pointer = f"MEMKEY#{key}" if key else f"MEMTEXT#{fingerprint(text)}"
        existing = self.table.get(user_pk(user), pointer)
        old = None
        if existing is not None:
            try:
                old = self.get(user, existing["memory_id"])
            except NotFoundError:
                old = None
        # a pointer left behind by an edit no longer describes its memory
        if old is not None and (old.key != key or (not key and fingerprint(old.text) != fingerprint(text))):
            old = None
        if old is not None and old.status == "active" and (old.value == value if key else True):
            return self._restate(old, source, now)
        memory = Memory(
            memory_id=sortable_id("m"),
            user=user,
            text=text,
            kind=kind,
            key=key,
            value=value,
            tokens=tokens(text),
            created_at=now,
            updated_at=now,
            sources=[source],
        )
        steps: list[Put | Change] = [
            self._put_memory(memory),
            self._pointer(user, pointer, memory.memory_id),
            self._history(user, memory.memory_id, "created", now, text=text, key=key, value=value, source=source),
            self._bump(user),
        ]
        if old is not None and old.status == "active":  # a new value for the same key
            steps += [
                Change(
                    user_pk(user),
                    f"MEM#{old.memory_id}",
                    must_exist=True,
                    sets={"status": "superseded", "superseded_by": memory.memory_id, "updated_at": now},
                ),
                self._history(user, old.memory_id, "superseded", now, by=memory.memory_id, value=value),
            ]
        self.table.transact(steps)
        return memory

    def _restate(self, memory: Memory, source: str, now: float) -> Memory:
        if source in memory.sources:  # the same request seen twice (API, then worker): nothing new
            return memory
        sources = [*memory.sources, source]
        self.table.transact(
            [
                Change(
                    user_pk(memory.user),
                    f"MEM#{memory.memory_id}",
                    sets={"sources": sources, "updated_at": now},
                    must_exist=True,
                ),
                self._history(memory.user, memory.memory_id, "restated", now, source=source),
                self._bump(memory.user),
            ]
        )
        return memory.model_copy(update={"sources": sources, "updated_at": now})

    def edit(self, user: str, memory_id: str, text: str) -> Memory:
        """New words for a memory; its fact is read again from them."""
        memory = self.get(user, memory_id)
        now = self.clock()
        kind, key, value = extract(text)
        changes = {"text": text, "kind": kind, "key": key, "value": value, "tokens": tokens(text), "updated_at": now}
        steps: list[Put | Change] = [
            Change(
                user_pk(user),
                f"MEM#{memory_id}",
                sets={k: v for k, v in changes.items() if v is not None},
                must_exist=True,
            ),
            self._history(user, memory_id, "edited", now, before=memory.text, after=text, key=key, value=value),
            self._bump(user),
        ]
        if key:
            steps.append(self._pointer(user, f"MEMKEY#{key}", memory_id))
        self.table.transact(steps)
        updated = self.get(user, memory_id)
        if not key and updated.key:  # the new words carry no fact: drop the old one
            self.table.update(user_pk(user), f"MEM#{memory_id}", {"key": None, "value": None})
            updated = updated.model_copy(update={"key": None, "value": None})
        return updated

    def delete(self, user: str, memory_id: str) -> None:
        """Forget a memory and its history (the person asked: nothing of it is kept)."""
        memory = self.get(user, memory_id)
        self.table.delete(user_pk(user), f"MEM#{memory_id}")
        self.table.delete_prefix(user_pk(user), f"MEMH#{memory_id}#")
        pointer = f"MEMKEY#{memory.key}" if memory.key else f"MEMTEXT#{fingerprint(memory.text)}"
        item = self.table.get(user_pk(user), pointer)
        if item and item.get("memory_id") == memory_id:
            self.table.delete(user_pk(user), pointer)
        self.table.add(user_pk(user), PROFILE, {"memory_version": 1})

    def credit(self, user: str, memory_ids: builtins.list[str], counters: dict[str, int], reason: str) -> None:
        """Add reward counters (uses, turns, interventions) to memories, each change in its history."""
        unknown = set(counters) - set(COUNTERS)
        if unknown:
            raise InvalidInputError(f"unknown reward counters {sorted(unknown)}")
        now = self.clock()
        for memory_id in memory_ids:
            try:
                self.table.transact(
                    [
                        Change(
                            user_pk(user),
                            f"MEM#{memory_id}",
                            adds=dict(counters),
                            sets={"last_used_at": now},
                            must_exist=True,
                        ),
                        self._history(user, memory_id, "rewarded", now, reason=reason, **counters),
                        self._bump(user),
                    ]
                )
            except ConflictError:  # deleted meanwhile: nothing to credit
                continue

    def mark_used(self, user: str, memory_ids: builtins.list[str], tool_id: str) -> None:
        """Record that these memories shaped ``tool_id`` (so its use and feedback are credited to them)."""
        now = self.clock()
        for memory_id in memory_ids:
            try:
                memory = self.get(user, memory_id)
            except NotFoundError:
                continue
            tools = list(dict.fromkeys([*memory.tools, tool_id]))
            self.table.update(user_pk(user), f"MEM#{memory_id}", {"tools": tools, "last_used_at": now})

    def verify(self, user: str, memory_id: str, valid: bool, source: str | None) -> Memory:
        """Record a check of the fact: verified now, or invalid (never recalled again)."""
        self.get(user, memory_id)
        now = self.clock()
        state = "verified" if valid else "invalid"
        self.table.transact(
            [
                Change(
                    user_pk(user),
                    f"MEM#{memory_id}",
                    must_exist=True,
                    sets={
                        "verification": state,
                        "verified_at": now,
                        "verification_source": source or "person",
                        "updated_at": now,
                    },
                ),
                self._history(user, memory_id, "verified" if valid else "invalidated", now, source=source or "person"),
                self._bump(user),
            ]
        )
        return self.get(user, memory_id)

    def forget_user(self, user: str) -> int:
        """Delete every memory item of the person (memories, history, pointers, profile); how many."""
        count = 0
        for prefix in ("MEM#", "MEMH#", "MEMKEY#", "MEMTEXT#", PROFILE):
            count += self.table.delete_prefix(user_pk(user), prefix)
        return count
