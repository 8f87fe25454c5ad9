"""The worker's record handler: one SQS message is one job, run to its end by the pipeline.

A job that fails ends ``failed`` on its record and its message is done; only a failure to record the job at all
(the table unreachable, say) raises, so the message is retried and, after the queue's maxReceiveCount, moved
to the DLQ.
"""

from __future__ import annotations

import time
from functools import cache
from typing import Any

from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from toolgen.config import Settings
from toolgen.models import JobMessage
from toolgen.pipeline import process
from toolgen.services import Services


@cache
def services() -> Services:
    return Services.from_settings(
        Settings.from_env("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret")
    )


def record_handler(record: SQSRecord, lambda_context: Any = None) -> str:
    """One job (Powertools passes the Lambda context: the job keeps within the invocation's time)."""
    deadline = None
    remaining = getattr(lambda_context, "get_remaining_time_in_millis", None)
    if remaining is not None:
        deadline = time.monotonic() + remaining() / 1000
    job = process(JobMessage.model_validate_json(record.body), services(), deadline=deadline)
    return job.status
