"""Any OpenAI-compatible chat-completions server, through the ``openai`` client.

OPENAI_API_KEY, or on AWS the Secrets Manager secret OPENAI_API_KEY_SECRET_ARN names (the key never sits in an
environment variable there); OPENAI_BASE_URL for any compatible provider (a local server needs some key too:
any text); TOOLGEN_MODEL the model. The client retries a rate limit or a server error as many times as it is told,
honouring Retry-After.

Structured output, by TOOLGEN_LLM_JSON_MODE: ``json_schema`` (the schema as the response format), ``json_object``
(JSON mode, the schema in the prompt), ``text`` (no response format, the schema in the prompt), or ``auto`` (the
default): json_schema first, and where the server refuses the request for its response format (a 400 or 422:
DeepSeek, older vLLM, llama.cpp and Ollama builds), the next mode down at once; the mode that worked is kept for
the server and model for the rest of the process. An answer wrapped in a Markdown fence is read inside it.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from typing import Any

from toolgen.errors import ConfigError
from toolgen.llm import Completion, ModelError, Prompt

logger = logging.getLogger(__name__)
DEFAULT_MODEL = "gpt-4o-mini"
MODES = ("json_schema", "json_object", "text")
_working: dict[tuple[str, str], str] = {}  # (base URL, model) -> the mode the server took
_lock = threading.Lock()
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def key_configured() -> bool:
    """Whether a key is configured (without reading the secret)."""
    return bool(os.environ.get("OPENAI_API_KEY") or os.environ.get("OPENAI_API_KEY_SECRET_ARN"))


def api_key() -> str | None:
    if os.environ.get("OPENAI_API_KEY"):
        return os.environ["OPENAI_API_KEY"]
    if os.environ.get("OPENAI_API_KEY_SECRET_ARN"):
        from aws_lambda_powertools.utilities.parameters import get_secret

        return str(get_secret(os.environ["OPENAI_API_KEY_SECRET_ARN"], max_age=300))
    return None


def client(*, timeout: float | None = None, retries: int = 1) -> Any:
    """An ``openai`` client from the environment (imported here: the API builds its services without one)."""
    import openai

    return openai.OpenAI(
        api_key=api_key(),
        base_url=os.environ.get("OPENAI_BASE_URL") or None,
        timeout=timeout if timeout is not None else float(os.environ.get("TOOLGEN_LLM_TIMEOUT", "45")),
        max_retries=retries,
    )


def _first_mode() -> str:
    mode = (os.environ.get("TOOLGEN_LLM_JSON_MODE") or "auto").strip().lower()
    if mode not in (*MODES, "auto"):
        raise ConfigError(f"TOOLGEN_LLM_JSON_MODE must be auto, {', '.join(MODES)}; got {mode!r}")
    return mode


def unfenced(text: str) -> str:
    """The JSON inside a Markdown code fence, or the text as it is."""
    found = _FENCE.match(text)
    return found.group(1) if found else text


class OpenAICompatible:
    """The Model interface over a chat-completions endpoint."""

    def __init__(
        self,
        *,
        client: Any | None = None,
        model: str | None = None,
        timeout: float | None = None,
        retries: int = 1,
        json_mode: str | None = None,
    ) -> None:
        self._client = client
        self._timeout, self._retries = timeout, retries
        self._model = model or os.environ.get("TOOLGEN_MODEL") or DEFAULT_MODEL
        self._json_mode = json_mode or _first_mode()

    @property
    def name(self) -> str:
        return f"openai:{self._model}"

    @property
    def model(self) -> str:
        return self._model

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = client(timeout=self._timeout, retries=self._retries)
        return self._client

    def _key(self) -> tuple[str, str]:
        return (str(getattr(self.client, "base_url", "")), self._model)

    def _modes(self) -> list[str]:
        if self._json_mode != "auto":
            return [self._json_mode]
        with _lock:
            known = _working.get(self._key())
        return list(MODES[MODES.index(known) :] if known else MODES)

    def complete(self, prompt: Prompt, *, schema: dict[str, Any], schema_name: str, strict: bool = False) -> Completion:
        import openai

        modes = self._modes()
        for i, mode in enumerate(modes):
            try:
                completion = self._ask(prompt, schema, schema_name, mode, strict)
            except (openai.BadRequestError, openai.UnprocessableEntityError) as e:
                if i + 1 < len(modes) and self._json_mode == "auto":  # the server may not know this response format
                    logger.info("the model server refused %s (%s); asking in %s", mode, str(e)[:120], modes[i + 1])
                    continue
                raise ModelError(f"{type(e).__name__}: {str(e)[:200]}") from e
            except openai.OpenAIError as e:
                raise ModelError(f"{type(e).__name__}: {str(e)[:200]}") from e
            if self._json_mode == "auto":
                with _lock:
                    _working[self._key()] = mode
            return completion
        raise AssertionError("unreachable: the last mode either answers or raises")

    def _ask(self, prompt: Prompt, schema: dict[str, Any], schema_name: str, mode: str, strict: bool) -> Completion:
        system = prompt.static
        extra: dict[str, Any] = {}
        if mode == "json_schema":
            structured: dict[str, Any] = {"name": schema_name, "schema": schema, **({"strict": True} if strict else {})}
            extra["response_format"] = {"type": "json_schema", "json_schema": structured}
        else:  # the schema where the model reads it; JSON mode needs the word JSON in the prompt, and has it here
            system += "\n\nAnswer with one JSON object, and nothing else, that follows this JSON schema:\n"
            system += json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
            if mode == "json_object":
                extra["response_format"] = {"type": "json_object"}
        messages = [{"role": "system", "content": f"{system}\n\n{prompt.dynamic}"}, *prompt.messages]
        response = self.client.chat.completions.create(model=self._model, messages=messages, temperature=0, **extra)
        choice = response.choices[0] if response.choices else None
        message = choice.message if choice is not None else None
        refusal = getattr(message, "refusal", None) if message is not None else None
        content = (message.content or "") if message is not None else ""
        usage = response.usage
        details = getattr(usage, "prompt_tokens_details", None) if usage is not None else None
        return Completion(
            content=unfenced(content),
            prompt_tokens=(usage.prompt_tokens or 0) if usage is not None else 0,
            completion_tokens=(usage.completion_tokens or 0) if usage is not None else 0,
            cached_tokens=(getattr(details, "cached_tokens", 0) or 0) if details is not None else 0,
            mode=mode,
            refusal=str(refusal)[:300] if refusal and not content else None,
        )
