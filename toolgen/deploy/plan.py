"""Deploy plans as data: which Lambda API calls make a tool's function exist as specified.

``plan_tool_deploy`` makes no calls ("it only figures out what calls we should make", after Chalice); a plan is
a list of steps, each an API call (with the call that undoes it, where there is one) or a wait. A value only
known once an earlier call has answered (the version a publish made) is an ``Output`` placeholder.

What a deployed tool is: its function on the shared layer, its limit of calls at once (reserved concurrency while
the account has room, else kept by the tool itself in the table: ``reserve`` is False and its environment says
so), every deploy published as
a new immutable version behind the ``live`` alias, and the function URL on that alias. Moving the alias is the
last step that matters, so a person never reaches a half-updated tool: until it moves they get the old version,
after it the new one, and a failed update leaves the old version live.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from typing import Any

RUNTIME = "python3.12"
HANDLER = "app.handler"
TOOL_ALIAS = "live"
# A public URL needs both statements since Oct 2025; the runtime checks the bearer token on every call.
URL_STATEMENTS: dict[str, dict[str, Any]] = {
    "toolgen-url": {"Action": "lambda:InvokeFunctionUrl", "Principal": "*", "FunctionUrlAuthType": "NONE"},
    "toolgen-url-invoke": {"Action": "lambda:InvokeFunction", "Principal": "*", "InvokedViaFunctionUrl": True},
}
URL_METHODS = ["GET", "POST", "PATCH", "DELETE"]


def live(function_name: str) -> str:
    """The qualified name a tool is called by: its live alias."""
    return f"{function_name}:{TOOL_ALIAS}"


@dataclass(frozen=True)
class Output:
    """A value an earlier step of the same plan answered with (the executor fills it in)."""

    name: str


@dataclass(frozen=True)
class ApiCall:
    """One call of a boto3 client method.

    ``output`` names a response field the executor keeps (for later ``Output`` placeholders and the result);
    ``undo`` is what reverses it on rollback; a ``best_effort`` call (tidying up) may fail without failing the plan.
    """

    service: str
    method: str
    params: dict[str, Any]
    undo: Undo | None = None
    output: str | None = None
    best_effort: bool = False


@dataclass(frozen=True)
class Wait:
    """Wait on a boto3 waiter until the function (or one version of it) is ready for the next step."""

    waiter: str
    function_name: str
    qualifier: str | Output | None = None


@dataclass(frozen=True)
class DeleteVersionIfUnaliased:
    """Undo of a publish: remove the version, unless an alias points at it (publishing unchanged code returns
    the version that is already live, which must stay)."""

    function_name: str
    version: str | Output


Step = ApiCall | Wait
Undo = ApiCall | DeleteVersionIfUnaliased


@dataclass(frozen=True)
class FunctionSpec:
    """What a tool's function must be."""

    function_name: str
    role_arn: str
    layer_arn: str  # "" when the runtime is inside the package (LocalStack Community applies no layers)
    package: bytes = field(repr=False)
    timeout_s: int = 10
    memory_mb: int = 256
    concurrency: int = 5
    reserve: bool = True  # False: no reserved concurrency; the tool keeps its limit with table leases
    environment: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    cors_origins: tuple[str, ...] = ("*",)
    snapstart: bool = False
    provisioned: int = 0
    description: str = ""
    log_group: str = ""  # the stack's tools' log group (kept for its retention); "" for Lambda's own per function

    @property
    def code_sha256(self) -> str:
        """The CodeSha256 Lambda reports for this package."""
        return base64.b64encode(hashlib.sha256(self.package).digest()).decode()

    def configuration(self) -> dict[str, Any]:
        """The function's configuration as UpdateFunctionConfiguration takes it (FunctionName aside)."""
        config: dict[str, Any] = {
            "Role": self.role_arn,
            "Handler": HANDLER,
            "Runtime": RUNTIME,
            "Timeout": self.timeout_s,
            "MemorySize": self.memory_mb,
            "Layers": [self.layer_arn] if self.layer_arn else [],
            "Environment": {"Variables": dict(self.environment)},
            "Description": self.description,
        }
        if self.snapstart:
            config["SnapStart"] = {"ApplyOn": "PublishedVersions"}
        if self.log_group:
            config["LoggingConfig"] = {"LogFormat": "Text", "LogGroup": self.log_group}
        return config

    def cors(self) -> dict[str, Any]:
        return {
            "AllowOrigins": list(self.cors_origins),
            "AllowMethods": list(URL_METHODS),
            "AllowHeaders": ["authorization", "content-type"],
            "MaxAge": 600,
        }


@dataclass(frozen=True)
class RemoteFunction:
    """What the account already holds under the function's name (read by Deployer.remote_state)."""

    code_sha256: str
    arn: str = ""
    configuration: dict[str, Any] = field(default_factory=dict)  # in FunctionSpec.configuration()'s shape
    tags: dict[str, str] = field(default_factory=dict)
    concurrency: int | None = None
    live_version: str | None = None
    versions: tuple[str, ...] = ()  # published versions, oldest first
    url_cors: dict[str, Any] | None = None  # None: the alias has no URL
    statements: frozenset[str] = frozenset()
    provisioned: int = 0


def _create_steps(spec: FunctionSpec) -> list[Step]:
    name = spec.function_name
    create = {
        "FunctionName": name,
        **spec.configuration(),
        "Code": {"ZipFile": spec.package},
        "Tags": dict(spec.tags),
        "Publish": False,
        "Architectures": ["x86_64"],
    }
    return [
        ApiCall("lambda", "create_function", create, undo=ApiCall("lambda", "delete_function", {"FunctionName": name})),
        Wait("function_active_v2", name),
    ]


def _update_steps(spec: FunctionSpec, remote: RemoteFunction) -> list[Step]:
    name = spec.function_name
    steps: list[Step] = []
    if remote.code_sha256 != spec.code_sha256:
        steps.append(ApiCall("lambda", "update_function_code", {"FunctionName": name, "ZipFile": spec.package}))
        steps.append(Wait("function_updated_v2", name))
    wanted = spec.configuration()
    if remote.configuration.get("SnapStart", {}).get("ApplyOn", "None") != "None" and not spec.snapstart:
        wanted["SnapStart"] = {"ApplyOn": "None"}
    if any(remote.configuration.get(key) != value for key, value in wanted.items()):
        steps.append(ApiCall("lambda", "update_function_configuration", {"FunctionName": name, **wanted}))
        steps.append(Wait("function_updated_v2", name))
    if any(remote.tags.get(key) != value for key, value in spec.tags.items()):
        steps.append(ApiCall("lambda", "tag_resource", {"Resource": remote.arn, "Tags": dict(spec.tags)}))
    return steps


def _alias_steps(spec: FunctionSpec, remote: RemoteFunction | None) -> list[Step]:
    name, version = spec.function_name, Output("Version")
    publish = ApiCall(
        "lambda",
        "publish_version",
        # CodeSha256: publish only the code this plan uploaded (another deploy's code fails it: re-plan).
        {"FunctionName": name, "CodeSha256": spec.code_sha256, "Description": spec.description},
        undo=DeleteVersionIfUnaliased(name, version) if remote else None,
        output="Version",
    )
    steps: list[Step] = [publish, Wait("function_active_v2", name, qualifier=version)]
    alias = {"FunctionName": name, "Name": TOOL_ALIAS, "FunctionVersion": version}
    if remote is None or remote.live_version is None:
        undo = ApiCall("lambda", "delete_alias", {"FunctionName": name, "Name": TOOL_ALIAS}) if remote else None
        steps.append(ApiCall("lambda", "create_alias", alias, undo=undo))
    else:
        back = {**alias, "FunctionVersion": remote.live_version}
        steps.append(ApiCall("lambda", "update_alias", alias, undo=ApiCall("lambda", "update_alias", back)))
    qualified = {"FunctionName": name, "Qualifier": TOOL_ALIAS}
    if spec.provisioned:
        steps.append(
            ApiCall(
                "lambda",
                "put_provisioned_concurrency_config",
                {**qualified, "ProvisionedConcurrentExecutions": spec.provisioned},
            )
        )
    elif remote is not None and remote.provisioned:
        steps.append(ApiCall("lambda", "delete_provisioned_concurrency_config", qualified))
    return steps


def _url_steps(spec: FunctionSpec, remote: RemoteFunction | None) -> list[Step]:
    name = spec.function_name
    qualified = {"FunctionName": name, "Qualifier": TOOL_ALIAS}
    steps: list[Step] = []
    if remote is None or remote.url_cors is None:
        undo = ApiCall("lambda", "delete_function_url_config", qualified) if remote else None
        steps.append(
            ApiCall(
                "lambda",
                "create_function_url_config",
                {**qualified, "AuthType": "NONE", "Cors": spec.cors()},
                undo=undo,
                output="FunctionUrl",
            )
        )
    elif remote.url_cors != spec.cors():
        steps.append(
            ApiCall("lambda", "update_function_url_config", {**qualified, "Cors": spec.cors()}, output="FunctionUrl")
        )
    else:
        steps.append(ApiCall("lambda", "get_function_url_config", qualified, output="FunctionUrl"))
    have = remote.statements if remote else frozenset()
    for sid, statement in URL_STATEMENTS.items():
        if sid not in have:
            undo = ApiCall("lambda", "remove_permission", {**qualified, "StatementId": sid}) if remote else None
            steps.append(ApiCall("lambda", "add_permission", {**qualified, "StatementId": sid, **statement}, undo=undo))
    return steps


def _prune_steps(spec: FunctionSpec, remote: RemoteFunction | None) -> list[Step]:
    """Versions older than the one live before this deploy go (that one stays, to roll back to by hand)."""
    if remote is None or remote.live_version is None:
        return []
    keep_from = int(remote.live_version)
    return [
        ApiCall(
            "lambda",
            "delete_function",
            {"FunctionName": spec.function_name, "Qualifier": version},
            best_effort=True,
        )
        for version in remote.versions
        if version.isdigit() and int(version) < keep_from
    ]


def plan_tool_deploy(spec: FunctionSpec, remote: RemoteFunction | None) -> list[Step]:
    """The steps that make ``spec`` true and live, given what ``remote`` already exists."""
    steps = _create_steps(spec) if remote is None else _update_steps(spec, remote)
    if spec.reserve and (remote is None or remote.concurrency != spec.concurrency):
        steps.append(
            ApiCall(
                "lambda",
                "put_function_concurrency",
                {"FunctionName": spec.function_name, "ReservedConcurrentExecutions": spec.concurrency},
            )
        )
    elif not spec.reserve and remote is not None and remote.concurrency is not None:
        steps.append(ApiCall("lambda", "delete_function_concurrency", {"FunctionName": spec.function_name}))
    return [*steps, *_alias_steps(spec, remote), *_url_steps(spec, remote), *_prune_steps(spec, remote)]


def plan_tool_delete(function_name: str) -> list[Step]:
    """Deleting the function (unqualified) removes its versions, alias, URL, permissions and concurrency with it."""
    return [ApiCall("lambda", "delete_function", {"FunctionName": function_name})]
