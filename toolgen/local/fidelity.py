"""Where moto's Lambda differs from AWS in ways the deployer depends on, make it answer as AWS does.

The deployer's concurrency safety rests on Lambda refusing a second create with ResourceConflictException; moto
mostly does, but checks and creates without a lock, names an alias clash ``ConflictException``, and silently
replaces an existing function URL or permission statement. Each patch below makes one such answer AWS's, in
this process only (the embedded default runs moto in-process). tests/functional/test_deployer.py relies on them.

A version's number is never reused, as on Lambda (moto counts the versions left, so after a deleted one it published
a number already taken and an alias then resolved to the older code).

It also gives moto an account's concurrency quota, which moto does not keep by default: GetAccountSettings answers
the quota and what is left unreserved, and PutFunctionConcurrency refuses a reservation that would leave fewer
than 100 unreserved, with Lambda's own error (`toolgen serve --account-concurrency N`, 1,000 as on a new account).

A query costs what it costs on DynamoDB: moto reads and sorts every item of the table for each Query, so on
the embedded default a person's recall paid for everyone's memories; a Query of the base table now reads its own
partition, as DynamoDB does (the answer is the same, its cost the partition's).

And it checks what moto never checks: a DynamoDB call made with a role session's credentials (a function's code,
which the local runtime gives its execution role's session as Lambda does) is allowed only if the role's
policies allow it, evaluated by toolgen/local/iam.py; refused with DynamoDB's AccessDeniedException otherwise.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

_applied = False
_lock = threading.RLock()
UNRESERVED_MINIMUM = 100  # Lambda keeps this much of an account's quota for functions that reserve nothing
DEFAULT_ACCOUNT_CONCURRENCY = 1000  # a new account's quota in most regions
_quota = DEFAULT_ACCOUNT_CONCURRENCY
NO_ROOM = (
    "Specified ReservedConcurrentExecutions for function decreases account's UnreservedConcurrentExecution below "
    "its minimum value of [100]."
)


def set_account_concurrency(quota: int) -> None:
    """The concurrency quota of every account this process's moto holds."""
    global _quota
    if quota < UNRESERVED_MINIMUM:
        raise ValueError(f"an account's concurrency quota is at least {UNRESERVED_MINIMUM}")
    _quota = quota


def account_concurrency() -> int:
    return _quota


def _reserved(backend: Any, *, besides: str = "") -> int:
    """Concurrency reserved by the account's functions (all but ``besides``)."""
    return sum(
        int(fn.reserved_concurrency)
        for fn in backend.list_functions()
        if fn.reserved_concurrency and fn.function_name != besides
    )


def _logging(name: str, given: dict[str, Any] | None) -> dict[str, str]:
    """A function's LoggingConfig as Lambda answers it: its own group and Text unless told otherwise."""
    return {"LogFormat": "Text", "LogGroup": f"/aws/lambda/{name}", **(given or {})}


def _account_settings(request: Any, full_url: str, headers: Any) -> tuple[int, dict[str, str], str]:
    """GET /2016-08-19/account-settings: the quota, what is unreserved, and the account's functions."""
    import json

    from moto.awslambda.models import lambda_backends
    from moto.awslambda.responses import LambdaResponse

    answer = LambdaResponse()
    answer.setup_class(request, full_url, headers)
    backend = lambda_backends[answer.current_account][answer.region]
    functions = list(backend.list_functions())
    body = {
        "AccountLimit": {
            "TotalCodeSize": 80530636800,
            "CodeSizeUnzipped": 262144000,
            "CodeSizeZipped": 52428800,
            "ConcurrentExecutions": _quota,
            "UnreservedConcurrentExecutions": _quota - _reserved(backend),
        },
        "AccountUsage": {
            "TotalCodeSize": sum(int(fn.code_size or 0) for fn in functions),
            "FunctionCount": len(functions),
        },
    }
    return 200, {"Content-Type": "application/json"}, json.dumps(body)


def _conflict(message: str) -> Exception:
    from moto.awslambda.exceptions import LambdaClientError

    error = LambdaClientError("ResourceConflictException", message)
    error.code = 409
    return error


def apply() -> None:
    """Patch moto's Lambda once per process (idempotent)."""
    global _applied
    with _lock:
        if _applied:
            return
        _applied = True
    from moto.awslambda import models, responses
    from moto.awslambda.exceptions import ConflictException

    def serialised(method: Any) -> Any:
        """A check-then-create in moto, made atomic as it is in Lambda."""

        @functools.wraps(method)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with _lock:
                return method(*args, **kwargs)

        return wrapper

    setattr(responses.LambdaResponse, "create_function", serialised(responses.LambdaResponse.create_function))  # noqa: B010

    original_alias = models.LambdaBackend.create_alias

    @functools.wraps(original_alias)
    def create_alias(self: Any, *args: Any, **kwargs: Any) -> Any:
        with _lock:
            try:
                return original_alias(self, *args, **kwargs)
            except ConflictException as e:
                raise _conflict(e.message) from e

    setattr(models.LambdaBackend, "create_alias", create_alias)  # noqa: B010

    original_url = models.LambdaBackend.create_function_url_config

    @functools.wraps(original_url)
    def create_function_url_config(self: Any, name_or_arn: str, config: dict[str, Any]) -> Any:
        with _lock:
            function = self._lambdas.get_function_by_name_or_arn_forbid_qualifier(name_or_arn)
            if function.url_config is not None:
                raise _conflict(f"Failed to create function url config for [functionArn = {function.function_arn}]")
            return original_url(self, name_or_arn, config)

    setattr(models.LambdaBackend, "create_function_url_config", create_function_url_config)  # noqa: B010

    original_permission = models.LambdaBackend.add_permission

    @functools.wraps(original_permission)
    def add_permission(self: Any, function_name: str, qualifier: str, raw: str) -> Any:
        import json

        sid = json.loads(raw).get("StatementId")
        with _lock:
            fn = self.get_function(function_name, qualifier)
            if sid and any(s.get("Sid") == sid for s in fn.policy.statements):
                raise _conflict(f"The statement id ({sid}) provided already exists.")
            return original_permission(self, function_name, qualifier, raw)

    setattr(models.LambdaBackend, "add_permission", add_permission)  # noqa: B010
    _patch_account(models)
    _patch_dynamodb_authorization()
    _patch_dynamodb_query()
    _patch_delete(models)
    _patch_versions(models)
    _patch_logging(models)
    _patch_layers(models)


def _patch_layers(models: Any) -> None:
    """A function may use another account's layer (with that account's permission: the platform's base layer
    for tools in member accounts); moto looked for every layer in the function's own account."""

    def get_layers_data(self: Any, arns: list[str]) -> list[dict[str, Any]]:
        from moto.awslambda.exceptions import UnknownLayerVersionException

        found = []
        for arn in arns:
            parts = arn.split(":")
            account, region = (parts[4], parts[3]) if len(parts) > 4 else (self.account_id, self.region)
            found.append(models.lambda_backends[account][region].layers_versions_by_arn(arn))
        if not all(found):
            raise UnknownLayerVersionException(arns)
        return [{"Arn": lv.arn, "CodeSize": lv.code_size} for lv in found]

    setattr(models.LambdaFunction, "_get_layers_data", get_layers_data)  # noqa: B010


def _patch_account(models: Any) -> None:
    """The account's quota: reservations that would leave less than 100 unreserved are refused; GetAccountSettings."""

    @functools.wraps(models.LambdaBackend.put_function_concurrency)
    def put_function_concurrency(self: Any, function_name: str, reserved_concurrency: str) -> Any:
        from moto.awslambda.exceptions import InvalidParameterValueException

        with _lock:
            fn = self.get_function(function_name)
            left = _quota - _reserved(self, besides=fn.function_name) - int(reserved_concurrency)
            if left < UNRESERVED_MINIMUM:
                raise InvalidParameterValueException(NO_ROOM)
            fn.reserved_concurrency = reserved_concurrency
            return fn.reserved_concurrency

    setattr(models.LambdaBackend, "put_function_concurrency", put_function_concurrency)  # noqa: B010
    from moto.awslambda import urls

    urls.url_paths[r"{0}/(?P<api_version>[^/]+)/account-settings/?$"] = _account_settings


def _patch_delete(models: Any) -> None:
    original_delete = models.LambdaStorage.del_function

    @functools.wraps(original_delete)
    def del_function(self: Any, name_or_arn: str, qualifier: str | None = None) -> None:
        """moto forgets a version's ARN from a weak map once the version is gone, and then fails (500) to delete
        the whole function it belonged to; Lambda deletes it."""
        unqualified = qualifier is None and ":" not in name_or_arn.split(":function:")[-1]
        if not unqualified:
            return original_delete(self, name_or_arn, qualifier)
        with _lock:
            function = self.get_function_by_name_or_arn_with_qualifier(name_or_arn, None)
            entry = self._functions[function.function_name]
            for fn in [entry["latest"], *entry["versions"]]:
                if fn is not None:
                    self._arns.pop(fn.function_arn, None)
            del self._functions[function.function_name]
            self._aliases[function.function_arn] = {}
        return None

    setattr(models.LambdaStorage, "del_function", del_function)  # noqa: B010


def _patch_versions(models: Any) -> None:
    """moto numbers a new version len(versions) + 1, so once an old version is deleted (the deployer prunes them) it
    publishes a number that is taken, and the alias then resolves to the older code; Lambda never reuses one."""
    original_publish = models.LambdaStorage.publish_version

    @functools.wraps(original_publish)
    def publish_version(self: Any, name_or_arn: str, description: str = "") -> Any:
        with _lock:
            function = self.get_function_by_name_or_arn_forbid_qualifier(name_or_arn)
            entry = self._functions.get(function.function_name) if function is not None else None
            if entry is None:
                return original_publish(self, name_or_arn, description)
            versions = entry["versions"]
            count = len(versions)
            highest = max([int(v.version) for v in versions] + [getattr(entry["latest"], "toolgen_published", 0)])
            published = original_publish(self, name_or_arn, description)
            if published is None or len(versions) == count:  # nothing changed: nothing was published
                return published
            number = highest + 1
            if int(published.version) != number:
                taken = published.function_arn  # the ARN of the version whose number it took
                published.set_version(number)
                self._arns[published.function_arn] = published
                owner = [v for v in versions[:-1] if v.function_arn == taken]
                if owner:
                    self._arns[taken] = owner[-1]
                else:
                    self._arns.pop(taken, None)
            entry["latest"].toolgen_published = number
            return published

    setattr(models.LambdaStorage, "publish_version", publish_version)  # noqa: B010


def _patch_logging(models: Any) -> None:
    """moto drops a function's LoggingConfig; Lambda keeps it (the deployer compares it, as every setting it sets)."""
    function_class = models.LambdaFunction
    original_init = function_class.__init__
    original_configuration = function_class.get_configuration
    original_update = function_class.update_configuration

    @functools.wraps(original_init)
    def init(self: Any, account_id: str, spec: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        original_init(self, account_id, spec, *args, **kwargs)
        self.toolgen_logging = _logging(self.function_name, spec.get("LoggingConfig"))

    @functools.wraps(original_configuration)
    def get_configuration(self: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        config = original_configuration(self, *args, **kwargs)
        logging = getattr(self, "toolgen_logging", None) or _logging(self.function_name, None)
        return {**config, "LoggingConfig": dict(logging)}

    @functools.wraps(original_update)
    def update_configuration(self: Any, config_updates: dict[str, Any]) -> dict[str, Any]:
        if "LoggingConfig" in config_updates:
            self.toolgen_logging = _logging(self.function_name, config_updates["LoggingConfig"])
        return original_update(self, config_updates)

    setattr(function_class, "__init__", init)  # noqa: B010
    setattr(function_class, "get_configuration", get_configuration)  # noqa: B010
    setattr(function_class, "update_configuration", update_configuration)  # noqa: B010


def _session_policies(handler: Any) -> tuple[Any, list[list[Any]]] | None:
    """(session, policy sets that must each allow) of the role session making this call; None for any other
    credentials (the emulator's own: its operator)."""
    from moto.iam.models import iam_backends
    from moto.sts.models import sts_backends
    from moto.utilities.utils import get_partition

    partition = get_partition(handler.region)
    session = sts_backends[handler.current_account][partition].get_assumed_role_from_access_key(
        handler.get_access_key()
    )
    if session is None:
        return None
    try:
        role = iam_backends[session.account_id][partition].get_role_by_arn(session.role_arn)
    except Exception:  # noqa: BLE001 - moto's not-found: a session of a role since deleted holds nothing
        return session, [[]]
    identity: list[Any] = list(role.policies.values())
    for managed in role.managed_policies.values():
        identity += [v.document for v in managed.versions if v.is_default]
    sets = [identity]
    if session.policy:  # a session policy narrows the role's: both must allow
        sets.append([session.policy])
    return session, sets


def _denied(handler: Any) -> tuple[int, dict[str, str], str] | None:
    """DynamoDB's answer when IAM would refuse this call, else None."""
    import json

    from moto.dynamodb.models import dynamodb_backends

    from toolgen.local import iam

    found = _session_policies(handler)
    if found is None:
        return None
    session, policy_sets = found
    backend = dynamodb_backends[handler.current_account][handler.region]
    partition = session.partition

    def table_arn(name: str) -> str:
        if name.startswith("arn:"):
            return name
        return f"arn:{partition}:dynamodb:{handler.region}:{handler.current_account}:table/{name}"

    def hash_key(name: str) -> str:
        try:
            return str(backend.get_table(name).hash_key_attr)
        except Exception:  # noqa: BLE001 - no such table: nothing to read keys by (AWS checks access first)
            return ""

    try:
        body = json.loads(handler.body or "{}")
    except ValueError:
        return None  # moto answers a malformed body itself
    caller = {
        "aws:userid": [session.user_id],
        "aws:PrincipalArn": [session.role_arn],
        "aws:PrincipalAccount": [session.account_id],
    }
    action = handler._get_action()
    for request in iam.dynamodb_requests(action, body, table_arn, hash_key):
        request.context.update(caller)
        if not all(iam.allowed(policies, request) for policies in policy_sets):
            message = (
                f"User: {session.arn} is not authorized to perform: {request.action} on resource: "
                f"{request.resource} because no identity-based policy allows the {request.action} action"
            )
            error = {"__type": "com.amazon.coral.service#AccessDeniedException", "Message": message}
            return 400, {"Content-Type": "application/x-amz-json-1.0"}, json.dumps(error)
    return None


def _patch_dynamodb_authorization() -> None:
    from moto.dynamodb.responses import DynamoHandler

    original = DynamoHandler.call_action

    @functools.wraps(original)
    def call_action(self: Any) -> Any:
        return _denied(self) or original(self)

    setattr(DynamoHandler, "call_action", call_action)  # noqa: B010


def _typed(value: Any) -> Any:
    """An ExclusiveStartKey attribute ({"S": "..."}) as moto's DynamoType."""
    if not value:
        return None
    from moto.dynamodb.models.dynamo_type import DynamoType

    return DynamoType(value)


def _patch_dynamodb_query() -> None:
    """A Query of a base table reads its partition, not every item of the table (moto's Table.query scans and
    sorts ``all_items()``); a query of an index keeps moto's way."""
    from moto.dynamodb.models.table import Table

    partition = threading.local()
    original_query, original_all = Table.query, Table.all_items

    def all_items(self: Any) -> list[Any]:
        key = getattr(partition, "key", None)
        if key is None or not self.range_key_attr:
            return original_all(self)
        items = list(self.items.get(key, {}).values())
        start, forward = partition.start
        if start is not None and getattr(start, "type", None) == "S":  # a later page starts where the last ended
            edge = str(start.value)
            items = [i for i in items if (str(i.range_key.value) > edge) == forward and str(i.range_key.value) != edge]
        comparison, bounds = partition.range
        if not bounds or any(getattr(b, "type", None) != "S" for b in bounds):
            return items  # numbers and binaries compare as moto compares them
        if comparison == "BEGINS_WITH":  # the sort-key condition DynamoDB seeks to, not scans for
            return [i for i in items if str(i.range_key.value).startswith(str(bounds[0].value))]
        if comparison == "BETWEEN" and len(bounds) == 2:
            low, high = str(bounds[0].value), str(bounds[1].value)
            return [i for i in items if low <= str(i.range_key.value) <= high]
        return items

    def query(self: Any, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
        index_name = kwargs.get("index_name", args[6] if len(args) > 6 else None)
        if index_name or hash_key is None:
            return original_query(self, hash_key, *args, **kwargs)
        partition.key = hash_key
        partition.range = (args[0] if args else None, args[1] if len(args) > 1 else [])
        exclusive = args[3] if len(args) > 3 else None
        start = (exclusive or {}).get(self.range_key_attr) if self.range_key_attr else None
        partition.start = (_typed(start), bool(args[4]) if len(args) > 4 else True)
        try:
            return original_query(self, hash_key, *args, **kwargs)
        finally:
            partition.key = None

    setattr(Table, "all_items", all_items)  # noqa: B010
    setattr(Table, "query", query)  # noqa: B010
