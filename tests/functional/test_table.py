"""DynamoTable against moto's DynamoDB: conditions, pagination, batch deletes, transactions, binary values.

Every test runs twice: through boto3's client (the platform's functions) and through toolgen/awslite.py's (a
tool's runtime), since both must behave the same.
"""

import pytest

from toolgen import awslite
from toolgen.errors import AWSError, ConflictError, NotFoundError
from toolgen.ids import sortable_id
from toolgen.table import Change, DynamoTable, Put


@pytest.fixture(params=["boto3", "awslite"])
def table(request, aws_env):
    return DynamoTable(aws_env.table, client=awslite.Client("dynamodb") if request.param == "awslite" else None)


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


def test_delete_hands_back_the_item_it_deleted(table):
    pk = sortable_id("x")
    table.put({"pk": pk, "sk": "a", "data": {"kwh": 2.5}})
    assert table.delete(pk, "a") == {"pk": pk, "sk": "a", "data": {"kwh": 2.5}}
    assert table.delete(pk, "a") is None


def test_delete_with_expectations_only_deletes_the_item_as_read(table):
    pk = sortable_id("x")
    table.put({"pk": pk, "sk": "a", "v": 2})
    with pytest.raises(ConflictError):
        table.delete(pk, "a", expect={"v": 1})
    assert table.delete(pk, "a", expect={"v": 2}) == {"pk": pk, "sk": "a", "v": 2}
    with pytest.raises(ConflictError):  # gone: nothing as read to delete
        table.delete(pk, "a", expect={"v": 2})


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


def test_binary_values_round_trip_as_bytes(table):
    pk = sortable_id("x")
    table.put({"pk": pk, "sk": "a", "vector": bytes(range(256)), "nested": {"b": b"\x00\xff"}})
    item = table.get(pk, "a")
    assert item["vector"] == bytes(range(256)) and item["nested"]["b"] == b"\x00\xff"


def test_transactions_and_counters(table):
    pk = sortable_id("x")
    table.transact([Put({"pk": pk, "sk": "a", "v": 1}), Change(pk, "b", adds={"n": 2})])
    assert table.get(pk, "b")["n"] == 2
    with pytest.raises(ConflictError):
        table.transact([Put({"pk": pk, "sk": "c"}), Put({"pk": pk, "sk": "a"}, if_absent=True)])
    assert table.get(pk, "c") is None  # all or nothing
    assert table.add(pk, "b", {"n": 3}, {"label": "x"})["n"] == 5
    with pytest.raises(NotFoundError):
        table.add(pk, "missing", {"n": 1}, must_exist=True)
    table.put_many([{"pk": pk, "sk": f"m{i}"} for i in range(30)], deletes=[(pk, "a")])
    assert len(table.query(pk, "m")) == 30 and table.get(pk, "a") is None


def test_aws_errors_become_toolgen_errors_with_their_code(aws_env, table):
    missing = DynamoTable("no-such-table", client=table._client)
    with pytest.raises(AWSError) as caught:
        missing.get("p", "s")
    assert caught.value.aws_code == "ResourceNotFoundException"


def test_query_page_takes_a_limit_a_direction_and_its_own_next_key(table):
    pk = sortable_id("x")
    for i in range(7):
        table.put({"pk": pk, "sk": f"row#{i:03d}"})
    page, following = table.query_page(pk, "row#", limit=3, newest_first=True)
    assert [i["sk"] for i in page] == ["row#006", "row#005", "row#004"] and following == {"pk": pk, "sk": "row#004"}
    page, following = table.query_page(pk, "row#", following, limit=3, newest_first=True)
    assert [i["sk"] for i in page] == ["row#003", "row#002", "row#001"]
    page, _ = table.query_page(pk, "row#", {"pk": pk, "sk": "row#001"}, limit=3)  # a plain key, going up
    assert [i["sk"] for i in page] == ["row#002", "row#003", "row#004"]


def test_bounded_counters_refuse_past_their_bound_alone_and_in_a_transaction(table):
    pk = sortable_id("x")
    assert table.add(pk, "count", {"n": 1}, below={"n": 2})["n"] == 1
    assert table.add(pk, "count", {"n": 1}, below={"n": 2})["n"] == 2
    with pytest.raises(ConflictError):
        table.add(pk, "count", {"n": 1}, below={"n": 2})
    with pytest.raises(ConflictError):
        table.transact([Put({"pk": pk, "sk": "row"}), Change(pk, "count", adds={"n": 1}, below={"n": 2})])
    assert table.get(pk, "row") is None and table.get(pk, "count")["n"] == 2
    table.transact([Put({"pk": pk, "sk": "row"}), Change(pk, "count", adds={"n": 1}, below={"n": 3})])
    assert table.get(pk, "row") is not None and table.get(pk, "count")["n"] == 3


@pytest.mark.parametrize("kind", ["dynamo", "memory"])
def test_set_members_are_added_and_taken_out_once_however_often_sent(table, kind):
    """A set of strings, unlike a counter, may be sent the same change twice (a retry) to the same effect; an
    emptied set is gone, and ``empty`` refuses while it has members (running.py's writes in flight)."""
    from toolgen.table import MemoryTable

    store = table if kind == "dynamo" else MemoryTable()
    pk = sortable_id("x")
    for _ in range(2):
        item = store.add(pk, "busy", {"seq": 1, "writing": frozenset({"a"})})
    assert item["seq"] == 2 and item["writing"] == ["a"]
    assert sorted(store.add(pk, "busy", {"writing": frozenset({"b"})})["writing"]) == ["a", "b"]
    with pytest.raises(ConflictError):
        store.add(pk, "busy", {}, {"lease": 1}, empty=("writing",))
    for _ in range(2):
        item = store.add(pk, "busy", {}, removes={"writing": frozenset({"a"})})
    assert item["writing"] == ["b"]
    item = store.add(pk, "busy", {}, removes={"writing": frozenset({"b", "c"})})
    assert "writing" not in item
    assert store.add(pk, "busy", {}, {"lease": 1}, empty=("writing",))["lease"] == 1
