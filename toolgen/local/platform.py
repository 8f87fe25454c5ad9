"""The platform's resources, created in the emulator the way template.yaml creates them on AWS.

Names and figures mirror template.yaml (tests/functional/test_template.py checks that they agree), and the
platform's own functions are deployed into the emulator from functions/ on the base layer, so the embedded
default runs the same handlers through the same runtime as every tool.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from toolgen.config import TOOL_FUNCTION_PREFIX
from toolgen.deploy.package import layer_zip, zip_files
from toolgen.local.emulator import Emulator
from toolgen.paths import ROOT
from toolgen.table import TOOL_ACTIONS

TABLE = "toolgen"
BUCKET = "toolgen-pages"
JOBS_QUEUE = "toolgen-jobs"
JOBS_DLQ = "toolgen-jobs-dlq"
LAYER = "toolgen-base"
API_FUNCTION = "toolgen-api"
WORKER_FUNCTION = "toolgen-worker"
AUTHORIZER_FUNCTION = "toolgen-authorizer"
# Figures shared with template.yaml.
API_TIMEOUT_S, API_MEMORY_MB = 29, 512
# 300 s: a model may take a minute an answer, and a job may ask twice before it deploys and probes
WORKER_TIMEOUT_S, WORKER_MEMORY_MB = 300, 1024
AUTHORIZER_TIMEOUT_S, AUTHORIZER_MEMORY_MB = 5, 256
JOBS_VISIBILITY_S = 6 * WORKER_TIMEOUT_S  # AWS's advice for a queue feeding a function
JOBS_MAX_RECEIVE = 5  # at least 5 for a queue feeding a function (throttled receives count)
JOBS_RETENTION_S, DLQ_RETENTION_S = 4 * 86400, 14 * 86400  # a message's age counts from its first enqueue
RUNTIME = "python3.12"
LAMBDA_TRUST = json.dumps(
    {
        "Version": "2012-10-17",
        "Statement": [
            {"Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}
        ],
    }
)


TOOL_POLICY = "tool-rows-only"


def tool_rows_policy(table_arn: str) -> dict[str, Any]:
    """template.yaml's ToolRole policy: a tool reaches only its own partitions, ``TOOL#`` and its role session's
    ``aws:userid`` (toolgen/table.py). The emulator holds tools to it (fidelity.py, iam.py)."""
    return {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Effect": "Allow",
                "Action": list(TOOL_ACTIONS),
                "Resource": table_arn,
                "Condition": {
                    "ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["TOOL#${aws:userid}", "TOOL#${aws:userid}#*"]}
                },
            }
        ],
    }


# The platform's own functions: template.yaml scopes their roles; the emulator lets them do anything, as it lets
# its operator (only tools' roles are what the emulator is there to hold to account).
PLATFORM_POLICY = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}


@dataclass(frozen=True)
class Resources:
    table: str
    bucket: str
    queue_url: str
    queue_arn: str
    dlq_url: str
    layer_arn: str
    tool_role_arn: str
    tool_role_id: str


def _role(iam: Any, name: str, policy_name: str, policy: dict[str, Any]) -> dict[str, Any]:
    role: dict[str, Any] = iam.create_role(RoleName=name, AssumeRolePolicyDocument=LAMBDA_TRUST)["Role"]
    iam.put_role_policy(RoleName=name, PolicyName=policy_name, PolicyDocument=json.dumps(policy))
    return role


def _function_zip(name: str) -> bytes:
    folder = ROOT / "functions" / name
    return zip_files((p.name, p.read_bytes()) for p in sorted(folder.glob("*.py")))


def create_table(ddb: Any, name: str) -> None:
    """A table with the platform's key schema (pk, sk strings), on demand, as template.yaml's ``Table``."""
    ddb.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "S"},
        ],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    )


# Settings that are secrets: kept in the emulator's Secrets Manager and named by ARN, as template.yaml does on AWS,
# so reading a function's configuration (GetFunction, ListFunctions) never shows them.
SECRET_SETTINGS = {"TOOLGEN_SECRET": "toolgen/token-secret", "OPENAI_API_KEY": "toolgen/llm-api-key"}


def _secrets(emulator: Emulator, secret: str, extra_env: dict[str, str]) -> dict[str, str]:
    """The functions' environment with every secret setting replaced by its ``<NAME>_ARN``/``_SECRET_ARN``."""
    sm = emulator.client("secretsmanager")
    env = {k: v for k, v in extra_env.items() if k not in SECRET_SETTINGS}
    for name, value in {**extra_env, "TOOLGEN_SECRET": secret}.items():
        if name in SECRET_SETTINGS and value:
            arn = sm.create_secret(Name=SECRET_SETTINGS[name], SecretString=value)["ARN"]
            env[{"TOOLGEN_SECRET": "TOOLGEN_SECRET_ARN"}.get(name, f"{name}_SECRET_ARN")] = arn
    return env


def provision(emulator: Emulator, *, public_url: str, secret: str, extra_env: dict[str, str]) -> Resources:
    """Create every platform resource in the emulator; the platform's functions are configured for ``public_url``."""
    ddb, s3, sqs, iam, lam = (emulator.client(s) for s in ("dynamodb", "s3", "sqs", "iam", "lambda"))
    create_table(ddb, TABLE)
    ddb.update_time_to_live(TableName=TABLE, TimeToLiveSpecification={"AttributeName": "expiration", "Enabled": True})
    s3.create_bucket(Bucket=BUCKET)
    dlq_url = sqs.create_queue(QueueName=JOBS_DLQ, Attributes={"MessageRetentionPeriod": str(DLQ_RETENTION_S)})[
        "QueueUrl"
    ]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    redrive = json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": str(JOBS_MAX_RECEIVE)})
    queue_url = sqs.create_queue(
        QueueName=JOBS_QUEUE,
        Attributes={
            "VisibilityTimeout": str(JOBS_VISIBILITY_S),
            "RedrivePolicy": redrive,
            "MessageRetentionPeriod": str(JOBS_RETENTION_S),
        },
    )["QueueUrl"]
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    layer_arn = lam.publish_layer_version(
        LayerName=LAYER,
        Content={"ZipFile": layer_zip()},
        CompatibleRuntimes=[RUNTIME],
        Description="toolgen runtime and templates (third-party requirements: layers/base/requirements.txt)",
    )["LayerVersionArn"]
    table_arn = ddb.describe_table(TableName=TABLE)["Table"]["TableArn"]
    tool_role = _role(iam, "toolgen-tool-role", TOOL_POLICY, tool_rows_policy(table_arn))
    common = {"TABLE_NAME": TABLE, "BUCKET_NAME": BUCKET, **_secrets(emulator, secret, extra_env)}
    functions = {
        API_FUNCTION: (
            "api",
            API_TIMEOUT_S,
            API_MEMORY_MB,
            {
                **common,
                "JOBS_QUEUE_URL": queue_url,
                "PUBLIC_BASE_URL": public_url,
                "POWERTOOLS_SERVICE_NAME": "toolgen-api",
            },
        ),
        WORKER_FUNCTION: (
            "worker",
            WORKER_TIMEOUT_S,
            WORKER_MEMORY_MB,
            {
                **common,
                "TOOL_ROLE_ARN": tool_role["Arn"],
                "TOOL_ROLE_ID": tool_role["RoleId"],
                "BASE_LAYER_ARN": layer_arn,
                "JOBS_QUEUE_URL": queue_url,
                "TOOL_FUNCTION_PREFIX": TOOL_FUNCTION_PREFIX,
                "TOOL_URL_BASE": f"{public_url}/t",
                # pages are served here, as the API's origin serves them on AWS (and wherever else is configured)
                "TOOL_CORS_ORIGINS": ",".join(filter(None, (public_url, extra_env.get("TOOL_CORS_ORIGINS")))),
                "LAMBDA_INVOKE_ENDPOINT": public_url,
                "POWERTOOLS_SERVICE_NAME": "toolgen-worker",
            },
        ),
        AUTHORIZER_FUNCTION: (
            "authorizer",
            AUTHORIZER_TIMEOUT_S,
            AUTHORIZER_MEMORY_MB,
            {**common, "POWERTOOLS_SERVICE_NAME": "toolgen-authorizer"},
        ),
    }
    for name, (folder, timeout, memory, env) in functions.items():
        lam.create_function(
            FunctionName=name,
            Runtime=RUNTIME,
            Role=_role(iam, f"{name}-role", "platform", PLATFORM_POLICY)["Arn"],
            Handler="app.handler",
            Code={"ZipFile": _function_zip(folder)},
            Timeout=timeout,
            MemorySize=memory,
            Layers=[layer_arn],
            Environment={"Variables": env},
        )
    return Resources(TABLE, BUCKET, queue_url, queue_arn, dlq_url, layer_arn, tool_role["Arn"], tool_role["RoleId"])
