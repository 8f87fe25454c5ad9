"""Repeat requests: a plan is remembered per person under a key of everything that shaped it.

The key covers the archetype, the slots, the request's language, the structured memory facts recall found, and
the planner; wording does not count, so "track my runs" after "log my runs" is a repeat. A repeat reuses the
plan (no planner call, which matters most for an LLM) and, while the tool it made still exists, the tool itself.
The plan also remembers where that tool lives (URL, page, function, the memories that shaped it), so a repeat
is answered from the plan and one look at the function, without reading the tool's whole record.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any

from toolgen.models import Intent, RecalledMemory
from toolgen.program import ToolProgram
from toolgen.table import ItemTable, user_pk


def plan_key(intent: Intent, recalled: list[RecalledMemory], planner: str) -> str:
    """A digest of what decides a plan (not the wording of the request)."""
    facts = sorted((m.key, m.value or "") for m in recalled if m.key)
    basis = {
        "archetype": intent.archetype,
        "slots": intent.slots,
        "lang": intent.lang,
        "facts": facts,
        "planner": planner,
    }
    return hashlib.sha256(json.dumps(basis, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:32]


@dataclass(frozen=True)
class LiveTool:
    """Where a plan's tool lives: what a repeat request's answer needs."""

    tool_id: str
    tool_url: str
    ui_path: str
    function_name: str
    memory_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class CachedPlan:
    tool_id: str
    program_json: str
    tool: LiveTool | None = None  # None for plans remembered before the plan held it

    @property
    def program(self) -> ToolProgram:
        """The plan's program (parsed when a tool is to be made from it, not for every repeat)."""
        return ToolProgram.model_validate_json(self.program_json)


class PlanStore:
    """``USER#u`` / ``PLAN#key`` items: the program a key gave and the tool it was deployed as."""

    def __init__(self, table: ItemTable) -> None:
        self.table = table

    def get(self, user: str, key: str) -> CachedPlan | None:
        item = self.table.get(user_pk(user), f"PLAN#{key}")
        if item is None:
            return None
        live = item.get("tool")
        tool = LiveTool(**{**live, "memory_ids": tuple(live.get("memory_ids") or ())}) if live else None
        return CachedPlan(tool_id=item["tool_id"], program_json=item["program"], tool=tool)

    def put(self, user: str, key: str, program: ToolProgram, tool: LiveTool) -> None:
        item: dict[str, Any] = {
            "pk": user_pk(user),
            "sk": f"PLAN#{key}",
            "tool_id": tool.tool_id,
            "program": program.model_dump_json(),
            "tool": {**asdict(tool), "memory_ids": list(tool.memory_ids)},
        }
        self.table.put(item)

    def forget(self, user: str, key: str) -> None:
        self.table.delete(user_pk(user), f"PLAN#{key}")
