"""Byte formats of the flash log: records, segment headers, the hash chain, acks.

Pure code (no file access) shared by the bowl and the host reader, so both
read exactly the same format.  docs/storage.md describes it byte by byte.

Record (11 bytes of framing around the payload):
    1-2 bytes  varint (payload length << 1 | game_start flag)
    2 bytes    sequence number, low 16 bits, little-endian
    4 bytes    link: the first 4 bytes of the chain value before this record
    n bytes    payload (opaque: the game engine's event batch)
    4 bytes    CRC-32, little-endian, of the full 32-bit sequence number
               (4 bytes LE) followed by every byte above
The CRC covers the full sequence number, so a record read at the wrong place
fails its check even though only 16 bits of the number are stored.

Chain: chain(s) = SHA-256(chain(s-1) + record s), chain(0) = 32 zero bytes;
on a bowl with a key (bobing/keyed.py) HMAC-SHA256 under it in place of
SHA-256, in segments whose header says so (version 2, signed with the key).
"""

import hashlib
import struct
from binascii import crc32

from micropython import const

FRAMING = const(11)  # record bytes besides the payload, for a payload under 64 bytes
MAX_PAYLOAD = const(4000)  # a record must fit one segment (48 header + 4048 bytes of records)
CHAIN_SIZE = const(32)
LINK_SIZE = const(4)
GENESIS = bytes(CHAIN_SIZE)

SEGMENT_MAGIC = b"BBL1"  # version 1: plain SHA-256 chain, header sealed by a CRC-32
KEYED_MAGIC = b"BBL2"  # version 2: keyed chain, header sealed by the first 4 bytes of its HMAC
SEGMENT_HEADER_SIZE = const(48)  # magic 4, first and last sequence numbers 4 + 4, chain 32, CRC or MAC 4
ACK_MAGIC = b"BBA1"
ACK_SIZE = const(48)  # magic 4, last acknowledged sequence number 4, 0 4, chain 32, CRC 4

_SEQ = bytearray(4)  # reused: the full sequence number fed to the CRC


def _crc(seq, data, start, end):
    struct.pack_into("<I", _SEQ, 0, seq)
    return crc32(memoryview(data)[start:end], crc32(_SEQ))


def frame_size(payload_len):
    """Bytes of a record holding a payload of payload_len bytes."""
    return payload_len + FRAMING + (payload_len >= 64)


def frame_into(buf, pos, seq, link, payload, game_start=False):
    """Write record `seq` into bytearray buf at pos; returns where it ends.

    `link` is the chain value before it (>= 4 bytes).  Nothing is allocated
    but the CRC's slices, so the bowl frames each throw into one kept buffer."""
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise ValueError("payload of %d bytes is over %d" % (n, MAX_PAYLOAD))
    head = n << 1 | (1 if game_start else 0)
    start = pos
    if head < 0x80:
        buf[pos] = head
        pos += 1
    else:
        buf[pos] = head & 0x7F | 0x80
        buf[pos + 1] = head >> 7
        pos += 2
    buf[pos] = seq & 0xFF
    buf[pos + 1] = (seq >> 8) & 0xFF
    pos += 2
    for i in range(LINK_SIZE):
        buf[pos + i] = link[i]
    pos += LINK_SIZE
    buf[pos : pos + n] = payload
    pos += n
    struct.pack_into("<I", buf, pos, _crc(seq, buf, start, pos))
    return pos + 4


def near_seq(low16, near):
    """The full sequence number ending in `low16` closest above `near` - 32768."""
    return near + ((low16 - near + 0x8000) & 0xFFFF) - 0x8000


def decode(data, pos, near):
    """Parse the record starting at data[pos]: (seq, end, payload_start, game_start).

    `near` is the sequence number the record should have, give or take 32767
    (the stored low 16 bits pick the full number).  None if the bytes there
    are not an intact record: too short, or CRC mismatch.
    """
    size = len(data)
    if pos >= size:
        return None
    head = data[pos]
    start = pos + 1
    if head & 0x80:
        if start >= size:
            return None
        head = head & 0x7F | data[start] << 7
        start += 1
    end = start + 2 + LINK_SIZE + (head >> 1) + 4
    if end > size:
        return None
    seq = near_seq(data[start] | data[start + 1] << 8, near)
    if seq < 1 or _crc(seq, data, pos, end - 4) != struct.unpack_from("<I", data, end - 4)[0]:
        return None
    return seq, end, start + 2 + LINK_SIZE, head & 1


def link_of(data, pos, payload_start):
    """The 4 link bytes of the record at pos (payload_start from decode)."""
    return bytes(data[payload_start - LINK_SIZE : payload_start])


def chain_next(chain, data, start, end, key=None):
    """Chain value after the record data[start:end], given the one before it;
    under `key` (HMAC-SHA256) if one is given."""
    if key is not None:
        from bobing.hmacsha import hmac_sha256  # a bowl without a key never loads it

        return hmac_sha256(key, chain, memoryview(data)[start:end])
    h = hashlib.sha256(chain)
    h.update(memoryview(data)[start:end])
    return h.digest()


def reanchor(seq):
    """Chain value the bowl continues from when it cannot compute chain(seq)
    because a record up to seq is damaged: fixed, so the reader can recognise it."""
    return hashlib.sha256(b"bobing re-anchor" + struct.pack("<I", seq)).digest()


def _seal_into(buf, magic, a, b, chain):
    """Write a sealed 48-byte block (magic, a, b, chain, CRC) at buf[0:48]."""
    buf[0:4] = magic
    struct.pack_into("<II", buf, 4, a, b)
    buf[12:44] = chain
    struct.pack_into("<I", buf, 44, crc32(memoryview(buf)[:44]))


def _sealed(magic, a, b, chain):
    buf = bytearray(48)
    _seal_into(buf, magic, a, b, chain)
    return bytes(buf)


def _unseal(magic, data):
    """(a, b, chain) of a sealed 48-byte block, None if damaged or not one."""
    if len(data) < 48 or bytes(data[:4]) != magic:
        return None
    if crc32(memoryview(data)[:44]) != struct.unpack_from("<I", data, 44)[0]:
        return None
    a, b = struct.unpack_from("<II", data, 4)
    return a, b, bytes(data[12:44])


def segment_header_into(buf, first_seq, last_seq, chain, key=None):
    """Write at buf[0:48] the header of a segment holding records
    first_seq..last_seq; chain = chain(first_seq - 1).  With `key`, the
    records are chained under it: version 2, signed with it."""
    _seal_into(buf, SEGMENT_MAGIC if key is None else KEYED_MAGIC, first_seq, last_seq, chain)
    if key is not None:
        from bobing.hmacsha import hmac_sha256

        buf[44:48] = hmac_sha256(key, memoryview(buf)[:44])[:4]


def parse_segment_header(data, keys=()):
    """(first_seq, last_seq, chain before first_seq, key) of a segment's
    header, key None for version 1 (plain) and the one of `keys` that signed
    a version 2 header; None if the header is damaged, or signed with none
    of them (is_keyed() tells the two apart by the magic)."""
    if is_keyed(data):
        from bobing.hmacsha import hmac_sha256

        for key in keys:
            if bytes(data[44:48]) == hmac_sha256(key, memoryview(data)[:44])[:4]:
                a, b = struct.unpack_from("<II", data, 4)
                return a, b, bytes(data[12:44]), key
        return None
    sealed = _unseal(SEGMENT_MAGIC, data)
    return None if sealed is None else (sealed[0], sealed[1], sealed[2], None)


def is_keyed(data):
    """True if these bytes start a version 2 (keyed) segment."""
    return len(data) >= 48 and bytes(data[:4]) == KEYED_MAGIC


def ack(last_seq, chain):
    """The host's acknowledgement: every record up to last_seq is synced and
    verified, and chain(last_seq) is `chain`."""
    return _sealed(ACK_MAGIC, last_seq, 0, chain)


def parse_ack(data):
    """(last_seq, chain), or None if these bytes are not an intact ack."""
    if len(data) != ACK_SIZE:
        return None
    sealed = _unseal(ACK_MAGIC, data)
    return None if sealed is None else (sealed[0], sealed[2])
