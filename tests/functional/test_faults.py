"""Faults at every stage of a job: each is retried and the job succeeds, or the job ends failed with its reason
and nothing half-made is left; a worker that dies mid-deploy is finished by the message's next delivery.

Faults are answers made up at the boto3 clients' HTTP boundary (tests/faults.py) against moto's server, so
botocore's standard retries and the platform's own handling run for real.
"""

from __future__ import annotations

import pytest

from tests.faults import Faults
from tests.functional.conftest import load_handler
from tests.helpers import WorkerContext, sqs_record
from toolgen.config import Settings
from toolgen.ids import sortable_id
from toolgen.local.lambda_runtime import RuntimeInvoker
from toolgen.models import Job, JobMessage
from toolgen.pipeline import process
from toolgen.services import Services

INJECTED: list[int] = []


@pytest.fixture(scope="module", autouse=True)
def _tally():
    """The figure for the closing note (shown with -s): how many faults this module made up and met."""
    yield
    print(f"\nfaults injected: {sum(INJECTED)} across {len(INJECTED)} scenarios")


@pytest.fixture
def services(aws_env, runtime) -> Services:
    return Services.from_settings(
        Settings.from_env("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret"),
        invoker=RuntimeInvoker(runtime),
    )


def faults(services: Services, service: str) -> Faults:
    client = {
        "dynamodb": lambda: services.table.client,
        "s3": lambda: services.pages.client,
        "lambda": lambda: services.deployer.client("lambda"),
    }[service]()
    return Faults(client)


def run(services: Services, prompt: str, user: str) -> Job:
    job = services.jobs.create(Job(job_id=sortable_id("j"), user=user, prompt=prompt))
    return process(JobMessage(job_id=job.job_id, user=user, prompt=prompt), services)


def functions(emulator) -> set[str]:
    return {f["FunctionName"] for f in emulator.client("lambda").list_functions()["Functions"]}


# (service, operation, status, code, times): transient faults botocore's standard mode retries (up to 4 times)
TRANSIENT = [
    ("dynamodb", "GetItem", 400, "ProvisionedThroughputExceededException", 2),
    ("dynamodb", "PutItem", 400, "ThrottlingException", 2),
    ("dynamodb", "Query", 500, "InternalServerError", 2),
    ("s3", "PutObject", 503, "SlowDown", 3),
    ("lambda", "CreateFunction", 429, "TooManyRequestsException", 2),
    ("lambda", "PublishVersion", 500, "ServiceException", 2),
    ("lambda", "CreateAlias", 409, "ResourceConflictException", 1),  # the deployer re-plans
]


@pytest.mark.parametrize(("service", "operation", "status", "code", "times"), TRANSIENT)
def test_a_transient_fault_at_any_stage_is_retried_and_the_job_succeeds(
    services, service, operation, status, code, times
):
    injected = faults(services, service).fail(operation, status, code, times)
    job = run(services, "a todo list for chores", user=f"f-{operation.lower()}")
    assert job.status == "succeeded", job.error
    assert injected.injected == times  # every fault was met, and got past
    INJECTED.append(times)


# faults that last: the job must end failed with a reason, and leave no function or page behind
LASTING = [
    ("s3", "PutObject", 500, "InternalError", 10, "render"),
    ("lambda", "CreateFunctionUrlConfig", 403, "AccessDeniedException", 1, "deploy"),
    ("lambda", "Invoke", 500, "ServiceException", 10, "probe"),
]


@pytest.mark.parametrize(("service", "operation", "status", "code", "times", "stage"), LASTING)
def test_a_lasting_fault_fails_the_job_with_its_reason_and_leaves_nothing(
    services, emulator, service, operation, status, code, times, stage
):
    if operation == "Invoke":
        services.invoker = _FailingInvoker()
    else:
        faults(services, service).fail(operation, status, code, times)
    before = functions(emulator)
    job = run(services, "a reading list", user=f"l-{operation.lower()}")
    assert job.status == "failed" and job.error
    assert next(s for s in job.stages if s.status == "failed").name == stage
    if code == "AccessDeniedException":  # the operator is told what refuses public URLs
        assert "organisation policy (SCP) that forbids public function URLs" in job.error
    assert functions(emulator) == before  # rolled back: no function, so no URL and no version
    with pytest.raises(Exception, match="no page"):
        services.pages.get(job.tool_id)
    INJECTED.append(times)


def delayed(services: Services) -> int:
    attributes = services.sqs.get_queue_attributes(
        QueueUrl=services.settings.jobs_queue_url, AttributeNames=["ApproximateNumberOfMessagesDelayed"]
    )["Attributes"]
    return int(attributes["ApproximateNumberOfMessagesDelayed"])


def test_lambda_out_of_capacity_past_the_retries_leaves_the_job_queued_and_a_later_try_makes_the_tool(
    services, emulator
):
    lam = faults(services, "lambda").fail("CreateFunction", 429, "TooManyRequestsException", 20)
    before, waiting_before = functions(emulator), delayed(services)
    job = run(services, "a reading list", user="capacity-1")
    assert job.status == "queued" and job.error is None and job.waits == 1
    assert job.waiting == "waiting for Lambda capacity (TooManyRequestsException); next try in 15 s"
    assert {s.status for s in job.stages} == {"pending"}
    assert services.jobs.get("capacity-1", job.job_id).status == "queued"  # as the person sees it
    assert functions(emulator) == before  # nothing half-made meanwhile
    assert delayed(services) == waiting_before + 1  # its message went back, delayed
    INJECTED.append(lam.injected)
    lam.queued.clear()  # Lambda has room again: the delayed message is delivered
    again = process(JobMessage(job_id=job.job_id, user="capacity-1", prompt="a reading list"), services)
    assert again.status == "succeeded" and again.waiting is None and again.tool_id == job.tool_id


def test_a_job_that_waited_for_capacity_for_hours_ends_failed_saying_so(services, emulator):
    from toolgen.pipeline import MAX_WAITS

    faults(services, "lambda").fail("CreateFunction", 429, "TooManyRequestsException", 20)
    job = services.jobs.create(
        Job(job_id=sortable_id("j"), user="capacity-2", prompt="a reading list", waits=MAX_WAITS)
    )
    ended = process(JobMessage(job_id=job.job_id, user="capacity-2", prompt="a reading list"), services)
    assert ended.status == "failed" and ended.error.startswith(
        f"Lambda had no capacity for this tool after {MAX_WAITS}"
    )


def test_a_chinese_request_is_told_why_it_waits_in_chinese(services, emulator):
    from toolgen.pipeline import MAX_WAITS

    faults(services, "lambda").fail("CreateFunction", 429, "TooManyRequestsException", 40)
    prompt = "我想记录每天喝了多少水"
    job = services.jobs.create(Job(job_id=sortable_id("j"), user="capacity-zh", prompt=prompt))
    waiting = process(JobMessage(job_id=job.job_id, user="capacity-zh", prompt=prompt), services)
    assert waiting.status == "queued"
    assert waiting.waiting == "正在等待 Lambda 的容量（TooManyRequestsException）；15 秒后再试"
    waiting.waits = MAX_WAITS  # hours later, still no room
    services.jobs.save(waiting)
    ended = process(JobMessage(job_id=job.job_id, user="capacity-zh", prompt=prompt), services)
    assert ended.status == "failed" and ended.error.startswith(f"Lambda 连续 {MAX_WAITS} 次没有容量")


def test_a_worker_short_of_time_sends_the_job_back_instead_of_being_cut_off_mid_deploy(services, emulator, aws_env):
    import time

    before = functions(emulator)
    job = services.jobs.create(Job(job_id=sortable_id("j"), user="late-1", prompt="a reading list"))
    message = JobMessage(job_id=job.job_id, user="late-1", prompt="a reading list")
    record = sqs_record("m-late", message.model_dump_json())
    result = load_handler("worker").handler({"Records": [record]}, WorkerContext(remaining_ms=40_000))
    assert result == {"batchItemFailures": []}  # the message is done with: a delayed one replaces it
    waiting = services.jobs.get("late-1", job.job_id)
    assert waiting.status == "queued" and waiting.waits == 1
    assert waiting.waiting == "waiting to run again: the worker ran out of time; next try in 15 s"
    assert functions(emulator) == before  # nothing was begun that could not be finished
    # the delayed message, to a worker with its whole time (the runtime here runs the probe for real)
    done = process(message, services, deadline=time.monotonic() + 120)
    assert done.status == "succeeded" and done.waiting is None


def test_a_deploy_never_waits_past_its_deadline_and_leaves_nothing(services, emulator):
    import time

    from toolgen.deploy import FunctionSpec
    from toolgen.deploy.execute import OUT_OF_TIME
    from toolgen.deploy.package import zip_files
    from toolgen.errors import DeployError
    from toolgen.ids import tool_id

    before = functions(emulator)
    spec = FunctionSpec(
        f"toolgen-tool-{tool_id()}", services.settings.tool_role_arn, "", zip_files([("app.py", b"x = 1")])
    )
    started = time.monotonic()
    with pytest.raises(DeployError) as late:
        services.deployer.deploy(spec, deadline=started + 0.5)  # less than one poll of the first wait
    assert late.value.aws_code == OUT_OF_TIME and time.monotonic() - started < 5
    assert functions(emulator) == before  # the function it had created was removed


class _FailingInvoker:
    def invoke(self, function_name, event):
        from toolgen.errors import AWSError

        raise AWSError(f"{function_name} failed: ServiceException", aws_code="ServiceException")


class _Died(BaseException):
    """The worker's process ending where it stands (nothing of ours catches a BaseException)."""


def test_a_worker_that_dies_mid_deploy_is_finished_by_the_next_delivery(services, emulator):
    # given a worker that dies just after its function was created (before alias, URL or record)
    prompt, user = "a reading list for novels", "f-died"
    job = services.jobs.create(Job(job_id=sortable_id("j"), user=user, prompt=prompt))
    message = JobMessage(job_id=job.job_id, user=user, prompt=prompt)
    lam = faults(services, "lambda")

    def die():
        raise _Died

    lam.then("CreateFunction", die)
    with pytest.raises(_Died):
        process(message, services)
    half = services.jobs.get(user, job.job_id)
    assert half.status == "running" and half.tool_id  # as a dead worker leaves it
    name = services.settings.tool_function_prefix + half.tool_id
    assert name in functions(emulator)
    # when SQS delivers the message again (to a live worker)
    done = process(message, services)
    # then the same tool is finished, not a second one made, and it is live
    assert done.status == "succeeded" and done.tool_id == half.tool_id, done.error
    assert [t.tool_id for t in services.tools.list(user)] == [half.tool_id]
    assert emulator.client("lambda").get_alias(FunctionName=name, Name="live")["FunctionVersion"] == "1"
    INJECTED.append(1)


def test_a_slow_stage_keeps_beating_and_a_dead_worker_is_seen_retrying_within_a_minute(services, emulator, monkeypatch):
    from tests.functional.test_api import request
    from toolgen import jobs
    from toolgen.api.services import services as api_services

    monkeypatch.setattr(jobs, "HEARTBEAT_S", 0.1)
    monkeypatch.setattr(jobs, "SILENT_S", 0.6)
    prompt, user = "a reading list for novels", "f-beat"
    job = services.jobs.create(Job(job_id=sortable_id("j"), user=user, prompt=prompt))
    message = JobMessage(job_id=job.job_id, user=user, prompt=prompt)
    lam = faults(services, "lambda")
    seen: dict[str, float] = {}

    def slow_then_die():
        # given a stage that takes longer than a job may be silent: its worker still beats
        import time

        time.sleep(1.0)
        seen["quiet"] = time.time() - services.jobs.get(user, job.job_id).updated_at
        raise _Died  # then the worker dies where it stands

    lam.then("CreateFunction", slow_then_die)
    with pytest.raises(_Died):
        process(message, services)
    # beaten within the last beats, though no stage ended for a second (without beats: over a second)
    assert seen["quiet"] < jobs.SILENT_S, seen
    # when no worker speaks for the job for longer than SILENT_S
    import time

    time.sleep(0.8)
    api_services.cache_clear()
    api = load_handler("api")
    status, view, _ = request(api, "GET", f"/v1/jobs/{job.job_id}", user=user)
    # then the job is shown retrying with the reason, and the next delivery finishes it
    assert status == 200 and view["status"] == "retrying", view
    assert "worker" in view["waiting"] and "retried" in view["waiting"]
    done = process(message, services)
    assert done.status == "succeeded", done.error
    assert request(api, "GET", f"/v1/jobs/{job.job_id}", user=user)[1]["status"] == "succeeded"
    INJECTED.append(1)


def test_a_job_that_cannot_be_recorded_is_reported_to_sqs_for_another_try(aws_env, services, monkeypatch):
    from toolgen import worker

    monkeypatch.setattr(worker, "services", lambda: services)
    job = services.jobs.create(Job(job_id=sortable_id("j"), user="f-norecord", prompt="a todo list"))
    faults(services, "dynamodb").fail("GetItem", 500, "InternalServerError", 20)  # beyond every retry
    record = sqs_record("m-1", JobMessage(job_id=job.job_id, user="f-norecord", prompt="a todo list").model_dump_json())
    result = load_handler("worker").handler({"Records": [record]}, WorkerContext())
    assert result == {"batchItemFailures": [{"itemIdentifier": "m-1"}]}  # SQS will deliver it again, then DLQ
    INJECTED.append(20)
