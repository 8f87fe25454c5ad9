"""The embedded default's DynamoDB answers a Query from the partition it names (toolgen/local/fidelity.py), with
the answers moto gives: sort-key conditions, order, pages, and the number and binary keys it leaves to moto."""

from __future__ import annotations

import pytest

from toolgen.local.platform import create_table


@pytest.fixture(scope="module")
def table(emulator):
    ddb = emulator.client("dynamodb")
    name = "fidelity-queries"
    create_table(ddb, name)
    for pk in ("A", "B"):
        for n in range(30):
            ddb.put_item(TableName=name, Item={"pk": {"S": pk}, "sk": {"S": f"{'ROW' if n % 2 else 'LOG'}#{n:03d}"}})
    return ddb, name


def keys(answer) -> list[str]:
    return [i["sk"]["S"] for i in answer["Items"]]


def test_a_query_answers_its_partition_with_its_sort_key_condition(table):
    ddb, name = table

    def query(condition: str, **values) -> list[str]:
        attrs = {f":{k}": {"S": v} for k, v in values.items()}
        return keys(ddb.query(TableName=name, KeyConditionExpression=condition, ExpressionAttributeValues=attrs))

    rows = [f"ROW#{n:03d}" for n in range(1, 30, 2)]
    assert query("pk = :p AND begins_with(sk, :s)", p="A", s="ROW#") == rows
    assert query("pk = :p AND sk BETWEEN :a AND :b", p="B", a="LOG#010", b="LOG#020") == [
        f"LOG#{n:03d}" for n in range(10, 21, 2)
    ]
    assert query("pk = :p AND sk = :s", p="A", s="LOG#004") == ["LOG#004"]
    assert len(query("pk = :p", p="B")) == 30 and query("pk = :p", p="C") == []
    assert query("pk = :p AND sk > :s", p="A", s="ROW#025") == ["ROW#027", "ROW#029"]


def test_order_and_pages_are_moto_s(table):
    ddb, name = table
    values = {":p": {"S": "A"}, ":s": {"S": "ROW#"}}
    condition = "pk = :p AND begins_with(sk, :s)"
    newest = ddb.query(
        TableName=name,
        KeyConditionExpression=condition,
        ExpressionAttributeValues=values,
        ScanIndexForward=False,
        Limit=4,
    )
    assert keys(newest) == ["ROW#029", "ROW#027", "ROW#025", "ROW#023"]
    rest = ddb.query(
        TableName=name,
        KeyConditionExpression=condition,
        ExpressionAttributeValues=values,
        ScanIndexForward=False,
        ExclusiveStartKey=newest["LastEvaluatedKey"],
    )
    assert keys(rest)[0] == "ROW#021" and len(keys(rest)) == 11
