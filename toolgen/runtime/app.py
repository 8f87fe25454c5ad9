"""ToolApp: serves one ToolProgram behind a Lambda function URL (payload format 2.0).

A deployed tool talks to DynamoDB and Secrets Manager through toolgen/awslite.py, not boto3, so that its cold
start stays short (bench/coldstart.py).

Each call: the bearer token names the caller (only the tool's owner may use it), the route picks the operation,
the inputs are checked against the program's types, and the operation runs against the caller's rows.
Errors become JSON bodies ``{"code", "message", "details"}`` with the status their type carries.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import logging
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from toolgen import auth, awslite
from toolgen.errors import AuthError, ConfigError, ConflictError, ToolgenError
from toolgen.runtime import operations, view
from toolgen.runtime.errors import BadRequest, Forbidden, Invalid, MethodNotAllowed, RouteNotFound, ToolCallError
from toolgen.runtime.fetch import run_fetch
from toolgen.runtime.lease import HOLD_ENV, LIMIT_ENV, RETRY_AFTER_S, Busy, Leases
from toolgen.runtime.messages import Message, say
from toolgen.runtime.rows import RowStore
from toolgen.table import HOME_ENV, DynamoTable, ItemTable, legacy_home, usage_sk

if TYPE_CHECKING:  # a deployed tool reads its program as views (toolgen/runtime/view.py), without pydantic
    from toolgen.program import ToolProgram

logger = logging.getLogger(__name__)
MAX_BODY = 64 * 1024
# Digits past any number a tool accepts (values.py: 1e15): a longer integer is read as this, with its sign, and
# refused as out of range by its field's check, naming the field. Python itself will not read one past 4,300
# digits, and takes quadratic time below that.
MAX_DIGITS = 40
HEADERS = {"content-type": "application/json", "cache-control": "no-store", "x-content-type-options": "nosniff"}
PAGE_FILE = "page.json"  # beside program.json in an exported tool (toolgen/deploy/export.py)


def response(status: int, body: Any = None) -> dict[str, Any]:
    """A function URL response with a JSON body (none for 204)."""
    return {"statusCode": status, "headers": dict(HEADERS), "body": "" if body is None else json.dumps(body)}


class ToolApp:
    """One tool: its program, its owner, where its rows live and how tokens are checked."""

    def __init__(
        self,
        program: ToolProgram,
        *,
        tool_id: str,
        owner: str,
        table: ItemTable,
        secret: str | Callable[[], str],
        clock: Callable[[], dt.date] | None = None,
        page: dict[str, str] | None = None,
        leases: Leases | None = None,
        home: str = "",
    ) -> None:
        self.program = program
        self.home = home or legacy_home(tool_id)  # its partition: leases, counters, and <home>#<user> rows
        self.leases = leases  # the limit of calls at once, when Lambda does not reserve it (lease.py)
        self.page = page  # {"html", "csp"}: an exported tool serves its own page at GET / to browsers
        self.clock = clock or (lambda: dt.datetime.now(dt.UTC).date())
        self.tool_id = tool_id
        self.owner = owner
        self.table = table
        self._secret = secret
        # A path of its own words before one that takes an id: GET /bills/total is the total, not the row "total"
        # (as OpenAPI has it: a concrete path matches before a templated one).
        ordered = sorted(program.operations, key=lambda op: "{id}" in op.path)
        # \Z, not $: Python's $ also matches before a final newline, so "/runs/\n" was the list's path (and, once
        # a method the list does not take answered 405, an undocumented 405 where the row's route says 404)
        self._routes = [
            (op.method, re.compile("^" + op.path.replace("{id}", "(?P<id>[^/]+)") + "/?\\Z"), op) for op in ordered
        ]

    @classmethod
    def from_environment(cls, program_path: str | Path) -> ToolApp:
        """The ToolApp of a deployed tool: program file beside the handler, identity and table from its env."""
        missing = [n for n in ("TABLE_NAME", "TOOL_ID", "TOOL_OWNER") if not os.environ.get(n)]
        if missing:
            raise ConfigError("missing required environment: " + ", ".join(missing))
        program = view.load(program_path)
        page_path = Path(program_path).with_name(PAGE_FILE)
        client = awslite.client("dynamodb")
        home = os.environ.get(HOME_ENV) or legacy_home(os.environ["TOOL_ID"])
        leases = None
        if os.environ.get(LIMIT_ENV):
            leases = Leases(
                client,
                os.environ["TABLE_NAME"],
                home,
                limit=int(os.environ[LIMIT_ENV]),
                hold_s=float(os.environ.get(HOLD_ENV) or 12),
            )
        return cls(
            program,
            tool_id=os.environ["TOOL_ID"],
            owner=os.environ["TOOL_OWNER"],
            home=home,
            table=DynamoTable(os.environ["TABLE_NAME"], client=client),
            secret=auth.secret_from_environment(),
            page=json.loads(page_path.read_text()) if page_path.exists() else None,
            leases=leases,
        )

    def secret(self) -> str:
        return self._secret() if callable(self._secret) else self._secret

    def handle(self, event: dict[str, Any]) -> dict[str, Any]:
        """Serve one function URL event; a failed call's message is in the tool's language."""
        lang = self.program.ui.lang
        try:
            return self._handle(event)
        except MethodNotAllowed as e:
            refused = response(e.status, {"code": e.code, "message": e.text(lang), "details": e.details_value})
            refused["headers"]["allow"] = str(e.said.params["allowed"]) if e.said else ""
            return refused
        except ToolCallError as e:
            return response(e.status, {"code": e.code, "message": e.text(lang), "details": e.details_value})
        except AuthError as e:
            message = say("unauthorized", lang) if lang == "zh" else e.message
            return response(401, {"code": "unauthorized", "message": message, "details": None})
        except ConflictError as e:
            message = say("conflict", lang) if lang == "zh" else e.message
            return response(409, {"code": "conflict", "message": message, "details": None})
        except Busy as e:
            busy = response(429, {"code": "busy", "message": say("busy", lang, limit=e.limit), "details": None})
            busy["headers"]["retry-after"] = str(RETRY_AFTER_S)
            return busy

    def _handle(self, event: dict[str, Any]) -> dict[str, Any]:
        http = event.get("requestContext", {}).get("http", {})
        method, path = http.get("method", "GET").upper(), event.get("rawPath") or "/"
        if self.page and method == "GET" and path == "/" and _wants_html(event):
            return self._page()  # before the token: the page is how a person gives it
        user = auth.verify(auth.bearer(event.get("headers")), self.secret())
        if user != self.owner:
            raise Forbidden(Message("not_owner"))
        if method == "GET" and path.rstrip("/") == "":
            return response(200, self.describe())
        if self.leases is None:
            return self._route(event, user, method, path)
        lease = self.leases.acquire()
        try:
            return self._route(event, user, method, path)
        finally:
            self.leases.release(lease)

    def _route(self, event: dict[str, Any], user: str, method: str, path: str) -> dict[str, Any]:
        for op_method, pattern, op in self._routes:
            match = pattern.match(path)
            if match and op_method == method:
                query = _query(event)
                unknown = sorted(set(query) - accepted_query(op))
                if unknown:
                    details = {name: "unknown parameter" for name in unknown}
                    raise Invalid(Message("unknown_query"), details=details)
                result = self.run(op, user, match.groupdict().get("id"), query, _body(event, method))
                if "x-toolgen-probe" not in (event.get("headers") or {}):  # the platform's probe is not a use
                    self._count_use(user)
                return result
        allowed = sorted({op_method for op_method, pattern, _ in self._routes if pattern.match(path)})
        if allowed:  # the path is the tool's, the method is not (a PUT where the tool updates with PATCH)
            raise MethodNotAllowed(Message("no_method", method=method, path=path, allowed=", ".join(allowed)))
        raise RouteNotFound(Message("no_route", method=method, path=path))

    def _page(self) -> dict[str, Any]:
        assert self.page is not None
        headers = {
            "content-type": "text/html; charset=utf-8",
            "content-security-policy": self.page["csp"],
            "cache-control": "no-cache",
            "x-content-type-options": "nosniff",
            "referrer-policy": "no-referrer",
        }
        return {"statusCode": 200, "headers": headers, "body": self.page["html"]}

    def _count_use(self, user: str) -> None:
        """One successful call, for the reward of the memories that shaped this tool (never fails the call)."""
        try:
            self.table.add(self.home, usage_sk(user), {"calls": 1})
        except ToolgenError:
            logger.warning("could not count a use of %s", self.tool_id, exc_info=True)

    def describe(self) -> dict[str, Any]:
        """What the tool offers: title, operations and defaults."""
        ops = [
            {"id": op.id, "kind": op.kind, "method": op.method, "path": op.path, "summary": op.summary}
            for op in self.program.operations
        ]
        return {
            "tool_id": self.tool_id,
            "title": self.program.title,
            "operations": ops,
            "defaults": self.program.defaults,
            "settings": {
                name: {"label": setting.label, "value": setting.value}
                for name, setting in (getattr(self.program, "settings", None) or {}).items()
            },
        }

    def run(self, op: Any, user: str, row_id: str | None, query: dict[str, str], body: Any) -> dict[str, Any]:
        """Run one operation for ``user``."""
        rows, today = RowStore(self.table, self.home, user, self.program), self.clock()
        kind = op.kind  # dispatch on the kind, so validated models and views (view.py) are served alike
        if kind == "create":
            return response(201, operations.create(self.program, op, rows, body, today))
        if kind == "list":
            return response(200, operations.list_rows(self.program, op, rows, query, today))
        if kind == "get":
            return response(200, rows.get(op.entity, row_id or ""))
        if kind == "update":
            return response(200, operations.update(self.program, op, rows, row_id or "", body))
        if kind == "delete":
            rows.delete(op.entity, row_id or "")
            return response(204)
        if kind == "aggregate":
            return response(200, operations.aggregate(self.program, op, rows, query, today))
        if kind == "compute":
            return response(200, operations.compute(self.program, op, query, body, today))
        if kind == "fetch":
            return response(200, run_fetch(self.program, op, query, today))
        raise RouteNotFound(Message("no_handler", op=op.id))


def accepted_query(op: Any) -> set[str]:
    """The query parameters an operation reads; any other is refused, as unknown body fields are."""
    inputs = getattr(op, "inputs", None) or {}  # a list's or figures' deployed before they had inputs: none
    if op.kind == "list":
        return {"limit", "next", *op.filters, *inputs}
    if op.kind == "aggregate":
        return {*op.filters, *inputs}
    if op.kind in ("compute", "fetch") and op.method == "GET":
        return set(op.inputs)
    return set()


def _wants_html(event: dict[str, Any]) -> bool:
    """A browser opening the page (it asks for HTML), not an API client describing the tool."""
    headers = {k.lower(): v for k, v in (event.get("headers") or {}).items()}
    return "text/html" in headers.get("accept", "")


def _query(event: dict[str, Any]) -> dict[str, str]:
    """The query parameters, each given once: a function URL joins a repeated one's values with commas, so
    ``?limit=1&limit=2`` would otherwise reach the tool as one value it never asked for."""
    names = [name for name, _ in parse_qsl(event.get("rawQueryString") or "", keep_blank_values=True)]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise Invalid(Message("repeated_query"), details=dict.fromkeys(repeated, "repeated parameter"))
    return dict(event.get("queryStringParameters") or {})


def _integer(text: str) -> int:
    """A JSON integer; one of more than MAX_DIGITS digits as 10 ** MAX_DIGITS (its sign kept), out of any range."""
    if len(text.lstrip("-")) <= MAX_DIGITS:
        return int(text)
    return -(10**MAX_DIGITS) if text.startswith("-") else 10**MAX_DIGITS


def _body(event: dict[str, Any], method: str) -> Any:
    if method in ("GET", "DELETE"):
        return None
    raw = event.get("body") or ""
    if event.get("isBase64Encoded"):
        try:
            raw = base64.b64decode(raw).decode()
        except (ValueError, UnicodeDecodeError) as e:
            raise BadRequest(Message("not_utf8")) from e
    if len(raw) > MAX_BODY:
        raise BadRequest(Message("too_big", limit=MAX_BODY))
    if not raw.strip():  # the document requires a body; {} is how to send one with every field defaulted
        raise BadRequest(Message("no_body"))
    try:
        return json.loads(raw, parse_int=_integer)
    except ValueError as e:
        raise BadRequest(Message("not_json")) from e
    except RecursionError as e:  # arrays in arrays thousands deep: the decoder's own stack guard, caught cleanly
        raise BadRequest(Message("too_deep")) from e


__all__ = ["ToolApp", "response"]
