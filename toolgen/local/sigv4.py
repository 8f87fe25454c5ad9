"""The embedded default's AWS checks who is calling: Signature Version 4, as AWS does, on every request.

moto's server answers any credentials at all, so on a shared machine anyone could list the functions, scan the
table, or call moto's own reset API. `toolgen serve` makes its own random credentials; the emulator and the local
Invoke API accept a request only when its Authorization header signs it (SigV4) with those or with a session
moto's STS issued (the ones each function process runs with), within 15 minutes of now, over the body it carries.
Presigned URLs are refused: nothing here hands them out.
The signature is recomputed with botocore's own signer from the request as it arrived, so whatever botocore and
toolgen/awslite.py sign, this checks.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from botocore.auth import S3SigV4Auth, SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

SKEW = timedelta(minutes=15)  # AWS's RequestTimeTooSkewed
AUTHORIZATION = re.compile(
    r"^AWS4-HMAC-SHA256\s+Credential=(?P<key>[^/\s,]+)/(?P<date>\d{8})/(?P<region>[^/\s,]+)/(?P<service>[^/\s,]+)"
    r"/aws4_request,\s*SignedHeaders=(?P<signed>[a-z0-9;._-]+),\s*Signature=(?P<signature>[0-9a-f]{64})$"
)
STREAMING = ("STREAMING-", "UNSIGNED-PAYLOAD")  # payload hashes that leave the body out of the signature


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused: AWS's error code for it, and a message."""

    code: str
    message: str
    service: str = ""


class Keys:
    """Who may call: secrets by access key id, kept here (serve's own) or found in moto's STS (sessions)."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[str, str]] = {}
        self._lock = threading.Lock()

    def add(self, access_key: str, secret: str, token: str = "") -> None:
        with self._lock:
            self._known[access_key] = (secret, token)

    def remove(self, access_key: str) -> None:
        with self._lock:
            self._known.pop(access_key, None)

    def secret(self, access_key: str) -> tuple[str, str] | None:
        """(secret, session token) of a key allowed to call, or None."""
        with self._lock:
            if access_key in self._known:
                return self._known[access_key]
        return _sts_session(access_key)


def _sts_session(access_key: str) -> tuple[str, str] | None:
    """A session moto's STS issued (AssumeRole in any account, or the runtime's function sessions)."""
    session = _session(access_key)
    if session is None or session.expiration < datetime.now(UTC).replace(tzinfo=None):
        return None
    return session.secret_access_key, session.session_token


_sessions: dict[str, Any] = {}  # access key -> moto's session: found once, not by a scan on every request


def _session(access_key: str) -> Any | None:
    if access_key in _sessions:
        return _sessions[access_key]
    from moto.sts.models import sts_backends

    for account in list(sts_backends.keys()):
        for backend in list(sts_backends[account].values()):
            found = backend.get_assumed_role_from_access_key(access_key)
            if found is not None:
                _sessions[access_key] = found  # a session's keys and role never change
                return found
    return None


@functools.lru_cache(maxsize=4096)
def session_services(access_key: str) -> set[str] | None:
    """The services a role session's policies allow any action of ("*": all), None for credentials that are not a
    session (kept per session: a role's policies are written when the platform is provisioned). IAM would refuse
    the rest; the emulator checks each DynamoDB call in full (fidelity.py) and, for every
    other service, that the role may use it at all: a tool's session reaches DynamoDB only, not the platform's
    secret in Secrets Manager nor the Invoke API."""
    session = _session(access_key)
    if session is None:
        return None
    from moto.iam.models import iam_backends
    from moto.utilities.utils import get_partition

    try:
        role = iam_backends[session.account_id][get_partition(session.region_name)].get_role_by_arn(session.role_arn)
    except Exception:  # noqa: BLE001 - moto's not-found: moto lets anyone assume a role it does not hold
        return None  # (a member account's platform role in tests): nothing to hold it to; DynamoDB still checks
    documents = list(role.policies.values())
    for managed in role.managed_policies.values():
        documents += [v.document for v in managed.versions if v.is_default]
    services: set[str] = set()
    for document in documents:
        parsed = json.loads(document) if isinstance(document, str) else document
        statements = parsed.get("Statement", [])
        for statement in statements if isinstance(statements, list) else [statements]:
            if statement.get("Effect") != "Allow":
                continue
            actions = statement.get("Action", [])
            for action in [actions] if isinstance(actions, str) else actions:
                services.add("*" if action == "*" else action.split(":")[0].lower())
    return services


def check(
    keys: Keys,
    method: str,
    raw_path: str,
    headers: Mapping[str, str],
    body: bytes,
    *,
    now: datetime | None = None,
) -> Refusal | None:
    """None when the request is signed by a key allowed to call; else why not. ``raw_path``: the path and query
    exactly as they arrived (percent-encoded); ``headers``: as received (any case)."""
    lower = {k.lower(): v for k, v in headers.items()}
    query = raw_path.partition("?")[2]
    if "x-amz-signature=" in query.lower():  # nothing here hands out presigned URLs
        return Refusal("AccessDenied", "presigned URLs are not accepted by the emulator")
    found = AUTHORIZATION.match((lower.get("authorization") or "").strip())
    if not found:
        return Refusal("MissingAuthenticationToken", "requests must be signed with the emulator's credentials")
    service = found["service"]
    known = keys.secret(found["key"])
    if known is None:
        code = "InvalidAccessKeyId" if service == "s3" else "InvalidClientTokenId"
        return Refusal(code, "the access key is not the emulator's", service)
    secret, token = known
    if token and lower.get("x-amz-security-token") != token:
        return Refusal("InvalidClientTokenId", "the session token does not match its access key", service)
    stamp = lower.get("x-amz-date", "")
    refused = _timely(stamp, found["date"], now or datetime.now(UTC), service)
    if refused:
        return refused
    payload = lower.get("x-amz-content-sha256")
    if payload and payload.startswith(STREAMING):  # nothing here sends these over http: the body would go unsigned
        return Refusal("AccessDenied", "an unsigned or streamed payload is not accepted by the emulator", service)
    if payload and payload != hashlib.sha256(body).hexdigest():
        return Refusal("XAmzContentSHA256Mismatch", "the body is not the one that was signed", service)
    signed = found["signed"].split(";")
    if "host" not in signed:
        return Refusal("SignatureDoesNotMatch", "the host header must be signed", service)
    request = AWSRequest(
        method=method,
        url=f"http://{lower.get('host', '')}{raw_path}",
        headers={name: lower.get(name, "") for name in signed},
        data=body,
    )
    request.context["timestamp"] = stamp
    signer = (S3SigV4Auth if service == "s3" else SigV4Auth)(
        Credentials(found["key"], secret), service, found["region"]
    )
    string_to_sign = signer.string_to_sign(request, signer.canonical_request(request))
    expected = signer.signature(string_to_sign, request)
    if not hmac.compare_digest(expected, found["signature"]):
        return Refusal("SignatureDoesNotMatch", "the request signature does not match", service)
    services = session_services(found["key"])  # who the caller is is known now: what their role may use
    if services is not None and "*" not in services and service not in services:
        return Refusal("AccessDenied", f"the caller's role may not use {service}", service)
    return None


def _timely(stamp: str, scope_date: str, now: datetime, service: str) -> Refusal | None:
    try:
        when = datetime.strptime(stamp, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    except ValueError:
        return Refusal("IncompleteSignature", "X-Amz-Date is missing or malformed", service)
    if stamp[:8] != scope_date:
        return Refusal("SignatureDoesNotMatch", "the credential scope's date is not X-Amz-Date's", service)
    if abs(now - when) > SKEW:
        return Refusal("RequestTimeTooSkewed", "the request was signed more than 15 minutes from now", service)
    return None


def refusal_response(refusal: Refusal, headers: Mapping[str, str]) -> tuple[int, list[tuple[str, str]], bytes]:
    """AWS's answer for a refused request, in the protocol its client reads (XML for S3 and the query protocol,
    JSON with ``x-amzn-ErrorType`` for the JSON and REST-JSON ones), so boto3 raises a ClientError with the code."""
    lower = {k.lower(): v for k, v in headers.items()}
    status = 400 if refusal.code in ("RequestTimeTooSkewed", "XAmzContentSHA256Mismatch") else 403
    json_protocol = "x-amz-target" in lower or "json" in lower.get("content-type", "") or refusal.service == "lambda"
    if json_protocol:
        body = json.dumps({"__type": refusal.code, "message": refusal.message}).encode()
        return status, [("Content-Type", "application/x-amz-json-1.1"), ("x-amzn-ErrorType", refusal.code)], body
    if refusal.service == "s3":
        xml = f"<Error><Code>{refusal.code}</Code><Message>{refusal.message}</Message></Error>"
    else:
        xml = (
            f"<ErrorResponse><Error><Type>Sender</Type><Code>{refusal.code}</Code>"
            f"<Message>{refusal.message}</Message></Error></ErrorResponse>"
        )
    return status, [("Content-Type", "text/xml")], ('<?xml version="1.0" encoding="UTF-8"?>' + xml).encode()


def read_request(environ: dict[str, Any]) -> tuple[bytes, dict[str, str]]:
    """A WSGI request's body (read once, and put back for the app) and its headers, lower-cased."""
    import io

    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(length) if length > 0 else b""
    environ["wsgi.input"] = io.BytesIO(body)
    headers = {k[5:].replace("_", "-").lower(): v for k, v in environ.items() if k.startswith("HTTP_")}
    if environ.get("CONTENT_TYPE"):
        headers["content-type"] = environ["CONTENT_TYPE"]
    if environ.get("CONTENT_LENGTH"):
        headers["content-length"] = environ["CONTENT_LENGTH"]
    return body, headers


def middleware(app: Any, keys: Keys) -> Any:
    """A WSGI app that passes to ``app`` only the requests ``check`` allows (the body read once and handed on)."""

    def guarded(environ: dict[str, Any], start_response: Any) -> Any:
        body, headers = read_request(environ)
        raw = environ.get("RAW_URI") or environ.get("REQUEST_URI") or environ.get("PATH_INFO", "/")
        refused = check(keys, environ["REQUEST_METHOD"], raw, headers, body)
        if refused is None:
            return app(environ, start_response)
        status, answer_headers, answer = refusal_response(refused, headers)
        start_response(f"{status} Refused", [*answer_headers, ("Content-Length", str(len(answer)))])
        return [answer]

    return guarded
