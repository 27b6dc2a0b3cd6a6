"""Salvage: a bowl's log from the raw blocks of a flash image whose LittleFS no longer mounts.

A record is self-checking (docs/storage.md: a CRC over its bytes and its full
sequence number, a link to the chain before it), so it can be found without
the filesystem: segment files by their header (`BBL1`, a CRC, the full chain
value before them; `BBL2` on a keyed bowl, signed with its key), slot files,
inline in LittleFS's metadata blocks, by trying every byte offset.  Stale
copies LittleFS left behind (copy-on-write) are the same records again, and
count once.

What is found is laid out as a store folder (the bowl id, the newest two
counter copies, the records as segments, each headed by the chain value
before it when it is known) that the one reader of every host command
(host_tools/sync/logread.py, through the sync core) verifies: every CRC and
chain link again, and every gap named.  Parsing and checks are the
firmware's own (bobing.store); nothing of the format is repeated here.

A keyed bowl (docs/security.md) is salvaged with the keys the host holds for
it: each record is laid out under the key it was chained with (its
segment's, or for the records past the segments the one its successor's
link proves), in segments signed with that key, so the reader finds the log
authentic exactly when the bowl's was.  A keyed segment signed with none of
the host's keys keeps an unsigned header: its records are salvaged, and the
reader says they are not authentic, as a normal import would.
"""

import bisect
import os
import re
import struct
import tempfile

from bobing.store import record as rec
from bobing.store.counters import NAMES as COUNTER_NAMES
from bobing.store.counters import SIZES as COUNTER_SIZES
from bobing.store.counters import Counters
from bobing.store.log import SEGMENT_BYTES, SLOTS, Log
from bobing.store.verify import Verifier

# The `id` file's 16 hex digits, inline in a metadata block: the end of a run of
# hex digits (the tag before it may end in one); nothing else in a store is one.
_ID = re.compile(rb"([0-9a-f]{16})(?![0-9a-f])")
_ERASED = 0xFF
_CHUNK = 4096  # erased flash reads 0xFF: chunks of nothing else are skipped
UNSIGNED = "unsigned"  # the key of records chained under a key the host does not hold
_PENDING = "pending"  # records past every segment header: their key is the bowl's current one
_UNTIL_NEXT = 0xFFFFFFFF  # an unsigned header's records: every one up to the next header


class Salvaged:
    """What the raw blocks gave: the bowl id (None: not found), the bowl's
    keys the host holds (newest first), records {seq: [frame bytes, ...]}
    (more than one when copies differ), segment headers {first seq:
    (chain(first - 1) or None, key or None or UNSIGNED, last seq)}, the
    newest counter copies [(bytes, Counters)], and what could not be
    decided (lines)."""

    def __init__(self):
        self.bowl = None
        self.keys = ()
        self.frames = {}
        self.headers = {}
        self.counters = []
        self.issues = []


def scan(image, bowl=None, keys_of=lambda bowl: ()):
    """Every intact record, segment header, counter copy and bowl id in the
    image's bytes.  bowl: the bowl id if the caller knows it; keys_of(bowl):
    the keys the host holds for the bowl, newest first."""
    found = Salvaged()
    ids = sorted({m.group(1).decode() for m in _ID.finditer(image)})
    if bowl is not None or len(ids) == 1:
        found.bowl = bowl or ids[0]
        found.keys = tuple(keys_of(found.bowl))
    elif ids:
        found.issues.append("several bowl ids in the image (%s): give --bowl ID" % ", ".join(ids))
    _segments(image, found)
    found.counters = _counter_copies(image)
    near = {1, max(found.frames, default=0) + 1}
    near.update(c.counted + 1 for _, c in found.counters)
    _loose_records(image, sorted(near), found)
    return found


def _keep(found, seq, frame):
    copies = found.frames.setdefault(seq, [])
    if frame not in copies:
        copies.append(frame)


def _segments(image, found):
    """The records of every segment whose header is intact, wherever it lies;
    of a keyed one signed with none of the host's keys too, unverified."""

    def keep(seq, data, payload_start, payload_end, game_start):
        n = payload_end - payload_start
        # before the payload: the 1-2 byte length, 2 of sequence number, 4 of link
        start = payload_end + 4 - rec.frame_size(n)
        _keep(found, seq, bytes(data[start : payload_end + 4]))

    for magic in (rec.SEGMENT_MAGIC, rec.KEYED_MAGIC):
        at = image.find(magic)
        while at >= 0:
            chunk = memoryview(image)[at : at + SEGMENT_BYTES]
            header = rec.parse_segment_header(chunk, found.keys)
            if header is not None:
                found.headers.setdefault(header[0], (header[2], header[3], header[1]))
                Verifier(header[2], header[0], found.keys).segment(chunk, header[0], "segment", keep)
            elif rec.is_keyed(chunk):
                first = struct.unpack_from("<I", chunk, 4)[0]  # unverified: kept if its records say so
                unverified = Verifier(None, first, found.keys)
                unverified.segment(chunk, first, "segment", keep)
                if unverified.records:
                    found.headers.setdefault(first, (None, UNSIGNED, _UNTIL_NEXT))
            at = image.find(magic, at + 1)


def _loose_records(image, nears, found):
    """Records anywhere (slot files inline in metadata, segments with a damaged
    header), at every offset of every block that is not erased."""
    for base in range(0, len(image), _CHUNK):
        end = min(base + _CHUNK, len(image))
        if image.count(_ERASED, base, end) == end - base:
            continue
        for pos in range(base, end):
            for near in nears:
                hit = rec.decode(image, pos, near)
                if hit is not None:
                    _keep(found, hit[0], bytes(image[pos : hit[1]]))
                    break


def _counter_copies(image):
    """The two newest intact counter copies [(bytes, Counters)], checked by the firmware's Counters."""
    copies = {}
    with tempfile.TemporaryDirectory(prefix="bobing-salvage-") as scratch:
        for magic, size in COUNTER_SIZES.items():  # the formats the bowl's Counters reads
            at = image.find(magic)
            while at >= 0:
                data = bytes(image[at : at + size])
                with open(os.path.join(scratch, COUNTER_NAMES[0]), "wb") as f:
                    f.write(data)
                counters = Counters(scratch)
                issues = []
                counters.load(issues)
                if not issues and counters.generation:
                    copies[data] = counters
                at = image.find(magic, at + 1)
    return sorted(copies.items(), key=lambda item: item[1].generation)[-2:]


def chosen(found, known=None):
    """[(seq, frame, chain before it or None, key it is chained under)] in
    order, one frame a sequence number: where copies differ, the one the
    chain links.  known: {seq: chain(seq)} the host already holds (the
    database's tip).  A record's key is its segment header's; past the
    segments (the bowl's pending records), the newest key; and where the
    next record's link holds under another key (or none), that one."""
    out = []
    firsts = sorted(found.headers)
    for seq in sorted(found.frames):
        copies = found.frames[seq]
        after = out and out[-1][0] == seq - 1 and out[-1][2] is not None and seq not in found.headers
        if after:
            tries = _chains_after(out[-1], found.keys)
        elif seq in found.headers:
            tries = [(None, found.headers[seq][0])]
        else:
            tries = [(None, (known or {}).get(seq - 1, rec.GENESIS if seq == 1 else None))]
        chain, frame, linked = None, copies[0], False
        for n, (key, value) in enumerate(tries):
            if n == 0:
                chain = value
            hits = [f for f in copies if value is not None and _link(f, seq) == value[: rec.LINK_SIZE]]
            if hits:
                chain, frame, linked = value, hits[0], True
                if after and key != out[-1][3]:  # the link proves the record before chained under it
                    out[-1] = out[-1][:3] + (key,)
                break
        if len(copies) > 1:
            found.issues.append(
                "record %d: %d different copies in the image; %s"
                % (
                    seq,
                    len(copies),
                    "the one the chain links is kept" if linked else "none linked: the first kept",
                )
            )
        key = _segment_key(found, firsts, seq)
        if key is _PENDING:  # as the bowl chains them: under the key of the record before, or the newest
            pending = out and out[-1][0] == seq - 1 and _segment_key(found, firsts, seq - 1) is _PENDING
            key = out[-1][3] if pending else found.keys[0] if found.keys else None
        out.append((seq, frame, chain, key))
    return out


def _chains_after(before, keys):
    """(key, chain after the record `before`) under its key first, then under each other one."""
    _, frame, chain, key = before
    for each in (key,) + tuple(k for k in keys + (None,) if k != key):
        if each is not UNSIGNED:
            yield each, rec.chain_next(chain, frame, 0, len(frame), each)


def _segment_key(found, firsts, seq):
    """The key record seq is chained under as its segment's header says, _PENDING past the segments."""
    at = bisect.bisect_right(firsts, seq)
    if at:
        _, key, last = found.headers[firsts[at - 1]]
        if seq <= last:
            return key
    return _PENDING


def _link(frame, seq):
    return rec.link_of(frame, 0, rec.decode(frame, 0, seq)[2])


def lay_out(found, folder, known=None):
    """Write the store folder the reader verifies; returns the records laid out."""
    for sub in ["seg"] + ["s%d" % d for d in range(16)]:
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
    with open(os.path.join(folder, "id"), "w") as f:
        f.write(found.bowl)
    for name, (data, _) in zip(COUNTER_NAMES, found.counters, strict=False):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    records = chosen(found, known)
    firsts = sorted(found.headers)
    segments = []  # [first, chain(first - 1), key, [frames], bytes]
    for seq, frame, chain, key in records:
        at = bisect.bisect_right(firsts, seq)
        boundary = firsts[at - 1] if at else None
        if segments and boundary is not None and boundary > segments[-1][0]:
            header = found.headers[boundary]
            segments.append([boundary, header[0], header[1], [], rec.SEGMENT_HEADER_SIZE])
        elif (
            not segments
            or segments[-1][4] + len(frame) > SEGMENT_BYTES
            or (key != segments[-1][2] and chain is not None)  # one key a segment, as the bowl's
        ):
            # a gap before it leaves its chain unknown: the re-anchor value, which the reader names
            before = chain if chain is not None else rec.reanchor(seq - 1)
            segments.append([seq, before, key, [], rec.SEGMENT_HEADER_SIZE])
        segments[-1][3].append((seq, frame))
        segments[-1][4] += len(frame)
    for first, chain, key, frames, _ in segments:
        _write_segment(folder, first, chain, key, frames)
    _write_slots(folder, records)
    return len(records)


def _write_slots(folder, records):
    """The slot files as a bowl leaves them just after a seal: each holds the
    newest record that went through it, sealed in a segment too (once the
    ring went round, a missing slot file reads as damage: docs/storage.md)."""
    log = Log(folder)
    for seq, frame, _, _ in records[-SLOTS:]:
        with open(log.slot_path(seq), "wb") as f:
            f.write(frame)


def _write_segment(folder, first, chain, key, frames):
    """One segment file: records may have gaps, which the reader names as lost."""
    header = bytearray(rec.SEGMENT_HEADER_SIZE)
    signed = key is not UNSIGNED
    last = frames[-1][0]
    rec.segment_header_into(header, first, last, chain or rec.reanchor(first - 1), key if signed else None)
    if not signed:
        # chained under a key this host does not hold: a keyed header it cannot
        # sign, so the reader reports its records as not authentic, unverified
        header[0:4] = rec.KEYED_MAGIC
    with open(os.path.join(folder, "seg", "%08x" % first), "wb") as f:
        f.write(header)
        for _, frame in frames:
            f.write(frame)
