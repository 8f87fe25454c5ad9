"""The platform API's routes (Powertools REST resolver with pydantic validation and an OpenAPI document).

Identity: every route but health, the OpenAPI document and pages needs ``Authorization: Bearer <token>``; the
token is checked before the request is routed or validated (a caller without one learns nothing about the
routes), and the user it names is the only user a handler ever reads or writes.
"""

from __future__ import annotations

import base64
import json
import re
from functools import cache
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response, content_types
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from aws_lambda_powertools.event_handler.openapi.params import Header, Query
from aws_lambda_powertools.event_handler.openapi.types import (
    OpenAPIResponse,
)

from toolgen import __version__, auth, bounds, jobs
from toolgen.accounts import Account
from toolgen.api import idempotency
from toolgen.api.documented import ERROR, ERRORS, Flag, Next
from toolgen.api.errors import error_response, status_of
from toolgen.api.growth import router as growth
from toolgen.api.queueing import base_url, queue
from toolgen.api.services import services
from toolgen.errors import AuthError, BadPageTokenError, ConflictError, InvalidInputError, ToolgenError
from toolgen.ids import sortable_id
from toolgen.intent import classify
from toolgen.intent.slots import is_chinese
from toolgen.learn import service as learning
from toolgen.memory import memory_block, rewards, verify
from toolgen.models import (
    MAX_PROMPT,
    Accepted,
    AnswerRequest,
    Candidate,
    Composition,
    EditMemoryRequest,
    FeedbackRequest,
    Health,
    HistoryView,
    Job,
    JobView,
    MemoryList,
    MemoryView,
    NewMemoryRequest,
    NewToolRequest,
    PlannerView,
    RecallView,
    StageView,
    ToolDetail,
    ToolLimit,
    ToolList,
    ToolRecord,
    ToolSummary,
    VerifyRequest,
)
from toolgen.pipeline import credit_follow_up, record_understanding, understand
from toolgen.revisions import RevisionStore
from toolgen.services import Services
from toolgen.table import rows_pk, user_pk

app = APIGatewayRestResolver(enable_validation=True)
app.include_router(growth)  # revisions and suggestions (toolgen/api/growth.py)
PUBLIC = auth.PUBLIC_PATHS
PAGE_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
# On every answer that does not set its own: no answer is read as another type than it says, and none is stored
# by a cache on the way (answers carry a person's tools, memories and jobs).
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}
_ERROR = ERROR
RECALL_SHOWN = 100  # with all=true, the best this many of every memory bearing on the request
PAGE_DEFAULT, PAGE_MAX = 100, 500  # items in one page of /v1/tools and /v1/memories
# The answer's own schema comes from the route's return annotation (a response without content).
OK: dict[int, OpenAPIResponse] = {200: {"description": "OK"}}


def handle(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Authenticate, then route. The Lambda handler's only call."""
    return _secured(_handle(event, context))


def _secured(answer: dict[str, Any]) -> dict[str, Any]:
    """``answer`` with SECURITY_HEADERS where it sets none of its own."""
    multi = answer.get("multiValueHeaders")
    present = {name.lower() for name in [*(answer.get("headers") or {}), *(multi or {})]}
    missing = {name: value for name, value in SECURITY_HEADERS.items() if name.lower() not in present}
    if multi is not None:
        multi.update({name: [value] for name, value in missing.items()})
    else:
        answer["headers"] = {**(answer.get("headers") or {}), **missing}
    return answer


def _handle(event: dict[str, Any], context: Any) -> dict[str, Any]:
    path = event.get("path") or "/"
    if any(ord(c) < 0x20 or c == "\x7f" for c in path):
        # No route has a control character, and Powertools' patterns end in $, which also matches before a
        # final newline: "/v1/tools/\n" would reach the list of tools. Refused here, as no such route.
        return _refused(404, "not_found", "no such route")
    multi = event.get("multiValueHeaders") or {}
    said = [v for k, vs in multi.items() if k.lower() == "authorization" for v in vs or []]
    if len(said) > 1:  # the authorizer would check one and the API read another
        return _refused(400, "invalid_input", "send one Authorization header, not several")
    if not PUBLIC.match(path):
        try:
            user = auth.verify(auth.bearer(event.get("headers")), services().settings.secret)
        except AuthError as e:
            return _refused(401, e.code, e.message, {"WWW-Authenticate": "Bearer"})
        app.append_context(user=user)
    if not _utf8_body(event):  # Powertools would fail decoding it, with a 500
        return _refused(422, "invalid_input", "the request body is not UTF-8 text")
    if problem := _json_problem(event):  # Powertools' json.loads would crash on these: a 502, not a 422
        return _refused(422, "invalid_input", problem)
    unknown = _unknown_query(event.get("httpMethod") or "GET", path, event.get("queryStringParameters"))
    if unknown:  # Powertools ignores parameters a route does not declare; an unknown field is refused everywhere
        return _refused(422, "invalid_input", "unknown query parameters: " + ", ".join(repr(n) for n in unknown))
    idempotency.register_context(context)
    return app.resolve(event, context)


def _refused(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    body = json.dumps({"code": code, "message": message, "details": None})
    return {
        "statusCode": status,
        "headers": {"Content-Type": "application/json", **(headers or {})},
        "body": body,
        "isBase64Encoded": False,
    }


@cache
def _query_names() -> list[tuple[str, re.Pattern[str], frozenset[str]]]:
    """(method, path pattern, query parameters it declares) for every documented route, read from the document."""
    spec = json.loads(app.get_openapi_json_schema(title="toolgen", version=__version__, openapi_version="3.1.0"))
    routes = []
    for template, item in spec.get("paths", {}).items():
        pattern = re.compile("^" + re.sub(r"\{[^/]+\}", "[^/]+", template) + "/?$")
        for method, operation in item.items():
            names = frozenset(p["name"] for p in operation.get("parameters", []) if p.get("in") == "query")
            routes.append((method.upper(), pattern, names))
    return routes


def _unknown_query(method: str, path: str, query: dict[str, str] | None) -> list[str]:
    if not query:
        return []
    for route_method, pattern, names in _query_names():
        if route_method == method.upper() and pattern.match(path):
            return sorted(set(query) - names)
    return sorted(query)  # undocumented routes (pages, the document itself) take no query


def _utf8_body(event: dict[str, Any]) -> bool:
    if not event.get("isBase64Encoded") or not event.get("body"):
        return True
    try:
        base64.b64decode(event["body"]).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return False
    return True


def _json_problem(event: dict[str, Any]) -> str | None:
    """Why the body cannot be read as JSON a caller may send (too deep, a number too long), None when it can or is
    not JSON at all (the route's validation says so then, in its own words)."""
    body = event.get("body")
    if not body:
        return None
    raw = base64.b64decode(body) if event.get("isBase64Encoded") else body
    try:
        bounds.load_json(raw)
    except bounds.UnboundedJSON as e:
        return str(e)
    except bounds.BadJSON:
        pass
    return None


def _user() -> str:
    return str(app.context["user"])


def _base_url() -> str:
    return base_url(services(), app.current_event)


@app.exception_handler(ToolgenError)
def _toolgen_error(e: ToolgenError) -> Response:
    return error_response(status_of(e), e.code, e.message, e.details or None)


@app.exception_handler(RequestValidationError)
def _invalid(e: RequestValidationError) -> Response:
    details = [{"loc": list(err.get("loc", ())), "type": err.get("type"), "msg": err.get("msg")} for err in e.errors()]
    where = ", ".join(".".join(str(p) for p in d["loc"]) for d in details)
    return error_response(422, "invalid_input", f"invalid request: {where}", details)


@app.not_found
def _not_found(_: Exception) -> Response:
    return error_response(404, "not_found", f"no route {app.current_event.http_method} {app.current_event.path}")


@app.get("/v1/health")
def health() -> Health:
    return Health(version=__version__)


@app.get("/v1/openapi.json", include_in_schema=False)
def openapi() -> Response[str]:
    document = app.get_openapi_json_schema(
        title="toolgen platform API",
        version=__version__,
        openapi_version="3.1.0",
        security_schemes={"bearerAuth": {"type": "http", "scheme": "bearer"}},  # type: ignore[dict-item]
        security=[{"bearerAuth": []}],
    )
    spec = json.loads(document)
    for path, item in spec.get("paths", {}).items():
        for operation in item.values():
            if PUBLIC.match(path):  # the public routes need no token: say so (Powertools drops an empty list)
                operation["security"] = []
            operation["responses"].get("204", {}).pop("content", None)  # no content is no content
    return Response(200, content_types.APPLICATION_JSON, json.dumps(spec))


@app.post(
    "/v1/tools",
    responses={
        202: {"description": "Accepted: the job is queued", "content": {"application/json": {"model": Accepted}}},
        409: {"description": "A request with this Idempotency-Key is in progress", "content": _ERROR},
        **ERRORS,
    },
)
def create_tool(
    body: NewToolRequest,
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            description="Send the same key when retrying: the first answer is given again, and no second tool made",
            pattern=idempotency.KEY_PATTERN,
        ),
    ] = None,
) -> Response[Accepted]:
    svc, user = services(), _user()

    def create(user: str, prompt: str) -> dict[str, Any]:
        return _create_tool(user, prompt, body.time_zone)

    if idempotency_key is None:
        answer = create(user, body.prompt)
    else:
        answer = idempotency.once(svc.settings.table_name, idempotency_key, user, body.prompt, create)
    return Response(202, content_types.APPLICATION_JSON, Accepted(**answer), headers={"Location": answer["status_url"]})


def _create_tool(user: str, prompt: str, time_zone: str | None = None) -> dict[str, Any]:
    svc = services()
    job = Job(job_id=sortable_id("j"), user=user, prompt=prompt, time_zone=time_zone)
    # Understanding a request is cheap: a request that is unclear, or that repeats one whose tool still exists,
    # is answered here and now; only real work goes through the queue.
    understood = understand(svc, job.user, job.prompt, job.job_id)
    job.learned = understood.learned
    record_understanding(job, understood)
    if job.reused and understood.live is not None:
        credit_follow_up(svc, job.user, understood.live)
    svc.jobs.create(job)
    return _queue(svc, job)


def _queue(svc: Services, job: Job) -> dict[str, Any]:
    return queue(svc, job, app.current_event)


@app.post(
    "/v1/jobs/<job_id>/answer",
    responses={
        202: {"description": "Accepted: the job goes on", "content": {"application/json": {"model": Accepted}}},
        409: {"description": "The job is not waiting for an answer", "content": _ERROR},
        **ERRORS,
    },
)
def answer_job(job_id: str, body: AnswerRequest) -> Response[Accepted]:
    """Answer a job's question: accept its proposed tool, or choose one of its candidates; the job goes on."""
    svc, user = services(), _user()
    job = svc.jobs.get(user, job_id)
    zh = is_chinese(job.prompt)  # the person's language, as every answer to them
    if job.status not in ("needs_clarification", "refused") or not job.candidates:
        if zh:
            raise ConflictError(
                f"任务 {job_id} 不在等待回答：" + ("它要做的事没有工具能做" if job.refused else "没有可选的工具")
            )
        why = "it asks for something no tool does" if job.refused else f"it is {job.status}, with nothing to choose"
        raise ConflictError(f"job {job_id} is not waiting for an answer: {why}")
    choices = [c["choice"] for c in job.candidates]
    choice = choices[0] if body.accept else body.choice
    if choice not in choices:
        message = f"choice 只能是 {choices} 之一" if zh else f"choice must be one of {choices}"
        raise InvalidInputError(message, details={"choices": choices})
    answered = Job(
        job_id=job.job_id,
        user=user,
        prompt=job.prompt,
        choice=choice,
        created_at=job.created_at,
        time_zone=job.time_zone,
    )
    understood = understand(svc, user, job.prompt, job.job_id, choice=choice)
    answered.learned = understood.learned
    record_understanding(answered, understood)
    if answered.reused and understood.live is not None:
        credit_follow_up(svc, user, understood.live)
    svc.jobs.save(answered)
    answer = _queue(svc, answered)
    return Response(202, content_types.APPLICATION_JSON, Accepted(**answer), headers={"Location": answer["status_url"]})


@app.get("/v1/jobs/<job_id>", responses={**OK, **ERRORS})
def get_job(job_id: str) -> JobView:
    job = services().jobs.get(_user(), job_id)
    lost = jobs.lost_worker(job, lang="zh" if is_chinese(job.prompt) else "en") if jobs.silent(job) else None
    return JobView(
        refused=job.refused,
        reason=job.reason,
        proposal=Candidate(**job.proposal) if job.proposal else None,
        candidates=[Candidate(**c) for c in job.candidates],
        composition=Composition(**job.composition) if job.composition else None,
        job_id=job.job_id,
        status="retrying" if lost else job.status,
        prompt=job.prompt,
        tool_id=job.tool_id,
        stages=[StageView(name=s.name, status=s.status, ms=s.ms, detail=s.detail) for s in job.stages],
        tool_url=job.tool_url if job.status == "succeeded" else None,
        ui_url=f"{_base_url()}{job.ui_path}" if job.status == "succeeded" and job.ui_path else None,
        error=job.error,
        question=job.question,
        planner=PlannerView(**job.planner) if job.planner else None,
        reused=job.reused,
        learned=job.learned or [],
        waiting=job.waiting if job.status == "queued" else lost,
        warnings=job.warnings if job.status == "succeeded" else [],
        kind=job.kind,
        revision=job.revision,
    )


def _summary(record: ToolRecord) -> dict[str, Any]:
    return {
        "needs_regeneration": record.stale_reason is not None,
        "stale_reason": record.stale_reason,
        "tool_id": record.tool_id,
        "title": record.title,
        "archetype": record.archetype,
        "tool_url": record.tool_url,
        "ui_url": f"{_base_url()}{record.ui_path}",
        "created_at": record.created_at,
    }


Limit = Annotated[int, Query(ge=1, le=PAGE_MAX, description="At most this many in one page")]


@app.get("/v1/tools", responses={**OK, **ERRORS})
def list_tools(limit: Limit = PAGE_DEFAULT, next: Next = None) -> ToolList:
    """The person's tools, a page at a time, in the order of their ids (unguessable, so not by time: each says
    when it was made, `created_at`)."""
    records, following = services().tools.page(_user(), next, limit)
    return ToolList(tools=[ToolSummary(**_summary(r)) for r in records], next=following)


@app.get("/v1/tools/<tool_id>", responses={**OK, **ERRORS})
def get_tool(tool_id: str) -> ToolDetail:
    record = services().tools.get(_user(), tool_id)
    return ToolDetail(
        **_summary(record),
        owner=record.user,
        prompt=record.prompt,
        program=record.program,
        openapi=record.openapi,
        memories=record.memories,
        limit=record.limit or ToolLimit(concurrency=5, enforced_by="reserved_concurrency"),
        revision=record.revision,
    )


@app.delete("/v1/tools/<tool_id>", responses={204: {"description": "Deleted"}, **ERRORS})
def delete_tool(tool_id: str) -> Response[None]:
    svc, user = services(), _user()
    _delete_tool(svc, user, svc.tools.get(user, tool_id))
    return Response(204, None, None)


def _delete_tool(svc: Services, user: str, record: ToolRecord) -> None:
    svc.deployer_for(Account(record.account)).delete(record.function_name)
    svc.table.delete_prefix(rows_pk(record.partition, user))
    svc.pages.delete(record.tool_id)
    learning.forget(svc, user, record.tool_id)
    RevisionStore(svc.table).forget(user, record.tool_id)
    rewards.forget_usage(svc.table, user, record.tool_id, record.partition)
    svc.table.delete_prefix(record.partition)  # its lease slots
    if record.plan_key:
        svc.plans.forget(user, record.plan_key)
    svc.tools.delete(user, record.tool_id)  # last: while any part remains, the record still points at it


def _memory_view(memory: Any) -> MemoryView:
    return MemoryView(**memory.model_dump(include=set(MemoryView.model_fields)))


@app.post(
    "/v1/memories",
    responses={
        201: {
            "description": "Remembered (or restated, or superseding the old value of its fact)",
            "content": {"application/json": {"model": MemoryView}},
        },
        **ERRORS,
    },
)
def add_memory(body: NewMemoryRequest) -> Response[MemoryView]:
    memory = services().memories.learn(_user(), body.text, source="api")
    return Response(201, content_types.APPLICATION_JSON, _memory_view(memory))


@app.get("/v1/memories", responses={**OK, **ERRORS})
def list_memories(
    q: Annotated[str | None, Query(max_length=200, description="only memories matching these words")] = None,
    all: Annotated[bool, Flag, Query(description="include superseded memories")] = False,
    limit: Limit = PAGE_DEFAULT,
    next: Next = None,
) -> MemoryList:
    """The person's memories, oldest first, a page at a time; with ``q``, the newest ``limit`` that match."""
    store, user = services().memories, _user()
    if q:  # a search answers one page of matches; a page token continues a list, not a search
        if next is not None:
            raise BadPageTokenError("next continues a list, not a search: leave out q or next")
        return MemoryList(memories=[_memory_view(m) for m in store.search(user, q)[:limit]], next=None)
    found, following = store.list_page(user, next, limit, include_superseded=all)
    return MemoryList(memories=[_memory_view(m) for m in found], next=following)


@app.patch("/v1/memories/<memory_id>", responses={**OK, **ERRORS})
def edit_memory(memory_id: str, body: EditMemoryRequest) -> MemoryView:
    return _memory_view(services().memories.edit(_user(), memory_id, body.text))


@app.get("/v1/memories/<memory_id>/history", responses={**OK, **ERRORS})
def memory_history(memory_id: str) -> HistoryView:
    return HistoryView(memory_id=memory_id, history=services().memories.history(_user(), memory_id))


@app.post("/v1/memories/<memory_id>/verify", responses={**OK, **ERRORS})
def verify_memory(memory_id: str, body: VerifyRequest) -> MemoryView:
    svc = services()
    return _memory_view(verify.apply(svc.memories, svc.tools, _user(), memory_id, body.valid, body.source))


@app.post(
    "/v1/memories/recheck",
    responses={**OK, 409: {"description": "No verifier is configured", "content": _ERROR}, **ERRORS},
)
def recheck_memories() -> dict[str, int]:
    svc = services()
    if svc.verifier is None:
        raise ConflictError("no verifier is configured (MEMORY_VERIFIER_URL)")
    return verify.recheck(svc.memories, svc.tools, svc.verifier, _user())


@app.delete("/v1/memories/<memory_id>", responses={204: {"description": "Forgotten"}, **ERRORS})
def delete_memory(memory_id: str) -> Response[None]:
    """Forget a memory: it leaves the records of the tools it shaped, which are flagged for regeneration."""
    svc = services()
    verify.forget(svc.memories, svc.tools, svc.table, _user(), memory_id)
    svc.recaller.forget(_user())  # its snapshot held the text too
    return Response(204, None, None)


@app.get("/v1/recall", responses={**OK, **ERRORS})
def inspect_recall(
    prompt: Annotated[str, Query(min_length=1, max_length=MAX_PROMPT, description="a request to recall for")],
    all: Annotated[
        bool, Flag, Query(description="also the memories scored below the threshold (not used): why one is left out")
    ] = False,
) -> RecallView:
    """Which memories this request would use, each score broken into relevance, reward, decay and verification."""
    svc, user = services(), _user()
    intent = classify(prompt)
    rewards.fold(svc.table, svc.memories, user)  # show rewards as a request would see them
    recalled = svc.recaller.recall(user, prompt, intent, everything=all)  # a request of no named kind has some too
    recalled = recalled[:RECALL_SHOWN]
    threshold = svc.recaller.config.threshold
    used = [m for m in recalled if m.score >= threshold] if all else recalled
    return RecallView(
        prompt=prompt,
        archetype=intent.archetype,
        threshold=threshold,
        memories=recalled,
        context=memory_block(used, svc.recaller.config.block_tokens),
    )


@app.post("/v1/feedback", responses={**OK, **ERRORS})
def give_feedback(body: FeedbackRequest) -> dict[str, list[str]]:
    """A suggestion accepted or rejected, or a tool used: credited to the memories that shaped the tool."""
    svc, user = services(), _user()
    record = svc.tools.get(user, body.tool_id)
    shaped = [m.memory_id for m in record.memories]
    credited = rewards.feedback(svc.memories, user, shaped, body.signal, body.memory_id, tool=record.tool_id)
    return {"credited": credited}


@app.delete("/v1/users/me", responses={204: {"description": "Everything about you is gone"}, **ERRORS})
def forget_me() -> Response[None]:
    """Forget the person entirely: tools (functions, rows, pages), memories, jobs, plans."""
    svc, user = services(), _user()
    for record in svc.tools.list(user):
        _delete_tool(svc, user, record)
    svc.memories.forget_user(user)
    svc.recaller.forget(user)
    svc.table.delete_prefix(rewards.ledger_pk(user))
    svc.table.delete_prefix(idempotency.partition(user))  # a retried key then makes a fresh job
    svc.table.delete_prefix(user_pk(user))  # jobs, plans, and anything else of theirs
    return Response(204, None, None)


@app.route("/p/<tool_id>", method=["GET", "HEAD"], include_in_schema=False)
def page(tool_id: str) -> Response[str]:
    """A tool's page, public by its unguessable id; it holds no data, which it reads with the person's token.
    HEAD answers as GET does, without the page (a link checker's or a browser's preflight)."""
    found = services().pages.get(tool_id)
    headers = {**PAGE_HEADERS, "Content-Security-Policy": found.csp}
    body = "" if app.current_event.http_method == "HEAD" else found.html
    return Response(200, "text/html; charset=utf-8", body, headers=headers)


__all__ = ["app", "handle", "status_of"]
