"""Reward from use, credited to exactly the memories that shaped each tool.

- A tool call: the tool runtime adds 1 to its counter in ``TOOL#usage#<user>`` (a partition the tools' role may
  write; it can never touch the person's memories). Before each recall the platform folds the counters it has
  not yet credited into ``uses`` of the memories that shaped each tool: one query, and writes only for tools
  that were used.
- A follow-up request (a repeat answered by an existing tool): ``turns`` + 1.
- A suggestion accepted or rejected (POST /v1/feedback): ``interventions_tried`` + 1, and ``_succeeded`` + 1
  when accepted; "used" counts as a use.
"""

from __future__ import annotations

from toolgen.errors import ConflictError, InvalidInputError
from toolgen.memory.store import MemoryStore
from toolgen.table import ItemTable, usage_pk

SIGNALS = {
    "used": {"uses": 1},
    "accepted": {"interventions_tried": 1, "interventions_succeeded": 1},
    "rejected": {"interventions_tried": 1},
}


def count_use(table: ItemTable, tool_id: str, user: str) -> None:
    """One call of a tool by its owner (done by the tool runtime after each successful call)."""
    table.add(usage_pk(user), tool_id, {"calls": 1})


def register_tool(table: ItemTable, user: str, tool_id: str, memory_ids: list[str]) -> None:
    """A new tool's counter, with the memories its use will be credited to."""
    table.put({"pk": usage_pk(user), "sk": tool_id, "calls": 0, "credited": 0, "memories": memory_ids})


def fold(table: ItemTable, store: MemoryStore, user: str) -> int:
    """Credit uncredited tool calls to the memories that shaped each tool; how many calls were credited."""
    credited = 0
    for item in table.query(usage_pk(user)):
        calls, done = int(item.get("calls", 0)), int(item.get("credited", 0))
        if calls <= done:
            continue
        try:  # claim the calls first, so two processes folding at once cannot both credit them
            table.update(item["pk"], item["sk"], {"credited": calls}, expect={"credited": item.get("credited", 0)})
        except ConflictError:
            continue
        store.credit(user, list(item.get("memories", [])), {"uses": calls - done}, reason=f"tool {item['sk']} used")
        credited += calls - done
    return credited


def feedback(store: MemoryStore, user: str, memory_ids: list[str], signal: str, memory_id: str | None) -> list[str]:
    """Credit a suggestion's outcome to the tool's memories (or the one named, which must be among them)."""
    if memory_id is not None:
        if memory_id not in memory_ids:
            raise InvalidInputError(f"memory {memory_id} did not shape this tool")
        memory_ids = [memory_id]
    store.credit(user, memory_ids, dict(SIGNALS[signal]), reason=f"suggestion {signal}")
    return memory_ids


def forget_usage(table: ItemTable, user: str, tool_id: str | None = None) -> None:
    if tool_id is None:
        table.delete_prefix(usage_pk(user))
    else:
        table.delete(usage_pk(user), tool_id)


__all__ = ["count_use", "feedback", "fold", "forget_usage", "register_tool", "usage_pk"]
