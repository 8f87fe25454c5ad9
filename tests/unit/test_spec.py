"""Every tool's OpenAPI document is valid 3.1 and keeps the importer rules of DESIGN.md section 8."""

import json

import pytest

from tests.helpers import ARCHETYPE_PROMPTS, COMPOSED_PROMPTS
from tests.unit.test_planner import PROMPTS
from toolgen.errors import StageError
from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.program import FieldSpec
from toolgen.spec import build_spec, validate_spec
from toolgen.spec.fields import EMPTY, example

SERVER = "https://abc.lambda-url.us-east-1.on.aws"
ALL_PROMPTS = {**ARCHETYPE_PROMPTS, **COMPOSED_PROMPTS}


def spec_for(prompt: str) -> dict:
    return build_spec(OfflinePlanner().plan(prompt, classify(prompt), []).program, SERVER)


def operations(spec: dict):
    for path, item in spec["paths"].items():
        for method, op in item.items():
            yield path, method, op


@pytest.mark.parametrize("prompt", PROMPTS.values())
def test_spec_is_valid_openapi_31(prompt):
    spec = spec_for(prompt)
    validate_spec(spec)
    assert spec["openapi"] == "3.1.0"
    assert spec["servers"] == [{"url": SERVER}]


@pytest.mark.parametrize("prompt", PROMPTS.values())
def test_spec_keeps_importer_rules(prompt):
    spec = spec_for(prompt)
    ids = [op["operationId"] for _, _, op in operations(spec)]
    assert len(ids) == len(set(ids)), "operationIds are unique"
    for path, _method, op in operations(spec):
        assert "parameters" not in spec["paths"][path], "no path-level parameters"
        assert len(op["description"]) <= 300
        for param in op.get("parameters", []):
            assert isinstance(param["schema"]["type"], str), "a single type per parameter"
            assert "$ref" not in param
            assert len(param.get("description", "")) <= 700
        if "requestBody" in op:
            content = op["requestBody"]["content"]
            assert list(content) == ["application/json"], "one media type"
            schema = content["application/json"]["schema"]
            assert schema["type"] == "object" and "$ref" not in schema and "allOf" not in schema
            for prop in schema["properties"].values():
                typed = typed_branch(prop)
                assert isinstance(typed["type"], str) and "$ref" not in prop and typed["type"] != "object"


def typed_branch(prop: dict) -> dict:
    """A body property's own type: itself, or the branch beside null (and "", where that means not given too) of an
    optional one (anyOf, never a type list)."""
    if "anyOf" not in prop:
        return prop
    typed, null, *empty = prop["anyOf"]
    assert null == {"type": "null"} and empty in ([], [EMPTY])
    return typed


def bodies(spec: dict):
    for path, method, op in operations(spec):
        if "requestBody" in op:
            yield f"{method.upper()} {path}", method, op["requestBody"]["content"]["application/json"]["schema"]


@pytest.mark.parametrize("prompt", ALL_PROMPTS.values(), ids=list(ALL_PROMPTS))
def test_update_bodies_declare_no_defaults(prompt):
    # a generated client or an importer fills a declared default, and so resets what the caller did not name
    for where, method, schema in bodies(spec_for(prompt)):
        if method == "patch":
            for name, prop in schema["properties"].items():
                assert "default" not in json.dumps(prop), f"{where} {name}"
                assert "required" not in schema


@pytest.mark.parametrize("prompt", ALL_PROMPTS.values(), ids=list(ALL_PROMPTS))
def test_optional_body_inputs_admit_null_and_say_what_it_means(prompt):
    for where, _, schema in bodies(spec_for(prompt)):
        for name, prop in schema["properties"].items():
            if name in schema.get("required", []):
                assert "anyOf" not in prop, f"{where} {name}: a required input is never null"
                continue
            assert prop["anyOf"][1] == {"type": "null"}, f"{where} {name}"
            assert "default" not in prop, f"{where} {name}: Dify keeps a top-level default as a number or text"
            assert "null" in prop["description"], f"{where} {name}: the description says what null means"


def test_todo_documents_say_what_null_means_in_the_tools_language():
    en = spec_for("a todo list for chores")
    update = en["paths"]["/tasks/{id}"]["patch"]["requestBody"]["content"]["application/json"]["schema"]
    create = en["paths"]["/tasks"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert update["properties"]["priority"]["description"] == (
        "Priority. One of: high, normal, low. Leave out or null to keep it as it is."
    )
    assert create["properties"]["priority"]["description"] == (
        "Priority. One of: high, normal, low. Default: normal. Leave out or null for the default."
    )
    said = {name: prop["description"] for name, prop in create["properties"].items()}
    assert said["done"] == "Done. true or false. Default: false. Leave out or null for the default."
    assert said["due"] == "Due. A date, YYYY-MM-DD. Optional: leave out or null for none."
    assert said["title"] == "Task"
    zh = spec_for("待办清单")
    update = zh["paths"]["/tasks/{id}"]["patch"]["requestBody"]["content"]["application/json"]["schema"]
    assert "不填或为 null 则保持不变" in update["properties"]["title"]["description"]


@pytest.mark.parametrize("prompt", ALL_PROMPTS.values(), ids=list(ALL_PROMPTS))
def test_every_choice_is_in_its_description(prompt):
    # Dify keeps no enum options: the model reads the choices from the description or not at all
    for path, method, op in operations(spec_for(prompt)):
        inputs = [(p["name"], p["schema"], p["description"]) for p in op.get("parameters", [])]
        if "requestBody" in op:
            schema = op["requestBody"]["content"]["application/json"]["schema"]
            inputs += [(n, typed_branch(p), p["description"]) for n, p in schema["properties"].items()]
        for name, schema, description in inputs:
            for choice in schema.get("enum", []):
                assert choice in description, f"{method.upper()} {path} {name}: {choice}"


@pytest.mark.parametrize("prompt", ALL_PROMPTS.values(), ids=list(ALL_PROMPTS))
def test_no_array_without_items_and_boolean_defaults_are_booleans(prompt):
    def walk(node, where):
        if isinstance(node, dict):
            if node.get("type") == "array":
                assert "items" in node, where
            if node.get("type") == "boolean" and "default" in node:
                assert isinstance(node["default"], bool), where
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    walk(spec_for(prompt), "#")


def test_spec_describes_every_operation_of_the_program():
    program = OfflinePlanner().plan("a todo list", classify("a todo list"), []).program
    spec = build_spec(program, SERVER)
    assert {op["operationId"] for _, _, op in operations(spec)} == {o.id for o in program.operations} | {"describeTool"}
    create = spec["paths"]["/tasks"]["post"]
    assert create["requestBody"]["content"]["application/json"]["schema"]["required"] == ["title"]
    assert "401" in create["responses"] and "422" in create["responses"]


def test_invalid_document_is_a_stage_error():
    spec = spec_for("a todo list")
    spec["paths"]["/tasks"]["post"]["responses"] = "not a mapping"
    with pytest.raises(StageError, match="specify"):
        validate_spec(spec)


def test_an_integers_example_is_a_whole_number_even_when_its_minimum_is_written_as_a_float():
    # a model copies the example, and Dify cannot make an integer of "20.0"
    pulse = FieldSpec(type="integer", label="Pulse", minimum=20.0, maximum=250.0)
    assert example(pulse) == 20 and isinstance(example(pulse), int)


def test_a_list_documents_its_pages_and_a_create_its_cap():
    spec = spec_for("I want to log my morning runs")
    listed = spec["paths"]["/runs"]["get"]
    params = {p["name"]: p for p in listed["parameters"]}
    assert params["next"]["in"] == "query" and not params["next"]["required"]
    assert params["next"]["schema"]["type"] == "string"
    answer = listed["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(answer["required"]) == {"items", "next"}
    assert {b["type"] for b in answer["properties"]["next"]["anyOf"]} == {"string", "null"}
    assert "409" in spec["paths"]["/runs"]["post"]["responses"]
