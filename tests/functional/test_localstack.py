"""TOOLGEN_TARGET=localstack: clients from localstack-client, and tools that carry their runtime (no layer).

LocalStack itself needs Docker, which the machines this was built on do not have, so the last test is opt-in:
it runs when a LocalStack answers at LOCALSTACK_ENDPOINT (default http://localhost:4566) and skips otherwise.
The others run everywhere: localstack-client honours AWS_ENDPOINT_URL, so the LocalStack code path is exercised
against moto's server, and an inlined package is run with nothing on its path but itself.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.functional.conftest import SECRET
from tests.helpers import tool_event
from toolgen import auth, aws
from toolgen.config import Settings
from toolgen.deploy import Deployer, FunctionSpec, tool_package
from toolgen.deploy.invoke import LambdaInvoker
from toolgen.deploy.plan import live
from toolgen.ids import sortable_id, tool_id
from toolgen.intent import classify
from toolgen.local.lambda_runtime import RuntimeInvoker
from toolgen.local.platform import create_table
from toolgen.models import Job, JobMessage
from toolgen.pipeline import process
from toolgen.planner import OfflinePlanner
from toolgen.services import Services

LOCALSTACK = os.environ.get("LOCALSTACK_ENDPOINT", "http://localhost:4566").rstrip("/")


def todo_program():
    prompt = "a todo list for chores"
    return OfflinePlanner().plan(prompt, classify(prompt), []).program


def test_localstack_clients_come_from_localstack_client(monkeypatch, aws_env):
    from localstack_client.session import Session

    monkeypatch.setenv("TOOLGEN_TARGET", "localstack")
    aws.reset_clients()
    made = aws.client("dynamodb")
    assert made.meta.endpoint_url == os.environ["AWS_ENDPOINT_URL"]
    assert made._request_signer._credentials.access_key == Session().aws_access_key_id
    assert made.meta.config.retries["mode"] == "standard"


def test_an_inlined_package_runs_with_nothing_but_itself_on_the_path(aws_env, tmp_path):
    # given the package a LocalStack tool gets, unpacked alone (no layer, no site-packages, as Lambda would)
    program = todo_program()
    with zipfile.ZipFile(io.BytesIO(tool_package(program, inline_runtime=True))) as archive:
        archive.extractall(tmp_path)
    probe = (
        "import json, sys; sys.path[:0] = [sys.argv[1]]; import app; "
        "result = app.handler(json.loads(sys.argv[2]), None); "
        "print(json.dumps({'status': result['statusCode'], 'toolgen': sys.modules['toolgen'].__file__}))"
    )
    event = tool_event("POST", "/tasks", token=auth.mint("uma", SECRET), body={"title": "water plants"})
    env = {
        "PATH": os.environ["PATH"],
        **{k: os.environ[k] for k in os.environ if k.startswith("AWS_")},
        "TABLE_NAME": aws_env.table,
        "TOOL_ID": "t" + "0" * 20,
        "TOOL_OWNER": "uma",
        "TOOLGEN_SECRET": SECRET,
    }
    # when its handler serves a create
    done = subprocess.run(
        [sys.executable, "-S", "-P", "-c", probe, str(tmp_path), json.dumps(event)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    # then it answers from its own copy of the runtime
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["status"] == 201
    assert Path(answer["toolgen"]).is_relative_to(tmp_path)


@pytest.fixture
def localstack_credentials():
    """The emulator standing in for LocalStack accepts LocalStack's fixed credentials, as LocalStack does."""
    from localstack_client.session import Session

    from toolgen.local.emulator import KEYS

    session = Session()
    KEYS.add(session.aws_access_key_id, session.aws_secret_access_key)
    yield
    KEYS.remove(session.aws_access_key_id)


def test_the_pipeline_in_localstack_mode_deploys_tools_without_a_layer(
    monkeypatch, aws_env, runtime, localstack_credentials
):
    monkeypatch.setenv("TOOLGEN_TARGET", "localstack")
    aws.reset_clients()
    settings = Settings.from_env("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret")
    assert settings.inline_runtime
    services = Services.from_settings(settings, invoker=RuntimeInvoker(runtime))
    job = services.jobs.create(Job(job_id=sortable_id("j"), user="val", prompt="a todo list"))
    done = process(JobMessage(job_id=job.job_id, user="val", prompt="a todo list"), services)
    assert done.status == "succeeded" and not done.reused, done.error
    config = aws.client("lambda").get_function_configuration(FunctionName=f"toolgen-tool-{done.tool_id}")
    assert not config.get("Layers")
    result = runtime.invoke(
        live(f"toolgen-tool-{done.tool_id}"),
        tool_event("POST", "/tasks", token=auth.mint("val", SECRET), body={"title": "x"}),
    )
    assert result.payload["statusCode"] == 201


def _localstack_up() -> bool:
    try:
        with urllib.request.urlopen(f"{LOCALSTACK}/_localstack/health", timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


@pytest.mark.localstack
@pytest.mark.skipif(not _localstack_up(), reason=f"no LocalStack answers at {LOCALSTACK}/_localstack/health")
def test_a_tool_deploys_runs_and_goes_on_a_real_localstack(monkeypatch):
    monkeypatch.setenv("TOOLGEN_TARGET", "localstack")
    monkeypatch.setenv("AWS_ENDPOINT_URL", LOCALSTACK)
    aws.reset_clients()
    ddb, iam = aws.client("dynamodb"), aws.client("iam")
    table = f"toolgen-ls-{sortable_id('x')}"
    create_table(ddb, table)
    trust = {
        "Version": "2012-10-17",
        "Statement": [
            {"Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}
        ],
    }
    role = iam.create_role(RoleName=table, AssumeRolePolicyDocument=json.dumps(trust))["Role"]["Arn"]
    tid = tool_id()
    name = f"toolgen-tool-{tid}"
    spec = FunctionSpec(
        function_name=name,
        role_arn=role,
        layer_arn="",
        package=tool_package(todo_program(), inline_runtime=True),
        environment={"TABLE_NAME": table, "TOOL_ID": tid, "TOOL_OWNER": "wes", "TOOLGEN_SECRET": SECRET},
    )
    deployer = Deployer()
    try:
        url = deployer.deploy(spec).url
        token = auth.mint("wes", SECRET)
        made = LambdaInvoker().invoke(live(name), tool_event("POST", "/tasks", token=token, body={"title": "ls"}))
        assert made["statusCode"] == 201, made
        request = urllib.request.Request(f"{url.rstrip('/')}/tasks", headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert [t["title"] for t in json.load(answer)["items"]] == ["ls"]
        assert deployer.deploy(spec).url == url  # again: nothing re-uploaded, same URL
    finally:
        deployer.delete(name)
        ddb.delete_table(TableName=table)
        iam.delete_role(RoleName=table)
    assert deployer.remote_state(name) is None
