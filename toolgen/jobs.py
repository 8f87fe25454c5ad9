"""Jobs: one item per tool request (``USER#u`` / ``JOB#id``), updated as each stage runs."""

from __future__ import annotations

import time

from toolgen.errors import NotFoundError
from toolgen.ids import JOB_ID_RE
from toolgen.models import Job
from toolgen.table import ItemTable, user_pk


class JobStore:
    def __init__(self, table: ItemTable) -> None:
        self.table = table

    def create(self, job: Job) -> Job:
        self.table.put(
            {"pk": user_pk(job.user), "sk": f"JOB#{job.job_id}", **job.model_dump(mode="json")}, if_absent=True
        )
        return job

    def get(self, user: str, job_id: str) -> Job:
        """The job, if it is this user's (another user's job is reported as missing)."""
        item = self.table.get(user_pk(user), f"JOB#{job_id}") if JOB_ID_RE.match(job_id) else None
        if item is None:
            raise NotFoundError(f"no job {job_id}")
        return Job.model_validate({k: v for k, v in item.items() if k not in ("pk", "sk")})

    def save(self, job: Job) -> None:
        """Write the job's progress (status, stages, result): the whole item, which only the job's own run writes
        after it is queued (a put costs a third of an update expression on moto's DynamoDB, and no more on AWS)."""
        job.updated_at = time.time()
        self.table.put({"pk": user_pk(job.user), "sk": f"JOB#{job.job_id}", **job.model_dump(mode="json")})
