"""Bearer tokens: HMAC-SHA256 signed, with an expiry; the user comes from the token and nowhere else.

Format: ``tg1.<base64url(json claims)>.<base64url(signature)>``; claims are ``{"sub": user, "exp": epoch}``.
The secret comes from TOOLGEN_SECRET, or from the local state directory (created once, mode 0600), so the CLI
and the embedded default agree on it without configuration.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolgen.errors import AuthError, ConfigError
from toolgen.ids import USER_RE, check_user

PREFIX = "tg1"
SECRET_MAX_AGE_S = 300
# The platform API's routes that need no token: liveness, its own document, and tool pages (template.yaml gives
# them their own routes without the authorizer; the API and the local gateway read this same pattern).
PUBLIC_PATHS = re.compile(r"^/(v1/health|v1/openapi\.json|p/[^/]+/?)$")
DEFAULT_TTL_S = 30 * 24 * 3600


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(secret: str, payload: str) -> str:
    return _b64(hmac.new(secret.encode(), f"{PREFIX}.{payload}".encode(), hashlib.sha256).digest())


def mint(user: str, secret: str, *, ttl_s: int = DEFAULT_TTL_S, now: float | None = None) -> str:
    """A token for ``user`` valid for ``ttl_s`` seconds."""
    check_user(user)
    if not secret:
        raise ConfigError("cannot mint a token without a secret")
    claims = {"sub": user, "exp": int((now if now is not None else time.time()) + ttl_s)}
    payload = _b64(json.dumps(claims, separators=(",", ":")).encode())
    return f"{PREFIX}.{payload}.{_sign(secret, payload)}"


def verify(token: str, secret: str, *, now: float | None = None) -> str:
    """The user a valid token names; AuthError for anything else."""
    parts = (token or "").split(".")
    if len(parts) != 3 or parts[0] != PREFIX:
        raise AuthError("malformed token")
    payload, signature = parts[1], parts[2]
    if not hmac.compare_digest(_sign(secret, payload), signature):
        raise AuthError("bad token signature")
    try:
        claims = json.loads(_unb64(payload))
        user, exp = claims["sub"], int(claims["exp"])
    except (ValueError, KeyError, TypeError) as e:
        raise AuthError("malformed token claims") from e
    if not isinstance(user, str) or not USER_RE.match(user):
        raise AuthError("malformed token subject")
    if exp < (now if now is not None else time.time()):
        raise AuthError("token expired")
    return user


def bearer(headers: dict[str, str] | None) -> str:
    """The token of an ``Authorization: Bearer`` header (header names are case-insensitive)."""
    for name, value in (headers or {}).items():
        if name.lower() == "authorization" and value:
            scheme, _, token = value.strip().partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
            raise AuthError("the Authorization header must be 'Bearer <token>'")
    raise AuthError("missing Authorization: Bearer <token> header")


def secret_from_environment() -> Callable[[], str]:
    """TOOLGEN_SECRET, or the Secrets Manager secret TOOLGEN_SECRET_ARN names, read at most every 5 minutes
    (through toolgen/awslite.py: the tools and the authorizer start without boto3)."""
    cached: dict[str, Any] = {}

    def secret() -> str:
        if os.environ.get("TOOLGEN_SECRET"):
            return os.environ["TOOLGEN_SECRET"]
        arn = os.environ.get("TOOLGEN_SECRET_ARN")
        if not arn:
            raise ConfigError("set TOOLGEN_SECRET or TOOLGEN_SECRET_ARN")
        if "value" not in cached or time.monotonic() - cached["at"] > SECRET_MAX_AGE_S:
            from toolgen import awslite

            answer = awslite.client("secretsmanager").get_secret_value(SecretId=arn)
            cached.update(value=answer["SecretString"], at=time.monotonic())
        return str(cached["value"])

    return secret


def state_dir() -> Path:
    """The local state directory: TOOLGEN_HOME, else ~/.toolgen."""
    return Path(os.environ.get("TOOLGEN_HOME") or Path.home() / ".toolgen")


def local_secret() -> str:
    """TOOLGEN_SECRET, else the secret kept in the state directory (made on first use)."""
    if os.environ.get("TOOLGEN_SECRET"):
        return os.environ["TOOLGEN_SECRET"]
    path = state_dir() / "secret"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written to a private temporary file and linked into place, so a concurrent reader never sees it half-made.
        tmp = path.with_name(f".secret.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(32))
        try:
            os.link(tmp, path)  # fails if another process won the race; theirs is kept
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    return path.read_text().strip()
