"""awslite over real HTTP: retries like botocore's standard mode, errors shaped like botocore's, and the
secret a tool reads from moto's Secrets Manager."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from toolgen import aws, awslite


class Scripted:
    """A loopback endpoint answering each request with the next (status, body) of its script."""

    def __init__(self, script: list[tuple[int, dict]]) -> None:
        self.script, self.seen = list(script), []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                outer.seen.append((dict(self.headers), json.loads(body)))
                status, answer = outer.script.pop(0)
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/x-amz-json-1.0")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def credentials(monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AK")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "SK")
    monkeypatch.setenv("AWS_SESSION_TOKEN", "TOKEN")


def serve(script):
    endpoint = Scripted(script)
    return endpoint, awslite.Client("dynamodb", region="us-east-1", endpoint=endpoint.url)


def test_throttling_is_retried_then_succeeds(credentials):
    throttled = {"__type": "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException", "message": "slow"}
    endpoint, client = serve([(400, throttled), (503, {}), (200, {"Item": {"pk": {"S": "p"}}})])
    try:
        assert client.get_item(TableName="t", Key={"pk": {"S": "p"}}) == {"Item": {"pk": {"S": "p"}}}
    finally:
        endpoint.stop()
    assert len(endpoint.seen) == 3
    headers, body = endpoint.seen[0]
    assert headers["X-Amz-Target"] == "DynamoDB_20120810.GetItem" and body == {
        "TableName": "t",
        "Key": {"pk": {"S": "p"}},
    }
    assert headers["X-Amz-Security-Token"] == "TOKEN" and "x-amz-security-token" in headers["Authorization"]


def test_a_client_error_is_not_retried_and_reads_like_botocores(credentials):
    invalid = {"__type": "com.amazon.coral.validate#ValidationException", "message": "bad key"}
    endpoint, client = serve([(400, invalid)])
    try:
        with pytest.raises(awslite.AwsClientError) as caught:
            client.put_item(TableName="t", Item={})
    finally:
        endpoint.stop()
    assert len(endpoint.seen) == 1
    assert aws.error_code(caught.value) == "ValidationException"
    assert aws.translate(caught.value, "dynamodb put_item").aws_code == "ValidationException"


def test_it_gives_up_after_three_attempts(credentials):
    endpoint, client = serve([(500, {"message": "boom"})] * 3)
    try:
        with pytest.raises(awslite.AwsClientError) as caught:
            client.query(TableName="t")
    finally:
        endpoint.stop()
    assert len(endpoint.seen) == 3 and caught.value.response["ResponseMetadata"]["HTTPStatusCode"] == 500


def test_no_credentials_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("AWS_ACCESS_KEY_ID", raising=False)
    client = awslite.Client("dynamodb", endpoint="http://127.0.0.1:9")
    with pytest.raises(awslite.AwsClientError, match="AWS_ACCESS_KEY_ID"):
        client.get_item(TableName="t", Key={})


def test_a_secret_from_motos_secrets_manager(aws_env, emulator):
    arn = emulator.client("secretsmanager").create_secret(Name="awslite-test", SecretString="s3cret")["ARN"]
    assert awslite.Client("secretsmanager").get_secret_value(SecretId=arn)["SecretString"] == "s3cret"
    with pytest.raises(awslite.AwsClientError) as caught:
        awslite.Client("secretsmanager").get_secret_value(SecretId="missing")
    assert aws.error_code(caught.value) == "ResourceNotFoundException"


def test_a_deployed_tool_reads_its_secret_and_rows_without_boto3(aws_env, emulator, monkeypatch, tmp_path):
    from tests.helpers import tool_event
    from toolgen import auth
    from toolgen.intent import classify
    from toolgen.planner import OfflinePlanner
    from toolgen.runtime import ToolApp
    from toolgen.table import DynamoTable, legacy_home, rows_pk

    arn = emulator.client("secretsmanager").create_secret(Name="tool-secret-test", SecretString="tool-s3cret")["ARN"]
    program = OfflinePlanner().plan("a todo list", classify("a todo list"), []).program
    (tmp_path / "program.json").write_text(program.model_dump_json())
    monkeypatch.delenv("TOOLGEN_SECRET", raising=False)
    for name, value in {"TABLE_NAME": aws_env.table, "TOOL_ID": "t-lite", "TOOL_OWNER": "lia"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("TOOLGEN_SECRET_ARN", arn)
    app = ToolApp.from_environment(tmp_path / "program.json")
    assert isinstance(app.table, DynamoTable) and isinstance(app.table.client, awslite.Client)
    token = auth.mint("lia", "tool-s3cret")
    created = app.handle(tool_event("POST", "/tasks", token=token, body={"title": "water the plants"}))
    assert created["statusCode"] == 201, created["body"]
    # read back through boto3 (no TOOLGEN_PARTITION given: where tools made before homes keep their rows)
    rows = DynamoTable(aws_env.table).query(rows_pk(legacy_home("t-lite"), "lia"), "task#")  # not its SUMMARY
    assert [r["data"]["title"] for r in rows] == ["water the plants"]
    wrong = app.handle(tool_event("GET", "/tasks", token=auth.mint("lia", "another-secret")))
    assert wrong["statusCode"] == 401
