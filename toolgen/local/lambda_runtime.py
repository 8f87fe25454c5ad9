"""A local Lambda runtime: runs functions stored in the emulator, in warm subprocesses, with Lambda's limits.

- Code and layers are read back from the emulator (FunctionSource) and unpacked once per code version, like
  /var/task and /opt; a process is started on the first call (cold start) and kept for the next (warm).
- Timeout: a call that outlives the function's Timeout has its process killed, and the caller gets Lambda's
  "Task timed out after N.NN seconds" error.
- Memory: a process whose memory passes the function's MemorySize is killed, and the caller gets Lambda's
  ``Runtime.OutOfMemory`` error (toolgen/local/memory.py says how, and why so).
- Concurrency: at most ReservedConcurrentExecutions calls of a function run at once, all its versions together
  (a default limit when none is reserved); one more is throttled, as Lambda answers TooManyRequestsException.
- Versions: a name may be qualified (``name:live``, ``name:3``); each version has its own code, configuration
  and warm environments, as on Lambda.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import os
import select
import shutil
import subprocess
import sys
import threading
import time
import uuid
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from toolgen.local import memory

logger = logging.getLogger(__name__)
BOOTSTRAP = Path(__file__).with_name("bootstrap.py")


@dataclass(frozen=True)
class FunctionImage:
    """What the emulator says a function is; a change to any of it means new processes."""

    name: str
    code_sha256: str
    handler: str
    timeout_s: float
    memory_mb: int
    environment: tuple[tuple[str, str], ...]
    layers: tuple[str, ...]
    reserved_concurrency: int | None = field(default=None, compare=False)
    version: str = "$LATEST"
    role: str = ""  # its execution role's ARN

    @property
    def qualified(self) -> str:
        """The name of this version (an environment runs one version)."""
        return self.name if self.version == "$LATEST" else f"{self.name}:{self.version}"


class FunctionSource(Protocol):
    def describe(self, name: str) -> FunctionImage | None:
        """The function, or the version a qualified name (``name:alias``, ``name:3``) resolves to."""
        ...

    def code(self, name: str) -> bytes: ...
    def layer(self, arn: str) -> bytes: ...
    def url_config(self, name: str) -> dict[str, Any] | None: ...
    def credentials(self, image: FunctionImage) -> dict[str, str]:
        """The AWS credentials a new environment of ``image`` runs with ({}: the runtime's own)."""
        ...


@dataclass
class InvokeResult:
    status: Literal["ok", "error", "timeout", "throttled", "not_found"]
    payload: Any
    cold: bool = False
    ms: float = 0.0
    version: str = "$LATEST"


class _Worker:
    """One execution environment: a bootstrap process and the pipe it answers on."""

    def __init__(
        self, image: FunctionImage, proc: subprocess.Popen[bytes], result_fd: int, on_kill: Any = None
    ) -> None:
        self.image = image
        self.proc = proc
        self.fd = result_fd
        self.buffer = b""
        self.idle_since = time.monotonic()
        self._on_kill = on_kill
        self._killed = threading.Lock()
        self._closed = False
        self.limit_bytes = image.memory_mb << 20
        self.out_of_memory = False

    def over_memory(self) -> bool:
        """Whether the process has passed its MemorySize (then it is killed at once, as Lambda's sandbox would)."""
        if not self.out_of_memory:
            peak = memory.peak_bytes(self.proc.pid)
            if peak is not None and peak > self.limit_bytes:
                self.out_of_memory = True
                self.proc.kill()
                logger.warning(
                    "%s used %d MB of its %d MB: killed", self.image.qualified, peak >> 20, self.limit_bytes >> 20
                )
        return self.out_of_memory

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def receive(self, deadline: float) -> dict[str, Any] | None:
        """The next answer, or None if the deadline passes, the process dies or passes its MemorySize first."""
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.over_memory():
                return None
            ready, _, _ = select.select([self.fd], [], [], min(remaining, memory.CHECK_S))
            if not ready:
                continue
            chunk = os.read(self.fd, 65536)
            if not chunk:
                return None
            self.buffer += chunk
        if self.over_memory():  # it answered, but past its limit since the last reading: Lambda never would have
            return None
        line, _, self.buffer = self.buffer.partition(b"\n")
        return dict(json.loads(line))

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """Stop the process (once, whoever asks: a shutdown may race a timeout)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        with self._killed:
            if self._closed:
                return
            self._closed = True
        if self.proc.stdin:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        with contextlib.suppress(OSError):
            os.close(self.fd)
        if self._on_kill:
            self._on_kill(self)


class LocalLambdaRuntime:
    """Runs functions from a FunctionSource; thread-safe, one call per process at a time."""

    def __init__(
        self,
        source: FunctionSource,
        workdir: Path,
        base_env: dict[str, str],
        *,
        python: str = sys.executable,
        unreserved_limit: int = 10,
        init_timeout_s: float = 10.0,
        idle_ttl_s: float = 300.0,
    ) -> None:
        self.source = source
        self.workdir = workdir
        self.base_env = base_env
        self.python = python
        self.unreserved_limit = unreserved_limit
        self.init_timeout_s = init_timeout_s
        self.idle_ttl_s = idle_ttl_s
        self._lock = threading.Lock()
        self._busy: dict[str, int] = {}
        self._idle: dict[str, list[_Worker]] = {}
        self._prepared: dict[str, Path] = {}
        self._live: set[_Worker] = set()  # every environment with a process, busy or idle
        self._prepare_lock = threading.Lock()
        self._closed = False
        memory.enforced()  # says so, once, where it cannot be

    # --- public -----------------------------------------------------------------------------------------------

    def invoke(self, name: str, event: Any) -> InvokeResult:
        """Run one invocation of ``name`` with ``event``."""
        started = time.monotonic()
        image = self.source.describe(name)
        if image is None:
            self._discard_idle(name)
            return InvokeResult("not_found", {"Type": "User", "Message": f"Function not found: {name}"})
        limit = self.unreserved_limit if image.reserved_concurrency is None else image.reserved_concurrency
        function = image.name  # concurrency is the function's, whichever version is called
        with self._lock:
            if self._closed:
                raise RuntimeError("the runtime is shut down")
            if self._busy.get(function, 0) >= limit:
                return InvokeResult(
                    "throttled",
                    {
                        "Reason": "ReservedFunctionConcurrentInvocationLimitExceeded",
                        "Type": "User",
                        "message": "Rate Exceeded.",
                    },
                )
            self._busy[function] = self._busy.get(function, 0) + 1
            worker = self._take_idle(image)
        try:
            result = self._run(image, worker, event)
        finally:
            with self._lock:
                self._busy[function] -= 1
        result.ms = round((time.monotonic() - started) * 1000, 1)
        result.version = image.version
        return result

    def prewarm(self, name: str) -> None:
        """Initialise one environment of ``name`` without invoking it, as provisioned concurrency does."""
        image = self.source.describe(name)
        if image is None:
            raise KeyError(name)
        worker, init_error = self._spawn(image)
        if worker is None:
            raise RuntimeError(f"{name} failed to initialise: {init_error}")
        self._release(worker)

    def shutdown(self) -> None:
        """Stop every process, busy ones included (their calls end with "Runtime exited"); later calls fail."""
        with self._lock:
            self._closed = True
            idle = [w for pool in self._idle.values() for w in pool]
            busy = [w for w in self._live if w not in idle]
            self._idle.clear()
        for worker in idle:
            worker.kill()
        for worker in busy:  # its caller sees the process end, answers "Runtime exited" and cleans up itself
            if worker.proc.poll() is None:
                worker.proc.kill()

    def reap_idle(self) -> int:
        """Stop processes idle longer than the TTL (Lambda recycles idle environments too); how many stopped."""
        now = time.monotonic()
        stale: list[_Worker] = []
        with self._lock:
            for name, pool in self._idle.items():
                stale += [w for w in pool if now - w.idle_since > self.idle_ttl_s]
                self._idle[name] = [w for w in pool if now - w.idle_since <= self.idle_ttl_s]
        for worker in stale:
            worker.kill()
        return len(stale)

    # --- internals --------------------------------------------------------------------------------------------

    def _take_idle(self, image: FunctionImage) -> _Worker | None:
        pool = self._idle.get(image.qualified, [])
        stale = [w for w in pool if w.image != image or not w.alive()]
        for w in stale:  # a new code version or configuration: old environments are retired
            pool.remove(w)
            threading.Thread(target=w.kill, daemon=True).start()
        return pool.pop() if pool else None

    def _discard_idle(self, name: str) -> None:
        """A function that is gone: stop its environments (every version's, for an unqualified name)."""
        with self._lock:
            keys = [k for k in self._idle if k == name or (":" not in name and k.partition(":")[0] == name)]
            pool = [w for k in keys for w in self._idle.pop(k)]
        for w in pool:
            w.kill()

    def _run(self, image: FunctionImage, worker: _Worker | None, event: Any) -> InvokeResult:
        cold = worker is None
        if worker is None:
            worker, init_error = self._spawn(image)
            if init_error is not None:
                return InvokeResult("error", init_error, cold=True)
        assert worker is not None
        request_id = str(uuid.uuid4())
        deadline = time.monotonic() + image.timeout_s
        try:
            worker.send(
                {"event": event, "request_id": request_id, "deadline_ms": int((time.time() + image.timeout_s) * 1000)}
            )
            answer = worker.receive(deadline)
        except (BrokenPipeError, OSError, ValueError):
            answer = None
        if answer is None:
            timed_out = time.monotonic() >= deadline and worker.alive()  # not a process that was stopped
            worker.kill()
            if worker.out_of_memory:
                return InvokeResult("error", memory.out_of_memory_error(request_id), cold=cold)
            if timed_out:
                stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
                message = f"{stamp} {request_id} Task timed out after {image.timeout_s:.2f} seconds"
                return InvokeResult("timeout", {"errorType": "Sandbox.Timedout", "errorMessage": message}, cold=cold)
            return InvokeResult(
                "error",
                {"errorType": "Runtime.ExitError", "errorMessage": f"RequestId: {request_id} Error: Runtime exited"},
                cold=cold,
            )
        self._release(worker)
        if answer.get("ok"):
            return InvokeResult("ok", answer.get("result"), cold=cold)
        return InvokeResult("error", answer.get("error"), cold=cold)

    def _forget(self, worker: _Worker) -> None:
        with self._lock:
            self._live.discard(worker)

    def _release(self, worker: _Worker) -> None:
        worker.idle_since = time.monotonic()
        with self._lock:
            if self._closed:
                worker.kill()
                return
            self._idle.setdefault(worker.image.qualified, []).append(worker)

    def _spawn(self, image: FunctionImage) -> tuple[_Worker | None, dict[str, Any] | None]:
        task, opt = self._prepare(image)
        read_fd, write_fd = os.pipe()
        env = {
            **self.base_env,
            **self.source.credentials(image),  # as on Lambda: a session of the function's execution role
            **dict(image.environment),
            "_HANDLER": image.handler,
            "_TOOLGEN_RESULT_FD": str(write_fd),
            "PYTHONPATH": f"{task}{os.pathsep}{opt / 'python'}",
            "LAMBDA_TASK_ROOT": str(task),
            "AWS_LAMBDA_FUNCTION_NAME": image.name,
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(image.memory_mb),
            "AWS_LAMBDA_FUNCTION_VERSION": image.version,
            "AWS_LAMBDA_LOG_GROUP_NAME": f"/aws/lambda/{image.name}",
            "AWS_EXECUTION_ENV": "AWS_Lambda_python3.12",
        }
        proc = subprocess.Popen(  # noqa: S603 - our own interpreter and bootstrap, no shell
            [self.python, "-P", str(BOOTSTRAP)],
            stdin=subprocess.PIPE,
            pass_fds=(write_fd,),
            env=env,
            cwd=task,
            start_new_session=True,
        )
        os.close(write_fd)
        worker = _Worker(image, proc, read_fd, on_kill=self._forget)
        with self._lock:
            self._live.add(worker)
        ready = worker.receive(time.monotonic() + self.init_timeout_s)
        if ready is None or not ready.get("ready"):
            worker.kill()
            if worker.out_of_memory:
                return None, memory.out_of_memory_error(str(uuid.uuid4()))
            error = (ready or {}).get("init_error") or {
                "errorType": "Runtime.InitError",
                "errorMessage": f"init did not finish in {self.init_timeout_s:.0f} s",
            }
            return None, error
        return worker, None

    def _prepare(self, image: FunctionImage) -> tuple[Path, Path]:
        """The unpacked code and layers of this version (unpacked once, reused by every process)."""
        sha = hashlib.sha256(image.code_sha256.encode()).hexdigest()[:16]
        layers_key = hashlib.sha256("|".join(image.layers).encode()).hexdigest()[:16]
        task = self.workdir / "task" / f"{image.name}-{image.version.strip('$')}-{sha}"
        opt = self.workdir / "opt" / layers_key
        with self._prepare_lock:
            if str(task) not in self._prepared:
                _unzip(self.source.code(image.qualified), task)
                self._prepared[str(task)] = task
            if str(opt) not in self._prepared:
                shutil.rmtree(opt, ignore_errors=True)
                opt.mkdir(parents=True)
                for arn in image.layers:  # later layers win, as in /opt
                    _unzip(self.source.layer(arn), opt, clean=False)
                self._prepared[str(opt)] = opt
        return task, opt


def _unzip(data: bytes, target: Path, *, clean: bool = True) -> None:
    if clean:
        shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(target)


class RuntimeInvoker:
    """The pipeline's Invoker over a LocalLambdaRuntime in this process (tests, benchmarks)."""

    def __init__(self, runtime: LocalLambdaRuntime) -> None:
        self.runtime = runtime

    def invoke(self, function_name: str, event: dict[str, Any]) -> dict[str, Any]:
        from toolgen.errors import AWSError

        result = self.runtime.invoke(function_name, event)
        if result.status != "ok":
            raise AWSError(f"{function_name} {result.status}: {result.payload}", aws_code=result.status)
        return (
            result.payload
            if isinstance(result.payload, dict)
            else {"statusCode": 200, "body": json.dumps(result.payload)}
        )
