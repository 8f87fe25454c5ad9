"""The REST API's token authorizer: a bearer token in, an IAM policy naming its user out (toolgen/api/authorizer.py)."""

from toolgen.api.authorizer import authorize
from toolgen.auth import secret_from_environment

secret = secret_from_environment()


def handler(event, context):
    return authorize(event, secret())
