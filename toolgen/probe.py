"""The probe: the platform's own first call to a tool it has just deployed, as the tool's URL would make it.

A job ends ``succeeded`` only when the probe's call answers. A tool that reads a public API is probed through
that read, not through ``GET /`` (which answers without reaching it): when the API does not answer, the tool is
still made (the API may answer in a minute, and nothing the person asked for was wrong), but the job and the page
say so, rather than report a success that shows nothing.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from toolgen.deploy.invoke import Invoker, probe_event
from toolgen.deploy.plan import live
from toolgen.errors import StageError
from toolgen.models import JobWarning
from toolgen.program import AggregateOp, ComputeOp, FetchOp, ListOp, ToolProgram

UPSTREAM_UNREACHABLE = "upstream_unreachable"
_SAID = {
    "en": "Made, but its data source did not answer when the tool was tried ({reason}). The tool is ready and "
    "shows results once the source answers.",
    "zh": "工具已经做好，但试用时数据来源没有响应（{reason}）。数据来源恢复后，工具即可显示结果。",
}


def _callable(op: ComputeOp | FetchOp) -> bool:
    """Whether the operation can be called with its defaults alone (the probe invents no input)."""
    return op.method == "GET" and all(spec.default is not None or not spec.required for spec in op.inputs.values())


def probe_request(program: ToolProgram) -> tuple[str, str, dict[str, str]]:
    """(method, path, query) of the call that proves a tool works without changing its data: a list, else a
    computation or a fetch that needs no input but its defaults, else the tool's description."""
    for op in program.operations:
        if isinstance(op, ListOp | AggregateOp):
            return "GET", op.path, {}
    for op in program.operations:
        if isinstance(op, ComputeOp | FetchOp) and _callable(op):
            return "GET", op.path, {k: str(v.default) for k, v in op.inputs.items() if v.default is not None}
    return "GET", "/", {}


def _fetch_at(program: ToolProgram, path: str) -> FetchOp | None:
    return next((op for op in program.operations if isinstance(op, FetchOp) and op.path == path), None)


def upstream_warning(program: ToolProgram, path: str, body: dict[str, Any]) -> JobWarning:
    """The warning for a fetch at ``path`` whose upstream did not answer; ``body`` is the tool's own error answer,
    already in the request's language (the tool's)."""
    op = _fetch_at(program, path)
    host = urlsplit(op.url).hostname if op is not None else None
    lang = program.ui.lang if program.ui.lang in _SAID else "en"
    return JobWarning(
        code=UPSTREAM_UNREACHABLE,
        message=_SAID[lang].format(reason=str(body.get("message") or body.get("code"))[:300]),
        details={"host": host, "path": path, "reason": body.get("code")},
    )


def probe(invoker: Invoker, program: ToolProgram, function_name: str, token: str) -> list[JobWarning]:
    """Call the deployed tool once; StageError when it does not answer as it should, a warning when only the
    public API behind it did not."""
    method, path, query = probe_request(program)
    result: dict[str, Any] = invoker.invoke(live(function_name), probe_event(method, path, token=token, query=query))
    status = int(result.get("statusCode", 200))
    if 200 <= status < 300:
        return []
    body = _body(result)
    if status == 502 and body.get("code") == "upstream_error" and _fetch_at(program, path) is not None:
        return [upstream_warning(program, path, body)]
    raise StageError("probe", f"{method} {path} answered {status}: {str(result.get('body', ''))[:200]}")


def _body(result: dict[str, Any]) -> dict[str, Any]:
    try:
        body = json.loads(result.get("body") or "{}")
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}
