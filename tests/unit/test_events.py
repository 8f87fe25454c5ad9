"""The local gateway's event translation: what Powertools and the tool runtime receive must parse as on AWS."""

import base64
import json

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.utilities.data_classes import APIGatewayProxyEvent, LambdaFunctionUrlEvent, SQSEvent

from toolgen.events import proxy_response, rest_event, sqs_event, url_event

HEADERS = [
    ("Host", "127.0.0.1:8377"),
    ("Authorization", "Bearer t"),
    ("Content-Type", "application/json"),
    ("X-Multi", "a"),
    ("X-Multi", "b"),
    ("Cookie", "a=1; b=2"),
]


def test_rest_event_parses_with_powertools_and_routes():
    event = rest_event(
        "POST", "/v1/tools", "x=1&x=2&y=", HEADERS, b'{"prompt": "hi"}', source_ip="10.0.0.1", host="127.0.0.1:8377"
    )
    parsed = APIGatewayProxyEvent(event)
    assert parsed.path == "/v1/tools" and parsed.http_method == "POST"
    assert parsed.json_body == {"prompt": "hi"}
    assert parsed.multi_value_query_string_parameters == {"x": ["1", "2"], "y": [""]}
    assert parsed.multi_value_headers["X-Multi"] == ["a", "b"]
    assert parsed.request_context.stage == "Prod"
    app = APIGatewayRestResolver()
    app.post("/v1/tools")(lambda: {"seen": app.current_event.json_body["prompt"]})
    assert json.loads(app.resolve(event, None)["body"]) == {"seen": "hi"}


def test_binary_bodies_travel_base64():
    event = rest_event("POST", "/x", "", [("Content-Type", "image/png")], b"\x89PNG\x00", source_ip="1", host="h")
    assert event["isBase64Encoded"] is True
    assert base64.b64decode(event["body"]) == b"\x89PNG\x00"


def test_url_event_is_payload_v2():
    event = url_event("GET", "/runs", "limit=2", HEADERS, b"", source_ip="10.0.0.1", host="127.0.0.1:8377")
    parsed = LambdaFunctionUrlEvent(event)
    assert parsed.raw_path == "/runs" and parsed.request_context.http.method == "GET"
    assert parsed.headers["x-multi"] == "a,b"
    assert parsed.query_string_parameters == {"limit": "2"}
    assert event["cookies"] == ["a=1", "b=2"]
    assert event["body"] is None


def test_url_event_joins_a_repeated_query_parameter_with_commas_as_function_urls_do():
    event = url_event("GET", "/runs", "limit=1&limit=2&x=", HEADERS, b"", source_ip="10.0.0.1", host="h")
    assert event["queryStringParameters"] == {"limit": "1,2", "x": ""}
    assert event["rawQueryString"] == "limit=1&limit=2&x="


def test_proxy_response_full_and_inferred_forms():
    status, headers, body = proxy_response(
        {"statusCode": 201, "headers": {"A": "1"}, "multiValueHeaders": {"B": ["2", "3"]}, "body": "ok"}
    )
    assert (status, body) == (201, b"ok")
    assert ("B", "2") in headers and ("B", "3") in headers and ("A", "1") in headers
    assert (
        proxy_response({"statusCode": 200, "body": base64.b64encode(b"\x00").decode(), "isBase64Encoded": True})[2]
        == b"\x00"
    )
    assert proxy_response({"hello": "world"}) == (200, [("Content-Type", "application/json")], b'{"hello": "world"}')


def test_sqs_event_parses_with_powertools():
    message = {
        "MessageId": "m1",
        "ReceiptHandle": "r1",
        "Body": '{"a": 1}',
        "Attributes": {"ApproximateReceiveCount": "2"},
    }
    parsed = SQSEvent(sqs_event([message], "arn:aws:sqs:us-east-1:123456789012:q", "us-east-1"))
    record = next(parsed.records)
    assert record.message_id == "m1" and record.json_body == {"a": 1}
    assert record.attributes.approximate_receive_count == "2"
