"""The API's collaborators, built once per process from the environment (and replaceable in tests)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from toolgen import aws
from toolgen.config import Settings
from toolgen.deploy import Deployer
from toolgen.jobs import JobStore
from toolgen.memory import DynamoMemoryStore, MemoryStore
from toolgen.table import DynamoTable, ItemTable
from toolgen.tools import ToolStore
from toolgen.ui.pages import PageStore


@dataclass
class ApiServices:
    settings: Settings
    table: ItemTable
    jobs: JobStore
    tools: ToolStore
    memories: MemoryStore
    pages: PageStore
    deployer: Deployer
    sqs: Any


@cache
def services() -> ApiServices:
    """The process's services; configuration errors surface on the first request, naming what is missing."""
    settings = Settings.from_env("table_name", "bucket_name", "jobs_queue_url", "secret")
    table = DynamoTable(settings.table_name)
    return ApiServices(
        settings=settings,
        table=table,
        jobs=JobStore(table),
        tools=ToolStore(table),
        memories=DynamoMemoryStore(table),
        pages=PageStore(settings.bucket_name),
        deployer=Deployer(),
        sqs=aws.client("sqs"),
    )
