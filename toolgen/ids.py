"""Identifiers: sortable job and memory ids, unguessable tool ids, validated user names."""

from __future__ import annotations

import re
import secrets
import time

from toolgen.errors import InvalidInputError

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32, lower case: safe in URLs and function names
USER_RE = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")
TOOL_ID_RE = re.compile(r"^t[0-9a-z]{20}$")
JOB_ID_RE = re.compile(r"^j[0-9a-z]{20}$")
MEMORY_ID_RE = re.compile(r"^m[0-9a-z]{20}$")
ROW_ID_RE = re.compile(r"^r[0-9a-z]{20}$")


def _encode(number: int, width: int) -> str:
    chars = []
    for _ in range(width):
        number, rem = divmod(number, 32)
        chars.append(_ALPHABET[rem])
    return "".join(reversed(chars))


def sortable_id(prefix: str) -> str:
    """A 21-character id that sorts by creation time (milliseconds), then by 50 random bits."""
    return prefix + _encode(int(time.time() * 1000), 10) + _encode(secrets.randbits(50), 10)


def tool_id() -> str:
    """An unguessable tool id (100 random bits): it names the function and the page."""
    return "t" + _encode(secrets.randbits(100), 20)


def check_user(user: str) -> str:
    """Return the user name if it is a valid one, else raise InvalidInputError."""
    if not USER_RE.match(user or ""):
        raise InvalidInputError("a user name is 1-64 characters of letters, digits, '_', '.', '@' or '-'")
    return user
