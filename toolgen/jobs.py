"""Jobs: one item per tool request (``USER#u`` / ``JOB#id``), updated as each stage runs.

A running job beats: its worker touches ``updated_at`` every HEARTBEAT_S while it runs (a stage can take a
minute: a deploy waiting for Lambda). A running job silent for SILENT_S has lost its worker (killed, out of
memory, past its timeout): it is shown as ``retrying`` with the reason, since the queue delivers its message
again after the visibility timeout and the next worker finishes it (the tool id is the job's), and the doctor
names the function it left.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterator

from toolgen.errors import NotFoundError, ToolgenError
from toolgen.ids import JOB_ID_RE
from toolgen.models import Job
from toolgen.table import ItemTable, user_pk

logger = logging.getLogger(__name__)
HEARTBEAT_S = 15.0
SILENT_S = 60.0  # four beats missed: the worker is gone


def silent(job: Job, now: float | None = None) -> bool:
    """Whether a job says it is running but its worker has not been heard from for SILENT_S."""
    return job.status == "running" and (now if now is not None else time.time()) - job.updated_at > SILENT_S


def lost_worker(job: Job, now: float | None = None, *, lang: str = "en") -> str:
    """Why a silent job is retried, in the request's language."""
    quiet = int((now if now is not None else time.time()) - job.updated_at)
    if lang == "zh":
        return f"运行这个任务的 worker 已经 {quiet} 秒没有消息（进程可能已退出）；队列会重新投递，任务将自动重试"
    return (
        f"the worker running this job has not been heard from for {quiet} s (it stopped); the queue delivers the "
        "job again and it is retried by itself"
    )


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

    def beat(self, job: Job) -> None:
        """Say the job's worker is alive: ``updated_at`` only, so no beat ever undoes a save."""
        now = time.time()
        self.table.add(user_pk(job.user), f"JOB#{job.job_id}", {}, {"updated_at": now}, must_exist=True)
        job.updated_at = now

    @contextlib.contextmanager
    def heartbeat(self, job: Job, every: float | None = None) -> Iterator[None]:
        """Beat every HEARTBEAT_S while the block runs; the beats end with it (and with the process)."""
        stop = threading.Event()

        def run() -> None:
            while not stop.wait(HEARTBEAT_S if every is None else every):
                try:
                    self.beat(job)
                except ToolgenError as e:  # a missed beat is not the job's failure; the next one may land
                    logger.warning("job %s: heartbeat not written: %s", job.job_id, e.message)

        beating = threading.Thread(target=run, name=f"heartbeat-{job.job_id}", daemon=True)
        beating.start()
        try:
            yield
        finally:
            stop.set()
            beating.join()
