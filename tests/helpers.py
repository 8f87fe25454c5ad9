"""Small builders shared by tests."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from toolgen.events import url_event


def tool_event(
    method: str, path: str, *, token: str, query: dict[str, str] | None = None, body: Any = None
) -> dict[str, Any]:
    """The function URL event a tool receives for a call with a bearer token and an optional JSON body."""
    headers = [("Authorization", f"Bearer {token}"), ("Content-Type", "application/json")]
    data = b"" if body is None else json.dumps(body).encode()
    return url_event(method, path, urlencode(query or {}), headers, data, source_ip="127.0.0.1", host="tool.test")
