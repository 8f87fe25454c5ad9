"""The deployer against moto's real server: create, update, rollback, retries, concurrent deploys, delete.

Faults are injected at the HTTP boundary of the boto3 client (tests/faults.py), so botocore's own retry
machinery and the deployer's own handling both run for real.
"""

from __future__ import annotations

import json
import threading
from dataclasses import replace

import pytest

from tests.faults import Faults
from toolgen.deploy import Deployer, FunctionSpec
from toolgen.deploy.package import zip_files
from toolgen.deploy.plan import live
from toolgen.errors import DeployError
from toolgen.ids import tool_id

HANDLER = """
import json, os
def handler(event, context):
    return {"statusCode": 200, "body": json.dumps({"mark": %r, "version": os.environ["AWS_LAMBDA_FUNCTION_VERSION"]})}
"""


def package(mark: str) -> bytes:
    return zip_files([("app.py", (HANDLER % mark).encode())])


@pytest.fixture
def spec(resources) -> FunctionSpec:
    return FunctionSpec(
        function_name=f"toolgen-tool-{tool_id()}",
        role_arn=resources.tool_role_arn,
        layer_arn="",
        package=package("one"),
        tags={"toolgen:user": "dora"},
        cors_origins=("http://pages.test",),
    )


class Lambda(Faults):
    """A Lambda client on the emulator, with faults (tests/faults.py)."""

    def __init__(self, emulator) -> None:
        super().__init__(emulator.client("lambda"))


def count(client: Lambda, operation: str) -> int:
    return client.sent.count(operation)


def no_sleep(_: float) -> None:
    return None


def call(runtime, name: str) -> dict:
    result = runtime.invoke(live(name), {"rawPath": "/"})
    assert result.status == "ok", result.payload
    return json.loads(result.payload["body"])


def test_a_new_tool_is_live_on_version_1_behind_its_url(emulator, spec, runtime):
    lam = Lambda(emulator)
    url = Deployer({"lambda": lam.client}).deploy(spec).url
    assert url.startswith("https://")
    config = lam.client.get_function(FunctionName=spec.function_name)
    assert config["Tags"]["toolgen:user"] == "dora" and config["Configuration"]["Timeout"] == 10
    assert config["Concurrency"] == {"ReservedConcurrentExecutions": 5}
    assert lam.client.get_alias(FunctionName=spec.function_name, Name="live")["FunctionVersion"] == "1"
    assert lam.client.get_function_url_config(FunctionName=spec.function_name)["Cors"]["AllowOrigins"] == [
        "http://pages.test"
    ]
    assert call(runtime, spec.function_name) == {"mark": "one", "version": "1"}


def test_deploying_the_same_code_again_uploads_and_publishes_nothing_new(emulator, spec):
    lam = Lambda(emulator)
    deployer = Deployer({"lambda": lam.client})
    first = deployer.deploy(spec)
    assert deployer.deploy(spec) == first
    assert count(lam, "CreateFunction") == 1
    assert count(lam, "UpdateFunctionCode") == 0 and count(lam, "UpdateFunctionConfiguration") == 0
    versions = lam.client.list_versions_by_function(FunctionName=spec.function_name)["Versions"]
    assert [v["Version"] for v in versions] == ["$LATEST", "1"]


def test_new_code_goes_live_on_a_new_version_and_old_versions_are_pruned(emulator, spec, runtime):
    lam = Lambda(emulator)
    deployer = Deployer({"lambda": lam.client})
    url = deployer.deploy(spec).url
    assert deployer.deploy(replace(spec, package=package("two"))).url == url
    assert count(lam, "UpdateFunctionCode") == 1
    assert call(runtime, spec.function_name) == {"mark": "two", "version": "2"}
    deployer.deploy(replace(spec, package=package("three")))
    versions = [v["Version"] for v in lam.client.list_versions_by_function(FunctionName=spec.function_name)["Versions"]]
    assert versions == ["$LATEST", "2", "3"]  # 1 is gone; 2, the one live before, stays to roll back to
    assert call(runtime, spec.function_name) == {"mark": "three", "version": "3"}


def test_a_failure_creating_a_tool_leaves_nothing_behind(emulator, spec):
    lam = Lambda(emulator)
    lam.fail("CreateFunctionUrlConfig", 403, "AccessDeniedException")
    with pytest.raises(DeployError, match="create_function_url_config") as failed:
        Deployer({"lambda": lam.client}).deploy(spec)
    assert failed.value.aws_code == "AccessDeniedException"
    names = [f["FunctionName"] for f in lam.client.list_functions()["Functions"]]
    assert spec.function_name not in names


def test_a_failed_update_keeps_the_old_version_live_and_removes_the_new_one(emulator, spec, runtime):
    lam = Lambda(emulator)
    deployer = Deployer({"lambda": lam.client})
    deployer.deploy(spec)
    lam.fail("UpdateAlias", 400, "InvalidParameterValueException")
    with pytest.raises(DeployError, match="update_alias"):
        deployer.deploy(replace(spec, package=package("two")))
    assert call(runtime, spec.function_name) == {"mark": "one", "version": "1"}
    versions = [v["Version"] for v in lam.client.list_versions_by_function(FunctionName=spec.function_name)["Versions"]]
    assert versions == ["$LATEST", "1"]


def test_throttling_is_retried_by_botocore(emulator, spec):
    lam = Lambda(emulator)
    lam.fail("CreateFunction", 429, "TooManyRequestsException", times=2)
    Deployer({"lambda": lam.client}).deploy(spec)
    assert count(lam, "CreateFunction") == 3  # two throttled, then created, all inside one boto3 call
    assert lam.client.get_alias(FunctionName=spec.function_name, Name="live")["FunctionVersion"] == "1"


def test_a_conflict_is_met_by_planning_again(emulator, spec, runtime):
    lam = Lambda(emulator)
    deployer = Deployer({"lambda": lam.client}, sleep=no_sleep)
    deployer.deploy(spec)
    lam.fail("UpdateFunctionCode", 409, "ResourceConflictException")  # "an update is in progress"
    deployer.deploy(replace(spec, package=package("two")))
    assert count(lam, "UpdateFunctionCode") == 2
    assert call(runtime, spec.function_name) == {"mark": "two", "version": "2"}


def test_a_conflict_that_never_clears_fails_cleanly(emulator, spec):
    lam = Lambda(emulator)
    lam.fail("CreateAlias", 409, "ResourceConflictException", times=10)
    with pytest.raises(DeployError, match="kept conflicting"):
        Deployer({"lambda": lam.client}, attempts=3, sleep=no_sleep).deploy(spec)
    assert spec.function_name not in [f["FunctionName"] for f in lam.client.list_functions()["Functions"]]


def _race(deploys) -> list:
    results: list = [None] * len(deploys)

    def run(i, deploy):
        try:
            results[i] = deploy()
        except Exception as e:  # noqa: BLE001 - the test reports what leaked
            results[i] = e

    threads = [threading.Thread(target=run, args=(i, d)) for i, d in enumerate(deploys)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_two_deploys_that_both_find_nothing_end_with_one_tool_live(emulator, spec, runtime):
    # both read "no such function" before either creates it: one create wins, the other re-plans as an update
    a, b = Lambda(emulator), Lambda(emulator)
    both_read = threading.Barrier(2, timeout=30)
    for client in (a, b):
        first = threading.Event()  # each deploy's first read only: the re-plan reads again

        def meet(first=first, **_):
            if not first.is_set():
                first.set()
                both_read.wait()

        client.client.meta.events.register("after-call.lambda.GetFunction", meet)
    deploys = [Deployer({"lambda": c.client}, sleep=no_sleep) for c in (a, b)]
    results = _race([lambda d=d: d.deploy(spec).url for d in deploys])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert results[0] == results[1]
    assert count(a, "CreateFunction") + count(b, "CreateFunction") == 2  # both tried; one was refused
    versions = [v["Version"] for v in a.client.list_versions_by_function(FunctionName=spec.function_name)["Versions"]]
    assert versions == ["$LATEST", "1"]
    assert call(runtime, spec.function_name) == {"mark": "one", "version": "1"}


def test_a_deploy_overtaken_mid_way_still_ends_live_on_one_version(emulator, spec, runtime):
    # A creates the function and stalls; B finds it and takes it live; A resumes, meets B's alias, and re-plans
    a, b = Lambda(emulator), Lambda(emulator)
    reached, resume = a.pause_after("CreateFunction")
    first = _race_start(lambda: Deployer({"lambda": a.client}, sleep=no_sleep).deploy(spec).url)
    assert reached.wait(30)
    url_b = Deployer({"lambda": b.client}, sleep=no_sleep).deploy(spec).url
    resume.set()
    url_a = first()
    assert url_a == url_b
    assert a.client.get_alias(FunctionName=spec.function_name, Name="live")["FunctionVersion"] == "1"
    assert call(runtime, spec.function_name) == {"mark": "one", "version": "1"}


def _race_start(deploy):
    box: dict = {}
    thread = threading.Thread(target=lambda: box.setdefault("r", _catch(deploy)))
    thread.start()

    def result():
        thread.join(60)
        if isinstance(box.get("r"), Exception):
            raise box["r"]
        return box.get("r")

    return result


def _catch(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - re-raised by the caller
        return e


def test_delete_removes_the_function_its_versions_alias_and_url(emulator, spec, runtime):
    lam = Lambda(emulator)
    deployer = Deployer({"lambda": lam.client})
    deployer.deploy(spec)
    deployer.deploy(replace(spec, package=package("two")))
    assert deployer.delete(spec.function_name) is True
    assert deployer.remote_state(spec.function_name) is None
    with pytest.raises(lam.client.exceptions.ResourceNotFoundException):
        lam.client.get_alias(FunctionName=spec.function_name, Name="live")
    assert runtime.invoke(live(spec.function_name), {}).status == "not_found"
    assert deployer.delete(spec.function_name) is False


def test_a_delete_that_meets_an_update_in_progress_is_tried_again(emulator, spec):
    lam = Lambda(emulator)
    deployer = Deployer({"lambda": lam.client}, sleep=no_sleep)
    deployer.deploy(spec)
    lam.fail("DeleteFunction", 409, "ResourceConflictException")
    assert deployer.delete(spec.function_name) is True
    assert count(lam, "DeleteFunction") == 2
    assert deployer.remote_state(spec.function_name) is None


def test_a_tool_logging_into_the_stacks_group_keeps_it_and_a_redeploy_changes_nothing(emulator, spec):
    lam = Lambda(emulator)
    deployer = Deployer({"lambda": lam.client})
    spec = replace(spec, log_group="/toolgen/prod/tools")
    deployer.deploy(spec)
    config = lam.client.get_function_configuration(FunctionName=spec.function_name)
    assert config["LoggingConfig"] == {"LogFormat": "Text", "LogGroup": "/toolgen/prod/tools"}
    deployer.deploy(spec)
    assert count(lam, "UpdateFunctionConfiguration") == 0
    deployer.delete(spec.function_name)
