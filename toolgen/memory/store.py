"""Where memories live: a Protocol and its DynamoDB adapter on the platform table (``USER#u`` / ``MEM#id``)."""

from __future__ import annotations

import builtins
import time
from typing import Protocol

from toolgen.errors import NotFoundError
from toolgen.ids import sortable_id
from toolgen.memory.extract import extract
from toolgen.models import Memory
from toolgen.table import ItemTable, user_pk


class MemoryStore(Protocol):
    def add(self, user: str, text: str) -> Memory: ...
    def list(self, user: str) -> list[Memory]: ...
    def delete(self, user: str, memory_id: str) -> None: ...
    def mark_used(self, user: str, memory_ids: builtins.list[str], tool_id: str) -> None: ...


class DynamoMemoryStore:
    """MemoryStore on the platform table."""

    def __init__(self, table: ItemTable) -> None:
        self.table = table

    def add(self, user: str, text: str) -> Memory:
        kind, key, value = extract(text)
        memory = Memory(memory_id=sortable_id("m"), user=user, text=text, kind=kind, key=key, value=value)
        self.table.put({"pk": user_pk(user), "sk": f"MEM#{memory.memory_id}", **memory.model_dump()}, if_absent=True)
        return memory

    def list(self, user: str) -> list[Memory]:
        return [Memory.model_validate(_fields(i)) for i in self.table.query(user_pk(user), "MEM#")]

    def delete(self, user: str, memory_id: str) -> None:
        if not self.table.delete(user_pk(user), f"MEM#{memory_id}"):
            raise NotFoundError(f"no memory {memory_id}")

    def mark_used(self, user: str, memory_ids: builtins.list[str], tool_id: str) -> None:
        for memory_id in memory_ids:
            item = self.table.get(user_pk(user), f"MEM#{memory_id}")
            if item is None:  # deleted since it was recalled: nothing to credit
                continue
            tools = list(dict.fromkeys([*item.get("tools", []), tool_id]))
            self.table.update(user_pk(user), f"MEM#{memory_id}", {"last_used_at": time.time(), "tools": tools})


def _fields(item: dict) -> dict:
    return {k: v for k, v in item.items() if k not in ("pk", "sk")}
