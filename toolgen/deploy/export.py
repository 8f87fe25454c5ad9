"""`toolgen export`: one tool as a bundle a person can deploy on their own AWS account, without the platform.

The bundle is the tool as the platform runs it: its ToolProgram, its OpenAPI document, the same 3-line handler,
and the base layer's runtime, with a SAM template for just that tool (its function on the layer, Timeout 10 s,
at most 5 calls at once, published behind ``live`` with a function URL; its own table and token secret, both kept
when the stack is deleted). The limit is kept with leases in its table unless ``ReservedConcurrency`` asks Lambda
to reserve it (an account keeps 100 unreserved, so a reservation is not something every account can give). Its page
is rendered to call its own origin and is served by the tool itself at ``GET /`` to a browser, so the person
needs no bucket and no CORS. `sam validate --lint` passes on the template (tests/e2e/test_export.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from toolgen.deploy.execute import LEASE_MARGIN_S
from toolgen.deploy.package import runtime_files
from toolgen.deploy.plan import HANDLER, RUNTIME, TOOL_ALIAS
from toolgen.paths import TOOL_HANDLER
from toolgen.program import ToolProgram
from toolgen.runtime.app import PAGE_FILE
from toolgen.runtime.lease import HOLD_ENV, LIMIT_ENV
from toolgen.table import TOOL_ACTIONS
from toolgen.ui import render_page

README = """# {title}

Exported from toolgen (tool `{tool_id}`, a {archetype}), to run on your own AWS account.

| File | What it is |
|---|---|
| `template.yaml` | SAM: its function (Timeout {timeout} s, {concurrency} at once, `live`, URL), table, secret, layer |
| `mint_token.py` | a bearer token for the tool with Python alone (signed with the stack's secret; no toolgen needed) |
| `function/` | the handler, `program.json` (what the tool does, as data) and `page.json` (its page) |
| `layer/python/` | the toolgen runtime and its pinned requirements, as the platform's base layer carries them |
| `openapi.json` | the tool's OpenAPI 3.1 document (its `servers` entry is the platform's URL: use your `ToolUrl`) |
| `program.json` | the ToolProgram, for reading |

Deploy (the SAM CLI and AWS credentials; nothing to build):

    sam deploy --guided            # the ToolUrl output is your tool; open it in a browser for its page

Call it: every call needs `Authorization: Bearer <token>` for `{owner}`, signed with the stack's secret:

    export TOOLGEN_SECRET="$(aws secretsmanager get-secret-value --secret-id <TokenSecret output> \\
        --query SecretString --output text)"
    python3 mint_token.py --user {owner}   # signed with TOOLGEN_SECRET; tokens of any other user are refused

Open `<ToolUrl>#token=<token>` for the page. Data is not exported: the tool starts empty.

At most {concurrency} calls run at once; more get 429 with `Retry-After`. By default the tool keeps that limit
itself with leases in its table, which works on any account. `ReservedConcurrency={concurrency}` has Lambda
reserve it instead (no lease writes), if your account can spare it: AWS keeps 100 of the account's concurrency
unreserved, so a new account with a low quota cannot.

To use an existing toolgen base layer instead of `layer/`, pass `BaseLayerArn`; a layer of another account
needs that account to grant yours `lambda:GetLayerVersion` on it (`aws lambda add-layer-version-permission`).

Tear down: `sam delete` removes the function and its URL but keeps the table and the secret (your data, and the
key your tokens were signed with); delete those two by hand when you mean to.
"""


MINT_SCRIPT = """\
\"\"\"A bearer token for this tool, signed with TOOLGEN_SECRET (the stack's TokenSecret), with Python alone.\"\"\"

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "layer" / "python"))  # the runtime this bundle ships
from toolgen import auth  # noqa: E402 - its token code is standard library only

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--user", required=True, help="the tool's owner (tokens of anyone else are refused)")
parser.add_argument("--days", type=float, default=30, help="how long the token is good for")
args = parser.parse_args()
secret = os.environ.get("TOOLGEN_SECRET")
if not secret:
    sys.exit("set TOOLGEN_SECRET to the stack's token secret (see README.md)")
print(auth.mint_with_secret(args.user, secret, ttl_s=int(args.days * 86400)))
"""


def bundle_template(
    *, tool_id: str, title: str, archetype: str, owner: str, timeout_s: int, concurrency: int, memory_mb: int = 256
) -> dict[str, Any]:
    """The SAM template of one exported tool."""
    secret = {"Fn::If": ["CreateTokenSecret", {"Ref": "TokenSecret"}, {"Ref": "TokenSecretArn"}]}
    return {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Transform": "AWS::Serverless-2016-10-31",
        "Description": f"toolgen tool {tool_id}: {title}"[:1024],
        "Parameters": {
            "BaseLayerArn": {
                "Type": "String",
                "Default": "",
                "Description": "An existing toolgen base layer; empty deploys the one in layer/.",
            },
            "TokenSecretArn": {
                "Type": "String",
                "Default": "",
                "Description": "A Secrets Manager secret holding the token-signing key; empty creates one.",
            },
            "ReservedConcurrency": {
                "Type": "Number",
                "Default": 0,
                "AllowedValues": [0, concurrency],
                "Description": f"0: the tool keeps its limit of {concurrency} calls at once itself, with leases in "
                f"its table (any account); {concurrency}: Lambda reserves it (the account keeps 100 unreserved).",
            },
        },
        "Conditions": {
            "Reserve": {"Fn::Not": [{"Fn::Equals": [{"Ref": "ReservedConcurrency"}, 0]}]},
            "BundledLayer": {"Fn::Equals": [{"Ref": "BaseLayerArn"}, ""]},
            "CreateTokenSecret": {"Fn::Equals": [{"Ref": "TokenSecretArn"}, ""]},
        },
        "Resources": {
            "BaseLayer": {
                "Type": "AWS::Serverless::LayerVersion",
                "Condition": "BundledLayer",
                "Properties": {
                    "Description": "toolgen tool runtime and its pinned requirements",
                    "ContentUri": "layer/",
                    "CompatibleRuntimes": [RUNTIME],
                    "CompatibleArchitectures": ["x86_64"],
                },
            },
            "TokenSecret": {
                "Type": "AWS::SecretsManager::Secret",
                "Condition": "CreateTokenSecret",
                "DeletionPolicy": "Retain",
                "UpdateReplacePolicy": "Retain",
                "Properties": {
                    "Description": f"bearer-token signing key of toolgen tool {tool_id}",
                    "GenerateSecretString": {"PasswordLength": 48, "ExcludePunctuation": True},
                },
            },
            "Table": {
                "Type": "AWS::DynamoDB::Table",
                "DeletionPolicy": "Retain",
                "UpdateReplacePolicy": "Retain",
                "Properties": {
                    "BillingMode": "PAY_PER_REQUEST",
                    "AttributeDefinitions": [
                        {"AttributeName": "pk", "AttributeType": "S"},
                        {"AttributeName": "sk", "AttributeType": "S"},
                    ],
                    "KeySchema": [
                        {"AttributeName": "pk", "KeyType": "HASH"},
                        {"AttributeName": "sk", "KeyType": "RANGE"},
                    ],
                    "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True},
                    "SSESpecification": {"SSEEnabled": True},
                },
            },
            "ToolFunction": {
                "Type": "AWS::Serverless::Function",
                "Properties": {
                    "Description": f"toolgen tool {tool_id}: {title}"[:256],
                    "CodeUri": "function/",
                    "Handler": HANDLER,
                    "Runtime": RUNTIME,
                    "Architectures": ["x86_64"],
                    "Timeout": timeout_s,
                    "MemorySize": memory_mb,
                    "ReservedConcurrentExecutions": {
                        "Fn::If": ["Reserve", {"Ref": "ReservedConcurrency"}, {"Ref": "AWS::NoValue"}]
                    },
                    "AutoPublishAlias": TOOL_ALIAS,
                    "Layers": [{"Fn::If": ["BundledLayer", {"Ref": "BaseLayer"}, {"Ref": "BaseLayerArn"}]}],
                    "FunctionUrlConfig": {
                        "AuthType": "NONE",  # the runtime checks the bearer token on every call
                        "Cors": {
                            "AllowOrigins": ["*"],  # tokens travel in a header, never in cookies
                            "AllowMethods": ["GET", "POST", "PATCH", "DELETE"],
                            "AllowHeaders": ["authorization", "content-type"],
                            "MaxAge": 600,
                        },
                    },
                    "Environment": {
                        "Variables": {
                            "TABLE_NAME": {"Ref": "Table"},
                            "TOOL_ID": tool_id,
                            "TOOL_OWNER": owner,
                            "TOOLGEN_SECRET_ARN": secret,
                            LIMIT_ENV: {"Fn::If": ["Reserve", {"Ref": "AWS::NoValue"}, str(concurrency)]},
                            HOLD_ENV: {"Fn::If": ["Reserve", {"Ref": "AWS::NoValue"}, str(timeout_s + LEASE_MARGIN_S)]},
                        }
                    },
                    "Policies": [
                        {
                            "Statement": [
                                {
                                    "Effect": "Allow",
                                    "Action": list(TOOL_ACTIONS),
                                    "Resource": {"Fn::GetAtt": ["Table", "Arn"]},
                                    "Condition": {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["TOOL#*"]}},
                                },
                                {"Effect": "Allow", "Action": "secretsmanager:GetSecretValue", "Resource": secret},
                            ]
                        }
                    ],
                    "Tags": {"toolgen:tool": tool_id, "toolgen:archetype": archetype, "toolgen:user": owner},
                },
            },
        },
        "Outputs": {
            "ToolUrl": {
                "Description": "The tool: its API, and its page for a browser",
                "Value": {"Fn::GetAtt": ["ToolFunctionUrl", "FunctionUrl"]},
            },
            "TokenSecret": {"Description": "The secret that signs this tool's tokens", "Value": secret},
        },
    }


def bundle_files(detail: dict[str, Any]) -> list[tuple[str, bytes]]:
    """The bundle of a tool as the platform's GET /v1/tools/{id} describes it, as (path, content) pairs."""
    program = ToolProgram.model_validate(detail["program"])
    owner, tool_id = str(detail["owner"]), str(detail["tool_id"])
    page = render_page(program, "")  # served by the tool itself: it calls its own origin
    template = bundle_template(
        tool_id=tool_id,
        title=program.title,
        archetype=program.archetype,
        owner=owner,
        timeout_s=min(10, program.limits.timeout_s),
        concurrency=min(5, program.limits.concurrency),
    )
    program_json = program.model_dump_json(indent=1).encode()
    readme = README.format(
        title=program.title,
        tool_id=tool_id,
        archetype=program.archetype,
        owner=owner,
        timeout=template["Resources"]["ToolFunction"]["Properties"]["Timeout"],
        concurrency=min(5, program.limits.concurrency),
    )
    return [
        ("README.md", readme.encode()),
        ("template.yaml", yaml.safe_dump(template, sort_keys=False, allow_unicode=True).encode()),
        ("openapi.json", json.dumps(detail["openapi"], indent=1, ensure_ascii=False).encode()),
        ("program.json", program_json),
        ("mint_token.py", MINT_SCRIPT.encode()),
        ("function/app.py", TOOL_HANDLER.read_bytes()),
        ("function/program.json", program_json),
        (f"function/{PAGE_FILE}", json.dumps({"html": page.html, "csp": page.csp}, ensure_ascii=False).encode()),
        *runtime_files(prefix="layer/python/"),
    ]


def write_bundle(detail: dict[str, Any], out: Path) -> Path:
    """Write the bundle under ``out`` (which must not exist yet, so nothing of the person's is overwritten)."""
    if out.exists():
        raise FileExistsError(f"{out} already exists")
    for name, content in bundle_files(detail):
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    return out
