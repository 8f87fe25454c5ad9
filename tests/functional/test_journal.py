"""The embedded default's journal: whole records only, one serve at a time, and which requests are writes."""

from __future__ import annotations

import io
import json
import zlib

import pytest

from toolgen.errors import ConfigError
from toolgen.local.journal import HEADER, MAGIC, V1_HEADER, Journal, is_write


def _environ(method: str, query: str = "") -> dict:
    return {"REQUEST_METHOD": method, "QUERY_STRING": query, "wsgi.input": io.BytesIO()}


def _signed(service: str) -> str:
    return f"AWS4-HMAC-SHA256 Credential=K/20261205/us-east-1/{service}/aws4_request, SignedHeaders=host, Signature=x"


def test_a_torn_last_record_is_dropped_and_the_whole_ones_are_kept(tmp_path):
    # given a journal of three writes whose last append was cut off by a crash
    journal = Journal(tmp_path)
    for n in range(3):
        journal.append({"m": "POST", "u": f"/{n}", "h": {}, "b": ""})
    journal.close()
    with (tmp_path / "journal").open("ab") as f:
        f.write(HEADER.pack(500, 0) + b'{"m": "PO')
    # when it is opened again
    reopened = Journal(tmp_path)
    # then the three whole writes are there, in order, and the torn one is gone from the file
    assert reopened.records == 3
    assert [e["u"] for e in reopened.entries()] == ["/0", "/1", "/2"]
    reopened.append({"m": "POST", "u": "/3", "h": {}, "b": ""})
    assert [e["u"] for e in reopened.entries()] == ["/0", "/1", "/2", "/3"]
    reopened.close()


def _three(tmp_path) -> bytearray:
    journal = Journal(tmp_path)
    for n in range(3):
        journal.append({"m": "POST", "u": f"/{n}", "h": {}, "b": ""})
    journal.close()
    return bytearray((tmp_path / "journal").read_bytes())


def _second(data: bytearray) -> int:
    """Where the second record's header begins."""
    return len(MAGIC) + HEADER.size + HEADER.unpack_from(data, len(MAGIC))[0]


@pytest.mark.parametrize(
    "damage",
    [
        "a byte of its JSON",  # valid JSON still: replayed silently before checksums
        "a byte of its payload",
        "its length, past the end",  # read as a torn tail before: the file was cut (5.06 MB to 2.96 MB)
        "its length, shorter",
        "its checksum",
    ],
)
def test_a_damaged_record_with_acknowledged_ones_after_it_refuses_to_start(tmp_path, damage):
    # given a journal whose second of three records was damaged on disk (not a torn tail)
    data = _three(tmp_path)
    second = _second(data)
    payload = second + HEADER.size
    if damage == "a byte of its JSON":
        at = data.index(b'"/1"', payload) + 2
        data[at] = ord("7")  # "/1" -> "/7": whole JSON, a different write
    elif damage == "a byte of its payload":
        data[payload] = ord("#")
    elif damage == "its length, past the end":
        data[second : second + 4] = (2**31).to_bytes(4, "big")
    elif damage == "its length, shorter":
        data[second + 3] -= 3
    else:
        data[second + 7] ^= 0xFF
    (tmp_path / "journal").write_bytes(bytes(data))
    # then nothing is cut off silently: the start is refused, naming the record, the file as it was
    with pytest.raises(ConfigError, match=r"damaged at record 2 .*--salvage` keeps the 1 records before it"):
        Journal(tmp_path)
    assert (tmp_path / "journal").read_bytes() == bytes(data)


def test_a_whole_record_that_is_no_write_refuses_to_start_even_last(tmp_path):
    data = _three(tmp_path)
    for payload in (b'{"m": "POST"}', b"[1, 2]", b'{"m": 1, "u": "/", "h": {}, "b": ""}'):
        odd = bytes(data) + HEADER.pack(len(payload), zlib.crc32(payload)) + payload
        (tmp_path / "journal").write_bytes(odd)
        with pytest.raises(ConfigError, match="damaged at record 4"):
            Journal(tmp_path)
        assert (tmp_path / "journal").read_bytes() == odd


@pytest.mark.parametrize("header", [b"toolgen-journam 2\n", b"toolgen-journal 3\n", b"\x00oolgen-journal 2\n"])
def test_a_journal_whose_header_is_damaged_or_of_another_version_is_refused_unchanged(tmp_path, header):
    """A changed header byte once made every record unreadable as the first format, and the whole journal was cut
    as a torn tail (458 bytes to 18; 33 s at 100 MB)."""
    data = bytes(_three(tmp_path))
    odd = header + data[len(MAGIC) :]
    (tmp_path / "journal").write_bytes(odd)
    with pytest.raises(ConfigError, match="not a journal this toolgen can read"):
        Journal(tmp_path)
    assert (tmp_path / "journal").read_bytes() == odd


def test_zeros_a_crash_left_after_the_last_record_are_a_torn_tail(tmp_path):
    data = bytes(_three(tmp_path))
    (tmp_path / "journal").write_bytes(data + b"\x00" * 64)  # the size grew, the bytes never reached the disk
    journal = Journal(tmp_path)
    assert journal.records == 3 and (tmp_path / "journal").read_bytes() == data
    journal.close()


def test_a_header_cut_short_as_the_journal_was_made_is_an_empty_journal(tmp_path):
    (tmp_path / "journal").write_bytes(MAGIC[:7])
    journal = Journal(tmp_path)
    assert journal.records == 0 and (tmp_path / "journal").read_bytes() == MAGIC
    journal.close()


def test_salvage_keeps_the_records_before_the_damage_and_the_file_as_it_was(tmp_path):
    data = _three(tmp_path)
    data[_second(data) + HEADER.size] = ord("#")
    (tmp_path / "journal").write_bytes(bytes(data))
    journal = Journal(tmp_path, salvage=True)
    assert journal.records == 1 and [e["u"] for e in journal.entries()] == ["/0"]
    (aside,) = tmp_path.glob("journal.damaged-*")
    assert aside.read_bytes() == bytes(data) and aside.stat().st_mode & 0o777 == 0o600
    journal.append({"m": "POST", "u": "/3", "h": {}, "b": ""})
    journal.close()
    again = Journal(tmp_path)
    assert [e["u"] for e in again.entries()] == ["/0", "/3"]
    again.close()


def test_a_journal_of_the_first_format_is_rewritten_with_checksums(tmp_path):
    # given a journal written before checksums: a length, then the JSON, and a torn last append
    records = [{"m": "POST", "u": f"/{n}", "h": {"x-amz-target": "T"}, "b": "e30="} for n in range(3)]
    old = b"".join(V1_HEADER.pack(len(p)) + p for p in (json.dumps(r, separators=(",", ":")).encode() for r in records))
    (tmp_path / "journal").write_bytes(old + V1_HEADER.pack(90) + b'{"m":"PO')
    journal = Journal(tmp_path)
    # then its whole records are kept, in the checksummed format, and it goes on from there
    assert journal.records == 3 and list(journal.entries()) == records
    assert (tmp_path / "journal").read_bytes().startswith(MAGIC)
    journal.append({"m": "PUT", "u": "/3", "h": {}, "b": ""})
    journal.close()
    again = Journal(tmp_path)
    assert [e["u"] for e in again.entries()] == ["/0", "/1", "/2", "/3"]
    again.close()


def test_a_first_format_journal_damaged_before_its_end_is_refused_unchanged(tmp_path):
    records = [
        json.dumps({"m": "POST", "u": f"/{n}", "h": {}, "b": ""}, separators=(",", ":")).encode() for n in range(3)
    ]
    old = bytearray(b"".join(V1_HEADER.pack(len(p)) + p for p in records))
    second = V1_HEADER.size + len(records[0])
    old[second : second + 4] = (2**31).to_bytes(4, "big")
    (tmp_path / "journal").write_bytes(bytes(old))
    with pytest.raises(ConfigError, match="damaged at record 2"):
        Journal(tmp_path)
    assert (tmp_path / "journal").read_bytes() == bytes(old)


def test_a_write_the_journal_cannot_keep_is_never_acknowledged_nor_any_after_it(tmp_path, monkeypatch):
    import os as os_module

    from toolgen.local import journal as journal_module
    from toolgen.local.journal import JournalBroken

    journal = Journal(tmp_path)
    journal.recording = True
    real_write = os_module.write

    def disk_full(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(journal_module.os, "write", disk_full)
    with pytest.raises(JournalBroken):
        journal.append({"m": "POST", "u": "/0", "h": {}, "b": ""})
    monkeypatch.setattr(journal_module.os, "write", real_write)
    # the next write is refused too (the emulator holds one the journal does not): a 503, not an acknowledgement
    answered: list[str] = []

    def app(environ, start_response):
        start_response("200 OK", [])
        return [b"{}"]

    wrapped = journal.middleware(app)
    environ = {
        "REQUEST_METHOD": "POST",
        "QUERY_STRING": "",
        "CONTENT_LENGTH": "0",
        "wsgi.input": io.BytesIO(),
        "HTTP_AUTHORIZATION": _signed("dynamodb"),
        "HTTP_X_AMZ_TARGET": "DynamoDB_20120810.PutItem",
    }
    body = b"".join(wrapped(environ, lambda status, headers, *_: answered.append(status)))
    assert answered == ["503 Service Unavailable"] and b"could not be written" in body
    assert journal.records == 0
    journal.close()


def test_a_write_that_does_not_apply_again_is_reported_not_skipped_silently(tmp_path):
    journal = Journal(tmp_path)
    for n in range(3):
        journal.append({"m": "POST", "u": f"/{n}", "h": {}, "b": ""})

    def app(environ, start_response):  # the second write fails when replayed
        start_response("400 Bad Request" if environ["PATH_INFO"] == "/1" else "200 OK", [])
        return [b""]

    assert journal.replay(app) == 3
    assert journal.failed == [1]
    journal.close()


def test_one_serve_at_a_time_holds_a_state_directory(tmp_path):
    first = Journal(tmp_path)
    with pytest.raises(ConfigError, match="another `toolgen serve`"):
        Journal(tmp_path)
    first.close()
    Journal(tmp_path).close()  # free again once the first has stopped


@pytest.mark.parametrize(
    ("method", "service", "target", "query", "write"),
    [
        ("POST", "dynamodb", "DynamoDB_20120810.PutItem", "", True),
        ("POST", "dynamodb", "DynamoDB_20120810.TransactWriteItems", "", True),
        ("POST", "dynamodb", "DynamoDB_20120810.Query", "", False),
        ("POST", "dynamodb", "DynamoDB_20120810.BatchGetItem", "", False),
        ("PUT", "s3", "", "", True),
        ("GET", "s3", "", "list-type=2", False),
        ("DELETE", "lambda", "", "", True),
        ("POST", "iam", "", "Action=CreateRole", True),
        ("POST", "iam", "", "Action=GetRole", False),
        ("POST", "sqs", "AmazonSQS.SendMessage", "", False),  # queues are rebuilt from the jobs
        ("POST", "sts", "", "Action=AssumeRole", False),
    ],
)
def test_writes_are_told_from_reads(method, service, target, query, write):
    headers = {"authorization": _signed(service), **({"x-amz-target": target} if target else {})}
    assert is_write(_environ(method, query), headers, b"") is write


def test_a_platform_whose_tools_role_changed_is_refused_before_any_replay(tmp_path):
    from toolgen.local.platform import Resources
    from toolgen.local.serve import same_resources

    first = Resources("toolgen", "pages", "q", "arn:q", "dlq", "arn:layer:1", "arn:role/toolgen-tool-role", "AROAFIRST")
    same_resources(tmp_path, first)  # the first start records what the journal's writes are made against
    same_resources(tmp_path, first)  # the same platform again: fine
    changed = Resources(*[*first.__dict__.values()][:-1], "AROASECOND")
    with pytest.raises(ConfigError, match="could not reach their rows"):
        same_resources(tmp_path, changed)
