"""Jobs whose message kept failing wait in the dead-letter queue; `toolgen jobs redrive` sends them back to run."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.e2e.conftest import ROOT, aws_client, wait_for_job
from toolgen.ids import sortable_id
from toolgen.jobs import JobStore
from toolgen.models import Job, JobMessage
from toolgen.table import DynamoTable


def redrive(server, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "TABLE_NAME", "BUCKET_NAME", "JOBS_"))}
    env["TOOLGEN_HOME"] = str(server.home)
    return subprocess.run(
        [sys.executable, "-m", "toolgen.cli", "jobs", "redrive", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )


def test_a_dead_lettered_job_runs_to_the_end_once_redriven(server):
    # given a job whose message is in the dead-letter queue (it kept failing while, say, the table was down)
    sqs = aws_client(server, "sqs")
    queues = {url.rsplit("/", 1)[-1]: url for url in sqs.list_queues()["QueueUrls"]}
    jobs = JobStore(DynamoTable("toolgen", client=aws_client(server, "dynamodb")))
    job = jobs.create(Job(job_id=sortable_id("j"), user="dl-ann", prompt="a reading list"))
    message = JobMessage(job_id=job.job_id, user="dl-ann", prompt="a reading list")
    sqs.send_message(QueueUrl=queues["toolgen-jobs-dlq"], MessageBody=message.model_dump_json())

    # when the operator redrives
    done = redrive(server)

    # then it is moved, the worker takes it, and the job ends as any other
    assert done.returncode == 0, done.stderr
    assert "moved 1 job message" in done.stdout
    finished = wait_for_job(server, job.job_id, server.token("dl-ann"), timeout=60)
    assert finished["status"] == "succeeded", finished
    assert "moved 0" in redrive(server).stdout  # nothing left behind
