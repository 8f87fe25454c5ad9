"""awslite's signature is botocore's signature; the table's codec round-trips every value it stores."""

from __future__ import annotations

import base64
import datetime as dt
import json
from decimal import Decimal

import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from toolgen import awslite
from toolgen.table import decode, encode

NOW = dt.datetime(2026, 12, 2, 16, 30, 5, tzinfo=dt.UTC)


def botocore_authorization(monkeypatch, url: str, headers: dict, body: bytes, service: str, region: str, token):
    monkeypatch.setattr("botocore.auth.get_current_datetime", lambda: NOW.replace(tzinfo=None))
    request = AWSRequest(method="POST", url=url, data=body, headers=dict(headers))
    SigV4Auth(Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", token), service, region).add_auth(
        request
    )
    return request.headers["Authorization"], request.headers["X-Amz-Date"]


@pytest.mark.parametrize(
    ("url", "service", "region", "token"),
    [
        ("https://dynamodb.eu-west-1.amazonaws.com/", "dynamodb", "eu-west-1", None),
        ("https://dynamodb.us-east-1.amazonaws.com/", "dynamodb", "us-east-1", "FwoGZXIvYXdzEXAMPLETOKEN=="),
        ("http://127.0.0.1:45123/", "secretsmanager", "us-east-1", "token"),
    ],
)
def test_the_signature_is_the_one_botocore_computes(monkeypatch, url, service, region, token):
    body = json.dumps({"TableName": "toolgen", "Key": {"pk": {"S": "TOOL#t#u"}, "sk": {"S": "row#1"}}}).encode()
    headers = {"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.GetItem"}
    if token:
        headers["X-Amz-Security-Token"] = token
    expected, stamp = botocore_authorization(monkeypatch, url, headers, body, service, region, token)
    signed = awslite.sign(
        method="POST",
        host=url.split("/")[2],
        path="/",
        headers=headers,
        body=body,
        service=service,
        region=region,
        access_key="AKIDEXAMPLE",
        secret_key="wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
        now=NOW,
    )
    assert signed["X-Amz-Date"] == stamp == "20261202T163005Z"
    assert signed["Authorization"] == expected


def test_a_changed_body_changes_the_signature():
    common = {
        "method": "POST",
        "host": "dynamodb.us-east-1.amazonaws.com",
        "path": "/",
        "headers": {"X-Amz-Target": "DynamoDB_20120810.GetItem"},
        "service": "dynamodb",
        "region": "us-east-1",
        "access_key": "AK",
        "secret_key": "SK",
        "now": NOW,
    }
    assert awslite.sign(body=b"{}", **common)["Authorization"] != awslite.sign(body=b"{ }", **common)["Authorization"]


def test_methods_are_named_like_boto3s_and_endpoints_follow_the_environment(monkeypatch):
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.delenv("AWS_ENDPOINT_URL_DYNAMODB", raising=False)
    assert awslite.Client("dynamodb", region="eu-west-1").endpoint == "https://dynamodb.eu-west-1.amazonaws.com"
    assert awslite.Client("dynamodb", region="cn-north-1").endpoint == "https://dynamodb.cn-north-1.amazonaws.com.cn"
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:4566")
    assert awslite.Client("secretsmanager").endpoint == "http://127.0.0.1:4566"
    monkeypatch.setenv("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:8000")
    assert awslite.Client("dynamodb").endpoint == "http://127.0.0.1:8000"
    assert awslite._pascal("transact_write_items") == "TransactWriteItems"
    with pytest.raises(ValueError, match="speaks only"):
        awslite.Client("s3")


@pytest.mark.parametrize(
    "value",
    [
        "text",
        "",
        7,
        -3,
        2.5,
        1e-90,
        10**20,
        True,
        None,
        [1, "a", [False, None]],
        {"m": {"n": 1.25, "s": "中文"}},
        b"\x00\xff",
    ],
)
def test_the_codec_round_trips(value):
    assert decode(encode(value)) == value


def test_the_codec_matches_dynamodb_wire_types():
    assert encode(2.5) == {"N": "2.5"} and encode(Decimal("1.10")) == {"N": "1.10"} and encode(5e-324) == {"N": "0"}
    assert encode({"a": [True]}) == {"M": {"a": {"L": [{"BOOL": True}]}}}
    assert decode({"B": base64.b64encode(b"\x01\x02").decode()}) == b"\x01\x02"  # the wire's base64 form
    assert decode({"NS": ["1", "2.5"]}) == [1, 2.5] and decode({"SS": ["a"]}) == ["a"]
    with pytest.raises(ValueError, match="finite"):
        encode(float("inf"))
    with pytest.raises(TypeError, match="cannot store"):
        encode(object())
