"""Typed records that cross a boundary: HTTP bodies, the jobs queue message, and the items of the table.

Everything past the edge of a handler is one of these, never a raw dict (STYLE.md habit 5).
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StringConstraints, model_validator

from toolgen.table import legacy_home

# refused: an action in the world, or a request a model declined as no tool's: it ends there, with its reason.
JobStatus = Literal["queued", "running", "succeeded", "failed", "needs_clarification", "refused"]
TERMINAL: tuple[JobStatus, ...] = ("succeeded", "failed", "needs_clarification", "refused")
# What a job is shown as: ``retrying`` is a running job whose worker fell silent (toolgen/jobs.py), never stored.
JobViewStatus = Literal["queued", "running", "retrying", "succeeded", "failed", "needs_clarification", "refused"]
StageStatus = Literal["pending", "running", "succeeded", "failed", "skipped"]
STAGES = ("classify", "recall", "plan", "specify", "deploy", "render", "probe")
MAX_PROMPT = 2000
MAX_MEMORY_TEXT = 1000


class Body(BaseModel):
    """A request body: unknown fields are refused rather than ignored."""

    model_config = ConfigDict(extra="forbid")


# "Has something to say": a character that is whitespace neither to Python (which strips it) nor to the JSON
# Schema regex dialect clients generate from, so the document and the server agree on what a blank text is; and
# not an invisible format character (zero-width spaces and joiners, word joiner, soft hyphen, variation
# selectors), which a prompt of nothing else would otherwise pass as text.
VISIBLE = (
    r"[^\s\x1c-\x1f\x85\u00a0\u00ad\u034f\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000"
    r"\ufe00-\ufe0f\ufeff]"
)
Text = StringConstraints(strip_whitespace=True, min_length=1, pattern=VISIBLE)


TIME_ZONE = r"^(UTC|[A-Z][A-Za-z_]+(/[A-Za-z0-9_+-]+){1,2})$"


class NewToolRequest(Body):
    prompt: Annotated[str, Text, StringConstraints(max_length=MAX_PROMPT)] = Field(
        description="What the tool should do, in English or Chinese"
    )
    time_zone: Annotated[str, StringConstraints(max_length=64, pattern=TIME_ZONE)] | None = Field(
        default=None, description="Your IANA time zone (Asia/Shanghai): a model planning the tool is told your today"
    )


class NewMemoryRequest(Body):
    text: Annotated[str, Text, StringConstraints(max_length=MAX_MEMORY_TEXT)] = Field(
        description="A fact or preference to remember"
    )


class Intent(BaseModel):
    archetype: str | None
    confidence: float = Field(ge=0, le=1)
    slots: dict[str, Any] = Field(default_factory=dict)
    needs_external_api: bool = False
    lang: Literal["en", "zh"] = "en"
    candidates: list[str] = Field(default_factory=list)
    shape: str | None = Field(default=None, description="log, collection, schedule, dates, calculator, lookup, split")
    subject: str | None = Field(default=None, description="the knowledge base's subject, when one was read")
    refusal: str | None = Field(default=None, description="why no tool can do this (an action in the world)")
    doubt: str | None = Field(
        default=None,
        description="an action the learned refusal reads in a request the rules read as a tool: the person is asked "
        "(the tool proposed) rather than refused, and no model reads it until they answer",
    )
    wary: str | None = Field(
        default=None,
        description="an action the learned refusal half reads in a request the rules read as a tool: where a model is "
        "configured, the request is treated as a doubt (the tool offered) so that no model reads it until the person "
        "says it is the tool they meant",
    )
    unresolved: list[str] = Field(default_factory=list, description="places or names the request gave, not found")


class JobMessage(BaseModel):
    """The jobs queue's message body."""

    job_id: str
    user: str
    prompt: str


class Stage(BaseModel):
    name: str
    status: StageStatus = "pending"
    ms: float | None = None
    detail: str | None = None


class JobWarning(BaseModel):
    """Something a job that succeeded has to tell: its tool works, but not everything it needs answered."""

    code: str = Field(
        description="stable: upstream_unreachable (the public API the tool reads did not answer its first call)"
    )
    message: str = Field(description="what happened, in the request's language")
    details: dict[str, Any] = Field(default_factory=dict, description="host, path and the tool's own error code")


class Job(BaseModel):
    job_id: str
    user: str
    prompt: str
    kind: Literal["create", "revise"] = Field(default="create", description="make a tool, or revise one (tool_id)")
    status: JobStatus = "queued"
    stages: list[Stage] = Field(default_factory=lambda: [Stage(name=n) for n in STAGES])
    tool_id: str | None = None
    tool_url: str | None = None
    ui_path: str | None = None
    error: str | None = None
    question: str | None = None
    refused: str | None = None  # why no tool: booking, purchase, ... (the rules or a model), or declined
    reason: str | None = None  # the refusal said in the request's language
    time_zone: str | None = None  # the person's, as their client said it (IANA): the model is told their today
    proposal: dict[str, Any] | None = None
    candidates: list[dict[str, Any]] = Field(default_factory=list)
    choice: str | None = None
    notes: list[str] = Field(default_factory=list)
    composition: dict[str, Any] | None = None
    planner: dict[str, Any] | None = None
    reused: bool = False
    learned: list[str] | None = Field(default=None, description="memories learnt from the prompt; None: not read yet")
    waiting: str | None = None  # why a queued job runs later (Lambda out of capacity)
    waits: int = 0  # how many times it went back to the queue for that
    warnings: list[JobWarning] = Field(default_factory=list)
    # a revision (kind "revise"): the changes read from the prompt or carried by a suggestion, or the revision to
    # restore; the revision it made
    changes: list[dict[str, Any]] | None = None
    restore: int | None = None
    suggestion_id: str | None = None
    base: int | None = None  # the revision it revises, fixed when it first runs (a rerun then knows its own work)
    revision: int | None = None
    created_at: float = Field(default_factory=time.time)
    updated_at: float = Field(default_factory=time.time)

    def stage(self, name: str) -> Stage:
        """The named stage (KeyError if unknown)."""
        for s in self.stages:
            if s.name == name:
                return s
        raise KeyError(name)


class Memory(BaseModel):
    memory_id: str
    user: str
    text: str
    kind: Literal["preference", "fact", "habit", "event"] = "fact"
    key: str | None = None
    value: str | None = None
    tokens: list[str] = Field(default_factory=list, description="content words, kept so recall never re-tokenises")
    status: Literal["active", "superseded"] = "active"
    superseded_by: str | None = None  # the memory that replaced or ended it (kept in history, never recalled)
    valid_from: float | None = Field(default=None, description="when the fact began to hold, if the person said")
    valid_until: float | None = Field(default=None, description="when it stopped holding (superseded or ended)")
    confirmed_at: float | None = Field(default=None, description="when the person last said it again")
    created_at: float = Field(default_factory=time.time)
    updated_at: float = Field(default_factory=time.time)
    last_used_at: float | None = None
    uses: int = 0
    turns: int = 0
    interventions_tried: int = 0
    interventions_succeeded: int = 0
    rejected_for: list[str] = Field(
        default_factory=list,
        description="the tools whose suggestions from it were rejected: a rejection is of that suggestion on that "
        "tool, and no longer lowers the memory for every other tool",
    )
    verification: Literal["unverified", "verified", "invalid"] = "unverified"
    verified_at: float | None = None
    verification_source: str | None = None
    sources: list[str] = Field(default_factory=list, description="where it was learnt: 'api' or the job ids")
    tools: list[str] = Field(default_factory=list, description="the tools it shaped")


class HistoryEntry(BaseModel):
    """One change to a memory, as it happened."""

    at: float
    event: Literal[
        "created", "restated", "edited", "superseded", "ended", "verified", "invalidated", "rewarded", "reinstated"
    ]
    details: dict[str, Any] = Field(default_factory=dict)


class ScoreParts(BaseModel):
    relevance: float
    reward: float
    decay: float
    verification: float
    sample: float | None = Field(default=None, description="the Thompson draw that ordered memories tied on score")
    semantic: float | None = Field(
        default=None, description="relevance by meaning (embeddings), when configured; relevance is the larger reading"
    )


class RecalledMemory(BaseModel):
    memory_id: str
    text: str
    key: str | None = None
    value: str | None = None
    score: float
    parts: ScoreParts | None = None


class ToolLimit(BaseModel):
    """A tool's limit of calls at once, and how it is kept."""

    concurrency: int = Field(description="calls the tool answers at once; more get 429 with Retry-After")
    enforced_by: Literal["reserved_concurrency", "lease"] = Field(
        description="reserved_concurrency: Lambda reserves it for the tool; lease: the account had no room to "
        "reserve it, and the tool keeps it itself with leases in the table"
    )


class ToolRecord(BaseModel):
    tool_id: str
    user: str
    title: str
    archetype: str
    prompt: str
    function_name: str
    tool_url: str
    ui_path: str
    program: dict[str, Any]
    openapi: dict[str, Any]
    memories: list[RecalledMemory] = Field(default_factory=list)
    job_id: str | None = None
    plan_key: str | None = None
    stale_reason: str | None = None
    limit: ToolLimit | None = None  # None: a tool made before limits were recorded (reserved concurrency then)
    account: str = ""  # the AWS account its function is in ("": the platform's own; toolgen/accounts.py)
    home: str = ""  # its partition (toolgen/table.py); "": a tool made before homes, at TOOL#<tool_id>
    revision: int = 1  # the program's revision live now (toolgen/revisions.py)
    created_at: float = Field(default_factory=time.time)

    @property
    def partition(self) -> str:
        """Where its leases and counters live; each person's rows are under ``<partition>#<user>``."""
        return self.home or legacy_home(self.tool_id)


# --- responses -------------------------------------------------------------------------------------------------


class Accepted(BaseModel):
    job_id: str
    status_url: str
    status: JobStatus = Field(
        default="queued",
        description="queued; or already succeeded (a tool of yours answers it), needs_clarification, or refused",
    )


class StageView(BaseModel):
    name: str
    status: StageStatus
    ms: float | None = None
    detail: str | None = None


class PlannerView(BaseModel):
    planner: str
    model: str | None = None
    latency_ms: float | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = Field(default=0, description="prompt tokens the model's provider read from its cache")
    attempts: int = 0
    fallback: str | None = Field(default=None, description="why the model's answer was not used, if it was not")
    json_mode: str | None = Field(
        default=None, description="how structure was asked for: json_schema, json_object, text, tool"
    )
    problems: list[str] = Field(default_factory=list, description="what was wrong with each answer sent back")


class Candidate(BaseModel):
    choice: str = Field(description="send it back as the answer's choice to get this tool")
    title: str
    description: str = ""
    fields: list[str] = Field(default_factory=list, description="what the tool records or takes, in your language")
    operations: list[str] = Field(default_factory=list, description="what it does, in your language")


class Composition(BaseModel):
    shape: str
    subject: str | None = None
    inferred: list[str] = Field(default_factory=list, description="fields from the knowledge base or your request")
    guessed: list[str] = Field(default_factory=list, description="fields made up for a subject it does not know")


class JobView(BaseModel):
    job_id: str
    status: JobViewStatus = Field(
        description="retrying: its worker stopped (no heartbeat for a minute) and it runs again by itself; "
        "`waiting` says why"
    )
    prompt: str
    stages: list[StageView]
    tool_id: str | None = None
    tool_url: str | None = None
    ui_url: str | None = None
    error: str | None = None
    question: str | None = None
    refused: str | None = Field(
        default=None,
        description="status refused: why no tool does this: booking, purchase, payment, ... or declined (a model "
        "read it as no tool's)",
    )
    reason: str | None = Field(default=None, description="the refusal, in the request's language")
    proposal: Candidate | None = Field(default=None, description="the tool you get by answering accept: true")
    candidates: list[Candidate] = Field(default_factory=list)
    composition: Composition | None = None
    planner: PlannerView | None = None
    reused: bool = Field(default=False, description="an earlier tool of this person answered the same plan")
    learned: list[str] = Field(default_factory=list, description="the memories this request taught (their ids)")
    waiting: str | None = Field(
        default=None,
        description="why a queued or retrying job runs later (Lambda had no capacity, its worker stopped); it is "
        "tried again by itself",
    )
    warnings: list[JobWarning] = Field(
        default_factory=list,
        description="what a job that succeeded has to tell, e.g. its tool's source did not answer when it was "
        "tried; the tool's page shows the same",
    )
    kind: Literal["create", "revise"] = Field(default="create", description="revise: a new revision of tool_id")
    revision: int | None = Field(default=None, description="the revision a revise job made live")


class ToolSummary(BaseModel):
    tool_id: str
    title: str
    archetype: str
    tool_url: str
    ui_url: str
    created_at: float
    needs_regeneration: bool = Field(default=False, description="a memory that shaped it was found no longer true")
    stale_reason: str | None = None


class ToolDetail(ToolSummary):
    owner: str = Field(description="the person the tool belongs to (the caller)")
    prompt: str
    program: dict[str, Any]
    openapi: dict[str, Any]
    memories: list[RecalledMemory]
    limit: ToolLimit
    revision: int = Field(default=1, description="the revision live now: 1 as made, one more for each revision")


class ToolList(BaseModel):
    tools: list[ToolSummary]
    next: str | None = Field(default=None, description="Pass as `next` for the following page; null after the last")


class MemoryView(BaseModel):
    memory_id: str
    text: str
    kind: str
    key: str | None = None
    value: str | None = None
    status: str
    superseded_by: str | None = None
    created_at: float
    updated_at: float
    last_used_at: float | None = None
    uses: int
    turns: int
    interventions_tried: int
    interventions_succeeded: int
    rejected_for: list[str] = Field(default_factory=list, description="the tools its rejected suggestions were on")
    verification: str
    verified_at: float | None = None
    sources: list[str]
    tools: list[str]


class MemoryList(BaseModel):
    memories: list[MemoryView]
    next: str | None = Field(default=None, description="Pass as `next` for the following page; null after the last")


class HistoryView(BaseModel):
    memory_id: str
    history: list[HistoryEntry]


class EditMemoryRequest(Body):
    text: Annotated[str, Text, StringConstraints(max_length=MAX_MEMORY_TEXT)]


def _one_of(schema: dict[str, Any]) -> None:
    """The document says what the validator does: exactly one of accept (true) and choice, neither null."""
    for name, prop in schema["properties"].items():
        prop.update(next(p for p in prop.pop("anyOf") if p.get("type") != "null"))
        prop.pop("default", None)
        del name
    schema["oneOf"] = [{"required": ["accept"]}, {"required": ["choice"]}]


class AnswerRequest(Body):
    """The answer to a question: accept the proposed tool, or choose one of the candidates (one of the two)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=lambda schema: _one_of(schema))
    accept: Literal[True] | None = Field(default=None, description="true: build the proposed tool")
    choice: str | None = Field(default=None, max_length=60, pattern=r"^[a-z][a-z0-9_]*$", description="a candidate")

    @model_validator(mode="after")
    def _one(self) -> AnswerRequest:
        if (self.accept is None) == (self.choice is None):
            raise ValueError("give either accept or choice")
        return self


class VerifyRequest(Body):
    valid: StrictBool  # true or false, never "yes", "on" or 0 (pydantic's lax reading took them)
    source: str | None = Field(default=None, max_length=200, description="what the fact was checked against")


class FeedbackRequest(Body):
    tool_id: str = Field(max_length=40)
    signal: Literal["accepted", "rejected", "used"]
    memory_id: str | None = Field(default=None, max_length=40, description="credit only this memory")


class RevisionRequest(Body):
    prompt: Annotated[str, Text, StringConstraints(max_length=MAX_PROMPT)] = Field(
        description="What to change, in English or Chinese: 'also track my heart rate', '默认开始时间改成7点'"
    )


class RevisionView(BaseModel):
    revision: int = Field(description="1 as made; one more for each revision")
    at: float
    by: Literal["request", "follow_up", "suggestion", "restore"] = Field(
        description="what made it: the first request, a follow-up, an accepted suggestion, a restore"
    )
    prompt: str = Field(description="the person's words (a suggestion's text for an accepted suggestion)")
    changes: list[str] = Field(description="what changed, in the tool's language")
    memories: list[str] = Field(description="the memories that shaped it (their ids)")
    job_id: str | None = None
    suggestion_id: str | None = None
    restored_from: int | None = Field(default=None, description="a restore: the revision it brought back")
    live: bool = Field(description="whether this revision is the one live now")


class RevisionList(BaseModel):
    tool_id: str
    live: int = Field(description="the revision live now")
    revisions: list[RevisionView] = Field(description="newest first")
    next: str | None = Field(default=None, description="Pass as `next` for the following page; null after the last")


class SuggestionView(BaseModel):
    suggestion_id: str
    tool_id: str
    kind: str = Field(description="time_default, weekly_goal, caffeine_cutoff, ...")
    text: str = Field(description="the suggestion, in the tool's language")
    reason: str = Field(description="why: the evidence, in the tool's language")
    memories: list[str] = Field(description="the memories behind it (their ids)")
    changes: list[str] = Field(description="what accepting changes in the tool, in its language")
    status: Literal["open", "accepted", "rejected", "withdrawn"] = Field(
        description="withdrawn: its tool changed so that it no longer applies"
    )
    created_at: float
    decided_at: float | None = None
    job_id: str | None = Field(default=None, description="accepted: the job revising the tool")


class SuggestionList(BaseModel):
    suggestions: list[SuggestionView]


class DecisionRequest(Body):
    accept: StrictBool = Field(description="true: revise the tool as suggested; false: no, and do not suggest it again")


class RecallView(BaseModel):
    prompt: str
    archetype: str | None
    threshold: float
    memories: list[RecalledMemory]
    context: str


class Health(BaseModel):
    status: Literal["ok"] = "ok"
    version: str


class ErrorBody(BaseModel):
    code: str
    message: str
    details: dict[str, Any] | list[Any] | None = None
