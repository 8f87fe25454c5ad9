"""Executing deploy plans: make the calls in order, wait where the plan says, undo everything on failure.

- Transient errors and throttling (Lambda's TooManyRequestsException among them) are retried by botocore's
  standard retry mode (toolgen/aws.py), not here.
- A conflict (ResourceConflictException: another deploy of the same tool is creating or updating it;
  PreconditionFailedException: its code changed under us) means the state the plan was made from is gone: the
  deployer reads the state again and plans again, with jittered backoff, keeping what it already did (it is
  part of the same end state). So two deploys of one tool at once both end with the tool live, on one version.
  A delete meeting a conflict is tried again the same way.
- Any other failure rolls back every step the deploy made, in reverse order, and the error the person sees
  says which step failed. Nothing is left half-made.
- A tool's limit of calls at once is reserved concurrency while the account has room for it: GetAccountSettings
  says the quota and what is unreserved, and tools may reserve up to ``reserve_percent`` of the quota, never
  leaving less than the 100 AWS keeps unreserved. Past that, or when a reservation is refused all the same
  (another deploy took the room meanwhile), the tool is deployed without one and keeps its limit itself with
  table leases (toolgen/runtime/lease.py). A refused reservation is never a failed tool.
"""

from __future__ import annotations

import json
import logging
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from botocore.exceptions import WaiterError

from toolgen import aws
from toolgen.deploy.plan import (
    TOOL_ALIAS,
    URL_STATEMENTS,
    ApiCall,
    DeleteVersionIfUnaliased,
    FunctionSpec,
    Output,
    RemoteFunction,
    Step,
    Undo,
    Wait,
    plan_tool_delete,
    plan_tool_deploy,
)
from toolgen.errors import DeployError
from toolgen.runtime.lease import HOLD_ENV, LIMIT_ENV

logger = logging.getLogger(__name__)
WAITER_CONFIG = {"Delay": 1, "MaxAttempts": 60}
CONFLICTS = ("ResourceConflictException", "PreconditionFailedException")
NOT_FOUND = "ResourceNotFoundException"
MISSING = (NOT_FOUND, "ProvisionedConcurrencyConfigNotFoundException")
UNRESERVED_MINIMUM = 100  # of an account's quota, never reservable (Lambda's rule)
RESERVE_PERCENT = 50  # of the quota tools may reserve, by default
LEASE_MARGIN_S = 2  # a slot held by a call that died frees itself this long after the function's timeout
EnforcedBy = Literal["reserved_concurrency", "lease"]
OUT_OF_TIME = "WorkerOutOfTime"  # a deploy stopped (and rolled back) rather than outlive the worker


@dataclass(frozen=True)
class Deployed:
    """A tool made live: where it answers, and how its limit of calls at once is kept."""

    url: str
    enforced_by: EnforcedBy
    concurrency: int


def leased(spec: FunctionSpec) -> FunctionSpec:
    """``spec`` without reserved concurrency: the tool holds its limit with table leases (its environment says)."""
    env = {**spec.environment, LIMIT_ENV: str(spec.concurrency), HOLD_ENV: str(spec.timeout_s + LEASE_MARGIN_S)}
    return replace(spec, reserve=False, environment=env)


class _Conflict(Exception):
    """A step met a conflict: plan again from what is there now."""

    def __init__(self, what: str, cause: BaseException) -> None:
        super().__init__(f"{what}: {cause}")
        self.what = what


class _NoRoom(_Conflict):
    """Lambda refused the reservation (the account's room went to another function): plan again with leases."""


def _resolve(value: Any, outputs: dict[str, Any]) -> Any:
    if isinstance(value, Output):
        return outputs[value.name]
    if isinstance(value, dict):
        return {k: _resolve(v, outputs) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, outputs) for v in value]
    return value


def _bound(undo: Undo, outputs: dict[str, Any]) -> Undo:
    """The undo with the outputs known when its step ran (a later re-plan's outputs must not change it)."""
    if isinstance(undo, DeleteVersionIfUnaliased):
        return DeleteVersionIfUnaliased(undo.function_name, _resolve(undo.version, outputs))
    return ApiCall(undo.service, undo.method, _resolve(undo.params, outputs))


class Deployer:
    """Runs deploy plans against Lambda (clients and ``sleep`` injectable for tests)."""

    def __init__(
        self,
        clients: dict[str, Any] | None = None,
        *,
        attempts: int = 6,
        sleep: Callable[[float], None] = time.sleep,
        waiter_config: dict[str, int] | None = None,
        reserve_percent: int = RESERVE_PERCENT,
    ) -> None:
        self._clients = clients or {}
        self.reserve_percent = reserve_percent
        self.attempts = attempts
        self._sleep = sleep
        self.waiter_config = waiter_config or WAITER_CONFIG

    def client(self, service: str) -> Any:
        if service not in self._clients:
            self._clients[service] = aws.client(service)
        return self._clients[service]

    # --- reading ----------------------------------------------------------------------------------------------

    def _read(self, method: str, missing: Any = None, **params: Any) -> Any:
        """One read; ``missing`` when the resource is not there."""
        try:
            return getattr(self.client("lambda"), method)(**params)
        except Exception as e:
            if aws.error_code(e) in MISSING:
                return missing
            if aws.is_aws_error(e):
                raise aws.translate(e, f"lambda {method}") from e
            raise

    def remote_state(self, function_name: str, *, provisioned: bool = False) -> RemoteFunction | None:
        """What exists under ``function_name`` now (None if nothing). ``provisioned``: read that setting too."""
        found = self._read("get_function", FunctionName=function_name)
        if found is None:
            return None
        config = found["Configuration"]
        qualified = {"FunctionName": function_name, "Qualifier": TOOL_ALIAS}
        alias = self._read("get_alias", FunctionName=function_name, Name=TOOL_ALIAS)
        url = self._read("get_function_url_config", **qualified) if alias else None
        policy = self._read("get_policy", **qualified) if alias else None
        statements = {s.get("Sid", "") for s in json.loads((policy or {}).get("Policy") or "{}").get("Statement", [])}
        versions = self._versions(function_name)
        if versions is None:  # deleted while being read: nothing is there
            return None
        pc = self._read("get_provisioned_concurrency_config", **qualified) if provisioned and alias else None
        return RemoteFunction(
            code_sha256=config["CodeSha256"],
            arn=config["FunctionArn"],
            configuration={
                "Role": config.get("Role"),
                "Handler": config.get("Handler"),
                "Runtime": config.get("Runtime"),
                "Timeout": config.get("Timeout"),
                "MemorySize": config.get("MemorySize"),
                "Layers": [layer["Arn"] for layer in config.get("Layers") or []],
                "Environment": {"Variables": dict((config.get("Environment") or {}).get("Variables") or {})},
                "Description": config.get("Description") or "",
                "SnapStart": {"ApplyOn": (config.get("SnapStart") or {}).get("ApplyOn", "None")},
                **({"LoggingConfig": _logging(config)} if config.get("LoggingConfig") else {}),
            },
            tags=dict(found.get("Tags") or {}),
            concurrency=(found.get("Concurrency") or {}).get("ReservedConcurrentExecutions"),
            live_version=alias["FunctionVersion"] if alias else None,
            versions=tuple(sorted(versions, key=lambda v: int(v) if v.isdigit() else 0)),
            url_cors=(url.get("Cors") or {}) if url else None,
            statements=frozenset(statements & set(URL_STATEMENTS)),
            provisioned=int((pc or {}).get("RequestedProvisionedConcurrentExecutions") or 0),
        )

    def _versions(self, function_name: str) -> list[str] | None:
        """The function's published versions (None if it is gone)."""
        versions: list[str] = []
        try:
            pages = (
                self.client("lambda").get_paginator("list_versions_by_function").paginate(FunctionName=function_name)
            )
            for page in pages:
                versions += [v["Version"] for v in page["Versions"] if v["Version"] != "$LATEST"]
        except Exception as e:
            if aws.error_code(e) == NOT_FOUND:
                return None
            if aws.is_aws_error(e):
                raise aws.translate(e, "lambda list_versions_by_function") from e
            raise
        return versions

    def exists(self, function_name: str) -> bool:
        """Whether a function of this name exists: one GetFunction, which is outside Lambda's control-plane rate of
        15 calls a second (a repeat request's check must not take deploys' room)."""
        return self._read("get_function", FunctionName=function_name) is not None

    # --- changing ---------------------------------------------------------------------------------------------

    def deploy(self, spec: FunctionSpec, *, deadline: float | None = None) -> Deployed:
        """Make the tool's function match ``spec`` and put it live: where it answers, how its limit is kept.

        ``deadline`` (time.monotonic()): no wait goes past it; a deploy that would is rolled back and fails with
        aws_code ``WorkerOutOfTime`` (the job is tried again later)."""
        done: list[Undo] = []
        chosen = spec

        def attempt() -> dict[str, Any]:
            nonlocal chosen
            remote = self.remote_state(spec.function_name, provisioned=spec.provisioned > 0)
            if chosen.reserve and not self.has_room(spec, remote):
                chosen = leased(spec)
            try:
                return self._run(plan_tool_deploy(chosen, remote), done, deadline)
            except _NoRoom:
                logger.info("%s: reservation refused, keeping its limit with leases", spec.function_name)
                chosen = leased(spec)
                raise

        try:
            outputs = self._replanning(attempt, spec.function_name)
        except Exception:
            self._rollback(done)  # every attempt's steps: nothing half-made is left
            raise
        enforced_by: EnforcedBy = "reserved_concurrency" if chosen.reserve else "lease"
        return Deployed(str(outputs["FunctionUrl"]), enforced_by, spec.concurrency)

    def has_room(self, spec: FunctionSpec, remote: RemoteFunction | None) -> bool:
        """Whether reserving the tool's concurrency keeps the account within the policy (what it already holds
        counts as its own). Unknown (the settings cannot be read): try, and let Lambda say."""
        if not spec.reserve or self.reserve_percent <= 0:
            return False
        held = remote.concurrency if remote is not None and remote.concurrency is not None else 0
        if held == spec.concurrency:
            return True
        try:
            limits = self.client("lambda").get_account_settings()["AccountLimit"]
        except Exception as e:
            if not aws.is_aws_error(e):
                raise
            logger.warning("cannot read the account's concurrency (%s); trying to reserve", aws.error_code(e))
            return True
        quota, unreserved = int(limits["ConcurrentExecutions"]), int(limits["UnreservedConcurrentExecutions"])
        keep = max(UNRESERVED_MINIMUM, math.ceil(quota * (100 - min(self.reserve_percent, 100)) / 100))
        return unreserved + held - spec.concurrency >= keep

    def delete(self, function_name: str) -> bool:
        """Delete the function and all that hangs off it; False if it did not exist."""
        try:
            self._replanning(lambda: self._run(plan_tool_delete(function_name), []), function_name)
        except DeployError as e:
            if e.aws_code == NOT_FOUND:
                return False
            raise
        return True

    def _replanning(self, attempt: Callable[[], dict[str, Any]], function_name: str) -> dict[str, Any]:
        """``attempt()`` again, after jittered backoff, while it meets a conflict; DeployError when they persist."""
        for number in range(1, self.attempts + 1):
            try:
                return attempt()
            except _Conflict as e:
                if number == self.attempts:
                    raise DeployError(
                        f"deploy step {e.what} kept conflicting with another change to {function_name}",
                        aws_code="ResourceConflictException",
                    ) from e
                logger.info("%s: conflict at %s (attempt %d), planning again", function_name, e.what, number)
                self._sleep(self._backoff(number))
        raise AssertionError("unreachable")

    @staticmethod
    def _backoff(attempt: int) -> float:
        return random.uniform(0, min(4.0, 0.2 * 2**attempt))  # noqa: S311 - jitter, not a secret

    def _run(self, plan: list[Step], done: list[Undo], deadline: float | None = None) -> dict[str, Any]:
        outputs: dict[str, Any] = {}
        for step in plan:
            what = step.waiter if isinstance(step, Wait) else f"{step.service} {step.method}"
            try:
                if isinstance(step, Wait):
                    self._wait(step, outputs, deadline)
                    continue
                result = getattr(self.client(step.service), step.method)(**_resolve(step.params, outputs))
            except Exception as e:
                if not (aws.is_aws_error(e) or isinstance(e, WaiterError)):
                    raise
                code = aws.error_code(e) or _waiter_code(e)
                if isinstance(step, ApiCall) and step.best_effort:
                    logger.warning("tidying step %s failed (left for the next deploy): %s", what, e)
                    continue
                if code in CONFLICTS:
                    raise _Conflict(what, e) from e
                if isinstance(step, ApiCall) and step.method == "put_function_concurrency" and _no_room(e):
                    raise _NoRoom(what, e) from e
                raise DeployError(f"deploy step {what} failed: {e}{_why(step, code)}", aws_code=code) from e
            if step.output:
                outputs[step.output] = result[step.output]
            if step.undo is not None:
                done.append(_bound(step.undo, outputs))
        return outputs

    def _wait(self, step: Wait, outputs: dict[str, Any], deadline: float | None = None) -> None:
        config = dict(self.waiter_config)
        if deadline is not None:  # as many polls as the time left allows, and none once it is gone
            polls = int((deadline - time.monotonic()) // max(config["Delay"], 1))
            if polls < 1:
                raise DeployError(f"no time left to wait for {step.waiter}", aws_code=OUT_OF_TIME)
            config["MaxAttempts"] = min(config["MaxAttempts"], polls)
        params: dict[str, Any] = {"FunctionName": step.function_name, "WaiterConfig": config}
        if step.qualifier is not None:
            params["Qualifier"] = _resolve(step.qualifier, outputs)
        try:
            self.client("lambda").get_waiter(step.waiter).wait(**params)
        except WaiterError as e:
            if deadline is not None and time.monotonic() >= deadline - max(config["Delay"], 1):
                raise DeployError(f"ran out of time waiting for {step.waiter}", aws_code=OUT_OF_TIME) from e
            raise

    def _rollback(self, done: list[Undo]) -> None:
        for undo in reversed(done):
            try:
                if isinstance(undo, DeleteVersionIfUnaliased):
                    self._delete_version_if_unaliased(undo)
                else:
                    getattr(self.client(undo.service), undo.method)(**undo.params)
            except Exception as e:
                if not aws.is_aws_error(e):
                    raise
                # The first undo that matters (delete_function) takes the rest with it; log, don't mask the cause.
                logger.warning("rollback step %s failed: %s", getattr(undo, "method", "delete_version"), e)
        done.clear()

    def _delete_version_if_unaliased(self, undo: DeleteVersionIfUnaliased) -> None:
        lam = self.client("lambda")
        aliases = lam.list_aliases(FunctionName=undo.function_name).get("Aliases", [])
        if any(a.get("FunctionVersion") == undo.version for a in aliases):
            return
        lam.delete_function(FunctionName=undo.function_name, Qualifier=undo.version)


def _logging(config: dict[str, Any]) -> dict[str, str]:
    """A function's LoggingConfig as a FunctionSpec gives it (the settings it does not set left out)."""
    found = config.get("LoggingConfig") or {}
    return {key: found[key] for key in ("LogFormat", "LogGroup") if key in found}


def _why(step: Step, code: str) -> str:
    """What an operator should know about a refusal the error alone does not explain."""
    url_steps = ("create_function_url_config", "add_permission")
    if code == "AccessDeniedException" and isinstance(step, ApiCall) and step.method in url_steps:
        return (
            " (a tool needs a public function URL, AuthType NONE, and checks its bearer token itself; an "
            "organisation policy (SCP) that forbids public function URLs refuses every tool)"
        )
    return ""


def _no_room(error: BaseException) -> bool:
    """Lambda's refusal of a reservation the account has no room for."""
    return aws.error_code(error) == "InvalidParameterValueException" and "UnreservedConcurrentExecution" in str(error)


def _waiter_code(error: BaseException) -> str:
    """The error code a waiter gave up on (the function failed to become ready), else ''."""
    last = getattr(error, "last_response", None) or {}
    return str((last.get("Error") or {}).get("Code", "")) if isinstance(last, dict) else ""
