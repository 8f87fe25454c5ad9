"""The model planner: a language model composes the ToolProgram, the composer's plan as its draft and its net.

The model reads the prompt of toolgen/planner/prompt.py (everything the validator will hold it to, today's date,
the kinds and public APIs, the rules' reading and draft described for what they are, the memory block as quoted
data) and answers ``{"decline": ..., "program": ...}`` (ANSWER_SCHEMA): a program, or a decline saying that the
request is not a tool's, with its reason. A declined request ends refused, in the person's language; it is never
planned offline instead. A program is checked as any program is, then tried (toolgen/planner/trial.py: each
operation run once in this process on an empty in-memory table, as the probe will); an answer that fails either is
sent back once with what was wrong; a second such answer, a timeout, a rate limit or any provider error falls back
to the composer's plan, and the reason is recorded on the job.

Whatever the model says, the platform's invariants are re-imposed before validation: the archetype is one the
platform knows, the limits are the platform's, fetch hosts are only those the platform allows for the archetype,
the language is the request's, the program's language version is the platform's, and provenance is written here.
So text in a memory or a request can shape a tool but cannot widen an allow-list, lift a limit or change whose tool
it is.
"""

from __future__ import annotations

import json
import logging
import time
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from toolgen import llm
from toolgen.errors import ToolgenError
from toolgen.llm import Model, ModelError, Prompt
from toolgen.models import Intent, RecalledMemory
from toolgen.planner import Decline, Plan, PlanInfo, Planner
from toolgen.planner.offline import OfflinePlanner
from toolgen.planner.prompt import PromptContext, dynamic_part, static_part
from toolgen.planner.trial import TrialError, trial
from toolgen.program import LANGUAGE_VERSION, Limits, ToolProgram
from toolgen.runtime.fetch import hosts_for

GUESSABLE_SHAPES = ("log", "collection", "schedule", "dates", "calculator", "lookup", "split")
DECLINE_CATEGORIES = (
    "booking", "purchase", "payment", "message", "call", "device", "security", "cancel", "job_application",
    "writing", "translate", "medical", "legal", "finance_advice", "scraping", "deception", "locating", "chat",
    "not_a_tool",
)  # fmt: skip
logger = logging.getLogger(__name__)
# An answer's time: two answers (one sent back), each retried once, the deploy and the probe fit the worker's 300 s.
DEFAULT_TIMEOUT_S = 45.0


class DeclineAnswer(BaseModel):
    model_config = ConfigDict(extra="ignore")
    category: str = Field(default="not_a_tool", description=f"one of: {', '.join(DECLINE_CATEGORIES)}")
    reason: str = Field(min_length=1, max_length=300, description="why no tool does this, in the request's language")


@cache
def answer_schema() -> dict[str, Any]:
    """The JSON schema a model's answer follows: a program, or a decline (the other one null)."""
    program = ToolProgram.model_json_schema()
    defs = program.pop("$defs", {})
    decline = DeclineAnswer.model_json_schema()
    decline["properties"]["category"]["enum"] = list(DECLINE_CATEGORIES)
    return {
        "title": "PlannerAnswer",
        "type": "object",
        "properties": {
            "decline": {"anyOf": [decline, {"type": "null"}], "description": "set (and program null) when the "
                        "request is not for a tool: an action in the world, advice, chat"},
            "program": {"anyOf": [program, {"type": "null"}], "description": "the tool, when it is one"},
        },
        "required": ["decline", "program"],
        "$defs": defs,
    }  # fmt: skip


def _kinds() -> frozenset[str]:
    from toolgen.knowledge.base import library
    from toolgen.planner.offline import BUILDERS

    return frozenset(BUILDERS) | frozenset(library().subjects)


def constrain(data: dict[str, Any], intent: Intent, prompt: str, memories: list[RecalledMemory]) -> ToolProgram:
    """The model's program with the platform's invariants re-imposed, then validated."""
    data = dict(data)
    chosen = data.get("archetype")
    custom = isinstance(chosen, str) and chosen.removeprefix("custom_") in GUESSABLE_SHAPES
    archetype = chosen if isinstance(chosen, str) and (chosen in _kinds() or custom) else intent.archetype or ""
    platform_hosts = hosts_for(archetype)
    data["archetype"] = archetype
    data["version"] = LANGUAGE_VERSION
    data["limits"] = Limits().model_dump()
    data["allowed_hosts"] = [h for h in data.get("allowed_hosts") or [] if h in platform_hosts]
    ui = dict(data.get("ui") or {})
    ui.update(theme="macaron-ui-v3", lang=intent.lang)
    data["ui"] = ui
    data["provenance"] = {"request": prompt, "memories": [m.memory_id for m in memories], "planner": "llm"}
    return ToolProgram.model_validate(data)


def read_answer(content: str) -> tuple[DeclineAnswer | None, dict[str, Any] | None]:
    """(decline, program data) from a model's answer; ValueError when it is neither. A bare program (no wrapper)
    is read as one: a model that skips the wrapper still means it."""
    data = json.loads(content)
    if not isinstance(data, dict):
        raise ValueError("the answer is not a JSON object")
    if "operations" in data and "program" not in data:
        return None, data
    if data.get("decline"):
        return DeclineAnswer.model_validate(data["decline"]), None
    program = data.get("program")
    if not isinstance(program, dict):
        raise ValueError("the answer has neither a program nor a decline")
    return None, program


class LLMPlanner:
    """Planner that asks a model, with the composer's plan as draft and as fallback."""

    def __init__(
        self,
        *,
        model: Model | str | None = None,
        client: Any | None = None,
        fallback: Planner | None = None,
        timeout: float | None = None,
    ) -> None:
        if isinstance(model, str) or client is not None:  # an OpenAI-compatible client given as it is (tests)
            from toolgen.llm.openai_compat import OpenAICompatible

            model = OpenAICompatible(client=client, model=model if isinstance(model, str) else None)
        self._model = model
        self._timeout = timeout
        self.fallback = fallback or OfflinePlanner()

    @property
    def llm(self) -> Model:
        if self._model is None:
            timeout = self._timeout or llm.timeout_from_env("TOOLGEN_LLM_TIMEOUT", DEFAULT_TIMEOUT_S)
            found = llm.from_environment(timeout=timeout)
            if found is None:
                raise ModelError("no model is configured")
            self._model = found
        return self._model

    @property
    def name(self) -> str:
        return f"llm:{self.llm.model}"

    def worst_answer_s(self) -> float:
        """The longest one answer may take: its timeout, twice (a timeout is retried once)."""
        return 2 * (self._timeout or llm.timeout_from_env("TOOLGEN_LLM_TIMEOUT", DEFAULT_TIMEOUT_S))

    def prompt(self, request: str, intent: Intent, context: str, draft: Plan, *, time_zone: str | None = None,
               unclear: bool = False) -> Prompt:  # fmt: skip
        """What the model reads for ``request``."""
        said = PromptContext(intent=intent, draft=draft.program, memory=context, time_zone=time_zone, unclear=unclear)
        return Prompt(static=static_part(), dynamic=dynamic_part(said), messages=[{"role": "user", "content": request}])

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
        draft = draft or self.fallback.plan(prompt, intent, memories, context)
        info = PlanInfo(planner="llm", model=self.llm.model)
        started = time.perf_counter()
        asked = self.prompt(prompt, intent, context, draft, time_zone=time_zone, unclear=unclear)
        schema = answer_schema()
        for attempt in (1, 2):
            if deadline is not None and deadline - time.monotonic() < self.worst_answer_s():
                return self._fall_back(draft, info, started, "no time left for the model to answer")
            info.attempts = attempt
            try:
                completion = self.llm.complete(asked, schema=schema, schema_name="PlannerAnswer")
            except ModelError as e:
                return self._fall_back(draft, info, started, e.message)
            info.prompt_tokens += completion.prompt_tokens
            info.completion_tokens += completion.completion_tokens
            info.cached_tokens += completion.cached_tokens
            info.json_mode = completion.mode
            if completion.refusal:  # the provider would not answer: a decline, in its words
                return self._declined(
                    draft, info, started, DeclineAnswer(category="declined", reason=completion.refusal)
                )
            try:
                decline, data = read_answer(completion.content)
                if decline is not None:
                    return self._declined(draft, info, started, decline)
                assert data is not None
                program = constrain(data, intent, prompt, memories)
                trial(program)
            except (ValueError, ValidationError, TypeError, TrialError) as e:
                problem = describe_problem(e)
                info.problems.append(problem[:300])
                if attempt == 2:
                    return self._fall_back(draft, info, started, f"invalid answer twice: {problem[:300]}")
                asked.messages += [
                    {"role": "assistant", "content": completion.content},
                    {"role": "user", "content": correction(problem)},
                ]
                continue
            info.latency_ms = _ms(started)
            return Plan(program, info)
        raise AssertionError("unreachable")

    def _declined(self, draft: Plan, info: PlanInfo, started: float, decline: DeclineAnswer) -> Plan:
        info.latency_ms = _ms(started)
        category = decline.category if decline.category in DECLINE_CATEGORIES else "declined"
        return Plan(draft.program, info, declined=Decline(category=category, reason=decline.reason.strip()[:300]))

    def _fall_back(self, draft: Plan, info: PlanInfo, started: float, reason: str) -> Plan:
        logger.warning("the model planner fell back to the offline plan: %s", reason)
        info.latency_ms = _ms(started)
        info.fallback = reason
        return Plan(draft.program, info, draft.composition)


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def correction(problem: str) -> str:
    """What the platform says back to a model whose answer it cannot use."""
    return (
        f"That answer cannot be used: {problem}. Answer again with the whole corrected JSON object "
        '({"decline": null, "program": {...}}) and nothing else.'
    )


def describe_problem(error: Exception) -> str:
    """What was wrong with an answer, for the model to correct."""
    if isinstance(error, ValidationError):
        return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()[:10])
    if isinstance(error, json.JSONDecodeError):
        return f"not JSON ({error.msg} at character {error.pos})"
    if isinstance(error, ToolgenError):
        return error.message
    return str(error)


def planner_from_environment() -> Planner:
    """The model planner when a model is configured, else the offline planner."""
    return LLMPlanner() if llm.configured() else OfflinePlanner()
