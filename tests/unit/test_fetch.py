"""Fetch operations reach only allow-listed public hosts; addresses are checked, not trusted."""

import datetime as dt
import socket
import threading
import time

import pytest

from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.runtime import deadline
from toolgen.runtime.errors import Forbidden, UpstreamError
from toolgen.runtime.fetch import _public_addresses, run_fetch


def fake_resolver(address: str):
    def getaddrinfo(host, port, *args, **kwargs):
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        return [(family, socket.SOCK_STREAM, 6, "", (address, port))]

    return getaddrinfo


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "192.168.0.10",
        "169.254.169.254",
        "::1",
        "fd00::1",
        "0.0.0.0",
        "100.64.0.1",
        "224.0.0.1",
    ],
)
def test_non_public_addresses_are_refused(monkeypatch, address):
    # DNS is the boundary: an allow-listed name that resolves somewhere private must still be refused
    monkeypatch.setattr(socket, "getaddrinfo", fake_resolver(address))
    with pytest.raises(Forbidden):
        _public_addresses("api.open-meteo.com", 443)


def test_public_address_is_accepted(monkeypatch):
    monkeypatch.setattr(socket, "getaddrinfo", fake_resolver("93.184.216.34"))
    assert _public_addresses("api.open-meteo.com", 443) == ["93.184.216.34"]


def test_host_outside_the_platform_list_is_refused_even_if_the_program_allows_it():
    program = OfflinePlanner().plan("rank Beijing by temperature", classify("rank Beijing by temperature"), []).program
    data = program.model_dump(mode="json")
    data["allowed_hosts"] = ["evil.example"]
    data["operations"][0]["url"] = "https://evil.example/steal"
    forged = type(program).model_validate(data)
    with pytest.raises(Forbidden, match="not an allowed host"):
        run_fetch(forged, forged.operations[0], {}, dt.date(2026, 12, 2))


def test_a_socket_that_drips_is_cut_off_at_the_deadline_not_per_read():
    # given a peer that sends a byte every 0.1 s, far inside any per-read timeout
    ours, theirs = socket.socketpair()
    sock = deadline.DeadlineSocket(fileno=ours.detach())
    sock.deadline = time.monotonic() + 0.5
    stop = threading.Event()

    def drip() -> None:
        while not stop.wait(0.1):
            theirs.send(b" ")

    threading.Thread(target=drip, daemon=True).start()
    started = time.monotonic()
    try:
        # when it is read until it has sent 100 bytes
        with pytest.raises(TimeoutError):
            sock.makefile("rb").read(100)
    finally:
        stop.set()
        sock.close()
        theirs.close()
    # then reading ends at the deadline, not after 10 s (the bound leaves a busy machine time: make test runs two
    # test processes on two cores)
    assert 0.4 < time.monotonic() - started < 3.0


def test_a_resolver_that_hangs_is_given_up_on_at_the_deadline(monkeypatch):
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: time.sleep(2) or [])
    started = time.monotonic()
    with pytest.raises(UpstreamError, match="did not answer within"):
        _public_addresses("api.open-meteo.com", 443, time.monotonic() + 0.3)
    assert time.monotonic() - started < 1.5  # not the resolver's 2 s


def test_no_time_left_is_a_timeout_at_once():
    with pytest.raises(TimeoutError):
        deadline.left(time.monotonic() - 0.01)
    assert 0 < deadline.left(time.monotonic() + 1) <= 1
