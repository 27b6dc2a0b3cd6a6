"""The bowl's secret key file (docs/security.md).

The key file sits beside the store folder, never in it (`/data.key` for the
store `/data`): a sync copies the store folder, and the key must never cross
the serial line after it was installed.  Format (73 bytes):

| offset | size | field |
|---|---|---|
| 0 | 4 | `BBK0`: a new key, the log still chained under `previous`; `BBK1`: the log chained under `key` |
| 4 | 1 | the key's generation: 1 for the first, + 1 each re-key (1..255, wrapping) |
| 5 | 32 | the key: answers the sync's challenge, chains the log once `BBK1` |
| 37 | 32 | the previous key (zeros: none, the log was chained with plain SHA-256) |
| 69 | 4 | CRC-32 of bytes 0-68 |

A new key reaches the log's chain only at a segment boundary (the store
seals the pending records under the previous key first, at the boot after
the key came: Store.replay), so every segment is chained under one key and
the pending records under the log's.
"""

import struct
from binascii import crc32

from micropython import const

from bobing.store.log import read_file, write_file

KEY_SIZE = const(32)
_FILE_SIZE = const(73)
_NONE = bytes(KEY_SIZE)


def key_path(root):
    """The key file of the store folder `root`: beside it, not in it."""
    return root.rstrip("/") + ".key"


def encode(key, generation, chaining, previous=None):
    """The key file's bytes (chaining: the log is chained under `key`)."""
    body = bytearray(b"BBK1" if chaining else b"BBK0")
    body.append(generation & 0xFF)
    body.extend(key)
    body.extend(previous or _NONE)
    body.extend(struct.pack("<I", crc32(body)))
    return bytes(body)


def decode(data):
    """(key, generation, chaining, previous key or None) of a key file's
    bytes, or None if damaged or none."""
    if data is None or len(data) != _FILE_SIZE or data[:3] != b"BBK" or data[3] not in b"01":
        return None
    if crc32(memoryview(data)[:69]) != struct.unpack_from("<I", data, 69)[0]:
        return None
    previous = bytes(data[37:69])
    return bytes(data[5:37]), data[4], data[3] == 0x31, None if previous == _NONE else previous


def load(root):
    """decode() of the key file of the store `root`."""
    return decode(read_file(key_path(root)))


def save(root, key, generation, chaining, previous=None):
    """Write the key file atomically (StoreFull if the flash is full)."""
    path = key_path(root)
    write_file(path, encode(key, generation, chaining, previous), path + ".tmp")


def rekey_pad(old_key, nonce):
    """The 32 bytes a new key is XORed with to travel under the old one
    (`bobing key`'s program at the REPL: the bowl's boot never needs it)."""
    from bobing.hmacsha import hmac_sha256

    return hmac_sha256(old_key, b"bobing re-key ", nonce)
