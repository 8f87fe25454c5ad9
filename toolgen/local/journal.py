"""The embedded default keeps its state: every acknowledged write to the emulator is on disk before its answer.

moto keeps everything in memory. A person who uses `toolgen serve` as their own toolgen would lose every tool,
row, page and memory at a restart, so each write the emulator accepts (DynamoDB, S3, Lambda, IAM, Secrets
Manager; not reads, not SQS, not STS) is appended to ``TOOLGEN_HOME/state/journal`` and fsync'd before its
answer leaves, and a restart replays the journal into a fresh moto, then sends the jobs that had not ended back to
the queue. A write killed before its answer was not acknowledged, and a torn last record is dropped.

Each record carries its length and a CRC-32 of its bytes, after a file header that names the format (``MAGIC``).
A record that is not whole where whole ones follow it is damage, not a torn tail: the start is refused with the
record's number and nothing is cut (``toolgen serve --salvage`` keeps the whole records before it, the file as it
was set aside); a journal of the first format (no header, no checksums) is rewritten in this one when opened.

Replaying reproduces moto's own identifiers (a role's RoleId, which names every tool's partition; a secret's ARN;
an upload id) because each write runs with its own seeded copy of moto's random source: seeded by its place in the
journal, or for the platform's provisioning (not journaled: it runs at every start) by its own content. Writes are
applied one at a time, in journal order; reads run beside them.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import io
import json
import logging
import os
import random
import shutil
import struct
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from toolgen.errors import ConfigError
from toolgen.local.sigv4 import read_request

logger = logging.getLogger(__name__)
MAGIC = b"toolgen-journal 2\n"  # the file's first bytes: records with checksums
HEADER = struct.Struct(">II")  # a record's length and the CRC-32 of its bytes
V1_HEADER = struct.Struct(">I")  # the first format's: a length alone
RECORD_START = b'{"m":'  # how every record's JSON begins: where to look for whole records past a damaged one
READ_PREFIXES = ("Get", "List", "Describe", "Query", "Scan", "BatchGet", "Head", "Check", "Validate")
NOT_KEPT = ("sqs", "sts")  # queues are rebuilt from the jobs; sessions are made again
# Headers that say nothing about the write itself (the signature's time and token, the client, the connection).
DROPPED_HEADERS = (
    "x-amz-date",
    "x-amz-security-token",
    "user-agent",
    "amz-sdk-invocation-id",
    "amz-sdk-request",
    "connection",
    "accept-encoding",
    "expect",
    "content-length",
)

_rng = threading.local()


def install_seeded_random() -> None:
    """Make moto's one random source answer from the calling thread's seeded copy while a journaled write runs, so
    its identifiers depend on its seed alone, whatever runs beside it; and from the operating system's otherwise.
    (moto's own source is a Mersenne Twister, whose future answers, the secret keys of the sessions it issues
    among them, can be computed from 624 of its past ones: request ids a function process sees.)"""
    from moto.moto_api._internal import mock_random

    if getattr(mock_random, "_toolgen_seeded", False):
        return
    shared = random.SystemRandom()

    def source() -> random.Random:
        return getattr(_rng, "current", None) or shared

    mock_random.random = lambda: source().random()  # type: ignore[method-assign]
    mock_random.getrandbits = lambda k: source().getrandbits(k)  # type: ignore[method-assign]
    mock_random._toolgen_seeded = True  # type: ignore[attr-defined]


@contextlib.contextmanager
def seeded(seed: str) -> Iterator[None]:
    # A seeded generator on purpose: a replayed write must make the identifiers it made the first time.
    _rng.current = random.Random(hashlib.sha256(seed.encode()).digest())  # noqa: S311
    try:
        yield
    finally:
        _rng.current = None


def _service(headers: dict[str, str]) -> str:
    scope = headers.get("authorization", "").partition("Credential=")[2].split(",")[0].split("/")
    return scope[3] if len(scope) > 3 else ""


def _operation(environ: dict[str, Any], headers: dict[str, str], body: bytes) -> str:
    """The API operation's name where the request says it (JSON target, query protocol's Action), else ''."""
    target = headers.get("x-amz-target", "")
    if target:
        return target.rpartition(".")[2]
    form = headers.get("content-type", "").startswith("application/x-www-form-urlencoded")  # the query protocol
    for source in (environ.get("QUERY_STRING", ""), body.decode("latin-1") if form and len(body) < 65536 else ""):
        for pair in source.split("&"):
            name, _, value = pair.partition("=")
            if name == "Action":
                return value
    return ""


def is_write(environ: dict[str, Any], headers: dict[str, str], body: bytes) -> bool:
    """Whether the request can change the emulator's state that a restart must keep."""
    if environ["REQUEST_METHOD"] in ("GET", "HEAD", "OPTIONS") or _service(headers) in NOT_KEPT:
        return False
    return not _operation(environ, headers, body).startswith(READ_PREFIXES)


def _is_record(payload: bytes) -> bool:
    """Whether ``payload`` is a journaled write, as ``_record`` makes it."""
    try:
        record = json.loads(payload)
        if not isinstance(record, dict) or set(record) != {"m", "u", "h", "b"}:
            return False
        base64.b64decode(record["b"], validate=True)
    except (ValueError, TypeError):
        return False
    fields = (record["m"], record["u"], record["b"])
    headers = record["h"]
    return (
        all(isinstance(v, str) for v in fields)
        and isinstance(headers, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in headers.items())
    )


NOT_WHOLE, NOT_A_WRITE = -1, -2


def _whole_at(data: bytes, start: int, v1: bool) -> int:
    """The end of the whole record at ``start`` (its header's offset); NOT_WHOLE where its bytes are cut short or
    are not those written (a torn append, or damage), NOT_A_WRITE where they are whole (by its checksum) but no
    write (never from a torn append; an empty record is never written, and a crash can leave zeros: not whole)."""
    header = V1_HEADER if v1 else HEADER
    if start < 0 or start + header.size > len(data):
        return NOT_WHOLE
    size = header.unpack_from(data, start)[0]
    end = start + header.size + size
    if size == 0 or end > len(data):
        return NOT_WHOLE
    if v1 and end < len(data) and not data.startswith(RECORD_START, end + V1_HEADER.size):
        return NOT_WHOLE  # (the first format has no checksum: a record is followed by another's start, or the end)
    payload = memoryview(data)[start + header.size : end]
    if v1:
        try:
            json.loads(bytes(payload))
        except ValueError:
            return NOT_WHOLE
    elif zlib.crc32(payload) != HEADER.unpack_from(data, start)[1]:
        return NOT_WHOLE
    return end if _is_record(bytes(payload)) else NOT_A_WRITE


def _whole_after(data: bytes, start: int, v1: bool) -> bool:
    """Whether a whole record begins anywhere past ``start``: then what is not whole at ``start`` was damaged after
    acknowledged writes, where a torn last append has nothing after it."""
    header = V1_HEADER if v1 else HEADER
    at = data.find(RECORD_START, start + 1)
    while at >= 0:
        if _whole_at(data, at - header.size, v1) > 0:
            return True
        at = data.find(RECORD_START, at + 1)
    return False


class Journal:
    """An append-only file of writes, each fsync'd; one `toolgen serve` at a time holds it."""

    def __init__(self, directory: Path, *, salvage: bool = False) -> None:
        """``salvage``: a journal damaged before its end keeps the whole records before the damage (the file as it
        was is set aside, ``journal.damaged-<time>``) instead of refusing to start."""
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.path = directory / "journal"
        self._lock_file = (directory / "lock").open("a")
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as e:
            self._lock_file.close()
            raise ConfigError(
                f"another `toolgen serve` is using {directory}; stop it or use another TOOLGEN_HOME"
            ) from e
        try:
            self.records = self._valid_prefix(salvage)
        except (ConfigError, OSError):
            self._lock_file.close()  # refused (or the disk failed): the directory is free for whoever moves it aside
            raise
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        if os.fstat(self._fd).st_size == 0:
            os.write(self._fd, MAGIC)
            os.fsync(self._fd)
        _fsync_directory(directory)  # the file's name is durable too, not only its bytes
        _fsync_directory(directory.parent)  # and the directory's
        self.broken = ""
        self._write = threading.Lock()
        self.recording = False  # off while the platform is provisioned and the journal replayed
        self.failed: list[int] = []  # journaled writes that did not apply again at the last replay

    def _valid_prefix(self, salvage: bool) -> int:
        """How many whole records the file holds; a torn tail (a crash mid-append) is cut off, damage before whole
        records refused (or, ``salvage``, cut off with the file as it was set aside)."""
        if not self.path.exists():
            return 0
        data = self.path.read_bytes()
        if data and not data.startswith(MAGIC) and MAGIC.startswith(data):
            data = b""  # a header cut short by a crash as the journal was made: no write was ever in it
            self._truncate(0)
        v1 = bool(data) and not data.startswith(MAGIC)
        if v1 and _whole_at(data, 0, True) < 0 and data.strip(b"\0"):
            # neither this format (its header is not there) nor the first (no whole record at its start): a damaged
            # header, or a file of another kind; nothing is read as a torn tail of it
            raise ConfigError(
                f"{self.path} is not a journal this toolgen can read (its first bytes are damaged, or of another "
                "version): nothing was changed. Move it aside to start afresh (or use --ephemeral)"
            )
        header = V1_HEADER if v1 else HEADER
        good = 0 if v1 else len(MAGIC) if data else 0
        ends: list[int] = []
        damaged = False
        while good < len(data):
            end = _whole_at(data, good, v1)
            if end < 0:
                # not a torn tail: a whole record that is no write, or acknowledged writes after it (zeros a crash
                # left are a torn tail)
                zeros = not data[good:].strip(b"\0")
                if not zeros and (end == NOT_A_WRITE or _whole_after(data, good, v1)):
                    if not salvage:
                        raise ConfigError(
                            f"{self.path} is damaged at record {len(ends) + 1} (byte {good}; not a write cut "
                            "short by a crash, which only the last can be): nothing was changed. "
                            f"`toolgen serve --salvage` keeps the {len(ends)} records before it (the file as it "
                            "is set aside), or move it aside to start afresh (or use --ephemeral)"
                        )
                    aside = self.path.with_name(f"journal.damaged-{time.time_ns()}")
                    shutil.copyfile(self.path, aside)  # a copy, on disk before the journal is cut
                    os.chmod(aside, 0o600)
                    with aside.open("rb+") as kept:
                        os.fsync(kept.fileno())
                    _fsync_directory(self.path.parent)
                    damaged = True
                    logger.warning(
                        "journal: damaged at record %d; kept the %d before it, the whole file is %s",
                        len(ends) + 1,
                        len(ends),
                        aside,
                    )
                break
            ends.append(end)
            good = end
        if good < len(data):
            if not damaged:
                logger.warning("journal: dropping a torn last record (%d bytes)", len(data) - good)
            self._truncate(good)
        if v1:
            self._rewrite(data, ends, header)
        return len(ends)

    def _truncate(self, size: int) -> None:
        with self.path.open("r+b") as f:
            f.truncate(size)
            os.fsync(f.fileno())

    def _rewrite(self, data: bytes, ends: list[int], header: struct.Struct) -> None:
        """The first format's records in this one (a header, a checksum each), replacing the file at once."""
        temporary = self.path.with_name("journal.rewrite")
        with temporary.open("wb") as f:
            f.write(MAGIC)
            start = 0
            for end in ends:
                payload = data[start + header.size : end]
                f.write(HEADER.pack(len(payload), zlib.crc32(payload)) + payload)
                start = end
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, 0o600)
        os.replace(temporary, self.path)
        _fsync_directory(self.path.parent)
        logger.info("journal: %d records rewritten with checksums", len(ends))

    def entries(self) -> Iterator[dict[str, Any]]:
        with self.path.open("rb") as f:
            if f.read(len(MAGIC)) != MAGIC:
                return
            while header := f.read(HEADER.size):
                size, crc = HEADER.unpack(header)
                payload = f.read(size)
                if zlib.crc32(payload) != crc:  # changed since it was opened: stop rather than replay it
                    raise ConfigError(f"{self.path} changed while it was read")
                yield json.loads(payload)

    def append(self, record: dict[str, Any]) -> None:
        """The record on disk, whole, or JournalBroken: then no further write is accepted (the emulator holds one
        the journal does not, so nothing after it may be acknowledged either)."""
        if self.broken:
            raise JournalBroken(self.broken)
        data = json.dumps(record, separators=(",", ":")).encode()
        view = memoryview(HEADER.pack(len(data), zlib.crc32(data)) + data)
        try:
            while view:
                view = view[os.write(self._fd, view) :]
            os.fsync(self._fd)
        except OSError as e:
            self.broken = f"the journal could not be written ({e.strerror}); restart serve once there is room"
            logger.critical("journal: %s", self.broken)
            raise JournalBroken(self.broken) from e
        self.records += 1

    def close(self) -> None:
        os.close(self._fd)
        self._lock_file.close()

    def middleware(self, app: Callable[..., Any]) -> Callable[..., Any]:
        """A WSGI app that runs writes one at a time, each with its seed, and journals those acknowledged (2xx)."""

        def journaled(environ: dict[str, Any], start_response: Any) -> Any:
            body, headers = read_request(environ)
            if not is_write(environ, headers, body):
                return app(environ, start_response)
            with self._write:
                if self.recording:
                    seed = f"write:{self.records}"
                else:  # provisioning: the same calls at every start, so the same identifiers
                    seed = (
                        "provision:"
                        + hashlib.sha256(
                            environ.get("RAW_URI", "").encode() + headers.get("x-amz-target", "").encode() + body
                        ).hexdigest()
                    )
                if self.broken:
                    return _unavailable(start_response, self.broken)
                seen: list[tuple[str, Any]] = []

                def hold(status_line: str, response_headers: Any, exc_info: Any = None) -> Any:
                    seen.append((status_line, response_headers))  # sent only once the write is on disk

                with seeded(seed):
                    answer = b"".join(app(environ, hold))
                if self.recording and seen and seen[0][0][:1] == "2":
                    try:
                        self.append(_record(environ, headers, body))
                    except JournalBroken as e:
                        return _unavailable(start_response, str(e))
            start_response(*seen[0])
            return [answer]

        return journaled

    def replay(self, app: Callable[..., Any]) -> int:
        """Apply every journaled write to ``app`` (a fresh moto), in order, each with its seed; how many."""
        started, count = time.perf_counter(), 0
        self.failed = []
        for record in self.entries():
            status: list[str] = []
            with seeded(f"write:{count}"):
                for _ in app(_environ(record), lambda line, *_, seen=status: seen.append(line)):
                    pass
            if not status or status[0][:1] != "2":  # it applied the first time: the state is no longer the same
                self.failed.append(count)
                logger.warning(
                    "journal: write %d (%s %s) did not apply again: %s", count, record["m"], record["u"], status
                )
            count += 1
        logger.info("journal: %d writes replayed in %.1f s", count, time.perf_counter() - started)
        return count


class JournalBroken(Exception):
    """The journal could not take a write: nothing more is acknowledged until serve restarts."""


def _unavailable(start_response: Any, why: str) -> list[bytes]:
    body = json.dumps({"__type": "ServiceUnavailable", "message": why}).encode()
    start_response(
        "503 Service Unavailable",
        [
            ("Content-Type", "application/x-amz-json-1.0"),
            ("x-amzn-ErrorType", "ServiceUnavailable"),
            ("Content-Length", str(len(body))),
        ],
    )
    return [body]


def _fsync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _record(environ: dict[str, Any], headers: dict[str, str], body: bytes) -> dict[str, Any]:
    return {
        "m": environ["REQUEST_METHOD"],
        "u": environ.get("RAW_URI") or environ.get("PATH_INFO", "/"),
        "h": {k: v for k, v in headers.items() if k not in DROPPED_HEADERS},
        "b": base64.b64encode(body).decode(),
    }


def _environ(record: dict[str, Any]) -> dict[str, Any]:
    body = base64.b64decode(record["b"])
    path, _, query = record["u"].partition("?")
    from urllib.parse import unquote

    environ: dict[str, Any] = {
        "REQUEST_METHOD": record["m"],
        "PATH_INFO": unquote(path, encoding="latin-1"),
        "QUERY_STRING": query,
        "RAW_URI": record["u"],
        "REQUEST_URI": record["u"],
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "0",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "http",
        "wsgi.errors": io.StringIO(),
        "wsgi.version": (1, 0),
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        "CONTENT_LENGTH": str(len(body)),
    }
    for name, value in record["h"].items():
        if name == "content-type":
            environ["CONTENT_TYPE"] = value
        else:
            environ["HTTP_" + name.upper().replace("-", "_")] = value
    return environ
