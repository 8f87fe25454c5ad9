"""The pipeline: one job, seven stages, each timed and recorded on the job as it runs.

classify -> recall -> plan -> specify -> deploy -> render -> probe. A job ends ``succeeded`` only after the
probe's real call to the deployed tool answers (toolgen/probe.py); with a warning, on the job and the page, when
the tool works but the public API it reads did not answer; it ends ``failed`` with its reason otherwise, and then
whatever it had made (function, page) is removed again, so no half-made tool is left. A request that is not clear
enough ends ``needs_clarification`` with a question, and nothing is deployed.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field

from toolgen import auth, ids
from toolgen.accounts import OWN, TOOL_ROLE, Account, choose
from toolgen.config import Settings
from toolgen.deploy import FunctionSpec, tool_package
from toolgen.errors import AWSError, NotFoundError, StageError, ToolgenError
from toolgen.intent import classify
from toolgen.intent.classify import classify_as, unplaced
from toolgen.intent.slots import is_chinese
from toolgen.jobs import JobStore
from toolgen.memory import memory_block, rewards
from toolgen.memory.extract import RuleReader
from toolgen.models import TERMINAL, Intent, Job, JobMessage, RecalledMemory, ToolLimit, ToolRecord
from toolgen.planner import OfflinePlanner, Plan, PlanInfo
from toolgen.planner.proposal import ask
from toolgen.plans import CachedPlan, LiveTool, plan_key
from toolgen.probe import probe
from toolgen.program import CreateOp, ToolProgram
from toolgen.revisions import RevisionStore
from toolgen.runtime import operations
from toolgen.runtime.rows import RowStore
from toolgen.runtime.values import check_object
from toolgen.services import Services
from toolgen.spec import build_spec, validate_spec
from toolgen.table import HOME_ENV, rows_pk
from toolgen.ui import render_page

logger = logging.getLogger(__name__)
# Lambda out of room for now (its control-plane rate, the account's concurrency or code storage), or the worker
# out of time for the rest of the job: the job waits and runs again later, its message sent back with a growing
# delay; it never fails for this. After MAX_WAITS (about 3 hours of waiting) it ends failed, saying so.
OUT_OF_TIME = "WorkerOutOfTime"
# What a job must still have when it starts deploying (creates and waits, then the probe) and when it probes (the
# tool's own timeout and a margin); the worker keeps SAVE_S at the end to roll back and record the job.
DEPLOY_NEEDS_S, PROBE_NEEDS_S, SAVE_S = 45.0, 15.0, 10.0
OUT_OF_CAPACITY = frozenset(
    {
        "TooManyRequestsException",
        "ThrottlingException",
        "Throttling",
        "RequestLimitExceeded",
        "CodeStorageExceededException",
        "throttled",  # the embedded default's invoke
        OUT_OF_TIME,
    }
)
MAX_WAITS = 16
MAX_DELAY_S = 900  # SQS's longest DelaySeconds
# Operator configuration a tool function inherits from the worker (never from a request).
PASSTHROUGH_ENV = ("TOOLGEN_FETCH_OVERRIDES", "POWERTOOLS_LOG_LEVEL")
DRAFTER = OfflinePlanner()  # the composer: every request's draft, whichever planner then plans it
RULES = RuleReader()  # reads facts without a model


@contextmanager
def _stage(job: Job, name: str, jobs: JobStore) -> Iterator[None]:
    """Time a stage and record its end on the job (one write per stage: the next pending stage is the running one)."""
    stage = job.stage(name)
    stage.status = "running"
    started = time.perf_counter()
    try:
        yield
    except Exception:
        stage.status, stage.ms = "failed", round((time.perf_counter() - started) * 1000, 1)
        raise
    stage.status, stage.ms = "succeeded", round((time.perf_counter() - started) * 1000, 1)
    jobs.save(job)


@dataclass
class _Made:
    """What this run created, so a failure can remove it."""

    function_name: str | None = None
    account: Account = field(default_factory=Account)
    page_tool_id: str | None = None
    seeded: tuple[str, str] | None = None  # (home, user) of the starting rows it stored


@dataclass
class Understanding:
    """Stages 1 and 2, and whether the request repeats one this person made before."""

    intent: Intent
    recalled: list[RecalledMemory] = field(default_factory=list)
    context: str = ""
    key: str = ""
    cached: CachedPlan | None = None
    live: LiveTool | None = None
    classify_ms: float = 0.0
    recall_ms: float = 0.0
    learned: list[str] | None = None
    draft: Plan | None = None  # the composer's plan: the repeat key, and the plan itself offline
    unclear: Intent | None = None  # the rules could not read it: the model is asked to (an LLM configured)


def understand(
    services: Services, user: str, prompt: str, source: str, *, learn: bool = True, choice: str | None = None
) -> Understanding:
    """Classify, learn, recall, and look the plan up; cheap enough for the API to do before it queues anything.

    Facts the request states ("I live in Shanghai, ...") are learnt first, so they shape this very tool, and
    tool use not yet credited is folded into the memories' rewards before they are scored. ``learn=False`` when
    the request was read already (the API did, before it queued the job: a model is asked once, not twice).
    """
    started = time.perf_counter()
    intent = classify_as(prompt, choice) if choice else classify(prompt)
    if not choice and not services.planner.name.startswith("llm:"):  # places the offline planner cannot read
        intent = unplaced(intent, prompt)
    if intent.wary is not None and _model_reads(services):  # its words go to no model until the person says
        intent = intent.model_copy(
            update={"archetype": None, "confidence": 0.0, "candidates": [intent.archetype], "doubt": intent.wary}
        )
    unclear = None
    doubted = intent.refusal is not None or intent.doubt is not None  # no model reads it (until the person says)
    if intent.archetype is None and not doubted and services.planner.name.startswith("llm:"):
        # A model may read what the rules cannot: it composes from a bare draft of the likeliest shape, and if it
        # cannot, the person is asked back after all (pipeline._run).
        unclear, shape = intent, intent.shape if intent.shape in ("log", "collection", "schedule", "dates") else "log"
        intent = classify_as(prompt, f"custom_{shape}")
    understood = Understanding(intent=intent, classify_ms=_ms_since(started), unclear=unclear)
    started = time.perf_counter()
    if learn:  # what the person says about themselves is learnt even when the tool they ask for is unclear
        if not doubted:
            found = services.memories.reader.mine(prompt)
        else:  # a refused action's words reach no model, now or later: the rules read it, and only the facts it
            # holds are kept, in words of their own ("diet: vegetarian"), never its sentence, which a later prompt
            # would quote
            found = [(f"{fact[1]}: {fact[2]}", fact) for _, fact in RULES.mine(prompt) if fact[1] and fact[2]]
        learned = [
            services.memories.learn(user, statement, source=source, fact=fact).memory_id for statement, fact in found
        ]
        understood.learned = list(dict.fromkeys(learned))  # two statements of one fact are one memory
    if intent.archetype is None:
        return understood
    rewards.fold(services.table, services.memories, user)
    understood.recalled = services.recaller.recall(user, prompt, intent)
    understood.context = memory_block(understood.recalled, services.recaller.config.block_tokens)
    understood.recall_ms = _ms_since(started)
    try:
        understood.draft = DRAFTER.plan(prompt, intent, understood.recalled, understood.context)
    except StageError as e:  # no plan can be made: the job will say why, at its plan stage
        logger.info("no draft for %r: %s", prompt[:80], e.message)
        return understood
    # a model's reading of an unclear request depends on its words: those are part of what makes it that tool
    wording = prompt if unclear is not None else None
    understood.key = plan_key(understood.draft.program, services.planner.name, wording)
    understood.cached = services.plans.get(user, understood.key)
    if understood.cached is not None:
        understood.live = _live_tool(services, user, understood.cached)
    return understood


def _model_reads(services: Services) -> bool:
    """Whether a request's words would reach a model: a model plans, or reads facts beside the rules."""
    reader = getattr(services.memories.reader, "name", "")
    return services.planner.name.startswith("llm:") or (isinstance(reader, str) and reader.startswith("llm:"))


def _ms_since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def record_understanding(job: Job, understood: Understanding) -> None:
    """Put stages 1 and 2 on the job; a request that is unclear, or that an existing tool answers, ends here."""
    job.stage("classify").status, job.stage("classify").ms = "succeeded", understood.classify_ms
    if understood.intent.archetype is None:
        asked = ask(job.prompt, understood.intent)
        if asked.refused:  # an action in the world: it ends here, with its reason (and a tool, if the rules read one)
            job.status, job.refused, job.reason = "refused", asked.refused, asked.question
            job.proposal, job.candidates = asked.proposal, asked.candidates
        else:
            job.status, job.question = "needs_clarification", asked.question
            job.proposal, job.candidates = asked.proposal, asked.candidates
        for stage in job.stages[1:]:
            stage.status = "skipped"
        return
    job.stage("recall").status, job.stage("recall").ms = "succeeded", understood.recall_ms
    if understood.live is not None:
        record = understood.live
        job.tool_id, job.tool_url, job.ui_path, job.reused = record.tool_id, record.tool_url, record.ui_path, True
        job.planner = asdict(PlanInfo(planner="cache"))
        for name in ("plan", "specify", "deploy", "render", "probe"):
            stage = job.stage(name)
            stage.status, stage.ms, stage.detail = "skipped", 0.0, "reused"
        job.status = "succeeded"


def process(message: JobMessage, services: Services, *, deadline: float | None = None) -> Job:
    """Run a queued job to its end; the job as it ended. Raises only when the job itself cannot be saved.

    ``deadline`` (time.monotonic()): when the worker must have finished (its Lambda timeout); the job keeps
    within it, going back to the queue rather than being cut off mid-deploy."""
    job = services.jobs.get(message.user, message.job_id)
    if job.status in TERMINAL:  # a redelivered message: the job already ended
        return job
    job.status = "running"
    services.jobs.save(job)
    made = _Made()
    try:
        with services.jobs.heartbeat(job):  # a job whose beats stop has lost its worker (toolgen/jobs.py)
            _run(job, services, made, None if deadline is None else deadline - SAVE_S)
        job.waiting = None
    except Exception as e:  # every failure ends the job with its reason and removes what was made
        reason = e.message if isinstance(e, ToolgenError) else f"internal error: {type(e).__name__}"
        if not isinstance(e, ToolgenError):
            logger.exception("job %s failed unexpectedly", job.job_id)
        with services.jobs.heartbeat(job):  # a rollback takes time too: its worker is not dead meanwhile
            _undo(made, services)
        if isinstance(e, AWSError) and e.aws_code in OUT_OF_CAPACITY and job.waits < MAX_WAITS:
            return _wait_for_capacity(job, message, services, e)
        job.status, job.error = "failed", reason
        if isinstance(e, AWSError) and e.aws_code in OUT_OF_CAPACITY:
            job.error = (
                f"Lambda 连续 {job.waits} 次没有容量做这个工具（几个小时）：{reason}"
                if is_chinese(job.prompt)
                else f"Lambda had no capacity for this tool after {job.waits} tries over hours: {reason}"
            )
        for stage in job.stages:
            if stage.status in ("pending", "running"):
                stage.status = "skipped" if stage.status == "pending" else "failed"
    services.jobs.save(job)
    if job.kind == "revise" and job.tool_id:  # ended either way: the next revision of the tool may start
        RevisionStore(services.table).release(job.user, job.tool_id, job.job_id)
    return job


def _wait_for_capacity(job: Job, message: JobMessage, services: Services, error: AWSError) -> Job:
    """Back to the queue, to run again after a delay that doubles each time (15 s, 30 s, ... 15 min)."""
    delay = min(MAX_DELAY_S, 15 * 2**job.waits)
    job.waits += 1
    job.status, job.tool_url, job.ui_path = "queued", None, None
    job.waiting = _waiting(error.aws_code, delay, "zh" if is_chinese(job.prompt) else "en")
    for stage in job.stages:
        stage.status, stage.ms, stage.detail = "pending", None, None
    services.jobs.save(job)
    queue = services.settings.jobs_queue_url
    if not queue:  # nowhere to send it: SQS delivers the message again after its visibility timeout
        raise error
    services.sqs.send_message(QueueUrl=queue, MessageBody=message.model_dump_json(), DelaySeconds=delay)
    logger.warning("job %s runs again in %d s (%s)", job.job_id, delay, error.aws_code)
    return job


def _waiting(code: str, delay: int, lang: str) -> str:
    """Why a job waits, in the request's language."""
    if code == OUT_OF_TIME:
        if lang == "zh":
            return f"等待重新运行：上一次运行的时间不够；{delay} 秒后再试"
        return f"waiting to run again: the worker ran out of time; next try in {delay} s"
    if lang == "zh":
        return f"正在等待 Lambda 的容量（{code}）；{delay} 秒后再试"
    return f"waiting for Lambda capacity ({code}); next try in {delay} s"


def _require_time(deadline: float | None, needs_s: float, what: str) -> None:
    """AWSError OUT_OF_TIME when less than ``needs_s`` is left before ``deadline`` for ``what``."""
    if deadline is not None and deadline - time.monotonic() < needs_s:
        raise AWSError(f"not enough of the worker's time left to {what}", aws_code=OUT_OF_TIME)


def _run(job: Job, services: Services, made: _Made, deadline: float | None = None) -> None:
    if job.kind == "revise":  # the next version of an existing tool: its own stages' work, on its own function
        from toolgen import revising  # it uses this module's stage bookkeeping

        revising.run(job, services, deadline)
        return
    s, jobs = services.settings, services.jobs
    understood = understand(services, job.user, job.prompt, job.job_id, learn=job.learned is None, choice=job.choice)
    if job.learned is None:
        job.learned = understood.learned
    record_understanding(job, understood)
    if job.reused and understood.live is not None:
        credit_follow_up(services, job.user, understood.live)
    if job.status != "running":  # unclear, or answered by the person's existing tool
        return
    intent, recalled, cached = understood.intent, understood.recalled, understood.cached
    with _stage(job, "plan", jobs):
        if cached is not None:  # the same plan as before, but its tool is gone: plan again for free
            program = cached.program.model_copy(
                update={"provenance": cached.program.provenance.model_copy(update={"request": job.prompt})}
            )
            job.planner = asdict(PlanInfo(planner="cache"))
        else:
            plan = services.planner.plan(
                job.prompt,
                intent,
                recalled,
                understood.context,
                draft=understood.draft,
                time_zone=job.time_zone,
                unclear=understood.unclear is not None,
                deadline=None if deadline is None else deadline - DEPLOY_NEEDS_S,
            )
            program, job.planner, job.composition = plan.program, asdict(plan.info), plan.composition
            if plan.declined is not None:  # the model read it as no tool's: refused, never planned offline instead
                job.status, job.refused, job.reason = "refused", plan.declined.category, plan.declined.reason
                job.composition = None
            elif understood.unclear is not None and plan.info.fallback:  # the model could not read it either
                asked = ask(job.prompt, understood.unclear)
                job.status, job.question = "needs_clarification", asked.question
                job.proposal, job.candidates = asked.proposal, asked.candidates
        job.tool_id = job.tool_id or ids.tool_id_for(job.job_id, s.secret)  # a rerun of the job: the same function
    if job.status in ("needs_clarification", "refused"):
        job.tool_id = None
        for stage in job.stages[job.stages.index(job.stage("plan")) + 1 :]:
            stage.status = "skipped"
        return
    tool_id, function_name = job.tool_id, s.tool_function_prefix + job.tool_id
    with _stage(job, "specify", jobs):
        expected_url = f"{s.tool_url_base}/{tool_id}" if s.tool_url_base else "https://tool.invalid"
        spec = build_spec(program, expected_url)
        validate_spec(spec)
    with _stage(job, "deploy", jobs):
        _require_time(deadline, DEPLOY_NEEDS_S, "deploy the tool")
        account = choose(tool_id, s.tool_accounts, s.platform_account_id)
        made.function_name, made.account = function_name, account
        home = services.tool_home(account, function_name)
        deployed = services.deployer_for(account).deploy(
            _function_spec(s, program, function_name, tool_id, job.user, home, account),
            deadline=None if deadline is None else deadline - PROBE_NEEDS_S,
        )
        if program.seed:  # marked before the first row: a failure at any row takes back every one stored
            made.seeded = (home, job.user)
            _seed(services, program, home, job.user)
        job.tool_url = f"{s.tool_url_base}/{tool_id}" if s.tool_url_base else deployed.url.rstrip("/")
        job.stage("deploy").detail = (
            f"{deployed.concurrency} calls at once, reserved"
            if deployed.enforced_by == "reserved_concurrency"
            else f"{deployed.concurrency} calls at once, kept with leases (no room to reserve in the account)"
        )
        spec["servers"] = [{"url": job.tool_url}]
    with _stage(job, "render", jobs):
        made.page_tool_id = tool_id
        services.pages.put(tool_id, render_page(program, job.tool_url))
        job.ui_path = f"/p/{tool_id}"
    with _stage(job, "probe", jobs):
        _require_time(deadline, PROBE_NEEDS_S, "probe the tool")
        token = auth.mint(job.user, s.secret, ttl_s=120)
        job.warnings = probe(services.invoker_for(account), program, function_name, token)
        if job.warnings:  # the page says it too, at its top, where the person opens the tool
            notice = " ".join(w.message for w in job.warnings)
            services.pages.put(tool_id, render_page(program, job.tool_url, notice=notice))
    services.tools.put(
        ToolRecord(
            tool_id=tool_id,
            user=job.user,
            title=program.title,
            archetype=program.archetype,
            prompt=job.prompt,
            function_name=function_name,
            tool_url=job.tool_url,
            ui_path=job.ui_path,
            job_id=job.job_id,
            program=program.model_dump(mode="json"),
            openapi=spec,
            memories=_used(recalled, program),
            plan_key=understood.key,
            limit=ToolLimit(concurrency=deployed.concurrency, enforced_by=deployed.enforced_by),
            account=account.account_id,
            home=home,
        )
    )
    shaped = tuple(m.memory_id for m in _used(recalled, program))
    services.plans.put(
        job.user,
        understood.key,
        program,
        LiveTool(tool_id, job.tool_url, job.ui_path, function_name, shaped, account.account_id),
    )
    services.memories.mark_used(job.user, program.provenance.memories, tool_id)
    rewards.register_tool(services.table, job.user, tool_id, home, program.provenance.memories)
    job.status = "succeeded"


def credit_follow_up(services: Services, user: str, tool: LiveTool) -> None:
    """A repeat request answered by an existing tool: a turn for each memory that shaped it."""
    if tool.memory_ids:
        services.memories.credit(
            user, list(tool.memory_ids), {"turns": 1}, reason=f"follow-up request for {tool.tool_id}"
        )


def _live_tool(services: Services, user: str, cached: CachedPlan) -> LiveTool | None:
    """The plan's tool, if its function still exists (deleting a tool forgets its plan first, its record last,
    so a remembered plan means a record). A plan from before plans held their tool reads the record."""
    tool = cached.tool
    if tool is None:
        try:
            record = services.tools.get(user, cached.tool_id)
        except NotFoundError:
            return None
        memory_ids = tuple(m.memory_id for m in record.memories)
        tool = LiveTool(
            record.tool_id, record.tool_url, record.ui_path, record.function_name, memory_ids, record.account
        )
    return tool if services.deployer_for(Account(tool.account)).exists(tool.function_name) else None


def _used(recalled: list[RecalledMemory], program: ToolProgram) -> list[RecalledMemory]:
    shaped = set(program.provenance.memories)
    return [m for m in recalled if m.memory_id in shaped]


FUNCTION_NAME_MAX = 64  # Lambda's limit on a function's name


def _function_spec(
    s: Settings, program: ToolProgram, name: str, tool_id: str, user: str, home: str, account: Account = OWN
) -> FunctionSpec:
    if len(name) > FUNCTION_NAME_MAX:
        longest = FUNCTION_NAME_MAX - (len(name) - len(s.tool_function_prefix)) - len("-tool-")
        raise StageError(
            "deploy",
            f"tool function names would be {len(name)} characters ({s.tool_function_prefix}<tool id>), and Lambda "
            f"allows {FUNCTION_NAME_MAX}: deploy the platform under a stack name of at most {longest} characters",
        )
    # A tool in another account reaches the platform's table by its ARN, granted by the table's resource policy.
    env = {"TABLE_NAME": s.table_name if account.own else s.table_arn, "TOOL_ID": tool_id, "TOOL_OWNER": user}
    env[HOME_ENV] = home  # the only partitions its credentials reach (toolgen/table.py)
    # Only the public half of the token key: the tool checks its owner's tokens and can make none (toolgen/auth.py).
    env["TOOLGEN_TOKEN_KEY"] = auth.public_key(s.secret)
    env.update({k: os.environ[k] for k in PASSTHROUGH_ENV if os.environ.get(k)})
    concurrency = min(s.tool_concurrency, program.limits.concurrency)
    return FunctionSpec(
        function_name=name,
        role_arn=s.tool_role_arn if account.own else account.role_arn(TOOL_ROLE),
        layer_arn="" if s.inline_runtime else s.base_layer_arn,
        package=tool_package(program, inline_runtime=s.inline_runtime),
        timeout_s=min(s.tool_timeout_s, program.limits.timeout_s),
        concurrency=concurrency,
        memory_mb=s.tool_memory_mb,
        environment=env,
        tags={"toolgen:user": user, "toolgen:tool": tool_id, "toolgen:archetype": program.archetype},
        cors_origins=s.tool_cors_origins,
        snapstart=s.tool_snapstart,
        provisioned=min(s.tool_provisioned, concurrency),
        description=f"toolgen tool {tool_id}: {program.title}"[:256],
        log_group=s.tool_log_group,
    )


def _seed(services: Services, program: ToolProgram, home: str, user: str) -> None:
    """The program's starting rows (the chores, kids or rooms the request named), stored for the person once (a job
    run again finds them there already), each as the entity's create stores a row: defaults, then derived fields."""
    rows = RowStore(services.table, home, user, program)
    if rows.summary().get("rows"):
        return
    today = dt.datetime.now(dt.UTC).date()
    creates = {op.entity: op for op in program.operations if isinstance(op, CreateOp)}
    for entity, entity_rows in program.seed.items():
        for row in entity_rows:
            if entity in creates:
                operations.create(program, creates[entity], rows, row, today)
            else:
                rows.create(entity, check_object(row, program.entities[entity].fields, today=today))


def _undo(made: _Made, services: Services) -> None:
    try:
        if made.seeded:
            services.table.delete_prefix(rows_pk(*made.seeded))
        if made.function_name:
            services.deployer_for(made.account).delete(made.function_name)
        if made.page_tool_id:
            services.pages.delete(made.page_tool_id)
    except ToolgenError:
        logger.exception("could not remove what a failed job made: %s", made)
