"""The one way the platform reaches a model: an OpenAI-compatible client from the environment.

OPENAI_API_KEY, or on AWS the Secrets Manager secret OPENAI_API_KEY_SECRET_ARN names (the key never sits in an
environment variable there); OPENAI_BASE_URL for any compatible provider; TOOLGEN_LLM_TIMEOUT seconds per call.
The SDK retries a rate limit or a server error once, honouring Retry-After. Planning, fact reading and
embeddings all use it.
"""

from __future__ import annotations

import os
from typing import Any


def configured() -> bool:
    """Whether a key is configured (without reading the secret)."""
    return bool(os.environ.get("OPENAI_API_KEY") or os.environ.get("OPENAI_API_KEY_SECRET_ARN"))


def api_key() -> str | None:
    if os.environ.get("OPENAI_API_KEY"):
        return os.environ["OPENAI_API_KEY"]
    if os.environ.get("OPENAI_API_KEY_SECRET_ARN"):
        from aws_lambda_powertools.utilities.parameters import get_secret

        return str(get_secret(os.environ["OPENAI_API_KEY_SECRET_ARN"], max_age=300))
    return None


def client() -> Any:
    """A client from the environment (imported here: the API builds its services without ever needing one)."""
    import openai

    return openai.OpenAI(
        api_key=api_key(),
        base_url=os.environ.get("OPENAI_BASE_URL") or None,
        timeout=float(os.environ.get("TOOLGEN_LLM_TIMEOUT", "20")),
        max_retries=1,
    )
