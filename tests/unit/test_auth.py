import pytest

from toolgen import auth
from toolgen.errors import AuthError, ConfigError, InvalidInputError

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
        auth.verify(f"{auth.PREFIX}.{forged_payload}.{signature}", SECRET)


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


def _signed(claims: str) -> str:
    """A token over claims the platform never mints, correctly signed: only the claims' checks can refuse it."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    payload = auth._b64(claims.encode())
    signature = Ed25519PrivateKey.from_private_bytes(auth._seed(SECRET)).sign(f"tg2.{payload}".encode())
    return f"tg2.{payload}.{auth._b64(signature)}"


@pytest.mark.parametrize(
    "claims",
    [
        '{"sub": "alice\\n", "exp": 9999999999}',  # "$" matches before a final newline
        '{"sub": "alice", "exp": "9999999999"}',
        '{"sub": "alice", "exp": true}',
        '{"sub": "alice", "exp": 1e300}',
        '{"sub": "alice", "exp": null}',
        '{"sub": ["alice"], "exp": 9999999999}',
        '["alice", 9999999999]',
    ],
)
def test_signed_claims_of_the_wrong_shape_are_refused(claims):
    assert auth.verify(_signed('{"sub": "alice", "exp": 9999999999}'), SECRET) == "alice"
    with pytest.raises(AuthError, match="malformed"):
        auth.verify(_signed(claims), SECRET)


@pytest.mark.parametrize("user", ["", "a b", "x" * 65, "user#1", "名字", "alice\n"])
def test_invalid_user_names_cannot_get_tokens(user):
    with pytest.raises(InvalidInputError):
        auth.mint(user, SECRET)


# --- what a tool holds: the public half of the key -------------------------------------------------------------


def test_a_tool_checks_its_owners_tokens_with_the_public_key_alone():
    key = auth.public_key(SECRET)
    assert key.startswith(auth.KEY_PREFIX) and SECRET not in key
    assert auth.verify(auth.mint("alice", SECRET), key) == "alice"
    with pytest.raises(AuthError, match="signature"):
        auth.verify(auth.mint("alice", "another platform"), key)


def test_a_tools_key_cannot_make_a_token_for_anyone_anywhere():
    key = auth.public_key(SECRET)
    with pytest.raises(ConfigError):
        auth.mint("alice", key)  # not with the key it holds
    # nor by using it as an HMAC secret (the old kind of token): the API and other tools refuse it
    claims = auth._b64(b'{"sub":"bob","exp":9999999999}')
    forged = f"tg1.{claims}.{auth._hmac(key, claims)}"
    with pytest.raises(AuthError):
        auth.verify(forged, SECRET)
    with pytest.raises(AuthError):
        auth.verify(forged, key)
    # nor by signing with the public key's bytes as a private seed
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    fake = Ed25519PrivateKey.from_private_bytes(auth._unb64(key.removeprefix(auth.KEY_PREFIX)))
    signed = f"tg2.{claims}.{auth._b64(fake.sign(f'tg2.{claims}'.encode()))}"
    for checker in (SECRET, key, auth.public_key("another platform")):
        with pytest.raises(AuthError, match="signature"):
            auth.verify(signed, checker)


def test_secret_signed_tokens_work_where_the_secret_is_known_and_nowhere_else():
    old = auth.mint_with_secret("alice", SECRET)
    assert old.startswith("tg1.") and auth.verify(old, SECRET) == "alice"
    with pytest.raises(AuthError, match="signature"):
        auth.verify(auth.mint_with_secret("alice", "another secret"), SECRET)
    with pytest.raises(InvalidInputError):
        auth.mint_with_secret("a b", SECRET)
    with pytest.raises(AuthError, match="no longer accepted by tools"):
        auth.verify(old, auth.public_key(SECRET))


@pytest.mark.parametrize("signature", ["é" * 86, "AAAA", "!!!!", "A" * 87])
def test_a_signature_that_is_not_one_is_refused_not_an_error(signature):
    claims = auth.mint("alice", SECRET).split(".")[1]
    for key in (SECRET, auth.public_key(SECRET)):
        with pytest.raises(AuthError):
            auth.verify(f"tg2.{claims}.{signature}", key)


def test_a_public_key_that_is_not_one_is_a_configuration_error():
    with pytest.raises(ConfigError):
        auth.verify(auth.mint("alice", SECRET), auth.KEY_PREFIX + "AAAA")
