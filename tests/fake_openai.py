"""A real HTTP server on loopback that speaks the OpenAI chat-completions and embeddings protocols.

Each chat request takes the next behaviour from its script: ``scripts[name]`` for a structured-output request
whose schema is ``name`` (so the planner's and the fact reader's calls can be scripted apart), else ``script``:
a JSON document to answer with, raw text (malformed JSON), an HTTP status (429), or a delay longer than the
client waits. Embeddings are computed, deterministic: each word is a direction of its own, except that the words
of one group in ``meanings`` share one, so a test can say which texts mean the same thing; ``scripts["embeddings"]``
can make them fail. Requests are kept for assertions.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

DIMENSIONS = 64


class FakeOpenAI:
    def __init__(self) -> None:
        self.script: list[tuple[str, Any]] = []
        self.scripts: dict[str, list[tuple[str, Any]]] = {}
        self.meanings: list[set[str]] = []
        self.requests: list[dict[str, Any]] = []
        # the response formats this server takes (None: none asked for); another is refused with a 400, as servers
        # without structured output refuse json_schema (DeepSeek, llama.cpp, older vLLM)
        self.formats: set[str | None] = {"json_schema", "json_object", None}
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                fake.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
                route = "embeddings" if self.path.endswith("/embeddings") else fake.schema_name(body)
                asked = (body.get("response_format") or {}).get("type")
                if route != "embeddings" and asked not in fake.formats:
                    error = {
                        "message": f"response_format type {asked!r} is not supported",
                        "type": "invalid_request_error",
                    }
                    self._send(400, {"error": {**error, "code": None, "param": "response_format"}})
                    return
                scripted = fake.scripts.get(route or "")
                if scripted:
                    kind, value = scripted.pop(0)
                elif route == "embeddings":
                    kind, value = "embeddings", None
                else:
                    kind, value = fake.script.pop(0) if fake.script else ("status", 500)
                if kind == "embeddings":
                    self._send(200, fake.embeddings(body))
                    return
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
                        "usage": {
                            "prompt_tokens": 1000,
                            "completion_tokens": 250,
                            "total_tokens": 1250,
                            "prompt_tokens_details": {"cached_tokens": 800},
                        },
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

    @staticmethod
    def schema_name(body: dict[str, Any]) -> str | None:
        """The answer's schema: named in the response format, else (JSON mode, text) by its title in the prompt."""
        named = ((body.get("response_format") or {}).get("json_schema") or {}).get("name")
        if named:
            return str(named)
        system = next((m["content"] for m in body.get("messages", []) if m.get("role") == "system"), "")
        found = re.search(r'"title":\s*"(\w+)"', system)
        return found.group(1) if found else None

    def vector(self, text: str) -> np.ndarray:
        vector = np.zeros(DIMENSIONS, dtype=np.float32)
        for word in re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]", text.lower()):
            group = next((i for i, words in enumerate(self.meanings) if word in words), None)
            if group is not None:  # a shared meaning outweighs the incidental words around it
                vector[group] += 4.0
            else:
                vector[16 + int(hashlib.sha256(word.encode()).hexdigest(), 16) % (DIMENSIONS - 16)] += 1.0
        return vector

    def embeddings(self, body: dict[str, Any]) -> dict[str, Any]:
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = []
        for i, text in enumerate(texts):
            vector = self.vector(text)
            encoded: Any = (
                base64.b64encode(vector.astype("<f4").tobytes()).decode()
                if body.get("encoding_format") == "base64"
                else vector.tolist()
            )
            data.append({"object": "embedding", "index": i, "embedding": encoded})
        usage = {"prompt_tokens": 10 * len(texts), "total_tokens": 10 * len(texts)}
        return {"object": "list", "data": data, "model": body.get("model"), "usage": usage}

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
