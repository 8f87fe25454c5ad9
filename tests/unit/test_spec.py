"""Every tool's OpenAPI document is valid 3.1 and keeps the importer rules of DESIGN.md section 8."""

import pytest

from tests.unit.test_planner import PROMPTS
from toolgen.errors import StageError
from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.spec import build_spec, validate_spec

SERVER = "https://abc.lambda-url.us-east-1.on.aws"


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
                assert isinstance(prop["type"], str) and "$ref" not in prop and prop["type"] != "object"


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
