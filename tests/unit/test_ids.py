"""Ids: sortable, unique, unguessable where they must be."""

from toolgen.ids import TOOL_ID_RE, sortable_id, tool_id, tool_id_for


def test_ids_made_in_a_burst_sort_in_creation_order():
    made = [sortable_id("r") for _ in range(2000)]  # many share a millisecond
    assert made == sorted(made)
    assert len(set(made)) == len(made)


def test_tool_ids_are_unguessable_and_valid_function_name_parts():
    made = {tool_id() for _ in range(1000)}
    assert len(made) == 1000
    assert all(TOOL_ID_RE.match(t) for t in made)


def test_a_jobs_tool_id_is_the_same_every_time_and_unguessable_without_the_secret():
    job = sortable_id("j")
    assert tool_id_for(job, "s1") == tool_id_for(job, "s1")
    assert TOOL_ID_RE.match(tool_id_for(job, "s1"))
    assert tool_id_for(job, "s2") != tool_id_for(job, "s1")
    assert len({tool_id_for(sortable_id("j"), "s1") for _ in range(1000)}) == 1000
