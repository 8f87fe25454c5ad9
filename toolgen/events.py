"""HTTP requests as the Lambda events AWS would send, and Lambda answers back as HTTP responses.

Pure functions, shared by the embedded default's gateway (toolgen/local/gateway.py) and the pipeline's probe,
which calls a tool with the event its URL would send. Formats: API Gateway REST API proxy events (payload
1.0, what template.yaml's ``AWS::Serverless::Api`` sends the API function), Lambda function URL events
(payload 2.0, what a tool's URL sends it), and SQS batches (what the event source mapping sends the worker).
"""

from __future__ import annotations

import base64
import json
import time
import uuid
from typing import Any
from urllib.parse import parse_qsl

TEXT_TYPES = ("application/json", "text/", "application/x-www-form-urlencoded", "application/xml")


def _body(body: bytes, content_type: str) -> tuple[str | None, bool]:
    if not body:
        return None, False
    if any(content_type.startswith(t) for t in TEXT_TYPES) or not content_type:
        try:
            return body.decode("utf-8"), False
        except UnicodeDecodeError:
            pass
    return base64.b64encode(body).decode(), True


def _header_maps(headers: list[tuple[str, str]]) -> tuple[dict[str, str], dict[str, list[str]]]:
    single: dict[str, str] = {}
    multi: dict[str, list[str]] = {}
    for name, value in headers:
        single[name] = value
        multi.setdefault(name, []).append(value)
    return single, multi


def _query_maps(query: str) -> tuple[dict[str, str] | None, dict[str, list[str]] | None]:
    pairs = parse_qsl(query, keep_blank_values=True)
    if not pairs:
        return None, None
    single: dict[str, str] = {}
    multi: dict[str, list[str]] = {}
    for name, value in pairs:
        single[name] = value
        multi.setdefault(name, []).append(value)
    return single, multi


def rest_event(
    method: str, path: str, query: str, headers: list[tuple[str, str]], body: bytes, *, source_ip: str, host: str
) -> dict[str, Any]:
    """An API Gateway REST API proxy event for a ``/{proxy+}`` resource on stage ``Prod``."""
    single, multi = _header_maps(headers)
    content_type = next((v for k, v in headers if k.lower() == "content-type"), "")
    text, is_b64 = _body(body, content_type)
    qs, mqs = _query_maps(query)
    now = time.time()
    return {
        "resource": "/{proxy+}",
        "path": path,
        "httpMethod": method,
        "headers": single,
        "multiValueHeaders": multi,
        "queryStringParameters": qs,
        "multiValueQueryStringParameters": mqs,
        "pathParameters": {"proxy": path.lstrip("/")},
        "stageVariables": None,
        "requestContext": {
            "resourceId": "local",
            "resourcePath": "/{proxy+}",
            "httpMethod": method,
            "path": f"/Prod{path}",
            "stage": "Prod",
            "protocol": "HTTP/1.1",
            "requestId": str(uuid.uuid4()),
            "accountId": "123456789012",
            "apiId": "local",
            "domainName": host,
            "requestTime": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
            "requestTimeEpoch": int(now * 1000),
            "identity": {"sourceIp": source_ip, "userAgent": single.get("User-Agent") or single.get("user-agent")},
        },
        "body": text,
        "isBase64Encoded": is_b64,
    }


def url_event(
    method: str, path: str, query: str, headers: list[tuple[str, str]], body: bytes, *, source_ip: str, host: str
) -> dict[str, Any]:
    """A Lambda function URL event (payload 2.0); header names lower-cased, repeated headers and query parameters
    joined with commas."""
    merged: dict[str, str] = {}
    cookies: list[str] = []
    for name, value in headers:
        key = name.lower()
        if key == "cookie":
            cookies += [c.strip() for c in value.split(";") if c.strip()]
            continue
        merged[key] = f"{merged[key]},{value}" if key in merged else value
    text, is_b64 = _body(body, merged.get("content-type", ""))
    _, repeats = _query_maps(query)
    qs = {name: ",".join(values) for name, values in repeats.items()} if repeats else None  # as a URL joins them
    now = time.time()
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": path,
        "rawQueryString": query,
        "headers": merged,
        "queryStringParameters": qs,
        "requestContext": {
            "accountId": "anonymous",
            "apiId": "local",
            "domainName": host,
            "domainPrefix": host.split(".")[0],
            "http": {
                "method": method,
                "path": path,
                "protocol": "HTTP/1.1",
                "sourceIp": source_ip,
                "userAgent": merged.get("user-agent", ""),
            },
            "requestId": str(uuid.uuid4()),
            "routeKey": "$default",
            "stage": "$default",
            "time": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
            "timeEpoch": int(now * 1000),
        },
        "body": text,
        "isBase64Encoded": is_b64,
    }
    if cookies:
        event["cookies"] = cookies
    return event


def proxy_response(result: Any) -> tuple[int, list[tuple[str, str]], bytes]:
    """(status, headers, body) for a function's answer, by API Gateway's and function URLs' rules.

    A dict with ``statusCode`` is a full response; anything else is JSON with status 200 (the function URL
    "inferred" format).
    """
    if not isinstance(result, dict) or "statusCode" not in result:
        return 200, [("Content-Type", "application/json")], json.dumps(result).encode()
    headers: list[tuple[str, str]] = []
    for name, values in (result.get("multiValueHeaders") or {}).items():
        headers += [(name, str(v)) for v in values]
    named = {n.lower() for n, _ in headers}
    headers += [(n, str(v)) for n, v in (result.get("headers") or {}).items() if n.lower() not in named]
    headers += [("Set-Cookie", c) for c in result.get("cookies") or []]
    body = result.get("body") or ""
    data = base64.b64decode(body) if result.get("isBase64Encoded") else str(body).encode()
    return int(result["statusCode"]), headers, data


def sqs_event(messages: list[dict[str, Any]], queue_arn: str, region: str) -> dict[str, Any]:
    """The event Lambda's SQS event source mapping sends for a batch of received messages."""
    return {
        "Records": [
            {
                "messageId": m["MessageId"],
                "receiptHandle": m["ReceiptHandle"],
                "body": m["Body"],
                "attributes": m.get("Attributes", {}),
                "messageAttributes": m.get("MessageAttributes", {}),
                "md5OfBody": m.get("MD5OfBody", ""),
                "eventSource": "aws:sqs",
                "eventSourceARN": queue_arn,
                "awsRegion": region,
            }
            for m in messages
        ]
    }
