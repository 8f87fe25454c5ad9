"""Shared across tiers: every test runs with its own state directory and no AWS settings from the machine."""

from __future__ import annotations

import pytest

AWS_VARS = ("AWS_ENDPOINT_URL", "AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    monkeypatch.setenv("TOOLGEN_HOME", str(tmp_path_factory.mktemp("home")))
    for name in ("TOOLGEN_SECRET", "TOOLGEN_TOKEN", "TOOLGEN_URL", "TOOLGEN_USER"):
        monkeypatch.delenv(name, raising=False)
