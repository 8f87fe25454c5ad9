"""toolgen/local/iam.py: IAM's evaluation rules as the emulator applies them to role sessions."""

from __future__ import annotations

import pytest

from toolgen.local.iam import Request, allowed, dynamodb_requests
from toolgen.local.platform import tool_rows_policy

TABLE = "arn:aws:dynamodb:us-east-1:123456789012:table/toolgen"
ME = "AROAEXAMPLE:toolgen-tool-ta"


def _call(action: str, keys: list[str], userid: str = ME, resource: str = TABLE) -> Request:
    context = {"aws:userid": [userid]}
    if keys:
        context["dynamodb:LeadingKeys"] = keys
    return Request(f"dynamodb:{action}", resource, context)


POLICY = tool_rows_policy(TABLE)


@pytest.mark.parametrize(
    ("keys", "ok"),
    [
        ([f"TOOL#{ME}"], True),  # its lease slots and counters
        ([f"TOOL#{ME}#alice"], True),  # a person's rows
        ([f"TOOL#{ME}#alice", f"TOOL#{ME}#bob"], True),
        (["TOOL#AROAEXAMPLE:toolgen-tool-tb#alice"], False),  # another tool's rows
        (["TOOL#AROAEXAMPLE:toolgen-tool-t"], False),  # a tool whose name is a prefix of its own
        (["TOOL#AROAEXAMPLE:toolgen-tool-tab#alice"], False),  # ...or that extends it
        (["TOOL#AROAOTHER:toolgen-tool-ta#alice"], False),  # the same name under another role
        (["TOOL#ta#alice"], False),  # the partitions tools had before homes
        (["USER#alice"], False),  # the platform's items: memories, jobs, records
        ([f"TOOL#{ME}#alice", "USER#alice"], False),  # every key must be its own
    ],
)
def test_the_tools_policy_allows_a_session_exactly_its_own_partitions(keys, ok):
    assert allowed([POLICY], _call("GetItem", keys)) is ok
    assert allowed([POLICY], _call("Query", keys)) is ok


def test_actions_and_resources_outside_the_policy_are_refused():
    assert not allowed([POLICY], _call("Scan", []))
    assert not allowed([POLICY], _call("BatchWriteItem", [f"TOOL#{ME}#alice"]))
    assert not allowed([POLICY], _call("GetItem", [f"TOOL#{ME}"], resource=TABLE + "-other"))
    assert not allowed([], _call("GetItem", [f"TOOL#{ME}"]))  # no policy: denied


def test_an_explicit_deny_wins_and_not_action_is_a_complement():
    deny = {"Statement": [{"Effect": "Deny", "Action": "dynamodb:DeleteItem", "Resource": "*"}]}
    assert allowed([POLICY], _call("DeleteItem", [f"TOOL#{ME}"]))
    assert not allowed([POLICY, deny], _call("DeleteItem", [f"TOOL#{ME}"]))
    everything_but = {"Statement": [{"Effect": "Allow", "NotAction": "dynamodb:Delete*", "Resource": "*"}]}
    assert allowed([everything_but], _call("getitem", []))  # actions match case-insensitively
    assert not allowed([everything_but], _call("DeleteItem", []))


def test_conditions_beyond_the_evaluator_never_allow_and_always_deny():
    odd = {"Effect": "Allow", "Action": "*", "Resource": "*", "Condition": {"DateGreaterThan": {"aws:x": "1"}}}
    assert not allowed([{"Statement": [odd]}], _call("GetItem", []))
    assert not allowed([{"Statement": [{**odd, "Effect": "Deny"}]}, POLICY], _call("GetItem", [f"TOOL#{ME}"]))


def test_a_variable_that_cannot_be_resolved_matches_nothing():
    request = Request("dynamodb:GetItem", TABLE, {"dynamodb:LeadingKeys": ["TOOL#x"]})  # no aws:userid known
    assert not allowed([POLICY], request)


def test_if_exists_and_null_read_an_absent_key_as_iam_does():
    def policy(condition):
        return {"Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*", "Condition": condition}]}

    absent = Request("dynamodb:GetItem", TABLE, {})
    assert allowed([policy({"StringEqualsIfExists": {"aws:SourceVpc": "vpc-1"}})], absent)
    assert not allowed([policy({"StringEquals": {"aws:SourceVpc": "vpc-1"}})], absent)
    assert allowed([policy({"Null": {"aws:SourceVpc": "true"}})], absent)
    assert not allowed([policy({"Null": {"aws:SourceVpc": "false"}})], absent)
    # ForAllValues over no values holds (why the tools' role allows no action that names no partition)
    assert allowed([policy({"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["TOOL#*"]}})], absent)


def _key(pk: str) -> dict:
    return {"pk": {"S": pk}, "sk": {"S": "x"}}


def _requests(action: str, body: dict) -> list[tuple[str, list[str]]]:
    found = dynamodb_requests(action, body, lambda name: f"arn:{name}", lambda name: "pk")
    return [(r.action, r.context.get("dynamodb:LeadingKeys", [])) for r in found]


def test_the_partitions_of_each_kind_of_call_are_read_as_dynamodb_reports_them():
    assert _requests("GetItem", {"TableName": "t", "Key": _key("A")}) == [("dynamodb:GetItem", ["A"])]
    assert _requests("PutItem", {"TableName": "t", "Item": _key("B")}) == [("dynamodb:PutItem", ["B"])]
    query = {
        "TableName": "t",
        "KeyConditionExpression": "#p = :pk AND begins_with(sk, :p)",
        "ExpressionAttributeNames": {"#p": "pk"},
        "ExpressionAttributeValues": {":pk": {"S": "C"}, ":p": {"S": "row#"}},
    }
    assert _requests("Query", query) == [("dynamodb:Query", ["C"])]
    old_style = {"TableName": "t", "KeyConditions": {"pk": {"AttributeValueList": [{"S": "D"}]}}}
    assert _requests("Query", old_style) == [("dynamodb:Query", ["D"])]
    batch = {"RequestItems": {"t": [{"PutRequest": {"Item": _key("E")}}, {"DeleteRequest": {"Key": _key("F")}}]}}
    assert _requests("BatchWriteItem", batch) == [("dynamodb:BatchWriteItem", ["E", "F"])]
    steps = {
        "TransactItems": [
            {"Put": {"TableName": "t", "Item": _key("G")}},
            {"Update": {"TableName": "t", "Key": _key("H")}},
        ]
    }
    assert _requests("TransactWriteItems", steps) == [("dynamodb:PutItem", ["G"]), ("dynamodb:UpdateItem", ["H"])]
    assert _requests("Scan", {"TableName": "t"}) == [("dynamodb:Scan", [])]
