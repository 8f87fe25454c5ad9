"""toolgen/ed25519.py against the `cryptography` package (OpenSSL's Ed25519) and RFC 8032's test vectors."""

from __future__ import annotations

import os
import random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from toolgen import ed25519

# RFC 8032, section 7.1: TEST 1 (the empty message) and TEST 2 (one byte)
VECTORS = [
    (
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
        "",
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    ),
    (
        "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
        "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
        "72",
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
    ),
]


def public_of(seed: bytes) -> bytes:
    return Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


@pytest.mark.parametrize(("secret", "public", "message", "signature"), VECTORS)
def test_the_rfcs_vectors(secret, public, message, signature):
    seed, pub, msg, sig = (bytes.fromhex(x) for x in (secret, public, message, signature))
    assert ed25519.public_key(seed) == pub
    assert ed25519.verify(pub, msg, sig)
    assert not ed25519.verify(pub, msg + b"x", sig)


def test_keys_and_signatures_agree_with_openssls_on_random_keys_and_messages():
    rng = random.Random(8032)
    for _ in range(12):
        seed, message = rng.randbytes(32), rng.randbytes(rng.randrange(0, 200))
        public = ed25519.public_key(seed)
        assert public == public_of(seed)
        signature = Ed25519PrivateKey.from_private_bytes(seed).sign(message)
        assert ed25519.verify(public, message, signature)


def test_any_changed_bit_is_a_forgery():
    seed, message = os.urandom(32), b"tg2.eyJzdWIiOiJhbGljZSJ9"
    public = public_of(seed)
    signature = Ed25519PrivateKey.from_private_bytes(seed).sign(message)
    rng = random.Random(1)
    for _ in range(24):
        bit = rng.randrange(64 * 8)
        flipped = bytearray(signature)
        flipped[bit // 8] ^= 1 << (bit % 8)
        assert not ed25519.verify(public, message, bytes(flipped))
    assert not ed25519.verify(public, message[:-1] + b"X", signature)
    assert not ed25519.verify(public_of(os.urandom(32)), message, signature)  # someone else's key


def test_a_signature_with_its_scalar_pushed_past_the_order_is_refused():
    """(R, s + L) verifies in naive implementations; RFC 8032 requires s < L, so a signature has one form."""
    seed, message = os.urandom(32), b"claims"
    signature = Ed25519PrivateKey.from_private_bytes(seed).sign(message)
    s = int.from_bytes(signature[32:], "little") + ed25519.L
    assert s < 2**256
    assert not ed25519.verify(public_of(seed), message, signature[:32] + s.to_bytes(32, "little"))


@pytest.mark.parametrize("length", [0, 31, 63, 65])
def test_wrong_lengths_are_refused(length):
    assert not ed25519.verify(b"\0" * 32, b"m", b"\0" * length)
    assert not ed25519.verify(b"\0" * length, b"m", b"\0" * 64)
    with pytest.raises(ValueError, match="32 bytes"):
        ed25519.public_key(b"\0" * (length or 1))


def test_an_encoding_that_is_no_point_is_refused():
    not_a_point = (2).to_bytes(32, "little")  # y = 2 has no x on the curve
    assert ed25519._decode(not_a_point) is None
    assert not ed25519.verify(not_a_point, b"m", b"\0" * 64)
    too_big = (ed25519.P + 1).to_bytes(32, "little")  # y past the field: not canonical
    assert not ed25519.verify(too_big, b"m", b"\0" * 64)
