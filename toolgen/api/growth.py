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

from toolgen import cursor
from toolgen.api.queueing import queue
from toolgen.api.services import services
from toolgen.errors import ConflictError, RevisionInProgressError
from toolgen.ids import sortable_id
from toolgen.intent.slots import is_chinese
from toolgen.learn import service as learning
from toolgen.models import (
    Accepted,
    DecisionRequest,
    ErrorBody,
    Job,
    RevisionList,
    RevisionRequest,
    RevisionView,
    SuggestionList,
    SuggestionView,
    ToolRecord,
)
from toolgen.planner import revise
from toolgen.program import ToolProgram
from toolgen.revisions import Revision, RevisionStore, first
from toolgen.services import Services

router = Router()
_ERROR: Any = {"application/json": {"model": ErrorBody}}
ERRORS: Any = {
    401: {"description": "Missing or invalid bearer token", "content": _ERROR},
    404: {"description": "Not found (or not yours)", "content": _ERROR},
    422: {"description": "Invalid request", "content": _ERROR},
    503: {"description": "A service the platform uses failed; retry", "content": _ERROR},
}
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
    try:
        RevisionStore(svc.table).hold(user, record.tool_id, job.job_id)
    except RevisionInProgressError as e:
        zh = ToolProgram.model_validate(record.program).ui.lang == "zh" or is_chinese(prompt)
        if zh:
            raise RevisionInProgressError("这个工具正在修改中，请等这一次完成后再试", details=e.details) from e
        raise
    svc.jobs.create(job)
    return queue(svc, job, router.current_event)


@router.post("/v1/tools/<tool_id>/revisions", responses={**ACCEPTED, **ERRORS})
def revise_tool(tool_id: str, body: RevisionRequest) -> Response[Accepted]:
    """Revise a tool by a follow-up ("also track my heart rate"): a new version behind its URL, every row kept."""
    svc, user = services(), _user()
    record = svc.tools.get(user, tool_id)
    changes = revise.read(body.prompt, ToolProgram.model_validate(record.program))  # 422 when nothing is read
    return _accepted(start(svc, user, record, body.prompt, changes=[c.model_dump(mode="json") for c in changes]))


Limit = Annotated[int, Query(ge=1, le=500, description="At most this many in one page")]
Next = Annotated[
    str | None,
    Query(min_length=1, max_length=cursor.MAX_TOKEN, description="The `next` of the previous page, as it was given"),
]


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
def list_revisions(tool_id: str, limit: Limit = 100, next: Next = None) -> RevisionList:
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
    zh = ToolProgram.model_validate(record.program).ui.lang == "zh"
    if revision == record.revision:
        raise ConflictError(f"第 {revision} 版就是现在的版本" if zh else f"revision {revision} is the one live now")
    history = RevisionStore(svc.table)
    history.get(user, tool_id, revision)  # 404 when there is none
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
    zh = ToolProgram.model_validate(record.program).ui.lang == "zh"
    if item["status"] != "open":
        raise ConflictError(
            f"这条建议已经{'接受' if item['status'] == 'accepted' else '拒绝'}过了"
            if zh
            else f"suggestion {suggestion_id} was already {item['status']}"
        )
    if not body.accept:
        updated = learning.decide(svc, user, item, False, None)
        return Response(200, content_types.APPLICATION_JSON, learning.view(updated))
    answer = start(svc, user, record, item["text"], changes=item["changes"], suggestion_id=suggestion_id)
    learning.decide(svc, user, item, True, answer["job_id"])
    return _accepted(answer)
