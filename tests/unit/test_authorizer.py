"""The REST API's token authorizer: a verified token becomes a policy naming its user; anything else, 401."""

import pytest

from toolgen import auth
from toolgen.api.authorizer import UNAUTHORIZED, api_wide, authorize

SECRET = "authorizer-secret"
ARN = "arn:aws:execute-api:eu-west-1:123456789012:abc123/Prod/GET/v1/tools"


def test_a_valid_token_is_allowed_across_the_api_as_its_user():
    answer = authorize(
        {"type": "TOKEN", "authorizationToken": f"Bearer {auth.mint('ana', SECRET)}", "methodArn": ARN}, SECRET
    )
    assert answer["principalId"] == "ana" and answer["context"] == {"user": "ana"}
    (statement,) = answer["policyDocument"]["Statement"]
    assert statement == {
        "Action": "execute-api:Invoke",
        "Effect": "Allow",
        "Resource": "arn:aws:execute-api:eu-west-1:123456789012:abc123/Prod/*/*",
    }


@pytest.mark.parametrize(
    "header",
    [
        "",
        "Bearer",
        "Basic dXNlcjpwYXNz",
        "Bearer not-a-token",
        f"Bearer {auth.mint('ana', 'another-secret')}",
        f"Bearer {auth.mint('ana', SECRET, ttl_s=1, now=0)}",  # expired
    ],
)
def test_anything_else_is_refused_with_the_message_api_gateway_maps_to_401(header):
    with pytest.raises(Exception, match=f"^{UNAUTHORIZED}$"):
        authorize({"type": "TOKEN", "authorizationToken": header, "methodArn": ARN}, SECRET)


def test_the_policy_covers_every_route_so_one_cached_answer_serves_them_all():
    assert api_wide("arn:aws:execute-api:us-east-1:1:api/Prod/POST/v1/memories/m1/verify") == (
        "arn:aws:execute-api:us-east-1:1:api/Prod/*/*"
    )
