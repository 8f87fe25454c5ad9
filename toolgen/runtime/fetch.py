"""Fetch operations: an HTTPS GET to an allow-listed public host, then JMESPath, sort and limit.

Safety rules, all enforced here whatever the program says:
- HTTPS only, GET only, a cap on the response size, at most three redirects, each to an allowed HTTPS host whose
  addresses are checked again, and one deadline well inside the Lambda's for all of it (lookup, connect, TLS, every
  redirect, headers and body: toolgen/runtime/deadline.py), so an upstream that answers a byte at a time cannot
  hold a call;
- the host must be in the program's allowed_hosts *and* in the platform's list for the tool's archetype, so a
  planner (or a prompt injected into one) cannot widen it;
- every address the host resolves to must be public: private, loopback, link-local (the metadata endpoint
  169.254.169.254 among them), multicast and reserved addresses are refused, and the connection goes to the
  address that was checked, so DNS cannot be re-pointed between the check and the connect.
Tests point an allowed host at a loopback fixture server with TOOLGEN_FETCH_OVERRIDES, which only the
operator's configuration of the tool function can set.
"""

from __future__ import annotations

import datetime as dt
import http.client
import ipaddress
import json
import os
import re
import ssl
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode, urljoin, urlsplit

import jmespath

from toolgen.runtime import expressions, operations
from toolgen.runtime.deadline import open_tcp, open_tls, resolve
from toolgen.runtime.errors import Forbidden, UpstreamError
from toolgen.runtime.messages import Message
from toolgen.runtime.values import check_object

if TYPE_CHECKING:  # the runtime reads programs as views (toolgen/runtime/view.py); pydantic is not imported
    from toolgen.program import FetchOp, ToolProgram

PLATFORM_HOSTS: dict[str, frozenset[str]] = {
    "weather_ranking": frozenset({"api.open-meteo.com"}),
    "currency_converter": frozenset({"api.frankfurter.dev"}),
    # composed lookups (toolgen/knowledge/base.py LOOKUP_APIS): forecasts, air quality and sea state per place
    "lookup": frozenset({"api.open-meteo.com", "air-quality-api.open-meteo.com", "marine-api.open-meteo.com"}),
}
# A composed tool (no named kind) may fetch from any of the platform's public APIs, and from nothing else; a named
# kind only from its own (a to-do list fetches nothing).
PUBLIC_APIS: frozenset[str] = frozenset().union(*PLATFORM_HOSTS.values())
NAMED_KINDS = frozenset({
    "run_log", "habit_tracker", "caffeine_tracker", "water_tracker", "mood_journal", "budget_tracker",
    "expense_splitter", "focus_planner", "todo_list", "reading_list", "flashcards", "restaurant_picker", "countdown",
    "unit_converter", "tip_calculator", "bmi_calculator", "weather_ranking", "currency_converter",
})  # fmt: skip


def hosts_for(archetype: str) -> frozenset[str]:
    """The public APIs a tool of this kind may fetch from."""
    if archetype in NAMED_KINDS:
        return PLATFORM_HOSTS.get(archetype, frozenset())
    return PUBLIC_APIS


TIMEOUT_S = 5.0
MAX_BYTES = 1_000_000
MAX_REDIRECTS = 3


def _public_addresses(host: str, port: int, deadline: float | None = None) -> list[str]:
    try:
        infos = resolve(host, port, time.monotonic() + TIMEOUT_S if deadline is None else deadline)
    except TimeoutError as e:
        raise UpstreamError(Message("too_slow", host=host, limit=TIMEOUT_S)) from e
    except OSError as e:
        raise UpstreamError(Message("no_resolve", host=host)) from e
    addresses = [str(info[4][0]) for info in infos]
    for address in addresses:
        ip = ipaddress.ip_address(address)
        if not ip.is_global or ip.is_multicast:
            raise Forbidden(Message("not_public", host=host))
    return addresses


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to a checked address, with the certificate verified for the host name, all by one deadline."""

    def __init__(self, host: str, address: str, *, deadline: float, **kwargs: Any) -> None:
        super().__init__(host, context=ssl.create_default_context(), **kwargs)
        self._address, self._deadline = address, deadline

    def connect(self) -> None:
        sock = open_tcp(self._address, self.port or 443, self._deadline)
        self.sock = open_tls(sock, self.host, self._context, self._deadline)  # type: ignore[attr-defined]


class _FixtureConnection(http.client.HTTPConnection):
    """Plain HTTP to a loopback fixture that test configuration points an allowed host at, by the same deadline."""

    def __init__(self, host: str, port: int | None, *, deadline: float) -> None:
        super().__init__(host, port)
        self._deadline = deadline

    def connect(self) -> None:
        self.sock = open_tcp(self.host, self.port, self._deadline)


def _overrides() -> dict[str, str]:
    raw = os.environ.get("TOOLGEN_FETCH_OVERRIDES", "")
    return json.loads(raw) if raw else {}


def _allowed(program: ToolProgram, host: str) -> bool:
    return host in program.allowed_hosts and host in hosts_for(program.archetype)


def _get_once(url: str, deadline: float) -> tuple[int, dict[str, str], bytes]:
    parts = urlsplit(url)
    host = parts.hostname or ""
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    override = _overrides().get(host)
    conn: http.client.HTTPConnection
    if override:
        o = urlsplit(override)
        conn = _FixtureConnection(o.hostname or "", o.port, deadline=deadline)
    else:
        conn = _PinnedHTTPSConnection(host, _public_addresses(host, 443, deadline)[0], deadline=deadline)
    try:
        conn.request(
            "GET", target, headers={"Accept": "application/json", "User-Agent": "toolgen-runtime", "Host": host}
        )
        response = conn.getresponse()
        body = response.read(MAX_BYTES + 1)
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body
    except TimeoutError as e:
        raise UpstreamError(Message("too_slow", host=host, limit=TIMEOUT_S)) from e
    except (OSError, http.client.HTTPException) as e:
        raise UpstreamError(Message("no_answer", host=host, reason=e)) from e
    finally:
        conn.close()


def fetch_json(program: ToolProgram, url: str) -> Any:
    """GET ``url`` and decode its JSON, following at most MAX_REDIRECTS redirects, each checked like the first, all
    within TIMEOUT_S."""
    deadline = time.monotonic() + TIMEOUT_S
    for _ in range(MAX_REDIRECTS + 1):
        parts = urlsplit(url)
        if parts.scheme != "https" or not _allowed(program, parts.hostname or ""):
            raise Forbidden(Message("not_allowed_host", host=parts.hostname))
        status, headers, body = _get_once(url, deadline)
        if status in (301, 302, 303, 307, 308) and headers.get("location"):
            url = urljoin(url, headers["location"])
            continue
        if status != 200:
            raise UpstreamError(Message("upstream_status", host=parts.hostname, status=status))
        if len(body) > MAX_BYTES:
            raise UpstreamError(Message("upstream_too_big", host=parts.hostname, limit=MAX_BYTES))
        try:
            return json.loads(body)
        except ValueError as e:
            raise UpstreamError(Message("upstream_not_json", host=parts.hostname)) from e
    raise UpstreamError(Message("redirects", limit=MAX_REDIRECTS))


def _url(op: FetchOp, inputs: dict[str, Any]) -> str:
    query = {
        k: re.sub(r"\{([a-z][a-z0-9_]*)\}", lambda m: str(inputs.get(m.group(1), "")), v) for k, v in op.query.items()
    }
    return op.url + ("?" + urlencode(query) if query else "")


def _columns(selected: dict[str, Any]) -> bool:
    """Whether a selected object is columns of one length ({"date": [...], "rain": [...], "city": "Lisbon"}), to be
    read as rows."""
    lengths = {len(v) for v in selected.values() if isinstance(v, list)}
    return len(lengths) == 1 and next(iter(lengths)) > 0


def _rows(selected: dict[str, Any]) -> list[dict[str, Any]]:
    columns = {k: v for k, v in selected.items() if isinstance(v, list)}
    same = {k: v for k, v in selected.items() if not isinstance(v, list)}  # the place: on every row
    return [{**dict(zip(columns, row, strict=True)), **same} for row in zip(*columns.values(), strict=True)]


def run_fetch(program: ToolProgram, op: FetchOp, query: dict[str, str], today: dt.date) -> dict[str, Any]:
    """The operation's result: ranked items, or (with outputs) figures computed from one selected object."""
    inputs = check_object(query, op.inputs, from_text=True, today=today) if op.inputs else {}
    host = urlsplit(op.url).hostname or ""
    data = fetch_json(program, _url(op, inputs))
    labelled = False
    # Many APIs answer one object for one place and a list for several: the select always reads a list (a program of
    # version 1 read one object as it came when the operation had outputs).
    if isinstance(data, dict) and (program.version >= 2 or not op.outputs):
        data = [data]
    try:
        selected = jmespath.search(op.select, data)
    except jmespath.exceptions.JMESPathError as e:
        raise UpstreamError(Message("upstream_shape", host=host)) from e
    if op.outputs:
        if not isinstance(selected, dict):
            raise UpstreamError(Message("upstream_shape", host=host))
        values = {k: selected.get(k) for k in op.fields}
        names = operations.constants(program, op)
        result = expressions.compute(op.outputs, {**values, **inputs}, names, today=today, declared=op.inputs)
        if any(v is None for v in result.values()):
            raise UpstreamError(Message("upstream_lacks", host=host))
        return {**inputs, **result}
    if isinstance(selected, dict) and _columns(selected):  # a forecast's days come as columns: one row per day
        selected = _rows(selected)
    elif isinstance(selected, list) and selected and all(isinstance(x, dict) and _columns(x) for x in selected):
        # several places' days: each place's rows, named by its label
        selected = [
            {**row, **({op.label_field: op.labels[i]} if i < len(op.labels) else {})}
            for i, place in enumerate(selected)
            for row in _rows(place)
        ]
        labelled = True
    if not isinstance(selected, list) or not all(isinstance(x, dict) for x in selected):
        raise UpstreamError(Message("upstream_shape", host=host))
    items = [dict(x) for x in selected]
    for item in items:  # a day read from hourly columns comes as its first hour ("2026-12-02T00:00")
        for name, kind in op.fields.items():
            value = item.get(name)
            if kind == "date" and isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}T[\d:]+", value):
                item[name] = value[:10]
    for item, label in zip(items, [] if labelled else op.labels, strict=False):
        item[op.label_field] = label
    if op.sort:
        key = op.sort.lstrip("-")
        present = [i for i in items if i.get(key) is not None]
        present.sort(key=lambda i: i[key], reverse=op.sort.startswith("-"))
        items = present + [i for i in items if i.get(key) is None]
    return {"items": items[: op.limit]}
