"""The platform API's Lambda handler: API Gateway REST proxy events in, responses out."""

from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging import correlation_paths

from toolgen.api.app import handle

logger = Logger()


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
def handler(event, context):
    return handle(event, context)
