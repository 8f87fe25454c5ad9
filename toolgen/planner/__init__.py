"""Stage 3, plan: a request, its intent and the recalled memories become a ToolProgram.

Every planner returns a Plan: the program and how it was made (which planner, model, latency, tokens, attempts,
and why it fell back, if it did), which the pipeline records on the job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from toolgen.models import Intent, RecalledMemory
from toolgen.program import ToolProgram


@dataclass
class PlanInfo:
    planner: str = "offline"
    model: str | None = None
    latency_ms: float | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0  # prompt tokens the provider read from its cache
    attempts: int = 0
    fallback: str | None = None
    json_mode: str | None = None  # how the model was asked for structure: json_schema, json_object, text, tool
    problems: list[str] = field(default_factory=list)  # what was wrong with each answer sent back


@dataclass(frozen=True)
class Decline:
    """A model's reading that the request is not a tool's: the job ends refused, with the reason."""

    category: str
    reason: str


@dataclass
class Plan:
    program: ToolProgram
    info: PlanInfo = field(default_factory=PlanInfo)
    composition: dict[str, Any] | None = None  # a composed tool: shape, subject, fields inferred and guessed
    declined: Decline | None = None  # set: no tool; ``program`` is only the draft


class Planner(Protocol):
    @property
    def name(self) -> str:
        """What makes the plans, part of the repeat-request key ("offline", "llm:<model>")."""
        ...

    def plan(
        self,
        prompt: str,
        intent: Intent,
        memories: list[RecalledMemory],
        context: str = "",
        *,
        draft: Plan | None = None,
        time_zone: str | None = None,
        unclear: bool = False,
        deadline: float | None = None,
    ) -> Plan:
        """A validated program for the request; ``draft`` is the composer's plan of it, when already made;
        ``time_zone`` the person's, when known; ``unclear``: the rules could not read the request; ``deadline``
        (time.monotonic()): when the plan must be made by, the deploy's time kept after it."""
        ...


from toolgen.planner.offline import OfflinePlanner  # noqa: E402 - offline.py imports Plan from here

__all__ = ["Decline", "OfflinePlanner", "Plan", "PlanInfo", "Planner"]
