"""Amazon Bedrock, through boto3's Converse API: the model on AWS with IAM and no key to store.

TOOLGEN_BEDROCK_MODEL_ID names the model or inference profile (``amazon.nova-pro-v1:0``,
``us.anthropic.claude-sonnet-4-20250514-v1:0``); the worker's and the API's roles may call
``bedrock:InvokeModel`` on it (template.yaml). The endpoint is Bedrock's own in the function's region, or
AWS_ENDPOINT_URL_BEDROCK_RUNTIME where one is set (a test's loopback stand-in), never the global AWS_ENDPOINT_URL
that points the platform's other clients at moto or LocalStack.

The answer is forced through a tool whose input schema is the answer's JSON schema (``toolChoice``): what the
model "calls" it with is the answer. The static part of the prompt is followed by a cache point, so a model with
prompt caching reads it from cache on the next request. A model that refuses either (a ValidationException that
names tool choice or the cache point) is asked again without it, the schema then in the prompt, and that is kept
for the model for the rest of the process. Throttling and server errors are retried by botocore's standard mode.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from typing import Any

from toolgen import aws
from toolgen.llm import Completion, ModelError, Prompt
from toolgen.llm.openai_compat import unfenced

logger = logging.getLogger(__name__)
MAX_TOKENS = 8192
_without: dict[str, set[str]] = {}  # model id -> features it refused: "cache", "tool"
_lock = threading.Lock()


class BedrockModel:
    """The Model interface over Bedrock's Converse API."""

    def __init__(
        self, model_id: str, *, client: Any | None = None, timeout: float | None = None, retries: int = 1
    ) -> None:
        self._model, self._client = model_id, client
        self._timeout = timeout if timeout is not None else float(os.environ.get("TOOLGEN_LLM_TIMEOUT", "45"))
        self._retries = retries

    @property
    def name(self) -> str:
        return f"bedrock:{self._model}"

    @property
    def model(self) -> str:
        return self._model

    @property
    def client(self) -> Any:
        if self._client is None:
            import boto3
            from botocore.config import Config

            region = aws.region()
            endpoint = (
                os.environ.get("AWS_ENDPOINT_URL_BEDROCK_RUNTIME") or f"https://bedrock-runtime.{region}.amazonaws.com"
            )
            config = Config(
                connect_timeout=min(5.0, self._timeout),
                read_timeout=self._timeout,
                retries={"mode": "standard", "total_max_attempts": 1 + self._retries},
            )
            self._client = boto3.session.Session().client(
                "bedrock-runtime", region_name=region, endpoint_url=endpoint, config=config
            )
        return self._client

    def complete(self, prompt: Prompt, *, schema: dict[str, Any], schema_name: str, strict: bool = False) -> Completion:
        from botocore.exceptions import BotoCoreError, ClientError

        while True:
            with _lock:
                without = set(_without.get(self._model, set()))
            try:
                return self._ask(prompt, schema, schema_name, without)
            except ClientError as e:
                error = e.response.get("Error", {})
                code, message = str(error.get("Code", "")), str(error.get("Message", ""))
                dropped = self._feature_refused(code, message, without)
                if dropped is None:
                    raise ModelError(f"{code}: {message[:200]}") from e
                logger.info("%s refused %s (%s); asking without it", self._model, dropped, message[:120])
                with _lock:
                    _without.setdefault(self._model, set()).add(dropped)
            except BotoCoreError as e:  # timeouts and connection failures
                raise ModelError(f"{type(e).__name__}: {str(e)[:200]}") from e

    @staticmethod
    def _feature_refused(code: str, message: str, without: set[str]) -> str | None:
        if code != "ValidationException":
            return None
        lowered = message.lower()
        if "cache" not in without and "cache" in lowered:
            return "cache"
        if "tool" not in without and "tool" in lowered:
            return "tool"
        return None

    def _ask(self, prompt: Prompt, schema: dict[str, Any], schema_name: str, without: set[str]) -> Completion:
        static = prompt.static
        if "tool" in without:
            static += "\n\nAnswer with one JSON object, and nothing else, that follows this JSON schema:\n"
            static += json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
        system: list[dict[str, Any]] = [{"text": static}]
        if "cache" not in without:
            system.append({"cachePoint": {"type": "default"}})
        system.append({"text": prompt.dynamic})
        request: dict[str, Any] = {
            "modelId": self._model,
            "system": system,
            "messages": [{"role": m["role"], "content": [{"text": m["content"]}]} for m in prompt.messages],
            "inferenceConfig": {"temperature": 0, "maxTokens": MAX_TOKENS},
        }
        if "tool" not in without:
            spec = {"name": schema_name, "description": "Give the answer.", "inputSchema": {"json": schema}}
            request["toolConfig"] = {"tools": [{"toolSpec": spec}], "toolChoice": {"tool": {"name": schema_name}}}
        response = self.client.converse(**request)
        content = ""
        for block in response.get("output", {}).get("message", {}).get("content", []):
            if "toolUse" in block:
                content = json.dumps(block["toolUse"].get("input"), ensure_ascii=False)
                break
            if "text" in block:
                content += block["text"]
        usage = response.get("usage", {})
        return Completion(
            content=unfenced(content),
            prompt_tokens=int(usage.get("inputTokens", 0)),
            completion_tokens=int(usage.get("outputTokens", 0)),
            cached_tokens=int(usage.get("cacheReadInputTokens", 0)),
            mode="text" if "tool" in without else "tool",
            refusal="the model stopped for its content filter"
            if response.get("stopReason") in ("guardrail_intervened", "content_filtered") and not content
            else None,
        )
