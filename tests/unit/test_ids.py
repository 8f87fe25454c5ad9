"""Ids: sortable, unique, unguessable where they must be."""

from toolgen.ids import TOOL_ID_RE, sortable_id, tool_id


def test_ids_made_in_a_burst_sort_in_creation_order():
    made = [sortable_id("r") for _ in range(2000)]  # many share a millisecond
    assert made == sorted(made)
    assert len(set(made)) == len(made)


def test_tool_ids_are_unguessable_and_valid_function_name_parts():
    made = {tool_id() for _ in range(1000)}
    assert len(made) == 1000
    assert all(TOOL_ID_RE.match(t) for t in made)
