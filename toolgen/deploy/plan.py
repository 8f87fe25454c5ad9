"""Deploy plans as data: which Lambda API calls make a tool's function exist as specified.

``plan_tool_deploy`` makes no calls ("it only figures out what calls we should make", after Chalice); a plan is
a list of steps, each an API call (with the call that undoes it, where there is one) or a wait.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from typing import Any

RUNTIME = "python3.12"
HANDLER = "app.handler"


@dataclass(frozen=True)
class ApiCall:
    """One call of a boto3 client method; ``output`` names a response field the executor keeps."""

    service: str
    method: str
    params: dict[str, Any]
    undo: ApiCall | None = None
    output: str | None = None


@dataclass(frozen=True)
class Wait:
    """Wait on a boto3 waiter until the function is ready for the next step."""

    waiter: str
    function_name: str


Step = ApiCall | Wait


@dataclass(frozen=True)
class FunctionSpec:
    """What a tool's function must be."""

    function_name: str
    role_arn: str
    layer_arn: str
    package: bytes = field(repr=False)
    timeout_s: int = 10
    memory_mb: int = 256
    concurrency: int = 5
    environment: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    cors_origins: tuple[str, ...] = ("*",)

    @property
    def code_sha256(self) -> str:
        """The CodeSha256 Lambda reports for this package."""
        return base64.b64encode(hashlib.sha256(self.package).digest()).decode()


@dataclass(frozen=True)
class RemoteFunction:
    """What the account already holds under the function's name."""

    code_sha256: str
    has_url: bool


def _configuration(spec: FunctionSpec) -> dict[str, Any]:
    return {
        "FunctionName": spec.function_name,
        "Role": spec.role_arn,
        "Handler": HANDLER,
        "Runtime": RUNTIME,
        "Timeout": spec.timeout_s,
        "MemorySize": spec.memory_mb,
        "Layers": [spec.layer_arn],
        "Environment": {"Variables": dict(spec.environment)},
    }


def _url_steps(spec: FunctionSpec) -> list[Step]:
    name = spec.function_name
    cors = {
        "AllowOrigins": list(spec.cors_origins),
        "AllowMethods": ["GET", "POST", "PATCH", "DELETE"],
        "AllowHeaders": ["authorization", "content-type"],
        "MaxAge": 600,
    }
    return [
        ApiCall(
            "lambda",
            "create_function_url_config",
            {"FunctionName": name, "AuthType": "NONE", "Cors": cors},
            undo=ApiCall("lambda", "delete_function_url_config", {"FunctionName": name}),
            output="FunctionUrl",
        ),
        # A public URL needs both statements since Oct 2025; the runtime checks the bearer token on every call.
        ApiCall(
            "lambda",
            "add_permission",
            {
                "FunctionName": name,
                "StatementId": "toolgen-url",
                "Action": "lambda:InvokeFunctionUrl",
                "Principal": "*",
                "FunctionUrlAuthType": "NONE",
            },
        ),
        ApiCall(
            "lambda",
            "add_permission",
            {
                "FunctionName": name,
                "StatementId": "toolgen-url-invoke",
                "Action": "lambda:InvokeFunction",
                "Principal": "*",
                "InvokedViaFunctionUrl": True,
            },
        ),
    ]


def plan_tool_deploy(spec: FunctionSpec, remote: RemoteFunction | None) -> list[Step]:
    """The steps that make ``spec`` true, given what ``remote`` already exists."""
    name = spec.function_name
    steps: list[Step] = []
    if remote is None:
        create = {
            **_configuration(spec),
            "Code": {"ZipFile": spec.package},
            "Tags": dict(spec.tags),
            "Publish": False,
            "Architectures": ["x86_64"],
        }
        steps.append(
            ApiCall(
                "lambda", "create_function", create, undo=ApiCall("lambda", "delete_function", {"FunctionName": name})
            )
        )
        steps.append(Wait("function_active_v2", name))
    else:
        if remote.code_sha256 != spec.code_sha256:
            steps.append(ApiCall("lambda", "update_function_code", {"FunctionName": name, "ZipFile": spec.package}))
            steps.append(Wait("function_updated_v2", name))
        steps.append(ApiCall("lambda", "update_function_configuration", _configuration(spec)))
        steps.append(Wait("function_updated_v2", name))
    steps.append(
        ApiCall(
            "lambda",
            "put_function_concurrency",
            {"FunctionName": name, "ReservedConcurrentExecutions": spec.concurrency},
        )
    )
    if remote is None or not remote.has_url:
        steps.extend(_url_steps(spec))
    else:
        steps.append(ApiCall("lambda", "get_function_url_config", {"FunctionName": name}, output="FunctionUrl"))
    return steps


def plan_tool_delete(function_name: str) -> list[Step]:
    """Deleting the function removes its URL, permissions and concurrency with it."""
    return [ApiCall("lambda", "delete_function", {"FunctionName": function_name})]
