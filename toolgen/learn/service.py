"""Learning from use, on the platform's side: patterns become memories, and memories become suggestions.

When: on a person's way to their suggestions (GET /v1/suggestions, which a tool's page asks), never in a tool's own
calls, so a tool's cold path and its 10 s stay its own. What it costs: one BatchGetItem of the person's tools' row
summaries (their version moves with every write, toolgen/runtime/rows.py) and of what was mined last
(``MINED#<tool_id>``); only a tool written to since is read again, its newest MINE_ROWS rows, a page at a time.
Incremental in that sense: nothing is read for a tool nobody wrote to, and nothing past its newest rows.

A pattern is kept as a memory (kind habit) keyed by tool and pattern, with its evidence as its text ("8 of 10 runs
started 06:00-08:00") and the tool as its source; the same pattern found again is a restatement, a changed one
supersedes it (toolgen/memory/store.py). A suggestion (``SUGG#<id>``) names the memories behind it; its evidence's
signature is claimed once per tool (``SUGGSIG#<tool_id>#<signature>``), so the same evidence is never suggested
twice, and a suggestion whose memories were rejected on this tool until their reward there fell below MIN_REWARD is
not made at all (the rejections count on this tool alone: memory/scoring.evidence).
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from typing import Any

from toolgen.changes import Change
from toolgen.errors import ConflictError, NotFoundError, TooManyMemoriesError
from toolgen.ids import sortable_id
from toolgen.learn.patterns import Pattern, mine
from toolgen.learn.suggest import FACT_KEYS, Draft, propose
from toolgen.memory.extract import Fact
from toolgen.memory.scoring import reward
from toolgen.memory.store import family
from toolgen.models import Memory, SuggestionView, ToolRecord
from toolgen.program import ToolProgram
from toolgen.runtime.rows import RowStore
from toolgen.services import Services
from toolgen.table import rows_pk, user_pk

logger = logging.getLogger(__name__)
MINE_ROWS = 500  # the newest rows a pattern is read from: recent habits, at a bounded cost
MIN_REWARD = 0.3  # a memory rejected twice (reward 1/4) suggests nothing more
MAX_TOOLS = 100  # tools looked at per call (the newest): a person's page asks for one tool anyway
MAX_MINED = 10  # tools mined per call at most (each reads up to MINE_ROWS rows); the rest are mined on the next
OPEN = "SUGGOPEN#"  # the open suggestions' index, by tool: what a page's every load reads


def refresh(services: Services, user: str, tools: list[ToolRecord], today: dt.date | None = None) -> int:
    """Mine every tool written to since it was last mined; make the suggestions its patterns bring. How many
    tools were mined."""
    today = today or dt.date.today()
    tools = [t for t in tools if t.program.get("entities")][:MAX_TOOLS]
    if not tools:
        return 0
    table = services.table
    keys = [(rows_pk(t.partition, user), "SUMMARY") for t in tools] + [
        (user_pk(user), f"MINED#{t.tool_id}") for t in tools
    ]
    found = {(i["pk"], i["sk"]): i for i in table.get_many(keys)}
    mined = 0
    for record in tools:
        version = found.get((rows_pk(record.partition, user), "SUMMARY"), {}).get("version", 0)
        last = found.get((user_pk(user), f"MINED#{record.tool_id}"), {})
        if not version or (last.get("version") == version and last.get("revision") == record.revision):
            continue
        if mined >= MAX_MINED:
            break
        _mine_tool(services, user, record, today)
        table.put(
            {"pk": user_pk(user), "sk": f"MINED#{record.tool_id}", "version": version, "revision": record.revision}
        )
        mined += 1
    return mined


def _mine_tool(services: Services, user: str, record: ToolRecord, today: dt.date) -> None:
    program = ToolProgram.model_validate(record.program)
    entity = next(iter(program.entities))
    rows = RowStore(services.table, record.partition, user, program).recent(entity, MINE_ROWS)
    patterns = mine(program, rows, today)
    remembered: dict[str, Memory] = {}
    for pattern in patterns:
        try:
            remembered[pattern.key] = _remember(services, user, record, pattern)
        except TooManyMemoriesError:  # the person keeps all the memories one may: a pattern is not worth a refusal
            logger.info("pattern %s of %s not remembered: memories full", pattern.key, record.tool_id)
    held = _facts(services, user)
    for draft in propose(program, patterns, {key: str(m.value) for key, m in held.items()}):
        if any(k not in remembered for k in draft.patterns):
            continue  # a suggestion names the memories behind it, or is not made
        behind = [remembered[k] for k in draft.patterns] + [held[k] for k in draft.facts if k in held]
        _offer(services, user, record, draft, behind)


def _facts(services: Services, user: str) -> dict[str, Memory]:
    """The person's facts that suggestions read (FACT_KEYS), as they hold now: one BatchGetItem of their pointers
    and one of the memories, whatever else the person keeps."""
    pointers = services.table.get_many([(user_pk(user), f"MEMKEY#{family(k)}") for k in FACT_KEYS])
    ids = [p["memory_id"] for p in pointers if p.get("memory_id")]
    found, _ = services.memories.get_many(user, ids, None) if ids else ([], {})
    return {m.key: m for m in found if m.key and m.value is not None and m.status == "active"}


def memory_key(tool_id: str, pattern: Pattern) -> str:
    return f"{tool_id}.{pattern.key}"


def _remember(services: Services, user: str, record: ToolRecord, pattern: Pattern) -> Memory:
    fact: Fact = ("habit", memory_key(record.tool_id, pattern), pattern.value)
    return services.memories.learn(user, pattern.evidence, source=f"tool:{record.tool_id}", fact=fact, literal=True)


def _offer(
    services: Services,
    user: str,
    record: ToolRecord,
    draft: Draft,
    behind: list[Memory],
) -> None:
    config = services.recaller.config
    if any(reward(m, config, record.tool_id) < MIN_REWARD for m in behind):
        return  # these memories' suggestions keep being rejected on this tool: they stop coming
    table = services.table
    try:  # the same evidence is suggested once, whatever became of it
        table.put({"pk": user_pk(user), "sk": f"SUGGSIG#{record.tool_id}#{draft.signature}"}, if_absent=True)
    except ConflictError:
        return
    suggestion_id = sortable_id("s")
    table.put_many(
        [
            {"pk": user_pk(user), "sk": f"{OPEN}{record.tool_id}#{suggestion_id}", "suggestion_id": suggestion_id},
            {
                "pk": user_pk(user),
                "sk": f"SUGG#{suggestion_id}",
                "suggestion_id": suggestion_id,
                "tool_id": record.tool_id,
                "kind": draft.kind,
                "text": draft.text,
                "reason": draft.reason,
                "memories": [m.memory_id for m in behind],
                "changes": [c.model_dump(mode="json") for c in draft.changes],
                "summary": _summary(draft, record),
                "status": "open",
                "created_at": time.time(),
            },
        ]
    )


def _summary(draft: Draft, record: ToolRecord) -> list[str]:
    from toolgen.planner.revise import describe

    program = ToolProgram.model_validate(record.program)
    return describe(draft.changes, program, program.ui.lang)


def view(item: dict[str, Any]) -> SuggestionView:
    return SuggestionView(
        suggestion_id=item["suggestion_id"],
        tool_id=item["tool_id"],
        kind=item["kind"],
        text=item["text"],
        reason=item["reason"],
        memories=list(item.get("memories", [])),
        changes=list(item.get("summary", [])),
        status=item["status"],
        created_at=float(item["created_at"]),
        decided_at=float(item["decided_at"]) if item.get("decided_at") is not None else None,
        job_id=item.get("job_id"),
    )


def open_suggestions(services: Services, user: str, tool_id: str | None = None) -> list[dict[str, Any]]:
    """The person's open suggestions, newest first (of one tool when ``tool_id`` is given): what the open index
    names, never the suggestions answered long ago."""
    pointers = services.table.query(user_pk(user), OPEN + (f"{tool_id}#" if tool_id else ""))
    items = services.table.get_many([(user_pk(user), f"SUGG#{p['suggestion_id']}") for p in pointers])
    found = [i for i in items if i.get("status") == "open"]
    return sorted(found, key=lambda i: i["suggestion_id"], reverse=True)


def get(services: Services, user: str, suggestion_id: str) -> dict[str, Any]:
    item = services.table.get(user_pk(user), f"SUGG#{suggestion_id}") if suggestion_id.isalnum() else None
    if item is None:
        raise NotFoundError(f"no suggestion {suggestion_id}")
    return item


def answer(services: Services, user: str, item: dict[str, Any], status: str) -> dict[str, Any]:
    """Record what became of an open suggestion (accepted, rejected, or withdrawn: it no longer applies to its tool),
    once: ConflictError if it was answered meanwhile. It leaves the open index."""
    now = time.time()
    updated = services.table.update(
        user_pk(user), item["sk"], {"status": status, "decided_at": now}, expect={"status": "open"}
    )
    services.table.delete(user_pk(user), f"{OPEN}{item['tool_id']}#{item['suggestion_id']}")
    return updated


def reopen(services: Services, user: str, item: dict[str, Any]) -> None:
    """An accepted suggestion whose revision could not be queued is open again, as it was."""
    services.table.update(user_pk(user), item["sk"], {"status": "open", "decided_at": None})
    services.table.put(
        {
            "pk": user_pk(user),
            "sk": f"{OPEN}{item['tool_id']}#{item['suggestion_id']}",
            "suggestion_id": item["suggestion_id"],
        }
    )


def credit(
    services: Services, user: str, item: dict[str, Any], accepted: bool, job_id: str | None = None
) -> dict[str, Any]:
    """Credit the person's answer to the memories behind the suggestion: tried, and succeeded when accepted."""
    counters = {"interventions_tried": 1, "interventions_succeeded": 1} if accepted else {"interventions_tried": 1}
    outcome = "accepted" if accepted else "rejected"
    # a rejection is of this suggestion on this tool, not of the facts behind it (memory/scoring.evidence)
    scope = None if accepted else str(item["tool_id"])
    services.memories.credit(user, list(item.get("memories", [])), counters, reason=f"suggestion {outcome}", tool=scope)
    if job_id:
        return services.table.update(user_pk(user), item["sk"], {"job_id": job_id})
    return item


def changes_of(item: dict[str, Any]) -> list[Change]:
    return [Change.model_validate(c) for c in item.get("changes", [])]


def forget(services: Services, user: str, tool_id: str) -> None:
    """A deleted tool's suggestions and what was mined from it (its pattern memories stay, as memories do)."""
    table = services.table
    for item in table.query(user_pk(user), "SUGG#"):
        if item.get("tool_id") == tool_id:
            table.delete(user_pk(user), item["sk"])
    table.delete_prefix(user_pk(user), f"SUGGSIG#{tool_id}#")
    table.delete_prefix(user_pk(user), f"{OPEN}{tool_id}#")
    table.delete(user_pk(user), f"MINED#{tool_id}")
