"""A small client of the platform API and of tool URLs, for the CLI and the demo (standard library only)."""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, NoReturn
from urllib.parse import urlencode

from toolgen import auth
from toolgen.errors import ToolgenError

DEFAULT_URL = "http://127.0.0.1:8377"
THROTTLE_TRIES = 5


class ApiError(ToolgenError):
    """An HTTP call answered with an error status (or not at all)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}" if status else message)
        self.status = status
        self.error_code = code


@dataclass
class Client:
    url: str
    token: str
    timeout_s: float = 30.0

    @classmethod
    def from_environment(cls, url: str | None = None, user: str | None = None) -> Client:
        """TOOLGEN_URL / TOOLGEN_TOKEN when set; otherwise a token minted for ``user`` with the local secret."""
        token = os.environ.get("TOOLGEN_TOKEN") or auth.mint(
            user or os.environ.get("TOOLGEN_USER") or "me", auth.local_secret()
        )
        return cls(url=(url or os.environ.get("TOOLGEN_URL") or DEFAULT_URL).rstrip("/"), token=token)

    def request(self, method: str, url: str, *, body: Any = None, query: dict[str, Any] | None = None) -> Any:
        """Call ``url``; the decoded JSON answer (None for an empty one), ApiError for an error status."""
        if query:
            url += "?" + urlencode({k: v for k, v in query.items() if v is not None})
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(url, data=data, method=method, headers=headers)  # noqa: S310 - http(s) only
        for attempt in range(1, THROTTLE_TRIES + 1):
            try:
                with urllib.request.urlopen(req, timeout=self.timeout_s) as resp:  # noqa: S310
                    return json.loads(raw) if (raw := resp.read()) else None
            except urllib.error.HTTPError as e:
                # Busy (429): the answer says when to come back; a throttled call did nothing, so it is safe again.
                if e.code != 429 or attempt == THROTTLE_TRIES:
                    self._raise(e)
                time.sleep(min(float(e.headers.get("Retry-After") or 1), 5.0))
            except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
                raise ApiError(0, "unreachable", f"cannot reach {url}: {getattr(e, 'reason', e)}") from e
        raise AssertionError("unreachable")

    @staticmethod
    def _raise(e: urllib.error.HTTPError) -> NoReturn:
        """An ApiError from an HTTP error answer."""
        try:
            raw = e.read()
            err = json.loads(raw)
        except ValueError:
            err = {"code": "http_error", "message": raw.decode(errors="replace")[:200]}
        raise ApiError(e.code, str(err.get("code", "error")), str(err.get("message", ""))) from e

    def api(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.request(method, self.url + path, **kwargs)

    def every(self, path: str, key: str, query: dict[str, str] | None = None, *, page_size: int = 500) -> list[Any]:
        """Every item of a list the API answers a page at a time (``page_size``: the list's largest page), following
        ``next`` to the last page."""
        found: list[Any] = []
        size = str(page_size)
        page = self.api("GET", path, query={**(query or {}), "limit": size})
        found += page[key]
        while page.get("next"):
            page = self.api("GET", path, query={**(query or {}), "limit": size, "next": page["next"]})
            found += page[key]
        return found

    def call_tool(
        self, tool: dict[str, Any], operation_id: str, data: dict[str, Any], row_id: str | None = None
    ) -> Any:
        """Call one operation of a tool through its URL, as the tool's page would."""
        ops = {op["id"]: op for op in tool["program"]["operations"]}
        if operation_id not in ops:
            raise ApiError(0, "unknown_operation", f"{operation_id} is not one of {', '.join(ops)}")
        op = ops[operation_id]
        path = op["path"]
        if "{id}" in path:
            if not row_id:
                raise ApiError(0, "missing_id", f"{operation_id} needs a row id (--id)")
            path = path.replace("{id}", row_id)
        url = tool["tool_url"].rstrip("/") + path
        if op["method"] == "GET":
            return self.request("GET", url, query=data)
        return self.request(op["method"], url, body=data if op["method"] != "DELETE" else None)
