"""HMAC-SHA256 (RFC 2104) written from hashlib, as micropython-lib's hmac
does: the key padded to SHA-256's 64-byte block, XORed with the inner and
the outer pad.  MicroPython has hashlib but no hmac; the host's tests check
this against CPython's hmac."""

import hashlib

from micropython import const

_BLOCK = const(64)  # SHA-256's block
_PAD = bytearray(_BLOCK)  # the padded key, reused: the chain's HMAC runs once a throw


def hmac_sha256(key, *parts):
    """HMAC-SHA256 of the parts (bytes-like) joined, under `key`: 32 bytes."""
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    pad = _PAD
    for i in range(_BLOCK):
        pad[i] = (key[i] if i < len(key) else 0) ^ 0x36
    inner = hashlib.sha256(pad)
    for part in parts:
        inner.update(part)
    for i in range(_BLOCK):
        pad[i] ^= 0x36 ^ 0x5C
    outer = hashlib.sha256(pad)
    outer.update(inner.digest())
    return outer.digest()
