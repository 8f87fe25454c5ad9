"""Routes of tools that grow: revisions (a follow-up, a restore) and suggestions learnt from use.

A follow-up is read here, before anything is queued: words that ask for no change this tool can make are a 422 in
the person's language, and the job carries the changes that were read. One revision of a tool runs at a time
(toolgen/revisions.py): a second one while the first is queued or running is a 409 naming the first's job.
"""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from toolgen.api.documented import ERROR, ERRORS, Next
from toolgen.api.queueing import queue
from toolgen.api.services import services
from toolgen.errors import (
    ConflictError,
    NotFoundError,
    RevisionInProgressError,
    RevisionNotPossibleError,
    ToolgenError,
)
from toolgen.ids import sortable_id
from toolgen.intent.slots import is_chinese
from toolgen.learn import service as learning
from toolgen.models import (
    Accepted,
    DecisionRequest,
    Job,
    RevisionList,
    RevisionRequest,
    RevisionView,
    SuggestionList,
    SuggestionView,
    ToolRecord,
)
from toolgen.pipeline import TERMINAL
from toolgen.planner import revise
from toolgen.program import MAX_MIGRATIONS, ToolProgram
from toolgen.revisions import Revision, RevisionStore, TooManyMigrations, first, restored
from toolgen.services import Services

router = Router()
_ERROR: Any = ERROR
ACCEPTED_BODY: Any = {"model": Accepted}
ACCEPTED: Any = {
    202: {
        "description": "Accepted: the revision's job is queued",
        "content": {"application/json": {"model": Accepted}},
    },
    409: {"description": "Another revision of this tool is in progress", "content": _ERROR},
}


def _user() -> str:
    return str(router.context["user"])


def _accepted(answer: dict[str, Any]) -> Response[Accepted]:
    return Response(202, content_types.APPLICATION_JSON, Accepted(**answer), headers={"Location": answer["status_url"]})


def start(
    svc: Services,
    user: str,
    record: ToolRecord,
    prompt: str,
    *,
    changes: list[dict[str, Any]] | None = None,
    restore: int | None = None,
    suggestion_id: str | None = None,
) -> dict[str, Any]:
    """Queue a revision job of ``record``'s tool; the caller's answer."""
    job = Job(
        job_id=sortable_id("j"),
        user=user,
        prompt=prompt,
        kind="revise",
        tool_id=record.tool_id,
        changes=changes,
        restore=restore,
        suggestion_id=suggestion_id,
    )
    history = RevisionStore(svc.table)
    try:
        history.hold(user, record.tool_id, job.job_id, ended=lambda held: _ended(svc, user, held))
    except RevisionInProgressError as e:
        if _zh(record, prompt):
            raise RevisionInProgressError("这个工具正在修改中，请等这一次完成后再试", details=e.details) from e
        raise
    try:
        svc.jobs.create(job)
        return queue(svc, job, router.current_event)
    except Exception:  # nothing will run: the tool is free for the next revision
        history.release(user, record.tool_id, job.job_id)
        raise


def _ended(svc: Services, user: str, job_id: str) -> bool:
    """Whether the job holding a tool has ended (or is gone): its hold may be taken over."""
    try:
        return svc.jobs.get(user, job_id).status in TERMINAL
    except NotFoundError:
        return True


def _zh(record: ToolRecord, prompt: str = "") -> bool:
    """A tool's answers are in its language (a follow-up in Chinese gets Chinese too)."""
    return ToolProgram.model_validate(record.program).ui.lang == "zh" or is_chinese(prompt)


@router.post("/v1/tools/<tool_id>/revisions", responses={**ACCEPTED, **ERRORS})
def revise_tool(tool_id: str, body: RevisionRequest) -> Response[Accepted]:
    """Revise a tool by a follow-up ("also track my heart rate"): a new version behind its URL, every row kept."""
    svc, user = services(), _user()
    record = svc.tools.get(user, tool_id)
    changes = revise.read(body.prompt, ToolProgram.model_validate(record.program))  # 422 when nothing is read
    return _accepted(start(svc, user, record, body.prompt, changes=[c.model_dump(mode="json") for c in changes]))


Limit = Annotated[int, Query(ge=1, le=100, description="At most this many in one page (each holds a program)")]


def _view(revision: Revision, live: int) -> RevisionView:
    return RevisionView(
        revision=revision.revision,
        at=revision.at,
        by=revision.by,
        prompt=revision.prompt,
        changes=revision.summary,
        memories=revision.memories,
        job_id=revision.job_id,
        suggestion_id=revision.suggestion_id,
        restored_from=revision.restored_from,
        live=revision.revision == live,
    )


@router.get("/v1/tools/<tool_id>/revisions", responses={200: {"description": "OK"}, **ERRORS})
def list_revisions(tool_id: str, limit: Limit = 20, next: Next = None) -> RevisionList:
    """The tool's revisions, newest first: who made each (a follow-up, a suggestion, a restore), when, what
    changed and which memories shaped it."""
    svc, user = services(), _user()
    record = svc.tools.get(user, tool_id)
    found, following = RevisionStore(svc.table).page(user, tool_id, next, limit)
    if not found and next is None:  # never revised: its history is the tool as made
        found = [first(record)]
    return RevisionList(
        tool_id=tool_id, live=record.revision, revisions=[_view(r, record.revision) for r in found], next=following
    )


@router.post("/v1/tools/<tool_id>/revisions/<revision>/restore", responses={**ACCEPTED, **ERRORS})
def restore_revision(tool_id: str, revision: int) -> Response[Accepted]:
    """Bring an earlier revision back, as the next revision (the history keeps every one)."""
    svc, user = services(), _user()
    record = svc.tools.get(user, tool_id)
    zh = _zh(record)
    if revision == record.revision:
        raise ConflictError(f"第 {revision} 版就是现在的版本" if zh else f"revision {revision} is the one live now")
    target = RevisionStore(svc.table).get(user, tool_id, revision, lang="zh" if zh else "en")  # 404: no such one
    current = ToolProgram.model_validate(record.program)
    try:  # checked now, not by the job: a restore that cannot be made is the caller's answer
        restored(current, ToolProgram.model_validate(target.program), current.revision + 1)
    except TooManyMigrations as e:
        limit = f"已有 {e.count} 次改名和单位换算，超过上限 {MAX_MIGRATIONS}" if zh else str(e)
        why = f"无法恢复第 {revision} 版：{limit}" if zh else f"revision {revision} cannot be restored: {limit}"
        raise RevisionNotPossibleError(why) from e
    except ValueError as e:
        why = f"无法恢复第 {revision} 版：{e}" if zh else f"revision {revision} cannot be restored: {e}"
        raise RevisionNotPossibleError(why) from e
    prompt = f"恢复第 {revision} 版" if zh else f"restore revision {revision}"
    return _accepted(start(svc, user, record, prompt, restore=revision))


@router.get("/v1/suggestions", responses={200: {"description": "OK"}, **ERRORS})
def list_suggestions(
    tool_id: Annotated[str | None, Query(max_length=40, description="only this tool's")] = None,
) -> SuggestionList:
    """Suggestions learnt from how your tools are used, newest first: each with its reason and the memories
    behind it. Asking looks at what was written to your tools since last time."""
    svc, user = services(), _user()
    tools = [svc.tools.get(user, tool_id)] if tool_id is not None else svc.tools.list(user)  # 404: not yours
    learning.refresh(svc, user, tools)
    return SuggestionList(suggestions=[learning.view(i) for i in learning.open_suggestions(svc, user, tool_id)])


@router.post(
    "/v1/suggestions/<suggestion_id>",
    responses={
        200: {
            "description": "Rejected: it will not be made again",
            "content": {"application/json": {"model": SuggestionView}},
        },
        409: {"description": "Already answered, or its tool is being revised", "content": _ERROR},
        **ACCEPTED,
        **ERRORS,
    },
)
def decide_suggestion(suggestion_id: str, body: DecisionRequest) -> Response[Any]:
    """Accept a suggestion (the tool is revised: 202 with the job) or reject it (200): either way the memories
    behind it are credited, and a rejected one is not suggested again."""
    svc, user = services(), _user()
    item = learning.get(svc, user, suggestion_id)
    record = svc.tools.get(user, item["tool_id"])
    zh = _zh(record)
    if item["status"] != "open":
        raise _answered(suggestion_id, item["status"], zh)
    if not body.accept:
        updated = _claim(svc, user, item, "rejected", zh)
        return Response(200, content_types.APPLICATION_JSON, learning.view(learning.credit(svc, user, updated, False)))
    current = ToolProgram.model_validate(record.program)
    try:  # the tool may have changed since it was suggested (a field renamed, a revision restored)
        revise.apply(current, learning.changes_of(item), current.revision + 1)
    except (ToolgenError, ValueError) as e:
        _claim(svc, user, item, "withdrawn", zh)
        why = "这条建议已不适用于现在的工具" if zh else f"suggestion {suggestion_id} no longer applies to the tool"
        raise ConflictError(why, details={"reason": getattr(e, "message", str(e))}) from e
    claimed = _claim(svc, user, item, "accepted", zh)  # before the job: an answer given meanwhile wins, not both
    try:
        answer = start(svc, user, record, item["text"], changes=item["changes"], suggestion_id=suggestion_id)
    except Exception:
        learning.reopen(svc, user, item)
        raise
    learning.credit(svc, user, claimed, True, answer["job_id"])
    return _accepted(answer)


def _claim(svc: Services, user: str, item: dict[str, Any], status: str, zh: bool) -> dict[str, Any]:
    try:
        return learning.answer(svc, user, item, status)
    except ConflictError as e:
        latest = learning.get(svc, user, item["suggestion_id"])["status"]
        raise _answered(item["suggestion_id"], latest, zh) from e


def _answered(suggestion_id: str, status: str, zh: bool) -> ConflictError:
    words = {"accepted": "接受", "rejected": "拒绝", "withdrawn": "撤回"}
    if zh:
        return ConflictError(f"这条建议已经{words.get(status, status)}过了")
    return ConflictError(f"suggestion {suggestion_id} was already {status}")
