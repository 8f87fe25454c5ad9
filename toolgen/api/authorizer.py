"""The REST API's token authorizer: API Gateway asks it about every non-public call before the API runs.

It verifies the bearer token (toolgen/auth.py) and answers with an IAM policy for the whole API and the user as
``principalId`` (API Gateway caches the answer per token for ``ReauthorizeEvery``); a bad token is refused
with "Unauthorized", which API Gateway turns into the 401 template.yaml's gateway response describes. The API
function checks the token again itself, so the user always comes from a verified token, with or without it.
"""

from __future__ import annotations

from typing import Any

from toolgen import auth
from toolgen.errors import AuthError

UNAUTHORIZED = "Unauthorized"  # the exact message API Gateway maps to 401


def api_wide(method_arn: str) -> str:
    """arn:...:api-id/stage/*/* for arn:...:api-id/stage/METHOD/path: one answer serves every route."""
    arn, _, rest = method_arn.partition(":execute-api:")
    parts = rest.split("/")
    return f"{arn}:execute-api:{parts[0]}/{parts[1]}/*/*" if len(parts) >= 2 else method_arn


def authorize(event: dict[str, Any], secret: str) -> dict[str, Any]:
    """API Gateway's TOKEN authorizer answer for ``event``; raises Exception("Unauthorized") to refuse."""
    header = event.get("authorizationToken") or ""
    try:
        user = auth.verify(auth.bearer({"authorization": header}), secret)
    except AuthError as e:
        raise Exception(UNAUTHORIZED) from e
    return {
        "principalId": user,
        "policyDocument": {
            "Version": "2012-10-17",
            "Statement": [
                {"Action": "execute-api:Invoke", "Effect": "Allow", "Resource": api_wide(event["methodArn"])}
            ],
        },
        "context": {"user": user},
    }
