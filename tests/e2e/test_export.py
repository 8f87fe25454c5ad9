"""`toolgen export`: a tool's bundle passes `sam validate --lint`, and its code, layer and page work on their own.

No AWS account here, so the bundle is deployed the way its template says into the running platform's emulator:
its table, its secret, its layer from layer/, its function from function/ on that layer (through the deployer:
live alias and URL), and then used over HTTP like the person would: rows in and out, the page at GET /.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
import yaml

from tests.e2e.conftest import ROOT, aws_client, generate, http
from tests.sam import sam_validate
from toolgen import auth
from toolgen.deploy import Deployer, FunctionSpec
from toolgen.deploy.package import zip_files
from toolgen.ids import tool_id
from toolgen.local.platform import create_table


def zipped(folder: Path) -> bytes:
    return zip_files(
        (p.relative_to(folder).as_posix(), p.read_bytes()) for p in sorted(folder.rglob("*")) if p.is_file()
    )


def export(server, user: str, tool: str, out: Path) -> subprocess.CompletedProcess:
    """`toolgen export` as the person would run it, against the running platform."""
    env = {**os.environ, "TOOLGEN_URL": server.url, "TOOLGEN_TOKEN": server.token(user)}
    return subprocess.run(
        [sys.executable, "-m", "toolgen.cli", "export", tool, "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )


@pytest.fixture(scope="module")
def bundle(server, tmp_path_factory) -> tuple[dict, Path]:
    job = generate(server, "I want to log my morning runs", user="xia")
    assert job["status"] == "succeeded", job
    out = tmp_path_factory.mktemp("export") / "bundle"
    done = export(server, "xia", job["tool_id"], out)
    assert done.returncode == 0, done.stderr
    return job, out


def test_the_bundle_holds_the_tool_and_passes_sam_validate_lint(bundle):
    _, out = bundle
    names = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert {"README.md", "template.yaml", "openapi.json", "program.json", "function/app.py"} <= names
    assert {"function/program.json", "function/page.json", "layer/python/toolgen/runtime/app.py"} <= names
    assert not [n for n in names if n.startswith("layer/python/toolgen/local/")]
    template = yaml.safe_load((out / "template.yaml").read_text())
    fn = template["Resources"]["ToolFunction"]["Properties"]
    assert fn["Timeout"] == 10 and fn["AutoPublishAlias"] == "live"
    assert fn["Environment"]["Variables"]["TOOL_OWNER"] == "xia"
    # the limit: leases unless the person has Lambda reserve it; their data and key outlive `sam delete`
    reserve = template["Parameters"]["ReservedConcurrency"]
    assert reserve["Default"] == 0 and reserve["AllowedValues"] == [0, 5]
    assert fn["ReservedConcurrentExecutions"] == {
        "Fn::If": ["Reserve", {"Ref": "ReservedConcurrency"}, {"Ref": "AWS::NoValue"}]
    }
    assert fn["Environment"]["Variables"]["TOOLGEN_LEASE_LIMIT"] == {
        "Fn::If": ["Reserve", {"Ref": "AWS::NoValue"}, "5"]
    }
    for name in ("Table", "TokenSecret"):
        assert (
            template["Resources"][name]["DeletionPolicy"]
            == template["Resources"][name]["UpdateReplacePolicy"]
            == "Retain"
        )
    done = sam_validate(out / "template.yaml")
    assert done.returncode == 0, done.stdout + done.stderr


def test_exporting_into_an_existing_folder_overwrites_nothing(bundle, server):
    job, out = bundle
    before = (out / "README.md").read_bytes()
    done = export(server, "xia", job["tool_id"], out)
    assert done.returncode == 1 and "already exists" in done.stderr
    assert (out / "README.md").read_bytes() == before


def test_someone_elses_tool_cannot_be_exported(bundle, server):
    job, out = bundle
    done = export(server, "yan", job["tool_id"], out.with_name("unused"))
    assert done.returncode == 1 and "404" in done.stderr


def _resolved(value, resources: dict[str, str]):
    """A template fragment as deployed with default parameters: GetAtt/Ref of ``resources``, a new secret made."""
    if isinstance(value, list):
        return [_resolved(v, resources) for v in value]
    if not isinstance(value, dict):
        return value
    if set(value) == {"Fn::GetAtt"}:
        return resources[value["Fn::GetAtt"][0]]
    if set(value) == {"Ref"}:
        return resources[value["Ref"]]
    if set(value) == {"Fn::If"}:  # CreateTokenSecret holds by default
        return _resolved(value["Fn::If"][1], resources)
    return {k: _resolved(v, resources) for k, v in value.items()}


def test_the_bundle_runs_on_its_own_layer_with_its_own_table_and_serves_its_page(bundle, server):
    _, out = bundle
    ddb, lam, sm = aws_client(server, "dynamodb"), aws_client(server, "lambda"), aws_client(server, "secretsmanager")
    table = f"export-{tool_id()}"
    create_table(ddb, table)
    secret = sm.create_secret(Name=table, SecretString="bundle-only-secret")["ARN"]
    layer = lam.publish_layer_version(LayerName=table, Content={"ZipFile": zipped(out / "layer")})["LayerVersionArn"]
    variables = yaml.safe_load((out / "template.yaml").read_text())["Resources"]["ToolFunction"]["Properties"]
    # its role holds the bundle's own policy, which the emulator enforces: its table and its secret, nothing else
    table_arn = ddb.describe_table(TableName=table)["Table"]["TableArn"]
    policy = _resolved(
        {"Version": "2012-10-17", "Statement": variables["Policies"][0]["Statement"]},
        {"Table": table_arn, "TokenSecret": secret},
    )
    iam = aws_client(server, "iam")
    trust = {
        "Statement": [{"Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}]
    }
    role = iam.create_role(RoleName=table, AssumeRolePolicyDocument=json.dumps(trust))["Role"]["Arn"]
    iam.put_role_policy(RoleName=table, PolicyName="bundle", PolicyDocument=json.dumps(policy))
    # deployed with the default ReservedConcurrency=0: every Fn::If takes its second branch
    given = {
        k: v["Fn::If"][2] if isinstance(v, dict) and "Fn::If" in v else v
        for k, v in variables["Environment"]["Variables"].items()
    }
    env = {**given, "TABLE_NAME": table, "TOOLGEN_SECRET_ARN": secret}
    assert env["TOOLGEN_LEASE_LIMIT"] == "5" and env["TOOLGEN_LEASE_HOLD_S"] == "12"
    new_id = tool_id()  # its own function (the gateway serves toolgen-tool-<id> at /t/<id>)
    spec = FunctionSpec(f"toolgen-tool-{new_id}", role, layer, zipped(out / "function"), environment=env)
    Deployer({"lambda": lam}).deploy(spec)
    url = f"{server.url}/t/{new_id}"

    minted = subprocess.run(  # the bundle's own script, with no toolgen installed: only the bundle on the path
        [sys.executable, "-S", "-I", str(out / "mint_token.py"), "--user", "xia"],
        env={"TOOLGEN_SECRET": "bundle-only-secret", "PATH": os.environ["PATH"]},
        capture_output=True,
        text=True,
        cwd=out,
    )
    assert minted.returncode == 0, minted.stderr
    token = minted.stdout.strip()
    assert auth.verify(token, "bundle-only-secret") == "xia"
    made = http("POST", f"{url}/runs", token=token, body={"distance": 5, "minutes": 30})
    assert made.status == 201, made.body
    assert [r["distance"] for r in http("GET", f"{url}/runs", token=token).body["items"]] == [5]
    assert (
        http("GET", f"{url}/runs", token=server.token("xia")).status == 401
    )  # the platform's tokens mean nothing here

    request = urllib.request.Request(f"{url}/", headers={"Accept": "text/html"})
    with urllib.request.urlopen(request, timeout=30) as page:
        html, csp = page.read().decode(), page.headers["Content-Security-Policy"]
    title = json.loads((out / "program.json").read_text())["title"]
    assert "connect-src 'self'" in csp and f"<title>{title}" in html
