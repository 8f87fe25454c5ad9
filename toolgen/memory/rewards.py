"""Reward from use, credited to exactly the memories that shaped each tool.

- A tool call: the tool runtime adds 1 to its owner's counter in the tool's own home (``<home>`` /
  ``USAGE#<user>``, a partition only that tool's credentials reach; it can never touch the person's memories).
  The platform keeps a ledger per tool (``LEDGER#<user>`` / ``USAGE#<tool_id>``: the
  tool's home, the memories that shaped it, how many calls are credited). Before each recall it folds the calls
  not yet credited into ``uses`` of those memories: one query of the ledger, one BatchGetItem of the counters,
  and writes only for tools that were used.
- A follow-up request (a repeat answered by an existing tool): ``turns`` + 1.
- A suggestion accepted or rejected (POST /v1/feedback): ``interventions_tried`` + 1, and ``_succeeded`` + 1
  when accepted; "used" counts as a use.
"""

from __future__ import annotations

from toolgen.errors import ConflictError, InvalidInputError
from toolgen.memory.store import MemoryStore
from toolgen.table import ItemTable, usage_sk

SIGNALS = {
    "used": {"uses": 1},
    "accepted": {"interventions_tried": 1, "interventions_succeeded": 1},
    "rejected": {"interventions_tried": 1},
}
LEDGER = "USAGE#"  # sk prefix of the platform's per-tool ledger, in its own partition per person


def ledger_pk(user: str) -> str:
    """A person's ledger has a partition of its own: read before every recall, it stays small and quick to
    query whatever else the person has (on moto a query costs the size of its partition)."""
    return f"LEDGER#{user}"


def count_use(table: ItemTable, home: str, user: str) -> None:
    """One call of the tool living at ``home`` by its owner (the tool runtime, after each successful call)."""
    table.add(home, usage_sk(user), {"calls": 1})


def register_tool(table: ItemTable, user: str, tool_id: str, home: str, memory_ids: list[str]) -> None:
    """A new tool's ledger: where its calls are counted and the memories its use will be credited to."""
    table.put({"pk": ledger_pk(user), "sk": LEDGER + tool_id, "home": home, "credited": 0, "memories": memory_ids})


def fold(table: ItemTable, store: MemoryStore, user: str) -> int:
    """Credit uncredited tool calls to the memories that shaped each tool; how many calls were credited."""
    ledger = table.query(ledger_pk(user), LEDGER)
    if not ledger:
        return 0
    counters = {item["pk"]: item for item in table.get_many([(e["home"], usage_sk(user)) for e in ledger])}
    credited = 0
    for entry in ledger:
        calls, done = int(counters.get(entry["home"], {}).get("calls", 0)), int(entry.get("credited", 0))
        if calls <= done:
            continue
        try:  # claim the calls first, so two processes folding at once cannot both credit them
            table.update(entry["pk"], entry["sk"], {"credited": calls}, expect={"credited": entry.get("credited", 0)})
        except ConflictError:
            continue
        tool_id = entry["sk"].removeprefix(LEDGER)
        store.credit(user, list(entry.get("memories", [])), {"uses": calls - done}, reason=f"tool {tool_id} used")
        credited += calls - done
    return credited


def feedback(
    store: MemoryStore, user: str, memory_ids: list[str], signal: str, memory_id: str | None, tool: str | None = None
) -> list[str]:
    """Credit a suggestion's outcome to the tool's memories (or the one named, which must be among them); a
    rejection counts against them for that ``tool`` alone."""
    if memory_id is not None:
        if memory_id not in memory_ids:
            raise InvalidInputError(f"memory {memory_id} did not shape this tool")
        memory_ids = [memory_id]
    scoped = tool if signal == "rejected" else None
    store.credit(user, memory_ids, dict(SIGNALS[signal]), reason=f"suggestion {signal}", tool=scoped)
    return memory_ids


def unlink(table: ItemTable, user: str, tool_id: str, memory_id: str) -> None:
    """A deleted memory no longer earns the tool's uses."""
    entry = table.get(ledger_pk(user), LEDGER + tool_id)
    if entry is not None and memory_id in entry.get("memories", []):
        kept = [m for m in entry["memories"] if m != memory_id]
        table.update(ledger_pk(user), LEDGER + tool_id, {"memories": kept})


def forget_usage(table: ItemTable, user: str, tool_id: str, home: str) -> None:
    """A deleted tool's ledger and its owner's counter."""
    table.delete(ledger_pk(user), LEDGER + tool_id)
    table.delete(home, usage_sk(user))


__all__ = ["count_use", "feedback", "fold", "forget_usage", "ledger_pk", "register_tool", "unlink"]
