import pytest

from toolgen import auth
from toolgen.errors import AuthError, InvalidInputError

SECRET = "s3cret-for-tests"


def test_minted_token_verifies_to_its_user():
    token = auth.mint("alice", SECRET)
    assert auth.verify(token, SECRET) == "alice"


def test_token_signed_with_another_secret_is_refused():
    token = auth.mint("alice", "other-secret")
    with pytest.raises(AuthError, match="signature"):
        auth.verify(token, SECRET)


def test_token_with_edited_claims_is_refused():
    # given a valid token whose payload is swapped for one naming another user
    _, _, signature = auth.mint("alice", SECRET).split(".")
    forged_payload = auth.mint("mallory", SECRET).split(".")[1]
    # then the old signature does not cover the new payload
    with pytest.raises(AuthError):
        auth.verify(f"tg1.{forged_payload}.{signature}", SECRET)


def test_expired_token_is_refused():
    token = auth.mint("alice", SECRET, ttl_s=60, now=1000.0)
    assert auth.verify(token, SECRET, now=1059.0) == "alice"
    with pytest.raises(AuthError, match="expired"):
        auth.verify(token, SECRET, now=1061.0)


@pytest.mark.parametrize("token", ["", "abc", "tg1.a.b", "tg2.x.y", "tg1..", "Bearer x"])
def test_malformed_tokens_are_refused(token):
    with pytest.raises(AuthError):
        auth.verify(token, SECRET)


def test_bearer_reads_the_header_whatever_its_case():
    assert auth.bearer({"authorization": "Bearer abc"}) == "abc"
    assert auth.bearer({"Authorization": "bearer  abc "}) == "abc"


@pytest.mark.parametrize("headers", [None, {}, {"Authorization": "Basic abc"}, {"Authorization": "Bearer "}])
def test_bearer_refuses_missing_or_other_schemes(headers):
    with pytest.raises(AuthError):
        auth.bearer(headers)


@pytest.mark.parametrize("user", ["", "a b", "x" * 65, "user#1", "名字"])
def test_invalid_user_names_cannot_get_tokens(user):
    with pytest.raises(InvalidInputError):
        auth.mint(user, SECRET)
