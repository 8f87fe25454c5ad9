"""A real HTTP server on loopback that speaks the OpenAI chat-completions protocol, with scripted answers.

Each request takes the next behaviour from the script: a JSON document to answer with, raw text (malformed
JSON), an HTTP status (429), or a delay longer than the client waits. Requests are kept for assertions.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeOpenAI:
    def __init__(self) -> None:
        self.script: list[tuple[str, Any]] = []
        self.requests: list[dict[str, Any]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                fake.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
                kind, value = fake.script.pop(0) if fake.script else ("status", 500)
                if kind == "status":
                    self._send(
                        value,
                        {
                            "error": {
                                "message": f"scripted {value}",
                                "type": "rate_limit_exceeded",
                                "code": None,
                                "param": None,
                            }
                        },
                        {"Retry-After": "0"},
                    )
                    return
                if kind == "delay":
                    time.sleep(value)
                    kind, value = "json", {}
                content = value if kind == "text" else json.dumps(value, ensure_ascii=False)
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{len(fake.requests)}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model"),
                        "choices": [
                            {
                                "index": 0,
                                "finish_reason": "stop",
                                "message": {"role": "assistant", "content": content, "refusal": None},
                            }
                        ],
                        "usage": {"prompt_tokens": 1000, "completion_tokens": 250, "total_tokens": 1250},
                    },
                )

            def _send(self, status: int, payload: dict, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                with contextlib.suppress(BrokenPipeError):  # the client gave up waiting (the timeout case)
                    self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
