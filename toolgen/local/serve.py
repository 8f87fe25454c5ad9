"""`toolgen serve`: the whole platform in one process, on loopback, with no AWS account, Docker or API key."""

from __future__ import annotations

import contextlib
import faulthandler
import json
import logging
import os
import shutil
import signal
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NoReturn

from toolgen.auth import state_dir
from toolgen.config import TOOL_FUNCTION_PREFIX
from toolgen.errors import ConfigError
from toolgen.local.emulator import KEYS, REGION, Emulator, MotoFunctionSource
from toolgen.local.fidelity import DEFAULT_ACCOUNT_CONCURRENCY
from toolgen.local.gateway import Gateway
from toolgen.local.journal import Journal
from toolgen.local.lambda_runtime import LocalLambdaRuntime
from toolgen.local.platform import API_FUNCTION, AUTHORIZER_FUNCTION, WORKER_FUNCTION, Resources, provision
from toolgen.local.poller import QueuePoller
from toolgen.models import JobMessage
from toolgen.table import decode

logger = logging.getLogger(__name__)
# Operator settings a developer may pass through to the platform's functions (e.g. a test's fetch fixture).
PASSTHROUGH = (
    "TOOLGEN_FETCH_OVERRIDES",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "TOOLGEN_MODEL",
    "TOOLGEN_LLM_TIMEOUT",
    "TOOLGEN_LLM_PROVIDER",  # bedrock, openai, none or auto (toolgen/llm/__init__.py)
    "TOOLGEN_LLM_JSON_MODE",
    "TOOLGEN_MEMORY_LLM_TIMEOUT",
    "TOOLGEN_BEDROCK_MODEL_ID",
    "AWS_ENDPOINT_URL_BEDROCK_RUNTIME",  # a stand-in for Bedrock (the functions' credentials are the emulator's)
    "TOOL_CORS_ORIGINS",  # more origins that may call tools (pages served elsewhere, as from a bucket)
    "TOOL_RESERVE_PERCENT",  # how much of the account's quota tools may reserve (toolgen/deploy/execute.py)
)
PASSTHROUGH_PREFIXES = ("MEMORY_",)  # recall's settings and the fact checker (toolgen/memory/scoring.py)
STATE_DIR = "state"  # the journal of every write (toolgen/local/journal.py), unless --ephemeral
STATE_FILE = "serve.json"  # where a running platform says where it is, for operator commands (toolgen doctor)
SIGNAL_POLL_S = 0.2  # how soon a signal delivered to another thread is acted on
STOP_GRACE_S = 30.0  # a stop that takes longer prints every thread's stack and ends the process (exit status 1)


class LocalPlatform:
    """Emulator + local Lambda runtime + gateway + queue poller, started and stopped together."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 8377,
        secret: str,
        verbose: bool = False,
        account_concurrency: int = DEFAULT_ACCOUNT_CONCURRENCY,
        state: Path | None = None,
        salvage: bool = False,
    ) -> None:
        """``state``: the directory whose journal keeps every write across restarts (None: in memory only);
        ``salvage``: a journal damaged before its end keeps the records before the damage (journal.py)."""
        self.host, self.port, self.secret, self.verbose = host, port, secret, verbose
        self.journal = Journal(state, salvage=salvage) if state is not None else None
        # on loopback, whatever ``host`` is
        self.emulator = Emulator(account_concurrency=account_concurrency, journal=self.journal)
        self.restored = 0
        self.workdir = Path(tempfile.mkdtemp(prefix="toolgen-local-"))
        self.resources: Resources | None = None
        self._stop = threading.Event()

    def _child_env(self) -> dict[str, str]:
        keep = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "SYSTEMROOT") if k in os.environ}
        return {
            **keep,
            **self.emulator.environment(),
            "TZ": "UTC",
            "PYTHONUNBUFFERED": "1",
            "POWERTOOLS_LOG_LEVEL": "INFO" if self.verbose else "WARNING",
        }

    def start(self) -> None:
        self.emulator.start()
        self.runtime = LocalLambdaRuntime(MotoFunctionSource(), self.workdir, self._child_env())
        self.gateway = Gateway(
            self.runtime,
            host=self.host,
            port=self.port,
            api_function=API_FUNCTION,
            tool_prefix=TOOL_FUNCTION_PREFIX,
            authorizer_function=AUTHORIZER_FUNCTION,
            keys=KEYS,
        )
        extra = {k: v for k, v in os.environ.items() if v and (k in PASSTHROUGH or k.startswith(PASSTHROUGH_PREFIXES))}
        self.resources = provision(self.emulator, public_url=self.gateway.url, secret=self.secret, extra_env=extra)
        if self.journal is not None:
            same_resources(self.journal.path.parent, self.resources)
            self.restored = self.emulator.restore()
            resumed = resume_jobs(self.emulator, self.resources)
            if self.restored:
                logger.warning("restored %d writes; %d unfinished jobs sent back to the queue", self.restored, resumed)
            if self.journal.failed:
                logger.warning(
                    "%d of the %d kept writes did not apply again (the first: write %d); what they changed is missing",
                    len(self.journal.failed),
                    self.restored,
                    self.journal.failed[0],
                )
        self.gateway.start()
        self.poller = QueuePoller(
            self.emulator.client("sqs"),
            self.runtime,
            queue_url=self.resources.queue_url,
            queue_arn=self.resources.queue_arn,
            function=WORKER_FUNCTION,
            region=REGION,
        )
        self._warm()
        self.poller.start()
        threading.Thread(target=self._reap, name="reaper", daemon=True).start()
        self._write_state()

    def _write_state(self) -> None:
        """TOOLGEN_HOME/serve.json (0600): the emulator and resource names, so `toolgen doctor` can find them."""
        assert self.resources is not None
        state = {
            "url": self.gateway.url,
            "pid": os.getpid(),
            "aws": self.emulator.environment(),
            "table": self.resources.table,
            "bucket": self.resources.bucket,
            "tool_function_prefix": TOOL_FUNCTION_PREFIX,
            "jobs_queue_url": self.resources.queue_url,
            "jobs_dlq_url": self.resources.dlq_url,
        }
        path = state_dir() / STATE_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{STATE_FILE}.{os.getpid()}")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(state, f)
        partial.replace(path)  # whole or not at all: a reader (toolgen doctor) never sees it half-written
        self._state_path = path

    def _warm(self) -> None:
        """One initialised API, worker and authorizer environment each (provisioned concurrency of 1), so the first
        request does not pay their cold start, and a broken platform function fails `serve` at once."""
        with ThreadPoolExecutor(2) as pool:
            names = (API_FUNCTION, WORKER_FUNCTION, AUTHORIZER_FUNCTION)
            for future in [pool.submit(self.runtime.prewarm, name) for name in names]:
                future.result()

    def _reap(self) -> None:
        while not self._stop.wait(30):
            self.runtime.reap_idle()

    @property
    def url(self) -> str:
        return self.gateway.url

    def stop(self) -> None:
        self._stop.set()
        if getattr(self, "_state_path", None):
            self._state_path.unlink(missing_ok=True)
        # No new work, then stop every function process (a job in flight ends there, its message left on the
        # queue, as when a real worker dies), then wait for the pollers, then the front door.
        steps = []
        if hasattr(self, "poller"):
            steps.append(self.poller.signal)
        if hasattr(self, "runtime"):
            steps.append(self.runtime.shutdown)
        if hasattr(self, "poller"):
            steps.append(self.poller.stop)
        if hasattr(self, "gateway"):
            steps.append(self.gateway.stop)
        steps.append(self.emulator.stop)  # no write can arrive after it: then the journal closes
        if self.journal is not None:
            steps.append(self.journal.close)
        for step in steps:
            try:
                step()
            except Exception:
                logger.exception("stopping %s failed", step)
        shutil.rmtree(self.workdir, ignore_errors=True)


RESOURCES_FILE = "resources.json"  # the first start's identifiers, which every kept write was made against


def same_resources(state: Path, resources: Resources) -> None:
    """Refuse a start whose platform differs from the one the journal's writes were made against: the tools' role
    id names every tool's partition, so a new one would leave every kept tool refused its own rows."""
    path = state / RESOURCES_FILE
    now = {"tool_role_id": resources.tool_role_id, "tool_role_arn": resources.tool_role_arn, "table": resources.table}
    if not path.exists():
        path.write_text(json.dumps(now))
        return
    before = json.loads(path.read_text())
    if before != now:
        raise ConfigError(
            f"the platform provisioned now differs from the one {state} was kept for ({before} != {now}); "
            "its tools could not reach their rows. Start with the toolgen version that made it, or move the "
            "directory aside to start afresh"
        )


def resume_jobs(emulator: Emulator, resources: Resources) -> int:
    """Send every job that had not ended back to the queue (the queue itself is not kept); how many. A job is run
    to its end once whatever its state: the worker finishes what a run before it left (its tool id is the job's)."""
    ddb, sqs, sent = emulator.client("dynamodb"), emulator.client("sqs"), 0
    pages = ddb.get_paginator("scan").paginate(
        TableName=resources.table,
        FilterExpression="begins_with(sk, :job) AND #s IN (:queued, :running)",
        ExpressionAttributeNames={"#s": "status", "#u": "user"},
        ExpressionAttributeValues={":job": {"S": "JOB#"}, ":queued": {"S": "queued"}, ":running": {"S": "running"}},
        ProjectionExpression="job_id, #s, #u, prompt",
        ConsistentRead=True,
    )
    for page in pages:
        for item in page["Items"]:
            job = {k: decode(v) for k, v in item.items()}
            message = JobMessage(job_id=str(job["job_id"]), user=str(job["user"]), prompt=str(job["prompt"]))
            sqs.send_message(QueueUrl=resources.queue_url, MessageBody=message.model_dump_json())
            sent += 1
    return sent


def serve(
    *,
    host: str,
    port: int,
    secret: str,
    verbose: bool = False,
    account_concurrency: int = DEFAULT_ACCOUNT_CONCURRENCY,
    ephemeral: bool = False,
    salvage: bool = False,
) -> int:
    """Run the platform until interrupted (Ctrl-C or SIGTERM); its state kept in TOOLGEN_HOME/state unless
    ``ephemeral``."""
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    platform = LocalPlatform(
        host=host,
        port=port,
        secret=secret,
        verbose=verbose,
        account_concurrency=account_concurrency,
        state=None if ephemeral else state_dir() / STATE_DIR,
        salvage=salvage,
    )
    stop = threading.Event()
    # Every signal that ends a process and can be caught ends it cleanly: function processes stopped, serve.json
    # removed (its terminal closing sends SIGHUP). kill -9 cannot be caught: then the function processes end by
    # themselves (toolgen/local/bootstrap.py) and the next serve or doctor finds serve.json stale.
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, lambda *_: stop.set())
    try:
        platform.start()
        print(f"toolgen serving on {platform.url}  (AWS emulator: {platform.emulator.endpoint})", flush=True)
        # Waited in slices: a signal the kernel hands to another thread only sets a flag, which the main thread
        # acts on when it wakes; an endless wait would never wake and SIGTERM would go unanswered.
        while not stop.wait(SIGNAL_POLL_S):
            pass
    finally:
        # A stop never hangs: past its grace every thread's stack goes to stderr and the process ends.
        with contextlib.suppress(Exception):  # (no stderr to write to, "2>&-": the stop itself still runs)
            faulthandler.dump_traceback_later(STOP_GRACE_S, exit=True)
        platform.stop()
    return 0


def exit_now(code: int) -> NoReturn:
    """End the process once the platform has stopped (its journal closed): without waiting for the interpreter to
    tear down moto's backends (seconds) or for a thread that outlived its platform."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)
