"""A real HTTP server on loopback that speaks Amazon Bedrock's Converse API (POST /model/{modelId}/converse).

boto3's bedrock-runtime client is pointed at it with AWS_ENDPOINT_URL_BEDROCK_RUNTIME (or an endpoint_url); it signs
its requests, which this server does not check. Each request takes the next behaviour from ``script``: an answer
given as the forced tool's input (``("tool", {...})``), plain text (``("text", "...")``), an error
(``("error", 400, "ValidationException", "message")``), or a delay longer than the client waits
(``("delay", seconds)``). ``refuses``: features the model refuses with a ValidationException, as some Bedrock
models do ("tool": tool choice, "cache": a cache point). Requests are kept for assertions.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote


class FakeBedrock:
    def __init__(self) -> None:
        self.script: list[tuple[Any, ...]] = []
        self.refuses: set[str] = set()
        self.requests: list[dict[str, Any]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                path = unquote(self.path)
                fake.requests.append({"path": path, "auth": self.headers.get("Authorization"), "body": body})
                if not (path.startswith("/model/") and path.endswith("/converse")):
                    self._error(404, "UnknownOperationException", f"no route {path}")
                    return
                if "tool" in fake.refuses and "toolConfig" in body:
                    self._error(
                        400, "ValidationException", "This model doesn't support the toolConfig.toolChoice field."
                    )
                    return
                if "cache" in fake.refuses and any("cachePoint" in block for block in body.get("system", [])):
                    self._error(400, "ValidationException", "The model does not support cachePoint (prompt caching).")
                    return
                behaviour = fake.script.pop(0) if fake.script else ("error", 500, "InternalServerException", "empty")
                kind = behaviour[0]
                if kind == "error":
                    _, status, code, message = behaviour
                    self._error(status, code, message)
                    return
                if kind == "delay":
                    time.sleep(behaviour[1])
                    behaviour = ("text", "{}")
                    kind = "text"
                content: dict[str, Any]
                if kind == "tool":
                    name = body["toolConfig"]["tools"][0]["toolSpec"]["name"]
                    content = {"toolUse": {"toolUseId": f"t{len(fake.requests)}", "name": name, "input": behaviour[1]}}
                    stop = "tool_use"
                else:
                    content = {"text": behaviour[1]}
                    stop = "end_turn"
                cached = 1200 if any("cachePoint" in block for block in body.get("system", [])) else 0
                self._send(
                    200,
                    {
                        "output": {"message": {"role": "assistant", "content": [content]}},
                        "stopReason": stop,
                        "usage": {"inputTokens": 1500, "outputTokens": 300, "totalTokens": 1800,
                                  "cacheReadInputTokens": cached},
                        "metrics": {"latencyMs": 5},
                    },
                )  # fmt: skip

            def _error(self, status: int, code: str, message: str) -> None:
                self._send(status, {"message": message}, {"x-amzn-ErrorType": f"{code}:http://internal.amazon.com/"})

            def _send(self, status: int, payload: dict, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("x-amzn-RequestId", "fake")
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                with contextlib.suppress(BrokenPipeError):
                    self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
