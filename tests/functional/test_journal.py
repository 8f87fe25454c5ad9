"""The embedded default's journal: whole records only, one serve at a time, and which requests are writes."""

from __future__ import annotations

import io

import pytest

from toolgen.errors import ConfigError
from toolgen.local.journal import HEADER, Journal, is_write


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
        f.write(HEADER.pack(500) + b'{"m": "PO')
    # when it is opened again
    reopened = Journal(tmp_path)
    # then the three whole writes are there, in order, and the torn one is gone from the file
    assert reopened.records == 3
    assert [e["u"] for e in reopened.entries()] == ["/0", "/1", "/2"]
    reopened.append({"m": "POST", "u": "/3", "h": {}, "b": ""})
    assert [e["u"] for e in reopened.entries()] == ["/0", "/1", "/2", "/3"]
    reopened.close()


def test_a_damaged_record_with_acknowledged_ones_after_it_refuses_to_start(tmp_path):
    # given a journal whose second of three records was damaged on disk (not a torn tail)
    journal = Journal(tmp_path)
    for n in range(3):
        journal.append({"m": "POST", "u": f"/{n}", "h": {}, "b": ""})
    journal.close()
    data = bytearray((tmp_path / "journal").read_bytes())
    second = HEADER.size + HEADER.unpack_from(data, 0)[0] + HEADER.size
    data[second] = ord("#")
    (tmp_path / "journal").write_bytes(bytes(data))
    # then nothing is cut off silently: the start is refused, naming the record
    with pytest.raises(ConfigError, match="damaged at record 2"):
        Journal(tmp_path)
    assert (tmp_path / "journal").read_bytes() == bytes(data)


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
