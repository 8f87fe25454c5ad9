"""The local Lambda runtime runs what the emulator stores, with Lambda's cold/warm, Timeout and concurrency rules."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from toolgen.deploy.package import zip_files

HANDLER = """
import os, time
LOADED = time.time()
def handler(event, context):
    print("this goes to the log, not into the answer")
    if event.get("sleep"):
        time.sleep(event["sleep"])
    if event.get("fail"):
        raise ValueError("asked to fail")
    if event.get("unserialisable"):
        return {"x": object()}
    from shared import LAYER_VALUE
    return {"pid": os.getpid(), "loaded": LOADED, "layer": LAYER_VALUE, "version": VERSION,
            "remaining_ms": context.get_remaining_time_in_millis(), "name": context.function_name,
            "env": os.environ.get("GREETING")}
"""


@pytest.fixture(scope="module")
def layer_arn(emulator):
    content = zip_files([("python/shared.py", b"LAYER_VALUE = 'from the layer'\n")])
    return emulator.client("lambda").publish_layer_version(LayerName="test-shared", Content={"ZipFile": content})[
        "LayerVersionArn"
    ]


@pytest.fixture
def make_function(emulator, resources, layer_arn):
    lam = emulator.client("lambda")

    def make(
        *,
        timeout: int = 3,
        concurrency: int | None = None,
        version: str = "1",
        handler: str = HANDLER,
        memory: int = 128,
    ) -> str:
        name = f"test-{uuid.uuid4().hex[:10]}"
        code = zip_files([("app.py", (handler + f"\nVERSION = {version!r}\n").encode())])
        lam.create_function(
            FunctionName=name,
            Runtime="python3.12",
            Role=resources.tool_role_arn,
            Handler="app.handler",
            Code={"ZipFile": code},
            Timeout=timeout,
            MemorySize=memory,
            Layers=[layer_arn],
            Environment={"Variables": {"GREETING": "hello"}},
        )
        if concurrency is not None:
            lam.put_function_concurrency(FunctionName=name, ReservedConcurrentExecutions=concurrency)
        return name

    return make


def test_first_call_is_cold_then_the_same_process_serves_warm(runtime, make_function):
    name = make_function()
    first = runtime.invoke(name, {})
    second = runtime.invoke(name, {})
    assert first.status == second.status == "ok"
    assert first.cold is True and second.cold is False
    assert first.payload["pid"] == second.payload["pid"]
    assert first.payload["loaded"] == second.payload["loaded"]  # module state survives: a warm start


def test_code_comes_from_the_emulator_with_its_layer_env_and_context(runtime, make_function):
    name = make_function(timeout=3)
    payload = runtime.invoke(name, {}).payload
    assert payload["layer"] == "from the layer"
    assert payload["env"] == "hello"
    assert payload["name"] == name
    assert 0 < payload["remaining_ms"] <= 3000


def test_timeout_kills_the_process_and_reports_like_lambda(runtime, make_function):
    name = make_function(timeout=1)
    warm_pid = runtime.invoke(name, {}).payload["pid"]
    result = runtime.invoke(name, {"sleep": 5})
    assert result.status == "timeout"
    assert result.payload["errorType"] == "Sandbox.Timedout"
    assert result.payload["errorMessage"].endswith("Task timed out after 1.00 seconds")
    after = runtime.invoke(name, {})
    assert after.status == "ok" and after.cold is True and after.payload["pid"] != warm_pid


HUNGRY = """
import os
KEPT = b"x" * (int(os.environ.get("AT_INIT_MB", "0")) << 20)
def handler(event, context):
    blob = b"x" * (event["mb"] << 20)  # written, so resident: what Lambda counts
    return {"pid": os.getpid(), "mb": len(blob) >> 20}
"""


def test_a_call_past_memory_size_is_killed_and_reported_like_lambda(runtime, make_function):
    # given a 128 MB function, warm after a call that fits
    name = make_function(handler=HUNGRY, memory=128)
    warm = runtime.invoke(name, {"mb": 16})
    assert warm.status == "ok" and warm.payload["mb"] == 16
    # when a call needs far more than its MemorySize
    result = runtime.invoke(name, {"mb": 1024})
    # then it is killed, and its caller gets Lambda's out-of-memory error
    assert result.status == "error"
    assert result.payload["errorType"] == "Runtime.OutOfMemory"
    assert result.payload["errorMessage"].endswith("Error: Runtime exited with error: signal: killed")
    # and a new environment serves the next call
    after = runtime.invoke(name, {"mb": 16})
    assert after.status == "ok" and after.cold is True and after.payload["pid"] != warm.payload["pid"]


def test_memory_past_memory_size_at_init_is_reported_like_lambda(runtime, make_function, emulator):
    name = make_function(handler=HUNGRY, memory=128)
    emulator.client("lambda").update_function_configuration(
        FunctionName=name, Environment={"Variables": {"AT_INIT_MB": "1024"}}
    )
    result = runtime.invoke(name, {"mb": 1})
    assert result.status == "error" and result.payload["errorType"] == "Runtime.OutOfMemory"


def test_calls_beyond_reserved_concurrency_are_throttled(runtime, make_function):
    name = make_function(timeout=10, concurrency=2)
    results = []
    threads = [threading.Thread(target=lambda: results.append(runtime.invoke(name, {"sleep": 1.5}))) for _ in range(2)]
    for t in threads:
        t.start()
    time.sleep(0.5)  # both are now running (or starting): the next call finds no free slot
    third = runtime.invoke(name, {})
    for t in threads:
        t.join()
    assert third.status == "throttled"
    assert third.payload["Reason"] == "ReservedFunctionConcurrentInvocationLimitExceeded"
    assert [r.status for r in results] == ["ok", "ok"]
    assert runtime.invoke(name, {}).status == "ok"  # a slot is free again


def test_zero_reserved_concurrency_throttles_everything(runtime, make_function):
    assert runtime.invoke(make_function(concurrency=0), {}).status == "throttled"


def test_new_code_is_picked_up_by_new_processes(runtime, make_function, emulator):
    name = make_function(version="1")
    assert runtime.invoke(name, {}).payload["version"] == "1"
    code = zip_files([("app.py", (HANDLER + "\nVERSION = '2'\n").encode())])
    emulator.client("lambda").update_function_code(FunctionName=name, ZipFile=code)
    result = runtime.invoke(name, {})
    assert result.payload["version"] == "2" and result.cold is True


def test_function_errors_and_unserialisable_answers_are_errors(runtime, make_function):
    name = make_function()
    failed = runtime.invoke(name, {"fail": True})
    assert failed.status == "error" and failed.payload["errorType"] == "ValueError"
    bad = runtime.invoke(name, {"unserialisable": True})
    assert bad.status == "error" and bad.payload["errorType"] == "Runtime.MarshalError"
    assert runtime.invoke(name, {}).status == "ok"  # the environment survives a handled error


def test_init_failure_is_reported(runtime, make_function):
    name = make_function(handler="raise RuntimeError('broken at import')\n")
    result = runtime.invoke(name, {})
    assert result.status == "error"
    assert result.payload["errorType"] == "Runtime.ImportModuleError"
    assert "broken at import" in result.payload["errorMessage"]


def test_deleted_or_unknown_function_is_not_found(runtime, make_function, emulator):
    name = make_function()
    assert runtime.invoke(name, {}).status == "ok"
    emulator.client("lambda").delete_function(FunctionName=name)
    assert runtime.invoke(name, {}).status == "not_found"
    assert runtime.invoke("never-was", {}).status == "not_found"


def test_prewarm_starts_an_environment_without_invoking(runtime, make_function):
    name = make_function()
    runtime.prewarm(name)
    assert runtime.invoke(name, {}).cold is False


def test_toolgen_is_imported_from_the_base_layer_not_the_checkout(runtime, emulator, resources, tmp_path):
    # given a function on the platform's base layer, as every tool is
    name = f"test-{uuid.uuid4().hex[:10]}"
    code = zip_files([("app.py", b"import toolgen\ndef handler(event, context):\n    return toolgen.__file__\n")])
    emulator.client("lambda").create_function(
        FunctionName=name,
        Runtime="python3.12",
        Role=resources.tool_role_arn,
        Handler="app.handler",
        Code={"ZipFile": code},
        Layers=[resources.layer_arn],
    )
    # then toolgen comes from the layer unpacked by the runtime (/opt/python), not from the editable install
    path = runtime.invoke(name, {}).payload
    assert path.startswith(str(runtime.workdir / "opt")) and path.endswith("/python/toolgen/__init__.py")


def test_shutdown_stops_a_busy_call_at_once_and_refuses_new_ones(make_function, runtime):
    name = make_function(timeout=10)
    runtime.invoke(name, {})  # an environment exists
    result: dict = {}
    busy = threading.Thread(target=lambda: result.setdefault("r", runtime.invoke(name, {"sleep": 8})))
    busy.start()
    time.sleep(0.5)
    started = time.monotonic()
    runtime.shutdown()
    busy.join(5)
    assert not busy.is_alive() and time.monotonic() - started < 3
    assert result["r"].status == "error" and result["r"].payload["errorType"] == "Runtime.ExitError"
    with pytest.raises(RuntimeError, match="shut down"):
        runtime.invoke(name, {})


def test_each_published_version_runs_its_own_code_and_an_alias_follows(emulator, make_function, runtime):
    lam = emulator.client("lambda")
    name = make_function(version="1")
    lam.publish_version(FunctionName=name)
    lam.create_alias(FunctionName=name, Name="live", FunctionVersion="1")
    code = zip_files([("app.py", (HANDLER + "\nVERSION = '2'\n").encode())])
    lam.update_function_code(FunctionName=name, ZipFile=code)
    assert runtime.invoke(f"{name}:live", {}).payload["version"] == "1"  # the alias still points at version 1
    assert runtime.invoke(name, {}).payload["version"] == "2"  # $LATEST has the new code
    lam.publish_version(FunctionName=name)
    lam.update_alias(FunctionName=name, Name="live", FunctionVersion="2")
    assert runtime.invoke(f"{name}:live", {}).payload["version"] == "2"
    assert runtime.invoke(f"{name}:1", {}).payload["version"] == "1"


def test_a_message_that_keeps_failing_goes_to_the_dead_letter_queue(emulator, make_function, runtime):
    from toolgen.local.poller import QueuePoller

    sqs = emulator.client("sqs")
    dlq = sqs.create_queue(QueueName=f"dlq-{uuid.uuid4().hex[:8]}")["QueueUrl"]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    redrive = f'{{"deadLetterTargetArn": "{dlq_arn}", "maxReceiveCount": "2"}}'
    queue = sqs.create_queue(
        QueueName=f"q-{uuid.uuid4().hex[:8]}", Attributes={"VisibilityTimeout": "1", "RedrivePolicy": redrive}
    )["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    failing = """
def handler(event, context):
    return {"batchItemFailures": [{"itemIdentifier": r["messageId"]} for r in event["Records"]]}
"""
    name = make_function(handler=failing)
    poller = QueuePoller(sqs, runtime, queue_url=queue, queue_arn=arn, function=name, region="us-east-1")
    sqs.send_message(QueueUrl=queue, MessageBody="doomed")
    received = 0
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        received += poller.poll_once(wait_s=1)
        dead = sqs.receive_message(QueueUrl=dlq, WaitTimeSeconds=0).get("Messages", [])
        if dead:
            break
    assert dead and dead[0]["Body"] == "doomed"
    assert received == 2  # tried maxReceiveCount times, then moved
