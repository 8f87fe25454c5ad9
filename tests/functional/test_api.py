"""The platform API's Lambda handler, called with API Gateway events, against moto's server."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from openapi_spec_validator import validate

from tests.functional.conftest import SECRET, load_handler
from toolgen import auth
from toolgen.api.services import services
from toolgen.models import JobMessage

EVENTS = Path(__file__).resolve().parents[1] / "events"


@dataclass
class LambdaContext:
    function_name: str = "toolgen-api"
    memory_limit_in_mb: int = 512
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:toolgen-api"
    aws_request_id: str = "52fdfc07-2182-154f-163f-5f0f9a621d72"

    def get_remaining_time_in_millis(self) -> int:
        return 29_000


@pytest.fixture
def api(aws_env):
    services.cache_clear()
    module = load_handler("api")
    yield module
    services.cache_clear()


def request(
    api,
    method: str,
    path: str,
    *,
    user: str | None = "alice",
    body=None,
    raw: str | None = None,
    token=None,
    headers: dict[str, str] | None = None,
    b64: bool = False,
):
    event = json.loads((EVENTS / "api_post_tools.json").read_text())
    event.update(
        httpMethod=method, path=path, body=raw if raw is not None else (None if body is None else json.dumps(body))
    )
    event["requestContext"].update(httpMethod=method, path=f"/Prod{path}")
    event["headers"].pop("Authorization")
    if token or user:
        event["headers"]["Authorization"] = f"Bearer {token or auth.mint(user, SECRET)}"
    event["headers"].update(headers or {})
    event["multiValueHeaders"].update({k: [v] for k, v in (headers or {}).items()})
    event["isBase64Encoded"] = b64
    response = api.handler(event, LambdaContext())
    text = response.get("body") or ""
    headers = {**response.get("headers", {}), **{k: v[0] for k, v in (response.get("multiValueHeaders") or {}).items()}}
    return response["statusCode"], (json.loads(text) if text and text[0] in "[{" else text), headers


def test_health_needs_no_token(api):
    assert request(api, "GET", "/v1/health", user=None)[:2] == (200, {"status": "ok", "version": "0.1.0"})


def test_openapi_document_is_valid_and_public(api):
    status, document, _ = request(api, "GET", "/v1/openapi.json", user=None)
    assert status == 200
    validate(document)
    assert {"/v1/tools", "/v1/jobs/{job_id}", "/v1/tools/{tool_id}", "/v1/memories"} <= set(document["paths"])
    assert document["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"


def test_the_document_says_a_job_may_carry_warnings(api):
    # a job that succeeded with something to tell (its tool's source did not answer) says it in a documented field
    document = request(api, "GET", "/v1/openapi.json", user=None)[1]
    schemas = document["components"]["schemas"]
    warnings = schemas["JobView"]["properties"]["warnings"]
    assert warnings["type"] == "array" and "succeeded" in warnings["description"]
    assert set(schemas["JobWarning"]["required"]) == {"code", "message"}
    assert "upstream_unreachable" in schemas["JobWarning"]["properties"]["code"]["description"]


@pytest.mark.parametrize("token", [None, "garbage", auth.mint("alice", "wrong-secret")])
def test_calls_without_a_valid_token_are_401(api, token):
    status, body, headers = request(api, "POST", "/v1/tools", user=None, token=token, body={"prompt": "x"})
    assert status == 401 and body["code"] == "unauthorized"
    assert headers["WWW-Authenticate"] == "Bearer"


def test_new_tool_request_is_queued_as_a_job(api, aws_env, emulator):
    # a person with no tools yet (another module's "alice" may already have this very tool: a repeat, answered at once)
    user = "queue-first"
    status, body, headers = request(api, "POST", "/v1/tools", user=user, body={"prompt": "a todo list for chores"})
    assert status == 202
    assert headers["Location"] == body["status_url"]
    assert body["status_url"].endswith(f"/Prod/v1/jobs/{body['job_id']}")  # API Gateway's own address
    status, job, _ = request(api, "GET", f"/v1/jobs/{body['job_id']}", user=user)
    # classify and recall ran in the API (cheap, and they decide whether to queue at all); the rest is queued
    assert status == 200 and job["status"] == "queued"
    assert [s["status"] for s in job["stages"]] == ["succeeded"] * 2 + ["pending"] * 5
    sqs = emulator.client("sqs")
    messages = sqs.receive_message(QueueUrl=aws_env.queue_url, MaxNumberOfMessages=10).get("Messages", [])
    queued = [JobMessage.model_validate_json(m["Body"]) for m in messages]
    assert JobMessage(job_id=body["job_id"], user=user, prompt="a todo list for chores") in queued


@pytest.mark.parametrize(
    ("body", "raw"),
    [
        ({}, None),
        ({"prompt": ""}, None),
        ({"prompt": "   "}, None),
        ({"prompt": "x", "user": "bob"}, None),
        ({"prompt": "x" * 2001}, None),
        (None, "{not json"),
        (None, "[1, 2]"),
    ],
)
def test_bad_tool_requests_are_422_with_a_code(api, body, raw):
    status, payload, _ = request(api, "POST", "/v1/tools", body=body, raw=raw)
    assert status == 422
    assert payload["code"] == "invalid_input" and payload["message"]


def test_identity_comes_from_the_token_not_the_body(api):
    # a body naming another user is refused outright rather than silently ignored
    assert request(api, "POST", "/v1/tools", body={"prompt": "x", "user": "bob"})[0] == 422


def test_another_persons_job_is_not_found(api):
    _, body, _ = request(api, "POST", "/v1/tools", body={"prompt": "a todo list"})
    assert request(api, "GET", f"/v1/jobs/{body['job_id']}", user="bob")[0] == 404
    assert request(api, "GET", "/v1/jobs/j0000000000000000000z")[0] == 404
    assert request(api, "GET", "/v1/jobs/../../etc")[0] == 404


def test_unknown_tool_and_route_are_404(api):
    status, body, _ = request(api, "GET", "/v1/tools/t0000000000000000000z")
    assert status == 404 and body["code"] == "not_found"
    assert request(api, "DELETE", "/v1/tools/nonsense")[0] == 404
    assert request(api, "GET", "/v1/nothing-here")[0] == 404


def test_memories_are_added_listed_and_deleted_per_person(api):
    status, memory, _ = request(api, "POST", "/v1/memories", body={"text": "I live in Shanghai"})
    assert status == 201 and (memory["key"], memory["value"]) == ("city", "Shanghai")
    listed = request(api, "GET", "/v1/memories")[1]["memories"]
    assert memory["memory_id"] in [m["memory_id"] for m in listed]
    assert memory["memory_id"] not in [
        m["memory_id"] for m in request(api, "GET", "/v1/memories", user="bob")[1]["memories"]
    ]
    assert request(api, "DELETE", f"/v1/memories/{memory['memory_id']}", user="bob")[0] == 404
    assert request(api, "DELETE", f"/v1/memories/{memory['memory_id']}")[0] == 204
    assert request(api, "DELETE", f"/v1/memories/{memory['memory_id']}")[0] == 404


def test_a_job_that_cannot_be_queued_is_marked_failed_not_lost(api, monkeypatch):
    monkeypatch.setenv("JOBS_QUEUE_URL", "http://127.0.0.1:1/123456789012/no-such-queue")
    services.cache_clear()
    status, body, _ = request(api, "POST", "/v1/tools", user="queue-down", body={"prompt": "a todo list"})
    assert status == 503 and body["code"] == "aws_error"
    listed = services().table.query("USER#queue-down", "JOB#")
    assert listed[-1]["status"] == "failed" and "could not be queued" in listed[-1]["error"]


def test_missing_configuration_names_what_is_missing(api, monkeypatch):
    monkeypatch.delenv("TABLE_NAME")
    monkeypatch.delenv("JOBS_QUEUE_URL")
    services.cache_clear()
    with pytest.raises(Exception, match=r"TABLE_NAME, .*JOBS_QUEUE_URL"):
        request(api, "GET", "/v1/tools")


def queued_job_ids(emulator, queue_url) -> set[str]:
    sqs = emulator.client("sqs")
    found = set()
    while messages := sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10).get("Messages", []):
        found |= {JobMessage.model_validate_json(m["Body"]).job_id for m in messages}
        sqs.delete_message_batch(
            QueueUrl=queue_url,
            Entries=[{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(messages)],
        )
    return found


@pytest.mark.parametrize(
    ("prompt", "status", "said"),
    [("book me a flight to Tokyo", "refused", "reason"), ("something for my stuff", "needs_clarification", "question")],
)
def test_an_unclear_or_refused_request_is_answered_at_once_and_never_queued(
    api, aws_env, emulator, prompt, status, said
):
    code, body, _ = request(api, "POST", "/v1/tools", user="uma", body={"prompt": prompt})
    assert code == 202 and body["status"] == status
    job = request(api, "GET", f"/v1/jobs/{body['job_id']}", user="uma")[1]
    assert job[said] and [s["status"] for s in job["stages"]] == ["succeeded"] + ["skipped"] * 6
    assert body["job_id"] not in queued_job_ids(emulator, aws_env.queue_url)


def test_an_action_in_the_world_is_refused_with_its_reason_and_cannot_be_accepted(api, aws_env, emulator):
    status, body, _ = request(api, "POST", "/v1/tools", user="uma", body={"prompt": "帮我订一张明天去上海的机票"})
    assert status == 202 and body["status"] == "refused"
    job = request(api, "GET", f"/v1/jobs/{body['job_id']}", user="uma")[1]
    assert job["status"] == "refused" and job["refused"] == "booking" and job["question"] is None
    assert "预订" in job["reason"] and job["candidates"] == [] and job["proposal"] is None
    status, error, _ = request(api, "POST", f"/v1/jobs/{body['job_id']}/answer", user="uma", body={"accept": True})
    assert status == 409 and error["code"] == "conflict" and "不在等待回答" in error["message"]
    assert body["job_id"] not in queued_job_ids(emulator, aws_env.queue_url)


def test_a_question_carries_a_proposal_and_one_answer_queues_the_chosen_tool(api, aws_env, emulator):
    # given a request that could be two named kinds
    body = request(api, "POST", "/v1/tools", user="una", body={"prompt": "track my coffee budget"})[1]
    job = request(api, "GET", f"/v1/jobs/{body['job_id']}", user="una")[1]
    assert job["status"] == "needs_clarification" and job["refused"] is None
    choices = [c["choice"] for c in job["candidates"]]
    assert job["proposal"] == job["candidates"][0] and {"budget_tracker", "caffeine_tracker"} <= set(choices)
    assert body["job_id"] not in queued_job_ids(emulator, aws_env.queue_url)
    # a choice that is not offered is refused, and so is another person's answer
    path = f"/v1/jobs/{body['job_id']}/answer"
    status, error, _ = request(api, "POST", path, user="una", body={"choice": "bmi_calculator"})
    assert status == 400 and error["details"]["choices"] == choices
    assert request(api, "POST", path, user="mallory", body={"accept": True})[0] == 404
    assert request(api, "POST", path, user="una", body={"accept": True, "choice": choices[1]})[0] == 422
    # when the person picks the second candidate
    status, answered, _ = request(api, "POST", path, user="una", body={"choice": choices[1]})
    # then the same job is queued with that reading, and cannot be answered twice
    assert status == 202 and answered["status"] == "queued" and answered["job_id"] == body["job_id"]
    job = request(api, "GET", f"/v1/jobs/{body['job_id']}", user="una")[1]
    assert job["status"] == "queued" and job["question"] is None and job["candidates"] == []
    assert body["job_id"] in queued_job_ids(emulator, aws_env.queue_url)
    assert services().jobs.get("una", body["job_id"]).choice == choices[1]
    assert request(api, "POST", path, user="una", body={"accept": True})[0] == 409


def test_a_repeat_of_a_live_tool_is_answered_at_once_and_never_queued(api, aws_env, emulator, runtime):
    # given a tool the worker made for this person
    from toolgen.config import Settings
    from toolgen.local.lambda_runtime import RuntimeInvoker
    from toolgen.pipeline import process
    from toolgen.services import Services

    worker = Services.from_settings(
        Settings.from_env("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret"),
        invoker=RuntimeInvoker(runtime),
    )
    first = request(api, "POST", "/v1/tools", user="vic", body={"prompt": "a to-do list for chores"})[1]
    assert first["status"] == "queued"
    made = process(JobMessage(job_id=first["job_id"], user="vic", prompt="a to-do list for chores"), worker)
    assert made.status == "succeeded"
    queued_job_ids(emulator, aws_env.queue_url)  # drain
    # when the same plan is asked for again, in other words
    status, body, _ = request(api, "POST", "/v1/tools", user="vic", body={"prompt": "I need a todo list for my chores"})
    # then the answer is the existing tool, already succeeded, and nothing was queued
    assert status == 202 and body["status"] == "succeeded"
    job = request(api, "GET", f"/v1/jobs/{body['job_id']}", user="vic")[1]
    assert job["reused"] is True and job["tool_id"] == made.tool_id and job["tool_url"] == made.tool_url
    assert body["job_id"] not in queued_job_ids(emulator, aws_env.queue_url)


def _queued_for(emulator, queue_url: str, job_ids: set[str]) -> int:
    """How many distinct messages on the jobs queue are for these jobs (each read hidden for a few seconds, so
    the next read sees others, however many earlier tests left)."""
    sqs = emulator.client("sqs")
    seen: set[str] = set()
    for _ in range(50):
        batch = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10, VisibilityTimeout=5).get("Messages")
        if not batch:
            break
        seen |= {m["MessageId"] for m in batch if JobMessage.model_validate_json(m["Body"]).job_id in job_ids}
    return len(seen)


def test_a_retried_request_with_the_same_idempotency_key_gets_the_same_job(api, aws_env, emulator):
    key = {"Idempotency-Key": "retry-7f3a"}
    first = request(api, "POST", "/v1/tools", user="ida", body={"prompt": "a todo list for chores"}, headers=key)
    again = request(api, "POST", "/v1/tools", user="ida", body={"prompt": "a todo list for chores"}, headers=key)
    assert first[0] == again[0] == 202
    assert again[1] == first[1] and again[2]["Location"] == first[2]["Location"]
    jobs = services().table.query("USER#ida", "JOB#")
    assert [j["job_id"] for j in jobs] == [first[1]["job_id"]]  # one job, so one tool
    assert _queued_for(emulator, aws_env.queue_url, {first[1]["job_id"]}) == 1


def test_a_key_retried_after_forget_me_makes_a_fresh_job(api):
    # given a request under a key, then the person forgets everything
    key = {"Idempotency-Key": "before-forgetting"}
    first = request(api, "POST", "/v1/tools", user="fen", body={"prompt": "a todo list"}, headers=key)[1]
    assert request(api, "DELETE", "/v1/users/me", user="fen")[0] == 204
    assert request(api, "GET", f"/v1/jobs/{first['job_id']}", user="fen")[0] == 404
    # when the same key is sent again
    status, again, _ = request(api, "POST", "/v1/tools", user="fen", body={"prompt": "a todo list"}, headers=key)
    # then it is a new job that exists, not the answer about the one that is gone
    assert status == 202 and again["job_id"] != first["job_id"]
    assert request(api, "GET", f"/v1/jobs/{again['job_id']}", user="fen")[0] == 200
    assert not services().table.query("IDEMPOTENCY#api")  # nobody's records are kept where no one can find them


def test_an_idempotency_key_is_the_persons_and_bound_to_its_request(api):
    key = {"Idempotency-Key": "shared-key"}
    mine = request(api, "POST", "/v1/tools", user="ivo", body={"prompt": "a todo list"}, headers=key)[1]
    lower = {"idempotency-key": "shared-key"}  # header names are case-insensitive
    assert request(api, "POST", "/v1/tools", user="ivo", body={"prompt": "a todo list"}, headers=lower)[1] == mine
    theirs = request(api, "POST", "/v1/tools", user="jan", body={"prompt": "a todo list"}, headers=key)[1]
    assert mine["job_id"] != theirs["job_id"]
    status, body, _ = request(api, "POST", "/v1/tools", user="ivo", body={"prompt": "a reading list"}, headers=key)
    assert status == 422 and body["code"] == "idempotency_key_reused"
    for bad in ("", " ", "x" * 129, "tab\there", "café"):
        status, body, _ = request(
            api, "POST", "/v1/tools", user="ivo", body={"prompt": "a todo"}, headers={"Idempotency-Key": bad}
        )
        assert status == 422 and body["code"] == "invalid_input", (bad, body)


def test_a_request_that_failed_is_run_again_under_its_key(api, aws_env, monkeypatch):
    svc = services()
    real = svc.sqs

    class Down:
        def send_message(self, **_):
            from botocore.exceptions import ClientError

            raise ClientError({"Error": {"Code": "ServiceUnavailable", "Message": "down"}}, "SendMessage")

    monkeypatch.setattr(svc, "_sqs", Down())
    key = {"Idempotency-Key": "after-outage"}
    failed = request(api, "POST", "/v1/tools", user="kai", body={"prompt": "a todo list"}, headers=key)
    assert failed[0] == 503
    monkeypatch.setattr(svc, "_sqs", real)
    retried = request(api, "POST", "/v1/tools", user="kai", body={"prompt": "a todo list"}, headers=key)
    assert retried[0] == 202 and retried[1]["status"] == "queued"


@pytest.mark.parametrize("path", ["/v1/tools", "/v1/memories", "/v1/feedback"])
def test_a_body_that_is_not_utf8_is_422_not_a_crash(api, path):
    import base64

    event_body = base64.b64encode(b'\x00\xd3E\xa0\xe9"L#\xff\xfe\x006\x0b\xe7').decode()
    status, body, _ = request(api, "POST", path, raw=event_body, headers={"Content-Type": "application/json"}, b64=True)
    assert status == 422 and body["code"] == "invalid_input"


def test_a_path_with_a_control_character_matches_no_route(api):
    # "/v1/tools/\n" would match the list route: Powertools' patterns end in $, which matches before a newline
    for path in ("/v1/tools/\n", "/v1/tools/t0000000000000000000z\n", "/v1/health\r"):
        status, body, _ = request(api, "GET", path)
        assert status == 404 and body["code"] == "not_found", path


def test_a_refusal_that_offers_a_tool_can_be_answered_for_it(api, aws_env, emulator):
    # given a request refused as an action (medical advice), in which the rules read a temperature log
    prompt = "my fever log says 38.2 this morning and 39 now, should I give her more paracetamol"
    body = request(api, "POST", "/v1/tools", user="ula", body={"prompt": prompt})[1]
    job = request(api, "GET", f"/v1/jobs/{body['job_id']}", user="ula")[1]
    assert job["status"] == "refused" and job["proposal"]["choice"] == "body_temperature"
    assert body["job_id"] not in queued_job_ids(emulator, aws_env.queue_url)
    # when the person answers that they meant the tool, then the job goes on with it
    status, answer, _ = request(api, "POST", f"/v1/jobs/{body['job_id']}/answer", user="ula", body={"accept": True})
    assert status == 202 and answer["status"] == "queued"
    assert body["job_id"] in queued_job_ids(emulator, aws_env.queue_url)
