"""The probe: the platform's own first calls to a tool it has just deployed, as a person's page would make them.

A job ends ``succeeded`` only when the probe's calls answer: each list and figure of the tool, and each
calculation or lookup that can be made with its defaults alone, sent as the page sends them (a '$today' default
as today's date, an integer as a whole number). A tool that reads a public API is probed through that read, not
through ``GET /`` (which answers without reaching it). When the API itself does not answer (no address, no answer
in time, a server error or a rate limit), the tool is still made (the API may answer in a minute, and nothing the
person asked for was wrong), but the job and the page say so. When the API answers and the tool cannot read
what it said (a select that finds nothing, figures it cannot compute, a query the API refuses), the tool is wrong,
and the job fails: it is never reported as working.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from toolgen.deploy.invoke import Invoker, probe_event
from toolgen.deploy.plan import live
from toolgen.errors import StageError
from toolgen.models import JobWarning
from toolgen.program import AggregateOp, ComputeOp, FetchOp, FieldSpec, ListOp, ToolProgram

UPSTREAM_UNREACHABLE = "upstream_unreachable"
# What an upstream's failure may be without the tool being wrong (toolgen/runtime/errors.py, UpstreamError).
PASSING = frozenset({"no_resolve", "no_answer", "too_slow"})
_SAID = {
    "en": "Made, but its data source did not answer when the tool was tried ({reason}). The tool is ready and "
    "shows results once the source answers.",
    "zh": "工具已经做好，但试用时数据来源没有响应（{reason}）。数据来源恢复后，工具即可显示结果。",
}


@dataclass(frozen=True)
class ProbeCall:
    """One call the probe makes: what a page would send."""

    method: str
    path: str
    query: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] | None = None
    complete: bool = False  # every input of a calculation was given: each of its figures must come out


def _value(spec: FieldSpec, today: dt.date) -> Any:
    """The field's default as a page sends it: '$today' and '$next:MM-DD' resolved, an integer whole."""
    from toolgen.runtime.values import _default  # the runtime's own reading of a default

    value = _default(spec, today)
    return int(value) if spec.type == "integer" and isinstance(value, float) else value


def _text(value: Any) -> str:
    """A value written in a query string, as a page writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else json.dumps(value)


def _callable(op: ComputeOp | FetchOp) -> bool:
    """Whether the operation can be called with its defaults alone (the probe invents no input)."""
    return all(spec.default is not None or not spec.required for spec in op.inputs.values())


def probe_calls(program: ToolProgram, today: dt.date | None = None) -> list[ProbeCall]:
    """The calls that prove a tool works without changing its data: every list and figure, every calculation or
    lookup its defaults can make; the tool's description when it has none of them."""
    day = today or dt.datetime.now(dt.UTC).date()
    calls = []
    for op in program.operations:
        if isinstance(op, ListOp | AggregateOp):
            calls.append(ProbeCall("GET", op.path))
        elif isinstance(op, ComputeOp | FetchOp) and _callable(op):
            given = {name: _value(spec, day) for name, spec in op.inputs.items() if spec.default is not None}
            complete = isinstance(op, ComputeOp) and len(given) == len(op.inputs)
            if op.method == "GET":
                calls.append(ProbeCall("GET", op.path, {k: _text(v) for k, v in given.items()}, complete=complete))
            else:
                calls.append(ProbeCall("POST", op.path, body=given, complete=complete))
    return calls or [ProbeCall("GET", "/")]


def _fetch_at(program: ToolProgram, path: str) -> FetchOp | None:
    return next((op for op in program.operations if isinstance(op, FetchOp) and op.path == path), None)


def upstream_warning(program: ToolProgram, path: str, body: dict[str, Any]) -> JobWarning:
    """The warning for a fetch at ``path`` whose upstream did not answer; ``body`` is the tool's own error answer,
    already in the request's language (the tool's)."""
    op = _fetch_at(program, path)
    host = urlsplit(op.url).hostname if op is not None else None
    lang = program.ui.lang if program.ui.lang in _SAID else "en"
    given = body.get("details")
    details = given if isinstance(given, dict) else {}
    return JobWarning(
        code=UPSTREAM_UNREACHABLE,
        message=_SAID[lang].format(reason=str(body.get("message") or body.get("code"))[:300]),
        details={"host": host, "path": path, "reason": details.get("reason") or body.get("code")},
    )


def upstream_passing(body: dict[str, Any]) -> bool:
    """Whether a tool's 502 says its upstream failed in a way that may pass (not that the tool misreads it)."""
    given = body.get("details")
    details = given if isinstance(given, dict) else {}
    reason, status = details.get("reason"), details.get("status")
    if reason == "upstream_status":
        return isinstance(status, int) and (status >= 500 or status == 429)
    return reason in PASSING


def probe(
    invoker: Invoker, program: ToolProgram, function_name: str, token: str, *, today: dt.date | None = None
) -> list[JobWarning]:
    """Make the probe's calls to the deployed tool; StageError at the first that does not answer as it should, a
    warning for each lookup whose public API did not answer."""
    warnings = []
    for call in probe_calls(program, today):
        event = probe_event(call.method, call.path, token=token, query=call.query, body=call.body)
        result: dict[str, Any] = invoker.invoke(live(function_name), event)
        status, body = int(result.get("statusCode", 200)), _body(result)
        said = f"{call.method} {call.path} answered {status}: {str(result.get('body', ''))[:200]}"
        if 200 <= status < 300:
            lacking = [name for name, value in body.items() if value is None] if call.complete else []
            if lacking:
                raise StageError("probe", f"{call.method} {call.path} could not compute {', '.join(lacking)}")
            continue
        if status == 502 and _fetch_at(program, call.path) is not None and upstream_passing(body):
            warnings.append(upstream_warning(program, call.path, body))
            continue
        raise StageError("probe", said)
    return warnings


def _body(result: dict[str, Any]) -> dict[str, Any]:
    try:
        body = json.loads(result.get("body") or "{}")
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}
