"""One deadline for a whole fetch: name lookup, connect, TLS, every redirect, the headers and the body together.

A socket's timeout bounds each operation on its own, so an upstream that sends a byte a second never trips a 5 s
timeout and held a fetch for as long as it liked. Here every wait is given only what is left until the deadline,
and one that starts after it fails at once with TimeoutError. Standard library only, as everything a tool's cold
start imports.
"""

from __future__ import annotations

import socket
import ssl
import threading
import time
from typing import Any


def left(deadline: float) -> float:
    """Seconds left until ``deadline`` (a time.monotonic() value); TimeoutError when there are none."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise TimeoutError("the fetch's deadline passed")
    return remaining


class DeadlineSocket(socket.socket):
    """A TCP socket whose sends and receives all end by ``deadline``."""

    deadline = 0.0  # set before use; until then every wait fails, rather than waiting without a limit

    def recv_into(self, buffer: Any, nbytes: int = 0, flags: int = 0) -> int:
        self.settimeout(left(self.deadline))
        return super().recv_into(buffer, nbytes, flags)

    def sendall(self, data: Any, flags: int = 0) -> None:
        self.settimeout(left(self.deadline))  # sendall's timeout is already its total time
        super().sendall(data, flags)


class DeadlineSSLSocket(ssl.SSLSocket):
    """The TLS side of a DeadlineSocket (SSLContext.sslsocket_class)."""

    deadline = 0.0

    def recv_into(self, buffer: Any, nbytes: int | None = None, flags: int = 0) -> int:
        self.settimeout(left(self.deadline))
        return super().recv_into(buffer, nbytes, flags)

    def sendall(self, data: Any, flags: int = 0) -> None:
        self.settimeout(left(self.deadline))
        super().sendall(data, flags)


def resolve(host: str, port: int, deadline: float) -> list[Any]:
    """socket.getaddrinfo within the deadline: the system resolver's own retries can take far longer."""
    answer: list[Any] = []

    def look_up() -> None:
        try:
            answer.append(socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP))
        except OSError as e:
            answer.append(e)

    # a daemon thread: a lookup that never ends is left behind, and does not hold the call up
    worker = threading.Thread(target=look_up, name=f"resolve {host}", daemon=True)
    worker.start()
    worker.join(left(deadline))
    if not answer:
        raise TimeoutError(f"looking up {host} took longer than the fetch's deadline")
    if isinstance(answer[0], OSError):
        raise answer[0]
    return list(answer[0])


def open_tcp(address: str, port: int, deadline: float) -> DeadlineSocket:
    """A connection to ``address`` (an IP address, or a name the test configuration gives) made by the deadline."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = DeadlineSocket(family, socket.SOCK_STREAM)
    sock.deadline = deadline
    try:
        sock.settimeout(left(deadline))
        sock.connect((address, port))
    except BaseException:
        sock.close()
        raise
    return sock


def open_tls(sock: DeadlineSocket, host: str, context: ssl.SSLContext, deadline: float) -> DeadlineSSLSocket:
    """TLS over ``sock``, the certificate checked for ``host``, the handshake done by the deadline."""
    context.sslsocket_class = DeadlineSSLSocket
    tls = context.wrap_socket(sock, server_hostname=host, do_handshake_on_connect=False)
    assert isinstance(tls, DeadlineSSLSocket)
    tls.deadline = deadline
    try:
        tls.settimeout(left(deadline))  # CPython bounds the whole handshake by the timeout, not each read
        tls.do_handshake()
    except BaseException:
        tls.close()
        raise
    return tls
