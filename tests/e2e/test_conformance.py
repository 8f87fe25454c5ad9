"""Every archetype deploys on the embedded default, and schemathesis finds its tool true to its own document.

For each of the 18 named kinds, and for composed tools of 22 subjects of the knowledge base, a tool is generated
over the platform API, then schemathesis generates requests
from the tool's OpenAPI document (valid and invalid ones) and checks every answer: no 5xx, status codes, content
types and bodies as documented.
"""

from __future__ import annotations

import copy

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import negative_data_rejection

from tests.e2e.conftest import SECRET, Server, http, wait_for_job
from tests.helpers import ARCHETYPE_PROMPTS, COMPOSED_PROMPTS
from toolgen import auth

PROMPTS = {**ARCHETYPE_PROMPTS, **COMPOSED_PROMPTS}

USER = "conformance"


@pytest.fixture(scope="session")
def deployed(server: Server) -> dict[str, dict]:
    """One tool per archetype, asked for all at once (the worker runs several jobs concurrently)."""
    token = server.token(USER)
    jobs = {
        a: http("POST", f"{server.url}/v1/tools", token=token, body={"prompt": p}).body["job_id"]
        for a, p in PROMPTS.items()
    }
    tools = {}
    for archetype, job_id in jobs.items():
        job = wait_for_job(server, job_id, token, timeout=120)
        assert job["status"] == "succeeded", (archetype, job["error"])
        record = http("GET", f"{server.url}/v1/tools/{job['tool_id']}", token=token).body
        assert record["archetype"] == archetype
        tools[archetype] = record
    return tools


def test_every_archetype_deploys_and_answers_its_probe(deployed):
    assert sorted(deployed) == sorted(PROMPTS)
    for record in deployed.values():
        assert record["openapi"]["servers"] == [{"url": record["tool_url"]}]


@pytest.mark.parametrize("archetype", sorted(PROMPTS))
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_tool_conforms_to_its_document(deployed, archetype, mode):
    # Driven through each operation's Hypothesis strategy: schemathesis's pytest plugin does not yet run under
    # pytest 9 (it reads a node attribute pytest removed).
    headers = {"Authorization": f"Bearer {auth.mint(USER, SECRET)}"}
    schema = schemathesis.openapi.from_dict(without_page_tokens(deployed[archetype]["openapi"]))
    schema.config.update(base_url=deployed[archetype]["tool_url"])
    operations = [result.ok() for result in schema.get_all_operations()]
    assert operations
    for operation in operations:
        # In a query string every value is text, so a negative case that changed a value's type (a list for a
        # string) is often a valid value again once serialised; schemathesis excuses some of these, not all.
        # Without a body there is nothing else to mutate, so such operations skip only that one check.
        excluded = [negative_data_rejection] if "requestBody" not in operation.definition.raw else []
        conformance(operation, mode, headers, excluded)()


def without_page_tokens(document: dict) -> dict:
    """The document without lists' ``next``: a page token is opaque, so any string fits its schema, yet only one
    the list gave is accepted (422 otherwise: tests/unit/test_pages.py). Every other parameter is still tried."""
    copied = copy.deepcopy(document)
    for item in copied["paths"].values():
        for operation in item.values():
            if "parameters" in operation:
                operation["parameters"] = [p for p in operation["parameters"] if p["name"] != "next"]
    return copied


def conformance(operation, mode, headers: dict, excluded: list):
    """Schemathesis's cases for one operation, each sent and checked against the document."""

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def check(case):
        case.call_and_validate(headers=headers, timeout=15, excluded_checks=excluded)

    return check
