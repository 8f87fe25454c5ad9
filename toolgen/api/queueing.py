"""Sending a job to the workers, and where the caller finds it: shared by every route that starts one."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from toolgen.aws import translate
from toolgen.models import Accepted, Job, JobMessage
from toolgen.services import Services


def base_url(svc: Services, event: Any) -> str:
    """Where this API is reached: configured (embedded default), else read from the request (API Gateway)."""
    configured = svc.settings.public_base_url
    if configured:
        return configured
    ctx = event.request_context
    return f"https://{ctx.domain_name}/{ctx.stage}"


def queue(svc: Services, job: Job, event: Any) -> dict[str, Any]:
    """Send a job that still has work to the workers; the answer the caller gets."""
    if job.status == "queued":
        try:
            message = JobMessage(job_id=job.job_id, user=job.user, prompt=job.prompt)
            svc.sqs.send_message(QueueUrl=svc.settings.jobs_queue_url, MessageBody=message.model_dump_json())
        except ClientError as e:  # never leave a job that no worker will ever see
            job.status, job.error = "failed", "the job could not be queued; please try again"
            svc.jobs.save(job)
            raise translate(e, "sqs send_message") from e
    url = f"{base_url(svc, event)}/v1/jobs/{job.job_id}"
    return Accepted(job_id=job.job_id, status_url=url, status=job.status).model_dump(mode="json")
