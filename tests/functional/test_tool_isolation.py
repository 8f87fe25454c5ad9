"""Each tool's credentials reach its own partitions and nothing else: checked with the very session credentials
the local runtime gives a tool's process (as Lambda does), against the emulator that holds them to the tools'
role policy (toolgen/local/fidelity.py, iam.py)."""

from __future__ import annotations

import boto3
import pytest
from botocore.exceptions import ClientError

from tests.functional.test_pipeline import call_tool, run
from tests.functional.test_pipeline import services as services
from toolgen.local.emulator import REGION, MotoFunctionSource
from toolgen.table import rows_pk, usage_sk


def _as_tool(emulator, services, record):
    """A DynamoDB client holding what the tool's own process holds: its role session."""
    image = MotoFunctionSource().describe(record.function_name)
    assert image is not None and image.role == services.settings.tool_role_arn
    env = MotoFunctionSource().credentials(image)
    assert env["AWS_ACCESS_KEY_ID"].startswith("ASIA")  # a session, not the emulator's own key
    session = boto3.session.Session(
        aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
        aws_session_token=env["AWS_SESSION_TOKEN"],
        region_name=REGION,
    )
    return session.client("dynamodb", endpoint_url=emulator.endpoint)


def _denied(call) -> bool:
    with pytest.raises(ClientError) as caught:
        call()
    return caught.value.response["Error"]["Code"] == "AccessDeniedException"


def test_a_tools_credentials_reach_its_own_rows_and_no_other_tools_nor_the_platforms(services, runtime, emulator):
    one = services.tools.get("iris", run(services, "a todo list for chores", user="iris").tool_id)
    other = services.tools.get("iris", run(services, "a reading list of books", user="iris").tool_id)
    assert one.home and other.home and one.home != other.home
    assert one.home.endswith(":" + one.function_name)  # <role id>:<function name>: the session's aws:userid
    assert call_tool(runtime, one.function_name, "POST", "/tasks", user="iris", body={"title": "mop"})[0] == 201
    assert call_tool(runtime, other.function_name, "POST", "/books", user="iris", body={"title": "Dune"})[0] == 201
    table = services.settings.table_name
    ddb = _as_tool(emulator, services, one)

    def query(pk: str):
        return ddb.query(TableName=table, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": pk}})

    # its own: the person's rows and their summary (how many, their version), its counters and lease slots
    own = query(rows_pk(one.home, "iris"))["Items"]
    assert [i["data"]["M"]["title"]["S"] for i in own if "data" in i] == ["mop"]
    assert [i["rows"]["N"] for i in own if i["sk"]["S"] == "SUMMARY"] == ["1"]
    assert ddb.get_item(TableName=table, Key={"pk": {"S": one.home}, "sk": {"S": usage_sk("iris")}})["Item"]
    # not the other tool's rows, to read or to write, nor its counters
    assert _denied(lambda: query(rows_pk(other.home, "iris")))
    assert _denied(
        lambda: ddb.put_item(TableName=table, Item={"pk": {"S": rows_pk(other.home, "iris")}, "sk": {"S": "x"}})
    )
    assert _denied(lambda: ddb.get_item(TableName=table, Key={"pk": {"S": other.home}, "sk": {"S": "LEASE#0"}}))
    # nor the platform's items: the person's memories, jobs and tool records
    assert _denied(lambda: query("USER#iris"))
    # nor anything by a call that names no partition, nor several at once
    assert _denied(lambda: ddb.scan(TableName=table))
    assert _denied(
        lambda: ddb.batch_get_item(
            RequestItems={table: {"Keys": [{"pk": {"S": rows_pk(one.home, "iris")}, "sk": {"S": "x"}}]}}
        )
    )
    # and the other tool still has its row
    assert call_tool(runtime, other.function_name, "GET", "/books", user="iris")[1]["items"][0]["title"] == "Dune"


def test_the_emulators_own_credentials_are_its_operators_and_are_not_checked(services, emulator):
    ddb = emulator.client("dynamodb")
    assert ddb.scan(TableName=services.settings.table_name, Limit=1)["ScannedCount"] >= 0


def test_a_tools_credentials_reach_no_other_service(services, runtime, emulator, aws_env):
    # given the session a tool's process holds, and the platform's token secret in Secrets Manager
    record = services.tools.get("ivo", run(services, "a todo list for chores", user="ivo").tool_id)
    ddb = _as_tool(emulator, services, record)
    credentials = ddb._request_signer._credentials
    secret = emulator.client("secretsmanager").create_secret(Name="isolation/token-secret", SecretString="s")["ARN"]

    def client(service: str):
        return boto3.session.Session(
            aws_access_key_id=credentials.access_key,
            aws_secret_access_key=credentials.secret_key,
            aws_session_token=credentials.token,
            region_name=REGION,
        ).client(service, endpoint_url=emulator.endpoint)

    # then its own DynamoDB rows answer, and no other service does (IAM allows its role DynamoDB only)
    assert ddb.get_item(TableName=services.settings.table_name, Key={"pk": {"S": record.home}, "sk": {"S": "x"}})
    for call in (
        lambda: client("secretsmanager").get_secret_value(SecretId=secret),
        lambda: client("lambda").list_functions(),
        lambda: client("s3").list_buckets(),
        lambda: client("sqs").list_queues(),
    ):
        with pytest.raises(ClientError) as refused:
            call()
        assert refused.value.response["Error"]["Code"] == "AccessDenied"
