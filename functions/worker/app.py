"""The worker's Lambda handler: jobs from SQS, each run through the pipeline; failures reported per message."""

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response

from toolgen.worker import record_handler

logger = Logger()
# A batch whose every record failed is reported like any other (not raised), so the invocation itself succeeds.
processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


@logger.inject_lambda_context
def handler(event, context):
    return process_partial_response(event=event, record_handler=record_handler, processor=processor, context=context)
