"""The e2e tier: `toolgen serve` in a subprocess on a free port, driven over real HTTP like a person would."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from tests.upstream import Upstream
from toolgen import auth
from toolgen.runtime.fetch import PUBLIC_APIS

SECRET = "e2e-secret"
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Server:
    url: str
    aws_endpoint: str
    home: Path
    pid: int = 0

    def token(self, user: str) -> str:
        return auth.mint(user, SECRET)


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: Any


def http(
    method: str, url: str, *, token: str | None = None, body: Any = None, raw: bytes | None = None, timeout: float = 30
) -> Reply:
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    headers = {"Content-Type": "application/json"} if data is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, got_headers, text = resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as e:
        with e:  # the error holds the open response: closed here, not by the collector
            status, got_headers, text = e.code, dict(e.headers), e.read()
    try:
        parsed = json.loads(text) if text else None
    except ValueError:
        parsed = text.decode()
    return Reply(status, got_headers, parsed)


@pytest.fixture(scope="session")
def upstream() -> Iterator[Upstream]:
    """Stand-ins for the public APIs tools fetch from (Open-Meteo, Frankfurter), on loopback."""
    fixture = Upstream()
    yield fixture
    fixture.stop()


@contextlib.contextmanager
def running_server(
    home: Path, extra_env: dict[str, str], args: tuple[str, ...] = (), *, keep_state: bool = False, port: int = 0
) -> Iterator[Server]:
    """`toolgen serve` in a subprocess (on a free port unless given; ``--ephemeral`` unless ``keep_state``),
    stopped (and checked to stop cleanly, unless the test killed it) afterwards."""
    args = (*args, *(() if keep_state else ("--ephemeral",)))
    env = {**os.environ, "TOOLGEN_HOME": str(home), "TOOLGEN_SECRET": SECRET, "PYTHONUNBUFFERED": "1", **extra_env}
    log = (home / "serve.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolgen.cli", "serve", "--port", str(port), *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    deadline, line = time.monotonic() + 90, ""
    while time.monotonic() < deadline and proc.poll() is None:
        line = proc.stdout.readline()
        if "serving on" in line:
            break
    match = re.search(r"serving on (\S+)\s+\(AWS emulator: (\S+)\)", line)
    if not match:
        proc.kill()
        proc.wait()
        pytest.fail(f"toolgen serve did not start: {_tail(home)}")
    try:
        yield Server(url=match.group(1), aws_endpoint=match.group(2), home=home, pid=proc.pid)
    finally:
        proc.terminate()
        try:
            # 0 on SIGTERM; -9 only when the test itself killed it (kill -9 runs no handler). serve ends itself
            # (status 1, every thread's stack in its log) when its stop outlasts STOP_GRACE_S; a minute is past that.
            code = proc.wait(timeout=60)
            assert code in (0, -9), f"toolgen serve did not stop cleanly on SIGTERM ({code}): {_tail(home)}"
        finally:
            proc.kill()
            proc.wait()
            proc.stdout.close()
            log.close()


def _tail(home: Path) -> str:
    return (home / "serve.log").read_text(errors="replace")[-4000:]


class StaticSite:
    """A second origin serving pages as a bucket website would: each page with its CSP header."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[str, str]] = {}
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                found = site.pages.get(self.path.split("?")[0])
                body = found[0].encode() if found else b"not found"
                self.send_response(200 if found else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8" if found else "text/plain")
                if found:
                    self.send_header("Content-Security-Policy", found[1])
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="session")
def bucket_site() -> Iterator[StaticSite]:
    site = StaticSite()
    yield site
    site.stop()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, upstream: Upstream, bucket_site: StaticSite) -> Iterator[Server]:
    # Test configuration only: the allowed hosts point at the fixture (a request can never set this), which also
    # plays the outside fact checker; pages may also be served from the bucket-like site's origin.
    overrides = json.dumps({host: upstream.url for host in PUBLIC_APIS})
    extra = {
        "TOOLGEN_FETCH_OVERRIDES": overrides,
        "MEMORY_VERIFIER_URL": f"{upstream.url}/verify",
        "TOOL_CORS_ORIGINS": bucket_site.url,
        # An account whose quota was raised far past the default: the session makes hundreds of tools, and the
        # tests of reserved concurrency need theirs reserved (tests/e2e/test_account_limits.py runs a small one).
        "TOOLGEN_ACCOUNT_CONCURRENCY": "100000",
    }
    with running_server(tmp_path_factory.mktemp("serve-home"), extra) as started:
        yield started


def aws_client(server: Server, service: str, **credentials: str) -> Any:
    """A boto3 client on the running platform's emulator, with the credentials serve made for it (those in
    TOOLGEN_HOME/serve.json, as operator commands use them) unless others are given."""
    import boto3

    aws = json.loads((server.home / "serve.json").read_text())["aws"]
    return boto3.client(
        service,
        endpoint_url=server.aws_endpoint,
        region_name="us-east-1",
        aws_access_key_id=credentials.get("key", aws["AWS_ACCESS_KEY_ID"]),
        aws_secret_access_key=credentials.get("secret", aws["AWS_SECRET_ACCESS_KEY"]),
        aws_session_token=credentials.get("token", aws["AWS_SESSION_TOKEN"]),
    )


def wait_for_job(server: Server, job_id: str, token: str, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = http("GET", f"{server.url}/v1/jobs/{job_id}", token=token).body
        if job["status"] in ("succeeded", "failed", "needs_clarification", "refused"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish: {job}")


def generate(server: Server, prompt: str, user: str = "alice") -> dict:
    token = server.token(user)
    accepted = http("POST", f"{server.url}/v1/tools", token=token, body={"prompt": prompt})
    assert accepted.status == 202, accepted.body
    return wait_for_job(server, accepted.body["job_id"], token)


# --- a real browser (Debian's chromium, driven by playwright) -----------------------------------------------------

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# As the machine's probe runs it: as root, without the sandbox, and without reaching for Google's services.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no chromium at {CHROMIUM}: `make test` installs Debian's (or set CHROMIUM)")
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


class Watched:
    """A page with what went wrong in it: uncaught errors, CSP violations, dialogs (an alert is an injection)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", self._console)
        page.on("dialog", self._dialog)

    def _console(self, message) -> None:
        if message.type == "error" and "favicon" not in message.text and "Failed to load resource" not in message.text:
            self.errors.append(message.text)

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()


@pytest.fixture
def watched(browser: Browser) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 900, "height": 1000}, color_scheme="light")
    seen = Watched(context.new_page())
    yield seen
    context.close()


def open_tool(seen: Watched, url: str, token: str) -> Page:
    seen.page.goto(f"{url}#token={token}")
    seen.page.wait_for_selector("body[data-ready=true]", timeout=20000)
    return seen.page


def until(page: Page, expression: str, timeout: float = 10.0) -> None:
    """Wait for a JS expression to be true. (Polled with evaluate: Playwright's wait_for_function compiles its
    predicate with eval, which the page's CSP rightly refuses.)"""
    deadline = time.monotonic() + timeout
    while not page.evaluate(f"() => Boolean({expression})"):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        time.sleep(0.05)
