"""DynamoTable against moto's DynamoDB: conditions, pagination, batch deletes."""

import pytest

from toolgen.errors import ConflictError, NotFoundError
from toolgen.ids import sortable_id
from toolgen.table import DynamoTable


@pytest.fixture
def table(aws_env):
    return DynamoTable(aws_env.table)


def test_numbers_round_trip_as_ints_and_floats(table):
    pk = sortable_id("x")
    table.put({"pk": pk, "sk": "a", "n": 3, "f": 2.5, "nested": {"l": [1, 1.5, "s", True]}})
    assert table.get(pk, "a") == {"pk": pk, "sk": "a", "n": 3, "f": 2.5, "nested": {"l": [1, 1.5, "s", True]}}


def test_put_if_absent_refuses_a_second_write(table):
    pk = sortable_id("x")
    table.put({"pk": pk, "sk": "a"}, if_absent=True)
    with pytest.raises(ConflictError):
        table.put({"pk": pk, "sk": "a"}, if_absent=True)


def test_update_sets_removes_and_checks_expectations(table):
    pk = sortable_id("x")
    table.put({"pk": pk, "sk": "a", "v": 1, "gone": "x"})
    assert table.update(pk, "a", {"v": 2, "gone": None}) == {"pk": pk, "sk": "a", "v": 2}
    with pytest.raises(ConflictError):
        table.update(pk, "a", {"v": 3}, expect={"v": 1})
    assert table.update(pk, "a", {"v": 3}, expect={"v": 2})["v"] == 3
    with pytest.raises(NotFoundError):
        table.update(pk, "missing", {"v": 1})


def test_query_pages_through_everything_and_delete_prefix_batches(table):
    pk = sortable_id("x")
    for i in range(60):
        table.put({"pk": pk, "sk": f"row#{i:03d}", "blob": "x" * 20_000})  # > 1 MB: several query pages
    table.put({"pk": pk, "sk": "other#1"})
    assert len(table.query(pk, "row#")) == 60
    assert [i["sk"] for i in table.query(pk, "row#", newest_first=True)][:2] == ["row#059", "row#058"]
    assert table.delete_prefix(pk, "row#") == 60
    assert [i["sk"] for i in table.query(pk)] == ["other#1"]


def test_numbers_too_small_for_dynamodb_are_stored_as_zero(table):
    pk = sortable_id("x")
    table.put({"pk": pk, "sk": "a", "tiny": 5e-324, "small": 1e-90})
    item = table.get(pk, "a")
    assert item["tiny"] == 0 and item["small"] == 1e-90
