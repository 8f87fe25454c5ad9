"""Reaching a language model: one small interface (``Model.complete``), two providers behind it.

- Amazon Bedrock, through boto3's Converse API (toolgen/llm/bedrock.py): IAM, no key to store; the answer is forced
  through a tool whose input schema is the answer's JSON schema.
- Any OpenAI-compatible server through the ``openai`` client (toolgen/llm/openai_compat.py): OpenAI, DeepSeek,
  Qwen/DashScope, a local Ollama, llama.cpp or vLLM server; structured output by ``json_schema`` where the server
  has it, JSON mode (the schema in the prompt) or plain text where it has not.

Which one, from the environment (``from_environment``): TOOLGEN_LLM_PROVIDER is ``bedrock``, ``openai``, ``none``
or ``auto`` (the default: Bedrock when TOOLGEN_BEDROCK_MODEL_ID is set, else OpenAI-compatible when a key is
configured, else none: the offline planner and the rules serve). A prompt comes in two parts: the static part
(the same for every request: rules, schema, kinds), sent first so that a provider's prompt cache can keep it,
and the request's own part. Every failure is a ModelError whose text says what happened; callers fall back.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Protocol

from toolgen.errors import ConfigError, ToolgenError

PROVIDERS = ("auto", "bedrock", "openai", "none")


class ModelError(ToolgenError):
    """The model could not be asked or did not answer usably: timeout, rate limit, server error, refusal to run."""

    code = "model_error"


@dataclass
class Completion:
    """A model's answer: its text (JSON, when a schema was asked for) and what it cost."""

    content: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0  # prompt tokens the provider served from its cache
    mode: str = ""  # how structure was asked for: json_schema, json_object, text, tool
    refusal: str | None = None  # the provider's own refusal to answer (OpenAI's structured outputs say one so)


@dataclass
class Prompt:
    """What a model reads: a static part (cacheable), the request's own part, then the conversation so far."""

    static: str
    dynamic: str
    messages: list[dict[str, str]]  # {"role": "user" | "assistant", "content": ...}, the first a user's


class Model(Protocol):
    @property
    def name(self) -> str:
        """provider:model, as jobs record it ("openai:gpt-4o-mini", "bedrock:amazon.nova-pro-v1:0")."""
        ...

    @property
    def model(self) -> str:
        """The model id the provider knows it by."""
        ...

    def complete(self, prompt: Prompt, *, schema: dict[str, Any], schema_name: str, strict: bool = False) -> Completion:
        """The model's answer to ``prompt``, asked to follow ``schema`` (``strict``: a schema every property of
        which is required, that a provider can hold the model to exactly); ModelError when there is none."""
        ...


def provider() -> str:
    """The configured provider, resolved from ``auto``: bedrock, openai or none."""
    chosen = (os.environ.get("TOOLGEN_LLM_PROVIDER") or "auto").strip().lower()
    if chosen not in PROVIDERS:
        raise ConfigError(f"TOOLGEN_LLM_PROVIDER must be one of {', '.join(PROVIDERS)}, got {chosen!r}")
    if chosen == "auto":
        from toolgen.llm.openai_compat import key_configured

        return "bedrock" if os.environ.get("TOOLGEN_BEDROCK_MODEL_ID") else "openai" if key_configured() else "none"
    return chosen


def configured() -> bool:
    """Whether a model is configured (without reading any secret or making any client)."""
    return provider() != "none"


def from_environment(*, timeout: float | None = None, retries: int = 1) -> Model | None:
    """The configured model (None when there is none); ``timeout`` seconds a call, ``retries`` after a rate limit
    or a server error."""
    chosen = provider()
    if chosen == "bedrock":
        from toolgen.llm.bedrock import BedrockModel

        model_id = os.environ.get("TOOLGEN_BEDROCK_MODEL_ID") or ""
        if not model_id:
            raise ConfigError("TOOLGEN_LLM_PROVIDER=bedrock needs TOOLGEN_BEDROCK_MODEL_ID")
        return BedrockModel(model_id, timeout=timeout, retries=retries)
    if chosen == "openai":
        from toolgen.llm.openai_compat import OpenAICompatible, key_configured

        if not key_configured():
            raise ConfigError("TOOLGEN_LLM_PROVIDER=openai needs OPENAI_API_KEY or OPENAI_API_KEY_SECRET_ARN")
        return OpenAICompatible(timeout=timeout, retries=retries)
    return None


def timeout_from_env(name: str, default: float) -> float:
    """Seconds from the environment variable ``name`` (ConfigError when it is not a positive number)."""
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError as e:
        raise ConfigError(f"{name} must be a number of seconds, got {raw!r}") from e
    if not value > 0:
        raise ConfigError(f"{name} must be more than 0 seconds, got {raw!r}")
    return value
