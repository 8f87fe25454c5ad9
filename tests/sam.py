"""The SAM CLI `make test` installs (in .venv-sam, its pins apart from the platform's), for `sam validate --lint`."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def sam_cli() -> str:
    """The SAM CLI `make test` installs (.venv-sam), or one named by SAM_CLI."""
    found = os.environ.get("SAM_CLI") or str(ROOT / ".venv-sam" / "bin" / "sam")
    if not Path(found).exists():
        pytest.skip("the SAM CLI is not installed: `make test` (or `make sam`) installs it")
    return found


def sam_validate(template: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "SAM_CLI_TELEMETRY": "0", "AWS_DEFAULT_REGION": "us-east-1"}
    return subprocess.run(
        [sam_cli(), "validate", "--lint", "-t", str(template)],
        capture_output=True,
        text=True,
        env=env,
        cwd=template.parent,
    )
