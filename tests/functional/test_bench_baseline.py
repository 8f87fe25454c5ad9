"""bench/baseline_tool.py, the handler bench/coldstart.py compares a tool's cold start with, does the same work as
the tool's create: checks the token a tool is given to check (the public key only), writes the row, answers 201.

It once checked tokens with the platform's secret, which a tool no longer has: `make bench` stopped at its
KeyError (issue 35). Here it runs as bench/coldstart.py configures it, against moto's DynamoDB.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from toolgen import auth
from toolgen.events import url_event
from toolgen.table import DynamoTable

ROOT = Path(__file__).resolve().parents[2]
SECRET = "bench-secret"


@pytest.fixture
def baseline(aws_env, monkeypatch):
    monkeypatch.setenv("TABLE_NAME", aws_env.table)
    monkeypatch.setenv("TOOL_ID", "t-cold")
    monkeypatch.setenv("TOOL_OWNER", "cole")
    monkeypatch.setenv("TOOLGEN_TOKEN_KEY", auth.public_key(SECRET))  # as deployed: never the secret itself
    monkeypatch.delenv("TOOLGEN_SECRET", raising=False)
    spec = importlib.util.spec_from_file_location("baseline_tool", ROOT / "bench" / "baseline_tool.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def add(module, token: str) -> dict:
    headers = [("Authorization", f"Bearer {token}"), ("Content-Type", "application/json")]
    event = json.loads(
        json.dumps(
            url_event("POST", "/tasks", "", headers, b'{"title": "sweep"}', source_ip="127.0.0.1", host="tool.bench")
        )
    )
    return module.handler(event, None)


def test_the_baseline_checks_the_token_with_the_public_key_and_writes_the_row(baseline, aws_env):
    answer = add(baseline, auth.mint("cole", SECRET))
    assert answer["statusCode"] == 201
    row = json.loads(answer["body"])
    stored = DynamoTable(aws_env.table).get("TOOL#t-cold#cole", f"task#{row['id']}")
    assert stored is not None and json.loads(stored["data"])["title"] == "sweep"


@pytest.mark.parametrize("who", ["forged", "someone else"])
def test_the_baseline_refuses_a_token_it_should(baseline, who):
    token = auth.mint("cole", "another-secret") if who == "forged" else auth.mint("dana", SECRET)
    with pytest.raises(PermissionError):
        add(baseline, token)
