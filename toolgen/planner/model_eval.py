"""`toolgen eval --model-path`: a capable model's recorded answers replayed through the real pipeline.

For each request of a blind set (tests/data/breadth/<part>.jsonl) the answers a model standing in for the planner
gave (tests/data/model/<part>.jsonl, made with toolgen/planner/standin.py) are what the configured model answers:
the job runs as any job does (classify, recall, plan, specify, deploy, render, probe), with the memory fact reader
on a model too, and each operation of the tool it deploys is then called once, as a person would. A request ends:
- fits: a deployed tool whose every operation answered and whose names cover every need the request states, or,
  for an action, a refusal;
- wrong: a tool that misses a need, a refused tool request, or a tool for an action;
- failed: no tool (the job failed, or asked back), or an operation that did not answer.
And it counts what the model did: answered well at the first try, was sent back, fell back to the offline plan,
declined; and, for each action, whether any of its text reached a model (the planner's or the fact reader's).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolgen import auth
from toolgen.deploy.invoke import probe_event
from toolgen.deploy.plan import live
from toolgen.ids import sortable_id
from toolgen.llm import Completion, ModelError, Prompt
from toolgen.memory.llm import LLMReader
from toolgen.models import Job, JobMessage
from toolgen.planner.breadth import load, unmet, vocabulary
from toolgen.planner.llm import LLMPlanner
from toolgen.planner.trial import sample
from toolgen.probe import upstream_passing
from toolgen.program import ToolProgram
from toolgen.services import Services

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "data" / "model"


class Recorded:
    """The Model interface over answers given once: each call gets the next one, and what it was asked is kept."""

    def __init__(self, answers: list[str], name: str = "standin") -> None:
        self.answers, self._name = list(answers), name
        self.prompts: list[Prompt] = []

    @property
    def name(self) -> str:
        return f"recorded:{self._name}"

    @property
    def model(self) -> str:
        return self._name

    def complete(self, prompt: Prompt, *, schema: dict[str, Any], schema_name: str, strict: bool = False) -> Completion:
        self.prompts.append(prompt)
        if len(self.prompts) > len(self.answers):
            raise ModelError("the recorded model has no answer left")
        return Completion(content=self.answers[len(self.prompts) - 1], mode="json_schema")


@dataclass
class Outcome:
    id: str
    text: str
    expect: str
    result: str = "failed"  # fits, wrong, failed
    why: str = ""
    status: str = ""
    attempts: int = 0
    first_try: bool = False
    fallback: bool = False
    declined: bool = False
    refused_by: str | None = None  # rules, model
    reached_model: bool = False
    missing: list[list[str]] = field(default_factory=list)


def fixtures(part: str, directory: Path = FIXTURES) -> dict[str, list[str]]:
    """The recorded answers of a part, by request id."""
    lines = (directory / f"{part}.jsonl").read_text().splitlines()
    return {row["id"]: row["answers"] for row in map(json.loads, filter(None, lines))}


def _calls(program: ToolProgram, today: dt.date) -> list[tuple[Any, str, dict[str, str], Any]]:
    """One call of each operation, as a person makes them: (op, method, query, body); '{id}' is the row added."""
    calls: list[tuple[Any, str, dict[str, str], Any]] = []
    for op in program.operations:
        if op.kind == "create":
            fields = program.entities[op.entity].fields
            body = {
                n: sample(s, today, i) for i, (n, s) in enumerate(fields.items()) if s.required or s.default is None
            }
            calls.append((op, "POST", {}, {k: v for k, v in body.items() if k not in op.derive or fields[k].required}))
        elif op.kind in ("list", "aggregate", "get"):
            calls.append((op, "GET", {}, None))
        elif op.kind == "update":
            fields = program.entities[op.entity].fields
            name, spec = next(iter(fields.items()))
            calls.append((op, "PATCH", {}, {name: sample(spec, today)}))
        elif op.kind in ("compute", "fetch"):
            given = {n: sample(s, today, i) for i, (n, s) in enumerate(op.inputs.items())}
            if op.method == "GET":
                query = {k: ("true" if v is True else "false" if v is False else str(v)) for k, v in given.items()}
                calls.append((op, "GET", query, None))
            else:
                calls.append((op, "POST", {}, given))
    deletes: list[tuple[Any, str, dict[str, str], Any]] = [
        (op, "DELETE", {}, None) for op in program.operations if op.kind == "delete"
    ]
    return calls + deletes


def exercise(services: Services, program: ToolProgram, function_name: str, user: str, account: Any) -> list[str]:
    """Call each operation of the deployed tool once; what did not answer (empty when everything did)."""
    token = auth.mint(user, services.settings.secret, ttl_s=300)
    invoker = services.invoker_for(account)
    made: dict[str, str] = {}
    problems = []
    for op, method, query, body in _calls(program, dt.datetime.now(dt.UTC).date()):
        path = op.path
        if "{id}" in path:
            if op.entity not in made:
                continue  # nothing of that entity was added (its create failed, said already)
            path = path.replace("{id}", made[op.entity])
        event = probe_event(method, path, token=token, query=query, body=body)
        result = invoker.invoke(live(function_name), event)
        status = int(result.get("statusCode", 200))
        answer = json.loads(result.get("body") or "null") if result.get("body") else None
        if op.kind == "create" and status == 201 and isinstance(answer, dict):
            made[op.entity] = answer["id"]
        elif op.kind == "fetch" and status == 502 and isinstance(answer, dict) and upstream_passing(answer):
            continue  # its source not answering is the probe's to say (a warning); misreading it is the tool's fault
        if not 200 <= status < 300:
            problems.append(f"{method} {op.path} answered {status}: {str(result.get('body'))[:160]}")
    return problems


def replay_one(services: Services, row: dict[str, Any], answers: list[str], user: str) -> Outcome:
    """One request of the blind set through the pipeline, with ``answers`` as the model's; how it ended."""
    from toolgen.pipeline import process

    planner, facts = Recorded(answers), Recorded([json.dumps({"facts": []})] * 3)
    svc = dataclasses.replace(services, planner=LLMPlanner(model=planner))
    reader = svc.memories.reader
    svc.memories.reader = LLMReader(model=facts)
    try:
        job = svc.jobs.create(Job(job_id=sortable_id("j"), user=user, prompt=row["text"]))
        job = process(JobMessage(job_id=job.job_id, user=user, prompt=row["text"]), svc)
    finally:
        svc.memories.reader = reader
    outcome = Outcome(id=row["id"], text=row["text"], expect=row["expect"], status=job.status)
    info = job.planner or {}
    outcome.attempts = int(info.get("attempts") or 0)
    outcome.fallback = bool(info.get("fallback"))
    outcome.declined = job.status == "refused" and bool(planner.prompts)
    outcome.first_try = outcome.attempts == 1 and not outcome.fallback
    outcome.reached_model = bool(planner.prompts or facts.prompts)
    if job.status == "refused":
        outcome.refused_by = "model" if planner.prompts else "rules"
    if row["expect"] == "refuse":
        outcome.result = "fits" if job.status == "refused" else "wrong"
        outcome.why = "" if job.status == "refused" else f"got {job.status}"
        return outcome
    if job.status != "succeeded":
        outcome.result = "wrong" if job.status == "refused" else "failed"
        outcome.why = f"{job.status}: {job.error or job.reason or job.question or ''}"[:300]
        return outcome
    record = services.tools.get(user, job.tool_id or "")
    program = ToolProgram.model_validate(record.program)
    from toolgen.accounts import Account

    problems = exercise(services, program, record.function_name, user, Account(record.account))
    outcome.missing = unmet(row["needs"], vocabulary(program))
    if problems:
        outcome.result, outcome.why = "failed", "; ".join(problems)[:300]
    elif outcome.missing:
        outcome.result, outcome.why = "wrong", "missing " + "; ".join("/".join(g) for g in outcome.missing)
    else:
        outcome.result = "fits"
    return outcome


def replay(services: Services, part: str, *, only: set[str] | None = None) -> list[Outcome]:
    """Every request of ``part`` that has recorded answers (or those in ``only``), each as a person of its own."""
    recorded = fixtures(part)
    rows = [r for r in load(part) if r["id"] in recorded and (only is None or r["id"] in only)]
    return [replay_one(services, row, recorded[row["id"]], f"m{sortable_id('u')[-10:]}{row['id']}") for row in rows]


def summary(outcomes: list[Outcome]) -> dict[str, Any]:
    """The figures of a replay: fit, first-try validity, fallbacks, declines, and actions that reached a model."""
    tools = [o for o in outcomes if o.expect == "tool"]
    actions = [o for o in outcomes if o.expect == "refuse"]
    asked = [o for o in outcomes if o.attempts]
    return {
        "requests": len(outcomes),
        "fits": sum(o.result == "fits" for o in outcomes),
        "results": dict(Counter(o.result for o in outcomes)),
        "tools": {"total": len(tools), "fits": sum(o.result == "fits" for o in tools)},
        "actions": {
            "total": len(actions),
            "refused": sum(o.result == "fits" for o in actions),
            "by_rules": sum(o.refused_by == "rules" for o in actions),
            "by_model": sum(o.refused_by == "model" for o in actions),
            "reached_a_model": sum(o.reached_model for o in actions),
        },
        "model": {
            "asked": len(asked),
            "first_try": sum(o.first_try for o in asked),
            "sent_back": sum(o.attempts == 2 for o in asked),
            "fallbacks": sum(o.fallback for o in asked),
            "declines": sum(o.declined for o in asked),
            "declined_tool_requests": sum(o.declined and o.expect == "tool" for o in asked),
        },
        "misses": [dataclasses.asdict(o) for o in outcomes if o.result != "fits"],
    }


def render(part: str, figures: dict[str, Any], *, show_misses: bool = False) -> str:
    pct = 100 * figures["fits"] / figures["requests"] if figures["requests"] else 0.0
    tools, actions, model = figures["tools"], figures["actions"], figures["model"]
    lines = [
        f"model path, recorded answers: {part}",
        f"  every request            {figures['requests']:>4}   fits {figures['fits']:>4} ({pct:.1f}%)   "
        f"{figures['results']}",
        f"  tool requests            {tools['total']:>4}   fits {tools['fits']:>4}",
        f"  actions                  {actions['total']:>4}   refused {actions['refused']} (by the rules "
        f"{actions['by_rules']}, by the model {actions['by_model']}); their text reached a model: "
        f"{actions['reached_a_model']}",
        f"  model asked              {model['asked']:>4}   valid at the first try {model['first_try']}, sent back "
        f"{model['sent_back']}, fell back {model['fallbacks']}, declined {model['declines']} "
        f"(tool requests among them: {model['declined_tool_requests']})",
    ]
    if show_misses:
        lines += ["", "misses:"] + [
            f"  {m['id']} {m['result']:<6} {m['text'][:60]}  {m['why'][:140]}" for m in figures["misses"]
        ]
    return "\n".join(lines)


def run_embedded(part: str) -> dict[str, Any]:
    """The replay on an embedded platform made for it in this process (moto's server, the platform's resources, the
    local Lambda runtime, the public APIs' loopback stand-in), taken down afterwards: what `toolgen eval
    --model-path` prints."""
    import os
    import tempfile

    from toolgen import aws
    from toolgen.config import Settings
    from toolgen.local.emulator import Emulator, MotoFunctionSource
    from toolgen.local.lambda_runtime import LocalLambdaRuntime, RuntimeInvoker
    from toolgen.local.platform import provision
    from toolgen.local.upstream import Upstream
    from toolgen.runtime.fetch import PUBLIC_APIS

    secret = "model-path-evaluation"  # noqa: S105 - signs the tokens of this throwaway platform only
    emulator, upstream = Emulator(account_concurrency=100_000), Upstream()
    emulator.start()
    saved = dict(os.environ)
    try:
        resources = provision(emulator, public_url="http://127.0.0.1:9", secret=secret, extra_env={})
        os.environ.update(emulator.environment())
        os.environ.update(
            TABLE_NAME=resources.table,
            BUCKET_NAME=resources.bucket,
            JOBS_QUEUE_URL=resources.queue_url,
            TOOL_ROLE_ARN=resources.tool_role_arn,
            BASE_LAYER_ARN=resources.layer_arn,
            TOOLGEN_SECRET=secret,
            TOOLGEN_FETCH_OVERRIDES=json.dumps(dict.fromkeys(PUBLIC_APIS, upstream.url)),
        )
        aws.reset_clients()
        with tempfile.TemporaryDirectory() as work:
            env = {"PATH": os.environ["PATH"], **emulator.environment(), "POWERTOOLS_LOG_LEVEL": "WARNING"}
            runtime = LocalLambdaRuntime(MotoFunctionSource(), Path(work), env)
            try:
                services = Services.from_settings(
                    Settings.from_env("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret"),
                    invoker=RuntimeInvoker(runtime),
                )
                return summary(replay(services, part))
            finally:
                runtime.shutdown()
    finally:
        os.environ.clear()
        os.environ.update(saved)
        aws.reset_clients()
        upstream.stop()
        emulator.stop()
