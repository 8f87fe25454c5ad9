"""schemathesis against the platform's own OpenAPI document, over HTTP to a running platform.

Every operation gets valid and invalid requests generated from the document; every answer must be documented
(status, content type, body) and none may be a 5xx. FUZZ_EXAMPLES sets the cases per operation and mode
(`make test`: enough for over a thousand in all; `make fuzz`: ten times as many).
"""

from __future__ import annotations

import os
import re
import uuid

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import negative_data_rejection

from tests.e2e.conftest import Server, http
from toolgen.api.idempotency import KEY_PATTERN

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "50"))
USER = "fuzz"
TALLY: dict[str, int] = {}
NEGATIVE = GenerationMode.NEGATIVE


@pytest.fixture(scope="module")
def schema(server: Server):
    document = http("GET", f"{server.url}/v1/openapi.json").body
    loaded = schemathesis.openapi.from_dict(document)
    loaded.config.update(base_url=server.url)
    return loaded


def _operations(schema) -> list:
    return [result.ok() for result in schema.get_all_operations()]


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_platform_api_answers_every_generated_request_as_documented(server, schema, mode):
    headers = {"Authorization": f"Bearer {server.token(USER)}"}
    operations = _operations(schema)
    assert len(operations) >= 10
    for operation in operations:
        try:
            run(operation, mode, headers)()
        except Unsatisfiable:
            # nothing in this operation can be made invalid (no parameters, no body): no negative case exists
            assert mode is GenerationMode.NEGATIVE and not operation.definition.raw.get("parameters"), operation.label
    print(f"\nschemathesis {mode.name.lower()}: {sum(TALLY.values())} cases so far over {len(operations)} operations")


def run(operation, mode, headers: dict):
    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def check(case):
        TALLY[operation.label] = TALLY.get(operation.label, 0) + 1
        key = next((k for k in case.headers or {} if k.lower() == "idempotency-key"), None)
        if key and re.match(KEY_PATTERN, str(case.headers[key])):
            # A key belongs to one request: generated keys repeat ("0", "0"), and schemathesis resends cases with
            # changes, so a valid key would meet a second body and be rightly refused (422). A valid key is made
            # unique, as clients make them; an invalid one is kept (it must be refused). Reuse: test_api.py.
            case.headers[key] = f"fuzz-{uuid.uuid4().hex}"
        # The person's real token where the case carries one; a negative case that left it out on purpose (to see
        # a 401) is sent without it.
        negative = {str(where.value) for where, info in case.meta.components.items() if info.mode is NEGATIVE}
        if "header" not in negative:  # a negative header may be the Authorization itself: then it stays as made
            given = [name for name in (case.headers or {}) if name.lower() == "authorization"]
            case.headers = {**{k: v for k, v in (case.headers or {}).items() if k not in given}, **headers}
        if "query" not in negative and isinstance(case.query, dict):
            # A page token is opaque: only one a list gave is accepted (a 422 otherwise: test_api_pages.py), so a
            # made-up one is left out of a valid case, as clients send only what they were given.
            case.query.pop("next", None)
        # In a query string every value is text: a negative case that only changed a query value's type (false
        # for a string) is a valid request again once serialised, so that check is skipped for it alone.
        excluded = [negative_data_rejection] if negative == {"query"} else []
        case.call_and_validate(timeout=30, excluded_checks=excluded)

    return check


def test_over_a_thousand_cases_were_tried(server):
    # runs after the two above (same module, file order): the figure the closing note reports
    if not TALLY:
        pytest.skip("run with the fuzz tests above")
    assert sum(TALLY.values()) >= min(1000, EXAMPLES * 20), TALLY
