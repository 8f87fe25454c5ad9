"""Bearer tokens: signed, with an expiry; the user comes from the token and nowhere else.

Format: ``tg2.<base64url(json claims)>.<base64url(Ed25519 signature)>``; claims are ``{"sub": user, "exp": epoch}``.
The platform's secret (TOOLGEN_SECRET, the stack's secret, or the local state directory's, made once, mode 0600)
is the seed of an Ed25519 key pair: the platform signs with it; a tool is given only the public half
(``tgpk1.<base64url(32 bytes)>`` in TOOLGEN_TOKEN_KEY), so it can check a person's tokens but never make one, for
anyone, at any tool or at the API. (``tg1`` tokens, HMAC-SHA256 with the secret itself, are still accepted where the
secret is known: the API, the authorizer and tools made before; never by a tool that holds only the public key.)
Checking is toolgen/ed25519.py (standard library: a tool's cold start imports nothing compiled), 3-5 ms the
first time a process meets a token and nothing after (the answer is kept); signing, which handles the secret, is
the `cryptography` package's, imported only where tokens are made (the CLI, the worker's probe).
"""

from __future__ import annotations

import base64
import functools
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

from toolgen import ed25519
from toolgen.errors import AuthError, ConfigError
from toolgen.ids import USER_RE, check_user

PREFIX = "tg2"  # signed with the key pair derived from the secret
LEGACY_PREFIX = "tg1"  # HMAC-SHA256 with the secret itself
KEY_PREFIX = "tgpk1."  # a public key, as a tool is given it
SECRET_MAX_AGE_S = 300
# The platform API's routes that need no token: liveness, its own document, and tool pages (template.yaml gives
# them their own routes without the authorizer; the API and the local gateway read this same pattern).
PUBLIC_PATHS = re.compile(r"^/(v1/health|v1/openapi\.json|p/[^/]+/?)$")
DEFAULT_TTL_S = 30 * 24 * 3600


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _hmac(secret: str, payload: str) -> str:
    return _b64(hmac.new(secret.encode(), f"{LEGACY_PREFIX}.{payload}".encode(), hashlib.sha256).digest())


def _seed(secret: str) -> bytes:
    """The Ed25519 private key (its 32-byte seed) the platform's secret stands for."""
    return hmac.new(secret.encode(), b"toolgen token signing key", hashlib.sha256).digest()


@functools.lru_cache(maxsize=8)
def _public_bytes(key: str) -> bytes:
    """The 32-byte public key a public key string or the platform's secret gives."""
    if not key.startswith(KEY_PREFIX):
        return ed25519.public_key(_seed(key))
    try:
        raw = _unb64(key.removeprefix(KEY_PREFIX))
    except ValueError as e:
        raise ConfigError("TOOLGEN_TOKEN_KEY is not a toolgen public key") from e
    if len(raw) != 32:
        raise ConfigError("TOOLGEN_TOKEN_KEY is not a toolgen public key")
    return raw


def public_key(secret: str) -> str:
    """The public key of the platform's token signing key, as a tool is given it (it can verify, never sign)."""
    if not secret or secret.startswith(KEY_PREFIX):
        raise ConfigError("no secret to derive the token key from")
    return KEY_PREFIX + _b64(_public_bytes(secret))


def mint(user: str, secret: str, *, ttl_s: int = DEFAULT_TTL_S, now: float | None = None) -> str:
    """A token for ``user`` valid for ``ttl_s`` seconds."""
    check_user(user)
    if not secret or secret.startswith(KEY_PREFIX):
        raise ConfigError("cannot mint a token without the platform's secret")
    claims = {"sub": user, "exp": int((now if now is not None else time.time()) + ttl_s)}
    payload = _b64(json.dumps(claims, separators=(",", ":")).encode())
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    signature = Ed25519PrivateKey.from_private_bytes(_seed(secret)).sign(f"{PREFIX}.{payload}".encode())
    return f"{PREFIX}.{payload}.{_b64(signature)}"


def mint_with_secret(user: str, secret: str, *, ttl_s: int = DEFAULT_TTL_S, now: float | None = None) -> str:
    """A ``tg1`` token (HMAC with the secret itself), standard library only: for a tool that holds its own secret,
    as an exported bundle's does (its mint_token.py), where no platform signs."""
    check_user(user)
    if not secret or secret.startswith(KEY_PREFIX):
        raise ConfigError("cannot mint a token without the secret")
    claims = {"sub": user, "exp": int((now if now is not None else time.time()) + ttl_s)}
    payload = _b64(json.dumps(claims, separators=(",", ":")).encode())
    return f"{LEGACY_PREFIX}.{payload}.{_hmac(secret, payload)}"


def _signed(prefix: str, payload: str, signature: str, key: str) -> bool:
    """Whether ``signature`` is the key's over ``payload``."""
    if prefix == LEGACY_PREFIX:
        if key.startswith(KEY_PREFIX):
            raise AuthError("this kind of token is no longer accepted by tools: get a new one")
        return hmac.compare_digest(_hmac(key, payload), signature)
    return _ed25519_signed(f"{prefix}.{payload}", signature, _public_bytes(key))


@functools.lru_cache(maxsize=1024)
def _ed25519_signed(message: str, signature: str, public: bytes) -> bool:
    """Kept per process: a person's token is checked once, not on every call (its expiry is checked every time)."""
    try:
        raw = _unb64(signature)
    except ValueError:
        return False
    return ed25519.verify(public, message.encode(), raw)


def verify(token: str, key: str, *, now: float | None = None) -> str:
    """The user a valid token names (``key``: the platform's secret, or a tool's public key); AuthError for
    anything else."""
    parts = (token or "").split(".")
    if len(parts) != 3 or parts[0] not in (PREFIX, LEGACY_PREFIX) or not parts[1].isascii():
        raise AuthError("malformed token")
    payload, signature = parts[1], parts[2]
    if not signature.isascii() or not _signed(parts[0], payload, signature, key):
        raise AuthError("bad token signature")
    try:
        claims = json.loads(_unb64(payload))
        user, exp = claims["sub"], claims["exp"]
    except (ValueError, KeyError, TypeError) as e:
        raise AuthError("malformed token claims") from e
    if type(exp) is not int:  # a number of seconds, as minted: not "9999999999", not true, not 1e99
        raise AuthError("malformed token expiry")
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
    """The key tokens are checked with: a tool's public key (TOOLGEN_TOKEN_KEY), else TOOLGEN_SECRET, else the
    Secrets Manager secret TOOLGEN_SECRET_ARN names, read at most every 5 minutes (through toolgen/awslite.py: the
    tools and the authorizer start without boto3)."""
    cached: dict[str, Any] = {}

    def secret() -> str:
        if os.environ.get("TOOLGEN_TOKEN_KEY"):
            return os.environ["TOOLGEN_TOKEN_KEY"]
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
