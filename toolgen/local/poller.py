"""The SQS event source mapping of the embedded default: jobs queue -> worker function, with partial failures.

As Lambda's mapping does: messages are received in batches, the worker gets an SQS event, the messages it did
not report in ``batchItemFailures`` are deleted, and the rest become visible again after the visibility timeout,
until the queue's redrive policy moves them to the DLQ.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from toolgen.events import sqs_event
from toolgen.local.lambda_runtime import LocalLambdaRuntime

logger = logging.getLogger(__name__)


class QueuePoller:
    def __init__(
        self,
        sqs: Any,
        runtime: LocalLambdaRuntime,
        *,
        queue_url: str,
        queue_arn: str,
        function: str,
        region: str,
        batch_size: int = 1,
        threads: int = 4,
    ) -> None:
        self.sqs = sqs
        self.runtime = runtime
        self.queue_url = queue_url
        self.queue_arn = queue_arn
        self.function = function
        self.region = region
        self.batch_size = batch_size
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._loop, name=f"poller-{i}", daemon=True) for i in range(threads)]

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def signal(self) -> None:
        """Receive nothing more (calls in flight go on until they end or the runtime stops them)."""
        self._stop.set()

    def stop(self) -> None:
        self.signal()
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout=5)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.poll_once(wait_s=1)
            except (ClientError, BotoCoreError):
                if not self._stop.is_set():
                    logger.exception("polling %s failed", self.queue_url)
                self._stop.wait(1)

    def poll_once(self, wait_s: int = 0) -> int:
        """Receive one batch and hand it to the function; how many messages were received."""
        received = self.sqs.receive_message(
            QueueUrl=self.queue_url,
            MaxNumberOfMessages=self.batch_size,
            WaitTimeSeconds=wait_s,
            AttributeNames=["All"],
            MessageAttributeNames=["All"],
        ).get("Messages", [])
        if not received:
            return 0
        result = self.runtime.invoke(self.function, sqs_event(received, self.queue_arn, self.region))
        if result.status != "ok":
            logger.warning("%s failed on a batch (%s): %s", self.function, result.status, result.payload)
            return len(received)  # nothing deleted: every message comes back after the visibility timeout
        failed = {f.get("itemIdentifier") for f in (result.payload or {}).get("batchItemFailures", [])}
        done = [m for m in received if m["MessageId"] not in failed]
        if done:
            entries = [{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(done)]
            self.sqs.delete_message_batch(QueueUrl=self.queue_url, Entries=entries)
        return len(received)
