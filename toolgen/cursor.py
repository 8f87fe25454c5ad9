"""Page tokens: the ``next`` a list answers with, and takes back to go on.

A token is the base64url of DynamoDB's LastEvaluatedKey (``{"pk", "sk"}``) as JSON: opaque to callers, whose
only use for it is to hand it back. It is read back with suspicion, since a caller can send anything: it must
decode, hold exactly a partition and a sort key, name the caller's own partition, and a sort key under the list's
own prefix; anything else is a BadToken (a 422 where it is served). The partition a list reads is always the
caller's own whatever the token says, so a forged token could at worst move where a person's own list resumes;
refusing it still says plainly that it is not a token of this list, rather than answering a page of nonsense.
Standard library only: a tool's cold start imports this (toolgen/runtime/).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

MAX_TOKEN = 1024  # characters: a key of ours encodes to well under this
PATTERN = "^[A-Za-z0-9_-]+$"  # base64url without padding: what encode gives, what the documents say a token is
_ALPHABET = re.compile(PATTERN)


class BadToken(ValueError):
    """A ``next`` that is not one this list gave the caller."""


def encode(key: dict[str, Any] | None) -> str | None:
    """The token for where a list goes on (None: there is nothing more)."""
    if key is None:
        return None
    raw = json.dumps({"pk": key["pk"], "sk": key["sk"]}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode(token: str, pk: str, prefix: str) -> dict[str, str]:
    """The key a token stands for, if it is one of partition ``pk`` under sort-key ``prefix``; else BadToken."""
    if not token or len(token) > MAX_TOKEN or not _ALPHABET.fullmatch(token):  # (base64 decoding skips others)
        raise BadToken("not a page token")
    try:
        key = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except (binascii.Error, ValueError) as e:  # bad base64, bad UTF-8, bad JSON
        raise BadToken("not a page token") from e
    if not isinstance(key, dict) or set(key) != {"pk", "sk"} or not all(isinstance(v, str) for v in key.values()):
        raise BadToken("not a page token")
    if key["pk"] != pk:
        raise BadToken("a page token of another list")
    if not key["sk"].startswith(prefix) or len(key["sk"]) == len(prefix):
        raise BadToken("a page token of another list")
    return {"pk": key["pk"], "sk": key["sk"]}
