"""The API's Services, built once per process; configuration errors surface on the first request, naming what
is missing."""

from __future__ import annotations

from functools import cache

from toolgen.config import Settings
from toolgen.services import Services


@cache
def services() -> Services:
    return Services.from_settings(Settings.from_env("table_name", "bucket_name", "jobs_queue_url", "secret"))
