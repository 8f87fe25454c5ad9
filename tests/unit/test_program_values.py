"""Values a program holds from the request: list inputs, settings every expression reads, starting rows.

Each is held, when the program is validated, to what the runtime will accept; each runs in the runtime (the
in-memory table), and each is declared in the tool's OpenAPI document.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from pydantic import ValidationError

from tests.helpers import tool_event
from toolgen import auth
from toolgen.program import FieldSpec, ToolProgram
from toolgen.runtime.app import ToolApp
from toolgen.spec import build_spec, validate_spec
from toolgen.spec.check import check_importable
from toolgen.table import MemoryTable

TODAY = dt.date(2026, 12, 6)
SECRET = "values-secret"


def rent_split(**changes) -> dict:
    """A rent split by room area: the rooms as a list input, the rent and common share as settings."""
    program = {
        "name": "rent_split",
        "title": "Rent by room",
        "archetype": "custom_split",
        "settings": {"rent": {"label": "Rent", "value": 6500}, "roommates": {"label": "Roommates",
                                                                              "value": ["Anna", "Ben", "Chloe"]}},
        "operations": [
            {"id": "split", "kind": "compute", "method": "POST", "path": "/split",
             "inputs": {"areas": {"type": "list", "items": "number", "minimum": 1, "maximum": 200,
                                  "default": [18, 12, 9], "max_items": 10}},
             "outputs": {"shares": "round(areas / sum(areas) * rent, 2)", "people": "count(roommates)"}},
        ],
    }  # fmt: skip
    program.update(changes)
    return program


def chores(**changes) -> dict:
    program = {
        "name": "chores",
        "title": "Chores",
        "archetype": "custom_schedule",
        "settings": {"people": {"label": "Roommates", "value": ["Anna", "Ben"]}},
        "entities": {"chore": {"fields": {"task": {"type": "string", "required": True},
                                          "every_days": {"type": "integer", "minimum": 1, "default": 7}}}},
        "seed": {"chore": [{"task": "dishes", "every_days": 1}, {"task": "vacuum"}]},
        "operations": [
            {"id": "addChore", "kind": "create", "path": "/chores", "entity": "chore"},
            {"id": "listChores", "kind": "list", "path": "/chores", "entity": "chore",
             "computed": {"who": "item(people, weeks % count(people))"}, "constants": {"weeks": 3}},
            {"id": "stats", "kind": "aggregate", "path": "/stats", "entity": "chore",
             "metrics": {"chores": "count()", "each": "count() / count(people)"}},
        ],
    }  # fmt: skip
    program.update(changes)
    return program


def app(program: dict) -> ToolApp:
    return ToolApp(ToolProgram.model_validate(program), tool_id="t" + "0" * 20, owner="alice",
                   table=MemoryTable(), secret=SECRET, clock=lambda: TODAY)  # fmt: skip


def call(tool: ToolApp, method: str, path: str, body=None):
    result = tool.handle(tool_event(method, path, token=auth.mint("alice", SECRET), body=body))
    return result["statusCode"], json.loads(result["body"] or "null")


# --- list inputs --------------------------------------------------------------------------------------------------


def test_a_list_input_of_any_length_is_read_item_by_item_and_zipped_by_position():
    tool = app(rent_split())
    assert call(tool, "POST", "/split", {"areas": [18, 12, 9]}) == (200, {"shares": [3000.0, 2000.0, 1500.0],
                                                                         "people": 3})  # fmt: skip
    assert call(tool, "POST", "/split", {"areas": [10, 10]})[1]["shares"] == [3250.0, 3250.0]
    assert call(tool, "POST", "/split", {})[1]["shares"] == [3000.0, 2000.0, 1500.0]  # its default


@pytest.mark.parametrize(
    ("areas", "problem"),
    [("18,12", "expected list"), ([1] * 11, "too many items"), ([18, "big"], "item 1: expected number"),
     ([18, 0], "item 1: too small")],
)  # fmt: skip
def test_a_list_that_is_not_one_of_its_items_is_a_422_naming_the_item(areas, problem):
    status, body = call(app(rent_split()), "POST", "/split", {"areas": areas})
    assert status == 422 and body["details"] == {"areas": problem}


def test_a_list_default_is_held_to_its_items_and_a_whole_number_written_as_a_decimal_is_one():
    spec = FieldSpec(type="list", items="integer", default=[3.0, 4])
    assert spec.default == [3, 4]
    with pytest.raises(ValidationError, match=r"an item of the default: 2\.5 is not a whole number"):
        FieldSpec(type="list", items="integer", default=[2.5])
    with pytest.raises(ValidationError, match="says its items' type"):
        FieldSpec(type="list")


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("entity", "a row's field is one value, not a list"),
        ("get", "a list input is sent in a body: the operation is a POST"),
        ("list_op", "only a compute operation takes a list input"),
    ],
)
def test_a_list_is_only_a_calculations_input_sent_in_a_body(where, said):
    program = chores()
    areas = {"type": "list", "items": "number"}
    if where == "entity":
        program["entities"]["chore"]["fields"]["areas"] = areas
    elif where == "get":
        program = rent_split()
        program["operations"][0]["method"] = "GET"
    else:
        program["operations"][1]["inputs"] = {"areas": areas}
    with pytest.raises(ValidationError, match=said):
        ToolProgram.model_validate(program)


def test_a_list_input_is_an_array_with_its_items_in_the_document():
    spec = build_spec(ToolProgram.model_validate(rent_split()), "https://tool.example")
    validate_spec(spec)
    body = spec["paths"]["/split"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    areas = body["properties"]["areas"]["anyOf"][0]
    assert areas["type"] == "array" and areas["maxItems"] == 10
    assert areas["items"]["type"] == "number" and areas["items"]["minimum"] == 1
    assert check_importable({**spec, "servers": [{"url": "https://tool.example"}]}) == []


# --- settings ----------------------------------------------------------------------------------------------------


def test_every_expression_reads_the_tools_settings_by_name():
    tool = app(chores())
    for task in ("bins", "plants"):
        assert call(tool, "POST", "/chores", {"task": task})[0] == 201
    items = call(tool, "GET", "/chores")[1]["items"]
    assert {row["who"] for row in items} == {"Ben"}  # week 3 of two people
    assert call(tool, "GET", "/stats")[1]["metrics"] == {"chores": 2, "each": 1.0}
    described = call(tool, "GET", "/")[1]
    assert described["settings"] == {"people": {"label": "Roommates", "value": ["Anna", "Ben"]}}


@pytest.mark.parametrize(
    ("value", "said"),
    [({"a": 1}, "a setting is a number, a text"), ([1, "a"], "of numbers or of texts, not both"),
     (["x"] * 51, "at most 50")],
)  # fmt: skip
def test_a_setting_is_a_plain_value(value, said):
    with pytest.raises(ValidationError, match=said):
        ToolProgram.model_validate(chores(settings={"people": {"value": value}}))


def test_a_setting_may_not_share_a_name_with_an_operations_own_names():
    program = chores()
    program["operations"][1]["constants"]["people"] = 2
    with pytest.raises(ValidationError, match="named like a setting"):
        ToolProgram.model_validate(program)
    with pytest.raises(ValidationError, match="'people', which is not defined"):
        ToolProgram.model_validate(chores(settings={"roomies": {"value": ["A"]}}))


# --- starting rows -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "said"),
    [
        ({"task": [{"task": "x"}]}, "starting rows for unknown entity 'task'"),
        ({"chore": [{"task": "x", "every_days": 0}]}, "starting row 0 of 'chore'"),
        ({"chore": [{"title": "x"}]}, "starting row 0 of 'chore'"),
        ({"chore": [{"task": f"t{i}"} for i in range(51)]}, "at most 50 starting rows"),
    ],
)
def test_starting_rows_are_rows_the_entity_would_store(seed, said):
    with pytest.raises(ValidationError, match=said):
        ToolProgram.model_validate(chores(seed=seed))


def test_a_path_of_its_own_words_is_served_before_one_that_takes_an_id():
    # given a row's GET before a figure's, on /chores/{id} and /chores/total (a model may write them in that order)
    program = chores()
    program["operations"].insert(0, {"id": "getChore", "kind": "get", "path": "/chores/{id}", "entity": "chore"})
    program["operations"].append({"id": "total", "kind": "aggregate", "path": "/chores/total", "entity": "chore",
                                  "metrics": {"n": "count()"}})  # fmt: skip
    tool = app(program)
    call(tool, "POST", "/chores", {"task": "bins"})
    # then /chores/total is the figure, not the row named "total"
    assert call(tool, "GET", "/chores/total") == (200, {"metrics": {"n": 1}})


def test_a_text_default_that_begins_with_a_dollar_is_the_text_it_says():
    spec = FieldSpec(type="string", enum=["$", "$$", "$$$"], default="$$")
    assert spec.default == "$$"
    program = chores()
    program["entities"]["chore"]["fields"]["cost"] = {"type": "string", "enum": ["$", "$$"], "default": "$$"}
    tool = app(program)
    assert call(tool, "POST", "/chores", {"task": "bins"})[1]["cost"] == "$$"
    with pytest.raises(ValidationError, match=r"a date's '\$' default is '\$today' or '\$next:MM-DD'"):
        FieldSpec(type="date", default="$tomorrow")


def test_an_operations_constants_are_small():
    program = chores()
    program["operations"][1]["constants"]["table"] = list(range(101))
    with pytest.raises(ValidationError, match="holds more than 100 items"):
        ToolProgram.model_validate(program)
    program["operations"][1]["constants"]["table"] = {"note": "x" * 9000}
    with pytest.raises(ValidationError, match="more than 8000 characters"):
        ToolProgram.model_validate(program)


def test_the_periods_of_a_series_share_one_budget_of_work():
    from toolgen.runtime.arithmetic import Work
    from toolgen.runtime.expressions import aggregate

    rows = [{"x": i} for i in range(8)]
    shared = Work(20)  # one period's item-by-item work and sum: 16 items; two would need 32
    first = aggregate({"s": "sum(x * 2)"}, rows, ["x"], work=shared)
    second = aggregate({"s": "sum(x * 2)"}, rows, ["x"], work=shared)
    assert first == {"s": 56} and second == {"s": None}  # the second period's figure is out of the budget
