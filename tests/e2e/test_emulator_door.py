"""The embedded default's AWS is not an open door on the host: only serve's own credentials (and the sessions it
gives its functions) reach the emulator and the Invoke API, secrets are not in any function's configuration, and
the emulator listens on loopback whatever address the gateway is given."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest
from botocore.exceptions import ClientError

from tests.e2e.conftest import SECRET, aws_client, generate, http, running_server


@pytest.mark.parametrize(
    ("service", "call"),
    [
        ("lambda", "list_functions"),
        ("dynamodb", "list_tables"),
        ("s3", "list_buckets"),
        ("sqs", "list_queues"),
        ("secretsmanager", "list_secrets"),
        ("sts", "get_caller_identity"),
    ],
)
def test_the_emulator_refuses_any_other_credentials(server, service, call):
    getattr(aws_client(server, service), call)()  # serve's own credentials answer
    for others in ({"key": "AKIAANYONE", "secret": "x", "token": ""}, {"secret": "a-guess"}):
        with pytest.raises(ClientError) as refused:
            getattr(aws_client(server, service, **others), call)()
        assert refused.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
        assert refused.value.response["Error"]["Code"] in (
            "InvalidClientTokenId",
            "InvalidAccessKeyId",
            "SignatureDoesNotMatch",
        )


def test_unsigned_requests_and_motos_own_api_are_refused(server):
    for method, path in (("POST", "/moto-api/reset"), ("GET", "/moto-api/data.json"), ("GET", "/")):
        request = urllib.request.Request(
            f"{server.aws_endpoint}{path}", method=method, data=b"" if method == "POST" else None
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        refused.value.close()  # the error holds the open response: closed here, not by the collector
        assert refused.value.code == 403, path
    assert aws_client(server, "dynamodb").list_tables()["TableNames"]  # nothing was reset


def test_no_function_configuration_holds_a_secret(server):
    generate(server, "a todo list for my chores", user="door")
    functions = aws_client(server, "lambda").list_functions()["Functions"]
    assert functions
    for fn in functions:
        env = (fn.get("Environment") or {}).get("Variables", {})
        assert not {"TOOLGEN_SECRET", "OPENAI_API_KEY"} & set(env), fn["FunctionName"]
        assert SECRET not in env.values()
    platform = next(fn for fn in functions if fn["FunctionName"] == "toolgen-api")
    arn = platform["Environment"]["Variables"]["TOOLGEN_SECRET_ARN"]  # read as on AWS, by those allowed to
    assert aws_client(server, "secretsmanager").get_secret_value(SecretId=arn)["SecretString"] == SECRET
    with pytest.raises(ClientError):
        aws_client(server, "secretsmanager", secret="a-guess").get_secret_value(SecretId=arn)


def _invoker(server, **credentials):
    """boto3's Lambda client pointed at the gateway's Invoke API, as the worker's probe uses it."""
    import boto3

    aws = json.loads((server.home / "serve.json").read_text())["aws"]
    return boto3.client(
        "lambda",
        endpoint_url=server.url,
        region_name="us-east-1",
        aws_access_key_id=credentials.get("key", aws["AWS_ACCESS_KEY_ID"]),
        aws_secret_access_key=credentials.get("secret", aws["AWS_SECRET_ACCESS_KEY"]),
        aws_session_token=credentials.get("token", aws["AWS_SESSION_TOKEN"]),
    )


def test_the_invoke_api_on_the_public_port_demands_the_emulators_signature(server):
    # given the made-up SQS batch the red team ran the worker with
    made_up = json.dumps({"Records": [{"messageId": "1", "body": "{}", "eventSource": "aws:sqs"}]}).encode()
    url = f"{server.url}/2015-03-31/functions/toolgen-worker/invocations"
    refused = http("POST", url, raw=made_up)
    assert refused.status == 403 and refused.headers["x-amzn-ErrorType"] == "MissingAuthenticationToken"
    with pytest.raises(ClientError) as guessed:
        _invoker(server, key="AKIAANYONE", secret="x", token="").invoke(FunctionName="toolgen-worker", Payload=made_up)
    assert guessed.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
    # with serve's credentials it runs, and a function's error comes back without its stack and file paths
    answer = _invoker(server).invoke(FunctionName="toolgen-authorizer", Payload=b'{"type": "TOKEN"}')
    assert answer["FunctionError"] == "Unhandled"
    error = json.loads(answer["Payload"].read())
    assert error["errorType"] and "stackTrace" not in error


def test_the_emulator_listens_on_loopback_whatever_host_the_gateway_is_given(tmp_path):
    (tmp_path / "home").mkdir()
    with running_server(tmp_path / "home", {}, ("--host", "0.0.0.0")) as open_server:
        assert urlsplit(open_server.url).hostname == "0.0.0.0"
        assert urlsplit(open_server.aws_endpoint).hostname == "127.0.0.1"
        port = urlsplit(open_server.aws_endpoint).port
        outside = _outside_address()
        if outside is None:
            pytest.skip("this machine has no address but loopback to try the emulator's port from")
        # the gateway answers on the machine's own address; the emulator's port does not
        assert http("GET", f"http://{outside}:{urlsplit(open_server.url).port}/v1/health").status == 200
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection((outside, port), timeout=5).close()


def _outside_address() -> str | None:
    """An address of this machine that is not loopback, if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the interface a route would use
        except OSError:
            return None
        address = probe.getsockname()[0]
    return None if address.startswith("127.") or address == "0.0.0.0" else address
