"""A request followed from pipeline.understand, as the API and the worker meet it (moto's server as AWS): the
rules, the named kind's slots, the details, memory's fact reader and recall all ask for its spans, and each reader
reads each text once."""

from __future__ import annotations

import pytest

from tests.unit.test_one_reading import REQUESTS, counting
from toolgen.config import Settings
from toolgen.ids import sortable_id
from toolgen.local.lambda_runtime import RuntimeInvoker
from toolgen.pipeline import understand
from toolgen.reading import forget
from toolgen.services import Services


@pytest.fixture
def services(aws_env, runtime) -> Services:
    return Services.from_settings(
        Settings.from_env("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret"),
        invoker=RuntimeInvoker(runtime),
    )


def test_each_reader_reads_a_request_once_from_understand(services: Services):
    user = f"u-{sortable_id('r')}"
    forget()
    with counting() as entered:
        for text in REQUESTS:
            first = understand(services, user, text, sortable_id("j"))
            again = understand(services, user, text, sortable_id("j"), learn=False)  # the job, after the API
            assert first.intent.archetype == again.intent.archetype is not None
    twice = {key: n for key, n in entered.items() if n > 1}
    assert twice == {}
    whole = {name for name, text in entered if text in REQUESTS}
    assert len(whole) >= 30  # the request's places, list, date, subject, fields... each read, once
