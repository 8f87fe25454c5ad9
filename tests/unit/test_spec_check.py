"""`toolgen spec --check`: each importer rule fires on the document that breaks it, and ours break none."""

import copy

import pytest

from tests.helpers import ARCHETYPE_PROMPTS as PROMPTS
from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.spec import build_spec
from toolgen.spec.check import check_importable

PUBLIC = "https://abc123.lambda-url.us-east-1.on.aws"


def spec(prompt: str = "a todo list", server: str = PUBLIC) -> dict:
    return build_spec(OfflinePlanner().plan(prompt, classify(prompt), []).program, server)


@pytest.mark.parametrize("prompt", PROMPTS.values())
def test_every_archetype_imports_as_it_is_from_a_public_url(prompt):
    assert check_importable(spec(prompt)) == []


@pytest.mark.parametrize(
    "server",
    ["http://127.0.0.1:8377/t/x", "http://localhost/t", "https://10.0.0.5/t", "https://[::1]/t", "https://192.168.1.2"],
)
def test_loopback_and_private_servers_are_errors_that_explain_why(server):
    (finding,) = check_importable(spec(server=server))
    assert finding.level == "error" and "for local use" in finding.message


def broken(change) -> list:
    doc = copy.deepcopy(spec())
    change(doc)
    return [(f.level, f.message.split(":")[0]) for f in check_importable(doc)]


def body_schema(doc: dict) -> dict:
    return doc["paths"]["/tasks"]["post"]["requestBody"]["content"]["application/json"]["schema"]


def test_each_rule_fires():
    assert ("error", "no server") in broken(lambda d: d.pop("servers"))
    assert ("error", "no server") in broken(lambda d: d.update(servers=[]))
    assert ("error", "missing 'info'") in broken(lambda d: d.pop("info"))
    nullable = broken(lambda d: body_schema(d)["properties"]["title"].update(type=["string", "null"]))
    assert any(level == "error" and "type is a list" in msg for level, msg in nullable)
    ref_body = {"$ref": "#/components/requestBodies/X"}
    assert broken(lambda d: d["paths"]["/tasks"]["post"].update(requestBody=ref_body)) == [
        ("warning", "a $ref to components/requestBodies drops every input")
    ]
    assert ("warning", "a top-level allOf or array body drops the inputs") in broken(
        lambda d: body_schema(d).update(allOf=[{}])
    )
    assert ("warning", "path-level parameters are dropped") in broken(
        lambda d: d["paths"]["/tasks"].update(parameters=[])
    )
    assert ("warning", "no operationId") in broken(lambda d: d["paths"]["/tasks"]["post"].pop("operationId"))
    assert ("error", "description over 300 characters (GPT Actions)") in broken(
        lambda d: d["paths"]["/tasks"]["post"].update(description="x" * 301)
    )
    assert ("warning", "a $ref or nested object property is read as a plain string") in broken(
        lambda d: body_schema(d)["properties"].update(owner={"type": "object", "properties": {}})
    )
    media = {"application/json": {"schema": {}}, "application/xml": {"schema": {}}}
    assert ("warning", "2 media types") in broken(
        lambda d: d["paths"]["/tasks"]["post"]["requestBody"].update(content=media)
    )


def update_schema(doc: dict) -> dict:
    return doc["paths"]["/tasks/{id}"]["patch"]["requestBody"]["content"]["application/json"]["schema"]


def test_what_generators_and_importers_lose_is_reported():
    # openapi-python-client drops a whole response over one array branch with no items
    bare = broken(lambda d: d["paths"]["/summary"]["get"]["responses"]["200"]["content"]["application/json"].update(
        schema={"type": "object", "properties": {"done": {"anyOf": [{"type": "array"}, {"type": "null"}]}}}
    ))  # fmt: skip
    assert bare == [("warning", "an array with no items")]

    # Dify keeps no enum options, so choices only the schema lists are lost to the model
    def unlisted(d: dict) -> None:
        body_schema(d)["properties"]["priority"]["description"] = "Priority"

    assert ("warning", "choices high, normal, low are not in the description") in broken(unlisted)
    # a boolean default that is not true or false
    assert ("warning", "a boolean's default must be true or false") in broken(
        lambda d: next(p for p in d["paths"]["/tasks"]["get"]["parameters"] if p["name"] == "done")["schema"].update(
            default=0
        )
    )
    # an update body's default resets what a generated client or Dify did not name
    assert ("error", "a default in an update body") in broken(
        lambda d: update_schema(d)["properties"]["done"].update(default=False)
    )
    # Dify sends null for an optional input the model leaves out: a document refusing null refuses its calls
    assert ("warning", "an optional input that does not admit null") in broken(
        lambda d: update_schema(d)["properties"].update(done={"type": "boolean", "description": "Done"})
    )


def test_findings_name_where_they_are():
    doc = copy.deepcopy(spec())
    doc["paths"]["/summary"]["get"]["responses"]["200"]["content"]["application/json"]["schema"] = {"type": "array"}
    (finding,) = check_importable(doc)
    assert finding.where == "GET /summary response 200"
