"""Identifiers: sortable job and memory ids, unguessable tool ids, validated user names."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time

from toolgen.errors import InvalidInputError

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32, lower case: safe in URLs and function names
# \Z, not $: "$" also matches before a final newline, so "alice\n" would pass as alice.
USER_RE = re.compile(r"^[A-Za-z0-9_.@-]{1,64}\Z")
TOOL_ID_RE = re.compile(r"^t[0-9a-z]{20}\Z")
JOB_ID_RE = re.compile(r"^j[0-9a-z]{20}\Z")
MEMORY_ID_RE = re.compile(r"^m[0-9a-z]{20}\Z")
ROW_ID_RE = re.compile(r"^r[0-9a-z]{20}\Z")


def _encode(number: int, width: int) -> str:
    chars = []
    for _ in range(width):
        number, rem = divmod(number, 32)
        chars.append(_ALPHABET[rem])
    return "".join(reversed(chars))


_last = [0, 0]  # (milliseconds, random part) of the last id this process made
_lock = threading.Lock()


def sortable_id(prefix: str) -> str:
    """A 21-character id that sorts by creation time: milliseconds, then 50 bits that are random for a new
    millisecond and count up within one (so ids made in the same millisecond still sort in order)."""
    with _lock:
        now = int(time.time() * 1000)
        if now <= _last[0]:
            now, tail = _last[0], _last[1] + 1
        else:
            tail = secrets.randbits(49)  # half the space: room to count up
        _last[0], _last[1] = now, tail
    return prefix + _encode(now, 10) + _encode(tail, 10)


def id_at(prefix: str, milliseconds: int) -> str:
    """The smallest sortable id of ``prefix`` made at ``milliseconds`` (every id made then or later sorts after)."""
    return prefix + _encode(max(milliseconds, 0), 10) + _encode(0, 10)


def id_time(sortable: str) -> int:
    """When a sortable id was made, in milliseconds since the epoch."""
    number = 0
    for char in sortable[1:11]:
        number = number * 32 + _ALPHABET.index(char)
    return number


def tool_id() -> str:
    """An unguessable tool id (100 random bits): it names the function and the page."""
    return "t" + _encode(secrets.randbits(100), 20)


def tool_id_for(job_id: str, secret: str) -> str:
    """The tool id of a job: as unguessable as ``tool_id()`` (100 bits of an HMAC), and the same every time the
    job runs, so a message delivered twice, even to two workers at once, deploys one function, not two."""
    digest = hmac.new(secret.encode(), f"tool:{job_id}".encode(), hashlib.sha256).digest()
    return "t" + _encode(int.from_bytes(digest[:13]) >> 4, 20)


def check_user(user: str) -> str:
    """Return the user name if it is a valid one, else raise InvalidInputError."""
    if not USER_RE.match(user or ""):
        raise InvalidInputError("a user name is 1-64 characters of letters, digits, '_', '.', '@' or '-'")
    return user
