"""Stage 3, plan: a request, its intent and the recalled memories become a ToolProgram."""

from typing import Protocol

from toolgen.models import Intent, RecalledMemory
from toolgen.planner.offline import OfflinePlanner
from toolgen.program import ToolProgram


class Planner(Protocol):
    def plan(self, prompt: str, intent: Intent, memories: list[RecalledMemory], context: str) -> ToolProgram: ...


__all__ = ["OfflinePlanner", "Planner"]
