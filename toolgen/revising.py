"""A revision job: the next version of an existing tool, from a follow-up, an accepted suggestion or a restore.

The same stages as making a tool, on the same function: classify reads the changes (the API read them already, so
a request it cannot read is a 422 before anything is queued), recall credits a turn to the memories that shaped
the tool, plan applies the changes (toolgen/planner/revise.py), and deploy publishes a new version behind the
tool's ``live`` alias, so callers are answered by the old version until the new one is live, and never see a
missing tool. Rows stay where they are: each row reads under the new program through its migrations
(toolgen/runtime/rows.py). A revision that fails after its version went live (the probe) puts the previous program
back, as a version of its own, and its page; the history and the record change only once the new one answered.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from toolgen import auth
from toolgen.accounts import Account
from toolgen.changes import Change
from toolgen.deploy import FunctionSpec
from toolgen.errors import ConflictError, NotFoundError, RevisionInProgressError, ToolgenError
from toolgen.memory import rewards
from toolgen.models import Job, RecalledMemory, ToolLimit, ToolRecord
from toolgen.planner import revise
from toolgen.probe import probe
from toolgen.program import ToolProgram
from toolgen.revisions import Revision, RevisionStore, restored
from toolgen.services import Services
from toolgen.spec import build_spec, validate_spec
from toolgen.table import user_pk
from toolgen.ui import render_page

logger = logging.getLogger(__name__)


def run(job: Job, services: Services, deadline: float | None) -> None:
    """Make the job's revision of its tool live, or leave the tool as it was and raise."""
    from toolgen import pipeline  # the stages' bookkeeping (pipeline imports this module to run revise jobs)

    s, jobs, history = services.settings, services.jobs, RevisionStore(services.table)
    record = services.tools.get(job.user, job.tool_id or "")
    current = ToolProgram.model_validate(record.program)
    zh = current.ui.lang == "zh"
    if job.base is None:
        job.base = current.revision
    elif current.revision != job.base:  # run again: its revision may be the one recorded, before the job was saved
        _finished(job, history, record, zh)
        return
    if not history.holds(job.user, record.tool_id, job.job_id):  # its hold lapsed and another revision took it
        raise RevisionInProgressError(
            "这个工具已由另一次修改接手" if zh else f"tool {record.tool_id} was taken over by another revision"
        )
    number = job.base + 1
    with pipeline._stage(job, "classify", jobs):
        if job.restore is not None:
            target = ToolProgram.model_validate(history.get(job.user, record.tool_id, job.restore).program)
            changes: list[Change] = []
            job.stage("classify").detail = f"恢复第 {job.restore} 版" if zh else f"restore of revision {job.restore}"
        elif job.changes is not None:
            changes = [Change.model_validate(c) for c in job.changes]
        else:
            changes = revise.read(job.prompt, current)
            job.changes = [c.model_dump(mode="json") for c in changes]
    with pipeline._stage(job, "recall", jobs):
        shaped = [m.memory_id for m in record.memories]
        behind = list(dict.fromkeys([*shaped, *_suggested(services, job)]))
    with pipeline._stage(job, "plan", jobs):
        if job.restore is not None:
            program = restored(current, target, number)
            summary = [f"恢复为第 {job.restore} 版" if zh else f"Restored revision {job.restore}"]
        else:
            program = revise.apply(current, changes, number)
            summary = revise.describe(changes, current, current.ui.lang)
        memories = list(dict.fromkeys([*program.provenance.memories, *behind]))
        program = program.model_copy(
            update={"provenance": program.provenance.model_copy(update={"memories": memories})}
        )
    function_name, account = record.function_name, Account(record.account)
    with pipeline._stage(job, "specify", jobs):
        spec = build_spec(program, record.tool_url)
        validate_spec(spec)
        spec["servers"] = [{"url": record.tool_url}]
    deployer = services.deployer_for(account)
    live = kept = False
    try:
        with pipeline._stage(job, "deploy", jobs):
            pipeline._require_time(deadline, pipeline.DEPLOY_NEEDS_S, "deploy the revision")
            deployed = deployer.deploy(_spec(services, program, record), deadline=_before_probe(deadline))
            live = True
        with pipeline._stage(job, "render", jobs):
            services.pages.put(record.tool_id, render_page(program, record.tool_url, changes=summary))
        with pipeline._stage(job, "probe", jobs):
            pipeline._require_time(deadline, pipeline.PROBE_NEEDS_S, "probe the revision")
            token = auth.mint(job.user, s.secret, ttl_s=120)
            job.warnings = probe(services.invoker_for(account), program, function_name, token)
        history.ensure_first(job.user, record)
        kept = _keep(
            history,
            job,
            Revision(
                tool_id=record.tool_id,
                revision=number,
                by="restore" if job.restore is not None else "suggestion" if job.suggestion_id else "follow_up",
                prompt=job.prompt,
                changes=changes,
                summary=summary,
                memories=behind,
                job_id=job.job_id,
                suggestion_id=job.suggestion_id,
                restored_from=job.restore,
                program=program.model_dump(mode="json"),
            ),
        )
        # the record as it is now (a memory forgotten meanwhile stays forgotten), written only over the revision
        # this job revised: a tool deleted or revised meanwhile is never overwritten
        fresh = services.tools.get(job.user, record.tool_id)
        limit = ToolLimit(concurrency=deployed.concurrency, enforced_by=deployed.enforced_by)
        texts = _texts(services, job.user, [m for m in behind if m not in {r.memory_id for r in fresh.memories}])
        revised = _revised(fresh, program, spec, limit, behind, texts)
        services.tools.replace(revised, job.base)
    except Exception:
        if kept:  # its number is free again: the history holds only revisions that were made live and recorded
            history.discard(job.user, record.tool_id, number, job.job_id)
        if live:  # the tool goes back to what its record says (or, deleted meanwhile, away)
            _put_back(services, job.user, record)
        raise
    behind = [m.memory_id for m in revised.memories]  # those that still exist
    if behind != shaped:  # the tool's uses are now credited to the memories behind the revision too
        with contextlib.suppress(NotFoundError):  # a tool made before ledgers has none to credit
            services.table.update(rewards.ledger_pk(job.user), rewards.LEDGER + record.tool_id, {"memories": behind})
    services.memories.mark_used(job.user, [m for m in behind if m not in shaped], record.tool_id)
    shaped = [m for m in shaped if m in behind]
    if shaped:  # a revision is a turn of the dialogue with the tool: the memories that shaped it, once
        services.memories.credit(job.user, shaped, {"turns": 1}, reason=f"revision {number} of {record.tool_id}")
    job.tool_url, job.ui_path, job.revision = record.tool_url, record.ui_path, number
    job.status = "succeeded"


def _finished(job: Job, history: RevisionStore, record: ToolRecord, zh: bool) -> None:
    """A job run again whose tool moved past the revision it revises: succeeded if the revision live is its own
    (its worker was lost after recording it), else the tool was revised by another job meanwhile."""
    base = job.base or 0
    made = history.find(job.user, record.tool_id, base + 1)
    if made is None or made.job_id != job.job_id or record.revision != base + 1:
        raise ConflictError("这个工具在此期间已被另一次修改" if zh else "the tool was revised by another job meanwhile")
    for stage in job.stages:
        if stage.status in ("pending", "running"):
            stage.status = "succeeded"
    job.tool_url, job.ui_path, job.revision = record.tool_url, record.ui_path, base + 1
    job.status = "succeeded"


def _keep(history: RevisionStore, job: Job, revision: Revision) -> bool:
    """Keep the revision in the history, once (a job run again finds its own there and goes on); another job's
    revision of that number is a conflict. True when it is kept."""
    try:
        history.put(job.user, revision)
    except ConflictError:
        found = history.find(job.user, revision.tool_id, revision.revision)
        if found is None or found.job_id != job.job_id:
            raise
    return True


def _before_probe(deadline: float | None) -> float | None:
    from toolgen import pipeline

    return None if deadline is None else deadline - pipeline.PROBE_NEEDS_S


def _spec(services: Services, program: ToolProgram, record: ToolRecord) -> FunctionSpec:
    from toolgen import pipeline

    account = Account(record.account)
    return pipeline._function_spec(
        services.settings, program, record.function_name, record.tool_id, record.user, record.home, account
    )


def _suggested(services: Services, job: Job) -> list[str]:
    """The memories behind the suggestion the job carries out (none for a follow-up)."""
    if not job.suggestion_id:
        return []
    item = services.table.get(user_pk(job.user), f"SUGG#{job.suggestion_id}")
    return list(item.get("memories", [])) if item else []


def _put_back(services: Services, user: str, record: ToolRecord) -> None:
    """The revision failed after going live: the program its record holds now goes live again, with its page; a
    tool deleted meanwhile loses the function and page the revision made again."""
    try:
        try:
            now = services.tools.get(user, record.tool_id)
        except NotFoundError:
            services.deployer_for(Account(record.account)).delete(record.function_name)
            services.pages.delete(record.tool_id)
            RevisionStore(services.table).forget(user, record.tool_id)
            return
        program = ToolProgram.model_validate(now.program)
        services.deployer_for(Account(now.account)).deploy(_spec(services, program, now))
        services.pages.put(now.tool_id, render_page(program, now.tool_url))
    except ToolgenError:
        logger.exception("could not put tool %s back as it was", record.tool_id)


def _texts(services: Services, user: str, memory_ids: list[str]) -> dict[str, RecalledMemory]:
    """The memories a suggestion brought in, as a tool record lists the memories behind it."""
    found = {}
    for memory_id in memory_ids:
        try:
            m = services.memories.get(user, memory_id)
        except NotFoundError:  # forgotten meanwhile: it shapes nothing
            continue
        found[memory_id] = RecalledMemory(memory_id=memory_id, text=m.text, key=m.key, value=m.value, score=1.0)
    return found


def _revised(
    record: ToolRecord,
    program: ToolProgram,
    spec: dict[str, Any],
    limit: ToolLimit,
    behind: list[str],
    texts: dict[str, RecalledMemory],
) -> ToolRecord:
    known = {**texts, **{m.memory_id: m for m in record.memories}}
    memories = [known[m] for m in behind if m in known]
    held = {m.memory_id for m in memories}
    provenance = program.provenance.model_copy(
        update={"memories": [m for m in program.provenance.memories if m in held]}
    )
    program = program.model_copy(update={"provenance": provenance})
    return record.model_copy(
        update={
            "program": program.model_dump(mode="json"),
            "openapi": spec,
            "title": program.title,
            "revision": program.revision,
            "memories": memories,
            "limit": limit,
            "stale_reason": None,
        }
    )
