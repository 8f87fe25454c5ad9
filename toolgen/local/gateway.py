"""The embedded default's front door: one real HTTP server on loopback that plays three AWS parts.

- API Gateway (REST API): every request but those below becomes the API function's proxy event; one to a
  route that is not public first passes the token authorizer function, as template.yaml's API does (its
  answer cached per token for 300 s; a refusal is the gateway response template.yaml gives: 401, our body).
- Function URLs: ``/t/{tool_id}/...`` becomes a function URL event for that tool's function, called through the
  alias its URL is on (``live``); a function without a URL answers 404, and the URL's CORS configuration is
  applied as Lambda applies it (preflights answered without calling the function, allow-origin on answers).
- Lambda's Invoke API: ``POST /2015-03-31/functions/{name}/invocations``, so boto3's ``invoke`` (the worker's
  probe, or a developer) runs functions through the local runtime, as ``sam local start-lambda`` does. Only for
  callers holding the emulator's credentials (or a function's session): the request's SigV4 signature is checked
  as AWS checks it (toolgen/local/sigv4.py); anyone else gets Lambda's 403, and no stack trace is ever answered.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from toolgen.auth import PUBLIC_PATHS
from toolgen.deploy.plan import TOOL_ALIAS
from toolgen.events import proxy_response, rest_event, url_event
from toolgen.local import sigv4
from toolgen.local.lambda_runtime import InvokeResult, LocalLambdaRuntime

logger = logging.getLogger(__name__)
MAX_PAYLOAD = 6 * 1024 * 1024  # Lambda's synchronous payload limit
MAX_DRAIN = 32 * 1024 * 1024
AUTHORIZER_TTL_S = 300  # template.yaml's ReauthorizeEvery
AUTHORIZER_CACHE = 4096
# The rest as it came, a final newline too ("." and "$" would drop it: "/cards/%0A" reached the tool as "/cards/")
TOOL_PATH = re.compile(r"^/t/(?P<tool_id>[A-Za-z0-9_-]{1,64})(?P<rest>/.*)?\Z", re.DOTALL)
INVOKE_PATH = re.compile(r"^/2015-03-31/functions/(?P<name>[^/]+)/invocations$")


class _Server(ThreadingHTTPServer):
    # The listen backlog: the default 5 resets connections when many callers arrive at once (bench/load.py).
    request_queue_size = 256


class Gateway:
    """The HTTP server; ``api_function`` serves the platform API, tools are ``tool_prefix + tool_id``."""

    def __init__(
        self,
        runtime: LocalLambdaRuntime,
        *,
        host: str,
        port: int,
        api_function: str,
        tool_prefix: str,
        tool_qualifier: str = TOOL_ALIAS,
        authorizer_function: str | None = None,
        keys: sigv4.Keys | None = None,
    ) -> None:
        """``keys``: who may use the Invoke API (the emulator's; None: nobody)."""
        self.runtime = runtime
        self.keys = keys or sigv4.Keys()
        self.authorizer_function = authorizer_function
        self._authorized: dict[str, tuple[str, float]] = {}  # token -> (user, until)
        self._authorized_lock = threading.Lock()
        self.api_function = api_function
        self.tool_prefix = tool_prefix
        self.tool_qualifier = tool_qualifier
        gateway = self

        class Handler(_Handler):
            owner = gateway

        self.server = _Server((host, port), Handler)
        self.server.daemon_threads = True
        host_, port_ = self.server.server_address[:2]
        self.host, self.port = str(host_), int(port_)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> None:
        self._thread = threading.Thread(target=self.server.serve_forever, name="gateway", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:  # shutdown() waits for serve_forever: never, for a gateway never started
            self.server.shutdown()
        self.server.server_close()


def _json(status: int, body: dict[str, Any], extra: list[tuple[str, str]] | None = None) -> tuple[int, list, bytes]:
    return status, [("Content-Type", "application/json"), *(extra or [])], json.dumps(body).encode()


# template.yaml's UNAUTHORIZED gateway response
UNAUTHORIZED = _json(
    401,
    {"code": "unauthorized", "message": "missing or invalid bearer token", "details": None},
    [("WWW-Authenticate", "Bearer"), ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "no-store")],
)


def invocation_failure(result: InvokeResult) -> tuple[int, list[tuple[str, str]], bytes] | None:
    """The HTTP answer for a call that never produced a function response (None when it did)."""
    if result.status == "throttled":
        return _json(429, {"code": "throttled", "message": "Rate Exceeded.", **result.payload}, [("Retry-After", "1")])
    if result.status == "not_found":
        return _json(404, {"code": "not_found", "message": "no such tool"})
    if result.status == "timeout":
        return _json(504, {"code": "timeout", "message": result.payload["errorMessage"], **result.payload})
    if result.status == "error":
        error = result.payload or {}
        return _json(
            502,
            {
                "code": "function_error",
                "message": "Internal Server Error",
                "errorType": error.get("errorType"),
                "errorMessage": error.get("errorMessage"),
            },
        )
    return None


class _Cors:
    """The CORS headers a function URL adds: on a preflight, and on every answer to an allowed origin."""

    def __init__(self, preflight: list[tuple[str, str]], simple: list[tuple[str, str]]) -> None:
        self.preflight = preflight
        self.simple = simple

    def merge(self, headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """The function's headers with the URL's CORS headers in place of any of its own (Lambda's rule)."""
        if not self.simple:
            return headers
        own = [(k, v) for k, v in headers if not k.lower().startswith("access-control-")]
        return [*own, *self.simple]


def cors_headers(config: dict[str, Any], request: Any) -> _Cors:
    """What a function URL with CORS ``config`` answers a request with these headers."""
    origin = request.get("Origin")
    allowed = config.get("AllowOrigins") or []
    if not origin or not ("*" in allowed or origin in allowed):
        return _Cors([], [])
    allow_origin = "*" if "*" in allowed and not config.get("AllowCredentials") else origin
    simple = [("Access-Control-Allow-Origin", allow_origin), ("Vary", "Origin")]
    if config.get("ExposeHeaders"):
        simple.append(("Access-Control-Expose-Headers", ", ".join(config["ExposeHeaders"])))
    if config.get("AllowCredentials"):
        simple.append(("Access-Control-Allow-Credentials", "true"))
    preflight = [*simple]
    if config.get("AllowMethods"):
        preflight.append(("Access-Control-Allow-Methods", ", ".join(config["AllowMethods"])))
    if config.get("AllowHeaders"):
        preflight.append(("Access-Control-Allow-Headers", ", ".join(config["AllowHeaders"])))
    if config.get("MaxAge") is not None:
        preflight.append(("Access-Control-Max-Age", str(config["MaxAge"])))
    return _Cors(preflight, simple)


BODY_TIMEOUT_S = 2.0


class _Handler(BaseHTTPRequestHandler):
    owner: Gateway
    protocol_version = "HTTP/1.1"
    server_version = "toolgen-local"

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("%s %s", self.address_string(), format % args)

    def _serve(self) -> None:
        declared = (self.headers.get("Content-Length") or "0").strip()
        if not (declared.isascii() and declared.isdigit()):  # "-1", ":", "²": no body can be read by it
            self.close_connection = True
            self._send(*_json(400, {"code": "bad_request", "message": "Content-Length is not a length"}))
            return
        length = int(declared)
        if length > MAX_PAYLOAD:
            # Read (and drop) a body up to a bound, so the client is listening when the 413 arrives.
            remaining = min(length, MAX_DRAIN)
            while remaining > 0 and (chunk := self.rfile.read(min(remaining, 1 << 16))):
                remaining -= len(chunk)
            self.close_connection = True
            self._send(*_json(413, {"code": "payload_too_large", "message": "the request body is over 6 MB"}))
            return
        body = b""
        if length:
            self.connection.settimeout(BODY_TIMEOUT_S)  # a body shorter than its Content-Length never ends
            try:
                body = self.rfile.read(length)
            except TimeoutError:
                body = b""
            finally:
                self.connection.settimeout(None)
            if len(body) < length:
                self.close_connection = True
                self._send(
                    *_json(400, {"code": "bad_request", "message": "the body is shorter than its Content-Length"})
                )
                return
        parts = urlsplit(self.path)
        path = unquote(parts.path) or "/"
        headers = list(self.headers.items())
        host = self.headers.get("Host") or f"{self.owner.host}:{self.owner.port}"
        try:
            if (m := INVOKE_PATH.match(path)) and self.command == "POST":
                unsigned = sigv4.check(self.owner.keys, self.command, self.path, dict(self.headers.items()), body)
                if unsigned is not None:
                    self._send(*sigv4.refusal_response(unsigned, {"content-type": "application/json"}))
                    return
                qualifier = parse_qs(parts.query).get("Qualifier", [""])[0]
                self._send(*self._invoke_api(m.group("name") + (f":{qualifier}" if qualifier else ""), body))
            elif m := TOOL_PATH.match(path):
                self._send(*self._tool(m.group("tool_id"), m.group("rest") or "/", parts.query, body, host))
            else:
                event = rest_event(
                    self.command, path, parts.query, headers, body, source_ip=self.client_address[0], host=host
                )
                refused = self._authorize(path, event)
                self._send(*(refused or self._call(self.owner.api_function, event)))
        except Exception:
            logger.exception("gateway failed on %s %s", self.command, path)
            self._send(*_json(500, {"code": "internal_error", "message": "the local gateway failed"}))

    def _authorize(self, path: str, event: dict[str, Any]) -> tuple[int, list, bytes] | None:
        """Run the token authorizer for a non-public route: None when it allows the call (the event then carries
        its answer, as API Gateway passes it on), else the answer to give: 401 refused, 429 busy, 500 broken."""
        owner = self.owner
        if owner.authorizer_function is None or PUBLIC_PATHS.match(path):
            return None
        token = self.headers.get("Authorization")
        if not token:
            return UNAUTHORIZED
        now = time.monotonic()
        with owner._authorized_lock:
            cached = owner._authorized.get(token)
        if cached is None or cached[1] < now:
            arn = f"arn:aws:execute-api:us-east-1:123456789012:local/Prod/{self.command}{path}"
            result = owner.runtime.invoke(
                owner.authorizer_function, {"type": "TOKEN", "authorizationToken": token, "methodArn": arn}
            )
            if result.status == "throttled":  # busy, not a verdict on the token
                return invocation_failure(result)
            if result.status == "error" and (result.payload or {}).get("errorMessage") == "Unauthorized":
                return UNAUTHORIZED
            if result.status != "ok" or not isinstance(result.payload, dict):  # API Gateway: AUTHORIZER_FAILURE
                return _json(500, {"code": "authorizer_failure", "message": "the authorizer failed", "details": None})
            cached = (str(result.payload["principalId"]), now + AUTHORIZER_TTL_S)
            with owner._authorized_lock:
                if len(owner._authorized) >= AUTHORIZER_CACHE:  # a long-running serve: expired answers go first
                    owner._authorized = {t: a for t, a in owner._authorized.items() if a[1] >= now}
                owner._authorized[token] = cached
        event["requestContext"]["authorizer"] = {"principalId": cached[0], "user": cached[0]}
        return None

    def _tool(self, tool_id: str, path: str, query: str, body: bytes, host: str) -> tuple[int, list, bytes]:
        """A call to a tool's function URL."""
        function = self.owner.tool_prefix + tool_id
        url = self.owner.runtime.source.url_config(function)
        if url is None:
            return _json(404, {"code": "not_found", "message": "no such tool"})
        cors = cors_headers(url.get("Cors") or {}, self.headers)
        if self.command == "OPTIONS" and self.headers.get("Access-Control-Request-Method"):
            return 200, cors.preflight, b""
        headers = list(self.headers.items())
        event = url_event(self.command, path, query, headers, body, source_ip=self.client_address[0], host=host)
        status, answer_headers, answer = self._call(f"{function}:{self.owner.tool_qualifier}", event)
        return status, cors.merge(answer_headers), answer

    def _call(self, function: str, event: dict[str, Any]) -> tuple[int, list[tuple[str, str]], bytes]:
        result = self.owner.runtime.invoke(function, event)
        failure = invocation_failure(result)
        return failure if failure else proxy_response(result.payload)

    def _invoke_api(self, name: str, body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
        try:
            event = json.loads(body or b"{}")
        except ValueError:
            return _json(
                400,
                {"Type": "User", "message": "Could not parse request body into json"},
                [("x-amzn-ErrorType", "InvalidRequestContentException")],
            )
        result = self.owner.runtime.invoke(name, event)
        if result.status == "throttled":
            return _json(429, result.payload, [("x-amzn-ErrorType", "TooManyRequestsException")])
        if result.status == "not_found":
            return _json(404, result.payload, [("x-amzn-ErrorType", "ResourceNotFoundException")])
        extra = [("X-Amz-Executed-Version", result.version)]
        payload = result.payload
        if result.status in ("error", "timeout"):
            extra.append(("X-Amz-Function-Error", "Unhandled"))
            if isinstance(payload, dict):  # the error's type and message; its stack stays in the function's log
                payload = {k: v for k, v in payload.items() if k != "stackTrace"}
        return 200, [("Content-Type", "application/json"), *extra], json.dumps(payload).encode()

    def _send(self, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
        self.send_response(status)
        for name, value in headers:
            if name.lower() not in ("content-length", "connection", "transfer-encoding"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusals (a bad request line, headers too long, a method it has no ``do_`` for) in
        the error shape every other answer has, not its HTML page; an unknown method (TRACE, CONNECT, PROPFIND)
        is 405 with the methods there are, as API Gateway and function URLs serve no others."""
        self.close_connection = True
        if code == HTTPStatus.NOT_IMPLEMENTED:
            body = {"code": "method_not_allowed", "message": f"method {self.command!r} is not allowed", "details": None}
            self._send(*_json(405, body, [("Allow", ", ".join(METHODS))]))
            return
        phrase = HTTPStatus(code).phrase if code in HTTPStatus._value2member_map_ else "error"
        code_name = phrase.lower().replace(" ", "_").replace("-", "_")
        self._send(*_json(code, {"code": code_name, "message": message or phrase, "details": None}))

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _serve


METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
