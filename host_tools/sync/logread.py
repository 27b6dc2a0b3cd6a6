"""Read a copy of the bowl's store directory on the host and verify all of it.

The format code is the firmware's own (bobing.store), run on CPython: the
very checks the bowl makes at boot, over the whole history instead of its
newest part.
"""

import os

from bobing.store import record as rec
from bobing.store import snapshot
from bobing.store.counters import Counters
from bobing.store.log import Log, read_file
from bobing.store.store import NOTE
from bobing.store.verify import Verifier


class LogReport:
    """Everything found in one store directory.

    records: [(seq, payload, game_start)] of every intact record, in order
    issues: one line per damaged, missing or suspicious thing (empty: all verified)
    segments: [(first, last)] of the segment files; pending: records in slot files
    ackable: (last_seq, chain) the host may acknowledge, or None
    chain: chain() after the last record read, or None; last_keyed: that record
    was chained under one of the bowl's keys
    """

    def __init__(self):
        self.records = []
        self.issues = []
        self.damaged = 0
        self.unverified = 0
        self.segments = []
        self.pending = 0
        self.snapshots = []  # [(file name, seq)] of the intact snapshots
        self.counters = {}
        self.ackable = None
        self.ackable_if_damaged = None
        self.chain = None
        self.last_keyed = False


class _HostLog(Log):
    """The bowl's Log, reading a copy of the whole store.  A file in seg/ that
    is named as a segment but holds neither an intact header nor a record is
    not one (a stray file, or an erased one): skipped and reported, so a name
    such as 7ffffff0 is not read as two billion missing records."""

    def __init__(self, root):
        super().__init__(root)
        self.strays = []

    def list_segments(self):
        firsts = []
        for first in super().list_segments():
            data = read_file(self.segment_path(first)) or b""
            header = rec.parse_segment_header(data, self.keys)
            if header is not None and header[0] == first or _holds_record(data, first):
                firsts.append(first)
            else:
                self.strays.append(first)
        return firsts


def _holds_record(data, first):
    """Whether some intact record lies in the bytes of a segment whose header is damaged."""
    for pos in range(rec.SEGMENT_HEADER_SIZE, len(data)):
        if rec.decode(data, pos, first) is not None:
            return True
    return False


def is_store(directory):
    return os.path.isdir(os.path.join(directory, "seg"))


def read_log(directory, keys=()):
    """Verify the store copied into `directory` (the bowl's /data); keys: the
    bowl's keys the host holds, newest first (docs/security.md)."""
    report = LogReport()
    log = _HostLog(directory)
    log.keys = tuple(keys)
    log.key = log.keys[0] if log.keys else None  # the pending records': tried under the others too
    verifier = Verifier(keys=log.keys)
    verifier.trial = True
    ends = []  # (segment index, last seq, chain verified there or None, issues so far, key)

    def keep(seq, data, start, end, game_start):
        report.records.append((seq, bytes(data[start:end]), game_start))

    def segment_done(index, last, chain):
        ends.append((index, last, chain, len(verifier.issues), verifier.key))

    log.scan(verifier, 1, keep, segment_done)
    report.chain = verifier.chain
    report.issues = verifier.issues
    report.damaged = verifier.damaged
    report.unverified = verifier.unverified
    report.segments = log.segment_ends()
    report.pending = sum(1 for seq, _, _ in report.records if seq > log.last_end)
    # the scan leaves the pending records' key set even when there are none:
    # then the last record read is the newest segment's, under its header's key
    last_key = verifier.key if report.pending or not ends else ends[-1][4]
    report.last_keyed = last_key is not None
    for index, last, chain, issues, _ in ends:
        known = log.chain_after(index)
        if known is None:
            continue
        report.ackable_if_damaged = (last, known)
        if issues == 0 and chain == known:
            report.ackable = (last, known)
    newest_snapshot = 0
    for name in snapshot.NAMES:
        data = read_file(os.path.join(directory, name))
        snap = snapshot.decode(data)
        if snap is not None:
            report.snapshots.append((name, snap[0]))
            newest_snapshot = max(newest_snapshot, snap[0])
        elif data is not None:
            report.issues.append("snapshot %s damaged" % name)
    for name in sorted(os.listdir(log.seg_dir)):
        if (
            len(name) != 8
            or not all(c in "0123456789abcdef" for c in name)
            or not 0 < int(name, 16) < 0x7FFFFFFF
        ):
            report.issues.append("seg/%s: not a segment: ignored" % name)
    for first in log.strays:
        report.issues.append("seg/%08x: neither a segment header nor a record in it: ignored" % first)
    counters = Counters(directory)
    counters.load(report.issues)
    first = report.records[0][0] if report.records else log.tip + 1
    if first > counters.acked + 1 and report.segments:  # (with none, the verifier reports the gap)
        missing = (counters.acked + 1, first - 1)
        report.issues.insert(0, "records %d-%d missing: deleted without an acknowledgement" % missing)
        report.damaged += missing[1] - missing[0] + 1
        report.ackable = None  # damage before every segment end
    # The bowl said it had records up to here: the snapshot and the counters.
    known = max(newest_snapshot, counters.counted)
    if known > log.tip:
        report.issues.append(
            "records %d-%d missing: the bowl's snapshot or counters show them" % (log.tip + 1, known)
        )
        report.damaged += known - log.tip
    # A counter copy one save behind (the other lost) has not counted the
    # games started and the notes written since: count their records, as the
    # bowl's boot does.  Neither is a throw.
    since = [(payload, start) for seq, payload, start in report.records if seq > counters.counted]
    games = counters.games + sum(1 for _, start in since if start)
    notes = counters.notes + sum(1 for payload, start in since if not start and payload[:1] == bytes((NOTE,)))
    report.counters = {
        "games": games,
        "throws": max(log.tip, known) - games - notes,
        "recoveries": counters.recoveries,
    }
    return report


def ack_bytes(report, accept_damage=False):
    """The ack file for this report, or None if nothing can be acknowledged."""
    point = report.ackable_if_damaged if accept_damage else report.ackable
    return None if point is None else rec.ack(point[0], point[1])
