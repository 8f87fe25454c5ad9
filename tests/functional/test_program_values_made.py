"""A tool made with the values its request gave: its starting rows stored for the person, its settings read by
its figures, a list input sent in a body; and nothing of it left when the job fails after storing them."""

from __future__ import annotations

import dataclasses

import pytest

from tests.functional.test_pipeline import call_tool, run
from tests.functional.test_probe_honest import Fixed
from tests.unit.test_program_values import chores, rent_split
from toolgen.accounts import choose
from toolgen.config import Settings
from toolgen.ids import sortable_id
from toolgen.local.lambda_runtime import RuntimeInvoker
from toolgen.services import Services
from toolgen.table import rows_pk
from toolgen.ui.pages import PageStore


@pytest.fixture
def services(aws_env, runtime) -> Services:
    return Services.from_settings(
        Settings.from_env("table_name", "bucket_name", "tool_role_arn", "base_layer_arn", "secret"),
        invoker=RuntimeInvoker(runtime),
    )


def test_starting_rows_and_settings_are_the_persons_from_the_first_call(services, runtime):
    user = f"u{sortable_id('x')}"
    job = run(dataclasses.replace(services, planner=Fixed(chores())), "chores for Anna and Ben", user=user)
    assert job.status == "succeeded", job.error
    function = services.tools.get(user, job.tool_id).function_name
    status, page = call_tool(runtime, function, "GET", "/chores", user=user)
    assert status == 200 and sorted(r["task"] for r in page["items"]) == ["dishes", "vacuum"]
    assert {r["every_days"] for r in page["items"]} == {1, 7}  # the default filled in, as a create would
    assert call_tool(runtime, function, "GET", "/stats", user=user)[1]["metrics"] == {"chores": 2, "each": 1.0}
    assert call_tool(runtime, function, "GET", "/", user=user)[1]["settings"]["people"]["value"] == ["Anna", "Ben"]


def test_a_list_input_is_sent_in_a_body_and_probed_with_its_default(services, runtime):
    user = f"u{sortable_id('x')}"
    job = run(dataclasses.replace(services, planner=Fixed(rent_split())), "split the rent by room size", user=user)
    assert job.status == "succeeded", job.error
    function = services.tools.get(user, job.tool_id).function_name
    status, answer = call_tool(runtime, function, "POST", "/split", user=user, body={"areas": [20, 20, 25]})
    assert status == 200 and answer == {"shares": [2000.0, 2000.0, 2500.0], "people": 3}


def test_a_job_that_fails_after_storing_starting_rows_takes_them_back(services):
    user = f"u{sortable_id('x')}"
    failing = dataclasses.replace(services, planner=Fixed(chores()), pages=PageStore("no-such-bucket"))
    job = run(failing, "chores for Anna and Ben", user=user)
    assert job.status == "failed" and job.stage("render").status == "failed"
    # then the rows stored at its deploy stage went with the function
    settings = services.settings
    account = choose(job.tool_id, settings.tool_accounts, settings.platform_account_id)
    home = services.tool_home(account, settings.tool_function_prefix + job.tool_id)
    assert services.table.query(rows_pk(home, user)) == []
