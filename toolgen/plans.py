"""Repeat requests: a plan is remembered per person under a key of everything that shaped it.

The key is the tool the composer plans for the request (its kind, fields, defaults and figures, the memories that
shaped it, its language) and the planner; wording does not count, so "track my runs" after "log my runs" is a
repeat, and two requests that would get different tools never share one. A repeat reuses the
plan (no planner call, which matters most for an LLM) and, while the tool it made still exists, the tool itself.
The plan also remembers where that tool lives (URL, page, function, the memories that shaped it), so a repeat
is answered from the plan and one look at the function, without reading the tool's whole record.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any

from toolgen.program import ToolProgram
from toolgen.table import ItemTable, user_pk


def plan_key(draft: ToolProgram, planner: str, wording: str | None = None) -> str:
    """A digest of the tool itself (the composer's plan of the request, less the request's wording) and the planner.

    Two requests share a tool only when the composer would make them the same tool: the same kind, fields,
    defaults, figures and the memories that shaped it; a neighbour (a packing list after a grocery list, Lisbon and
    Porto after five Chinese cities) is another tool.
    """
    basis = {
        # a draft is always a first revision; leaving the revision fields out keeps keys from before they existed
        "program": draft.model_dump(
            mode="json", exclude={"provenance": {"request"}, "revision": True, "migrations": True}
        ),
        "planner": planner,
        "wording": wording,  # only for a request read by a model, not the rules: the model reads the words
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
    account: str = ""  # where its function is ("": the platform's own account)


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
