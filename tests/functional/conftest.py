"""The functional tier: moto's real server on loopback as AWS, the platform's resources provisioned in it once."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from toolgen import aws
from toolgen.local.emulator import Emulator, MotoFunctionSource
from toolgen.local.lambda_runtime import LocalLambdaRuntime
from toolgen.local.platform import Resources, provision

SECRET = "functional-secret"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def emulator() -> Iterator[Emulator]:
    # An account whose quota was raised far past the default: this session deploys hundreds of tools that keep
    # their reservations; the headroom tests lower it around themselves (tests/functional/test_headroom.py).
    emulator = Emulator(account_concurrency=100_000)
    emulator.start()
    yield emulator
    emulator.stop()


@pytest.fixture(scope="session")
def resources(emulator: Emulator) -> Resources:
    return provision(emulator, public_url="http://127.0.0.1:9", secret=SECRET, extra_env={})


@pytest.fixture
def aws_env(monkeypatch: pytest.MonkeyPatch, emulator: Emulator, resources: Resources) -> Iterator[Resources]:
    """This process configured like a platform function: the emulator as AWS, the platform's resources named."""
    for name, value in emulator.environment().items():
        monkeypatch.setenv(name, value)
    settings = {
        "TABLE_NAME": resources.table,
        "BUCKET_NAME": resources.bucket,
        "JOBS_QUEUE_URL": resources.queue_url,
        "TOOL_ROLE_ARN": resources.tool_role_arn,
        "BASE_LAYER_ARN": resources.layer_arn,
        "TOOLGEN_SECRET": SECRET,
    }
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    aws.reset_clients()
    yield resources
    aws.reset_clients()


@pytest.fixture
def runtime(emulator: Emulator, tmp_path: Path) -> Iterator[LocalLambdaRuntime]:
    env = {"PATH": os.environ["PATH"], **emulator.environment(), "POWERTOOLS_LOG_LEVEL": "WARNING"}
    runtime = LocalLambdaRuntime(MotoFunctionSource(), tmp_path / "runtime", env)
    yield runtime
    runtime.shutdown()


def load_handler(name: str) -> ModuleType:
    """functions/<name>/app.py as a fresh module (each handler folder has its own app.py)."""
    spec = importlib.util.spec_from_file_location(f"handler_{name}", ROOT / "functions" / name / "app.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
