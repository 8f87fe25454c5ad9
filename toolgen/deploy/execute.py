"""Executing deploy plans: make the calls in order, wait where the plan says, undo everything on failure.

A failure half-way leaves nothing behind: the undo calls of the steps that ran are made in reverse order, and
the error the person sees says which step failed.
"""

from __future__ import annotations

import logging
from typing import Any

from botocore.exceptions import ClientError, WaiterError

from toolgen import aws
from toolgen.deploy.plan import ApiCall, FunctionSpec, RemoteFunction, Step, Wait, plan_tool_delete, plan_tool_deploy
from toolgen.errors import DeployError

logger = logging.getLogger(__name__)
WAITER_CONFIG = {"Delay": 1, "MaxAttempts": 60}


class Deployer:
    """Runs deploy plans against Lambda (clients injectable for tests)."""

    def __init__(self, clients: dict[str, Any] | None = None) -> None:
        self._clients = clients or {}

    def client(self, service: str) -> Any:
        if service not in self._clients:
            self._clients[service] = aws.client(service)
        return self._clients[service]

    def remote_state(self, function_name: str) -> RemoteFunction | None:
        """What exists under ``function_name`` now (None if nothing)."""
        lam = self.client("lambda")
        try:
            config = lam.get_function_configuration(FunctionName=function_name)
        except ClientError as e:
            if aws.error_code(e) == "ResourceNotFoundException":
                return None
            raise aws.translate(e, "lambda get_function_configuration") from e
        try:
            lam.get_function_url_config(FunctionName=function_name)
            has_url = True
        except ClientError as e:
            if aws.error_code(e) != "ResourceNotFoundException":
                raise aws.translate(e, "lambda get_function_url_config") from e
            has_url = False
        return RemoteFunction(code_sha256=config["CodeSha256"], has_url=has_url)

    def exists(self, function_name: str) -> bool:
        """Whether a function of this name exists (one call)."""
        try:
            self.client("lambda").get_function_configuration(FunctionName=function_name)
        except ClientError as e:
            if aws.error_code(e) == "ResourceNotFoundException":
                return False
            raise aws.translate(e, "lambda get_function_configuration") from e
        return True

    def deploy(self, spec: FunctionSpec) -> str:
        """Make the tool's function match ``spec``; its function URL."""
        outputs = self.execute(plan_tool_deploy(spec, self.remote_state(spec.function_name)))
        return str(outputs["FunctionUrl"])

    def delete(self, function_name: str) -> bool:
        """Delete the function and all that hangs off it; False if it did not exist."""
        try:
            self.execute(plan_tool_delete(function_name))
        except DeployError as e:
            if e.aws_code == "ResourceNotFoundException":
                return False
            raise
        return True

    def execute(self, plan: list[Step]) -> dict[str, Any]:
        """Run ``plan``; the outputs its calls named. DeployError (after rollback) when a step fails."""
        done: list[ApiCall] = []
        outputs: dict[str, Any] = {}
        for step in plan:
            try:
                if isinstance(step, Wait):
                    waiter = self.client("lambda").get_waiter(step.waiter)
                    waiter.wait(FunctionName=step.function_name, WaiterConfig=WAITER_CONFIG)
                    continue
                result = getattr(self.client(step.service), step.method)(**step.params)
            except (ClientError, WaiterError) as e:
                code = aws.error_code(e)
                self._rollback(done)
                what = step.waiter if isinstance(step, Wait) else f"{step.service} {step.method}"
                raise DeployError(f"deploy step {what} failed: {e}", aws_code=code) from e
            done.append(step)
            if step.output:
                outputs[step.output] = result[step.output]
        return outputs

    def _rollback(self, done: list[ApiCall]) -> None:
        for step in reversed(done):
            if step.undo is None:
                continue
            try:
                getattr(self.client(step.undo.service), step.undo.method)(**step.undo.params)
            except ClientError as e:
                # The first undo that matters (delete_function) takes the rest with it; log, don't mask the cause.
                logger.warning("rollback step %s failed: %s", step.undo.method, e)
