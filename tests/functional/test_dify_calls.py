"""Every kind of tool, imported into Dify, answers every call Dify makes for it.

Calls are built from each tool's own OpenAPI document as Dify builds them (tests/dify.py): null for every optional
body input the model leaves out, text converted by the property's schema for those it fills. They are served by
the tool's runtime as a deployed tool reads its program (a view, not the pydantic model), with its rows in the
in-memory table and its sources answered by the loopback stand-in of the public APIs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.dify import Input, build_call, inputs, model_value
from tests.fakes import FakeTable
from tests.helpers import ARCHETYPE_PROMPTS, COMPOSED_PROMPTS, tool_event
from tests.upstream import Upstream
from toolgen import auth
from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.runtime import ToolApp, view
from toolgen.runtime.fetch import PUBLIC_APIS
from toolgen.spec import build_spec

PROMPTS = {**ARCHETYPE_PROMPTS, **COMPOSED_PROMPTS}
SECRET = "dify-secret"
ORDER = {"post": 0, "get": 1, "patch": 2, "delete": 3}  # rows are made first and deleted last


@pytest.fixture(scope="module")
def upstream() -> Iterator[Upstream]:
    server = Upstream()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def apis(monkeypatch: pytest.MonkeyPatch, upstream: Upstream) -> None:
    monkeypatch.setenv("TOOLGEN_FETCH_OVERRIDES", json.dumps({host: upstream.url for host in PUBLIC_APIS}))


class Imported:
    """A tool as Dify imports it: its document's operations, called through the tool's runtime."""

    def __init__(self, prompt: str) -> None:
        program = OfflinePlanner().plan(prompt, classify(prompt), []).program
        deployed = view._view(json.loads(program.model_dump_json()), "program")
        self.app = ToolApp(deployed, tool_id="t" + "5" * 20, owner="dee", table=FakeTable(), secret=SECRET)  # type: ignore[arg-type]
        self.doc = build_spec(program, "https://tool.example")
        self.operations = sorted(
            ((path, method, op) for path, item in self.doc["paths"].items() for method, op in item.items()),
            key=lambda found: ORDER[found[1]],
        )
        self.rows: dict[str, dict[str, Any]] = {}  # the last row each collection path answered

    def call(self, path: str, method: str, op: dict[str, Any], given: dict[str, Any]) -> tuple[int, Any]:
        if "{id}" in path:
            row = self.rows.get(path.removesuffix("/{id}"))
            if row is None:
                return 0, "no row to call it on: the create failed"
            given = {**given, "id": row["id"]}
        sent = build_call(path, method, op, given)
        event = tool_event(sent.method, sent.path, token=auth.mint("dee", SECRET), query=sent.query, body=sent.body)
        response = self.app.handle(event)
        answer = json.loads(response["body"]) if response["body"] else None
        if method == "post" and response["statusCode"] == 201:
            self.rows[path] = answer
        return response["statusCode"], answer

    def call_all(
        self, fill: Callable[[Input], bool], methods: str = "post get patch delete"
    ) -> list[tuple[str, int, Any]]:
        """Every operation once, the model filling in the inputs ``fill`` picks, with their examples."""
        answers = []
        for path, method, op in self.operations:
            if method not in methods.split():
                continue
            given = {i.name: model_value(i, example(i)) for i in inputs(op) if i.where != "path" and fill(i)}
            status, answer = self.call(path, method, op, given)
            answers.append((f"{method.upper()} {path} {op['operationId']}", status, answer))
        return answers


def example(item: Input) -> Any:
    return item.schema.get("examples", [None])[0]


def another(schema: dict[str, Any], current: Any) -> Any:
    """A valid value of ``schema`` other than ``current``."""
    if schema.get("enum"):
        return next(choice for choice in schema["enum"] if choice != current)
    if schema["type"] == "boolean":
        return not current
    if schema["type"] in ("number", "integer"):
        return schema["minimum"] if current != schema["minimum"] else schema["maximum"]
    if schema.get("format") == "date":
        return "2026-12-24" if current != "2026-12-24" else "2026-12-25"
    if "pattern" in schema and ":" in schema["pattern"]:  # a time
        return "08:15" if current != "08:15" else "09:45"
    return f"not {current}"[: schema.get("maxLength", 200)]


def failed(answers: list[tuple[str, int, Any]]) -> list[tuple[str, int, Any]]:
    return [(where, status, answer) for where, status, answer in answers if not 200 <= status < 300]


@pytest.mark.parametrize("prompt", PROMPTS.values(), ids=list(PROMPTS))
def test_every_call_succeeds_when_the_model_fills_in_only_what_is_required(prompt):
    # given a tool imported into Dify; when the model fills in only the required inputs (null for the rest)
    tool = Imported(prompt)
    answers = tool.call_all(lambda item: item.required)
    # then every operation answers, including updates of nulls only, which leave the row as it is
    assert failed(answers) == []


@pytest.mark.parametrize("prompt", PROMPTS.values(), ids=list(PROMPTS))
def test_every_call_succeeds_when_the_model_fills_in_everything_as_dify_types_it(prompt):
    # when the model fills in every input, as text wherever Dify reads an input as text (every optional one)
    tool = Imported(prompt)
    answers = tool.call_all(lambda item: item.name != "limit")
    assert failed(answers) == []
    # then each value is stored with its own type, not as the text the model wrote
    for path, method, op in tool.operations:
        if method == "post" and path in tool.rows:
            for item in inputs(op):
                assert tool.rows[path][item.name] == example(item), (path, item.name)


@pytest.mark.parametrize("prompt", PROMPTS.values(), ids=list(PROMPTS))
def test_every_call_succeeds_when_the_model_sends_empty_text_for_what_it_leaves_out(prompt):
    # when the model fills in the required inputs and writes "" for every optional body input (Dify's models do,
    # for dates, times and choices they have no value for: 24 of 26 such calls were refused before)
    tool = Imported(prompt)
    for path, method, op in tool.operations:
        if method != "post":
            continue
        given = {i.name: model_value(i, example(i)) for i in inputs(op) if i.where != "path" and i.required}
        given |= {i.name: "" for i in inputs(op) if i.where == "body" and not i.required}
        status, answer = tool.call(path, method, op, given)
        # then every call answers; free text keeps "", anything else is stored as not given
        assert 200 <= status < 300, (path, answer)
        if status == 201:
            spec = tool.app.program.entities[next(o for o in tool.app.program.operations if o.path == path).entity]
            for item in inputs(op):
                field = spec.fields.get(item.name)
                if field is not None and not item.required and field.type not in ("string", "text"):
                    assert answer.get(item.name) != "", (path, item.name)


def _updatable() -> dict[str, str]:
    plans = {kind: OfflinePlanner().plan(prompt, classify(prompt), []).program for kind, prompt in PROMPTS.items()}
    return {kind: PROMPTS[kind] for kind, plan in plans.items() if any(op.kind == "update" for op in plan.operations)}


UPDATABLE = _updatable()


@pytest.mark.parametrize("prompt", UPDATABLE.values(), ids=list(UPDATABLE))
def test_an_update_through_dify_changes_only_the_field_the_model_named(prompt):
    tool = Imported(prompt)
    assert failed(tool.call_all(lambda item: True, methods="post")) == []
    for path, op in [(path, op) for path, method, op in tool.operations if method == "patch"]:
        before = tool.rows[path.removesuffix("/{id}")]
        named = next(i for i in inputs(op) if i.where == "body")
        value = another(named.schema["anyOf"][0], before.get(named.name))
        status, after = tool.call(path, "patch", op, {named.name: model_value(named, value)})
        assert status == 200, after
        unchanged = {k: v for k, v in before.items() if k not in (named.name, "updated_at")}
        assert {k: after.get(k) for k in unchanged} == unchanged
