"""Ed25519 verification and public-key derivation (RFC 8032, section 5.1), in the standard library alone.

A tool checks its owner's tokens with the platform's public key and must start without a compiled dependency
(its runtime is pure Python on a shared layer, and an exported or LocalStack tool carries that runtime as files),
so verification is the RFC's own algorithm here, over Python's integers. Only public values enter it (the key,
the message, the signature): nothing here handles a secret, so its timing reveals nothing. Signing, which does
handle the secret, is left to the `cryptography` package (toolgen/auth.py), on the platform's side only.
tests/unit/test_ed25519.py holds it to cryptography's answers on random keys, messages and forgeries, and to the
RFC's test vectors.
"""

from __future__ import annotations

import hashlib

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493  # the group's order
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
Point = tuple[int, int, int, int]  # extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z, xy = T/Z
IDENTITY: Point = (0, 1, 1, 0)


def _add(a: Point, b: Point) -> Point:
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    p1 = (y1 - x1) * (y2 - x2) % P
    p2 = (y1 + x1) * (y2 + x2) % P
    c = 2 * t1 * t2 * D % P
    dd = 2 * z1 * z2 % P
    e, f, g, h = p2 - p1, dd - c, dd + c, p2 + p1
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _mul(scalar: int, point: Point) -> Point:
    result = IDENTITY
    while scalar > 0:
        if scalar & 1:
            result = _add(result, point)
        point = _add(point, point)
        scalar >>= 1
    return result


def _joint(s: int, a: Point, h: int, b: Point) -> Point:
    """[s]a + [h]b in one pass over the bits of both (Shamir's trick: one doubling a bit, not two)."""
    both = _add(a, b)
    table = (IDENTITY, a, b, both)
    result = IDENTITY
    for bit in range(max(s.bit_length(), h.bit_length()) - 1, -1, -1):
        result = _add(result, result)
        pick = ((s >> bit) & 1) | (((h >> bit) & 1) << 1)
        if pick:
            result = _add(result, table[pick])
    return result


def _equal(a: Point, b: Point) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % P == 0 and (a[1] * b[2] - b[1] * a[2]) % P == 0


def _x(y: int, sign: int) -> int | None:
    """The x of the curve point with this y and x's low bit ``sign`` (None: no such point)."""
    if y >= P:
        return None
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P:
        return None
    return P - x if (x & 1) != sign else x


_GY = 4 * pow(5, P - 2, P) % P
_GX = _x(_GY, 0)
assert _GX is not None
BASE: Point = (_GX, _GY, 1, _GX * _GY % P)


def _decode(data: bytes) -> Point | None:
    if len(data) != 32:
        return None
    y = int.from_bytes(data, "little")
    sign, y = y >> 255, y & ((1 << 255) - 1)
    x = _x(y, sign)
    return None if x is None else (x, y, 1, x * y % P)


def _encode(point: Point) -> bytes:
    zinv = pow(point[2], P - 2, P)
    x, y = point[0] * zinv % P, point[1] * zinv % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def public_key(seed: bytes) -> bytes:
    """The 32-byte public key of a 32-byte private key (its seed), as RFC 8032 derives it."""
    if len(seed) != 32:
        raise ValueError("an Ed25519 private key is 32 bytes")
    digest = hashlib.sha512(seed).digest()
    scalar = int.from_bytes(digest[:32], "little")
    scalar &= (1 << 254) - 8
    scalar |= 1 << 254
    return _encode(_mul(scalar, BASE))


def verify(public: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is the holder of ``public``'s over ``message`` (RFC 8032's cofactorless check)."""
    if len(public) != 32 or len(signature) != 64:
        return False
    a, r = _decode(public), _decode(signature[:32])
    if a is None or r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    if s >= L:  # a signature is one scalar only (no malleable copies)
        return False
    h = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little") % L
    minus_a = ((P - a[0]) % P, a[1], a[2], (P - a[3]) % P)
    return _equal(_joint(s, BASE, h, minus_a), r)  # [s]B - [h]A == R, the RFC's [s]B == R + [h]A
