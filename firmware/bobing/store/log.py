"""The append-only game log on LittleFS: a ring of slot files plus segment files.

Why two kinds of file: LittleFS copies a file's last block to a fresh block
every time an append is flushed (copy-on-write), about 2 KB programmed and
one erase per throw.  Rewriting a small file instead is a single metadata
commit of about 64 bytes.  So each record is first written alone to its slot
file (slot = sequence number mod SLOTS), which makes it durable, and once
SLOTS records (or a block's worth of bytes) are pending they are copied in
one go into a new, never-modified segment file `seg/<first seq, 8 hex>`.
docs/storage.md has the numbers and the recovery procedure.
"""

import os

from bobing.store import record as rec

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


SLOT_DIRS = const(16)  # slots are spread so each directory's metadata stays small
SLOTS_PER_DIR = const(8)
SLOTS = const(128)
SEGMENT_BYTES = const(4096)  # a segment fills at most one LittleFS block
RESERVE_BLOCKS = const(8)  # kept free for snapshots, counters and metadata
ENOSPC = const(28)


class StoreFull(Exception):
    """The flash has no room for another record: sync with the host first.

    Nothing was written: the log and the tally are intact."""


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def read_file(path):
    """The file's bytes, or None if it cannot be read."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def free_blocks(path):
    """(free blocks, total blocks, bytes per block) of the filesystem holding path."""
    st = os.statvfs(path)
    # LittleFS counts each directory's blocks twice, so on a small filesystem
    # the free count can go below zero and wrap around: that is none free.
    return st[3] if st[3] <= st[2] else 0, st[2], st[0]


class Log:
    """Segments and slots under `root`; `tip` is the last durable sequence number."""

    def __init__(self, root):
        self.root = root
        self.seg_dir = root + "/seg"
        self.segments = []  # first sequence numbers, ascending (see all_segments)
        self.complete = False  # True once self.segments holds every segment file
        self.hint = (0, 0)  # (previous, newest) segment's first seq, kept in the counters
        self.last_end = 0  # last sequence number of the newest segment
        self.tip = 0
        self.chain = rec.GENESIS  # chain(tip)
        self.pending_chain = rec.GENESIS  # chain(last_end): the next segment's header value
        self.pending_bytes = 0

    def slot_path(self, seq):
        i = seq % SLOTS
        return "%s/s%d/%d" % (self.root, i // SLOTS_PER_DIR, i % SLOTS_PER_DIR)

    def segment_path(self, first):
        return "%s/%08x" % (self.seg_dir, first)

    def create_dirs(self):
        for path in [self.root, self.seg_dir] + ["%s/s%d" % (self.root, d) for d in range(SLOT_DIRS)]:
            if not exists(path):
                os.mkdir(path)

    def remove_temp(self):
        """Drop a segment a power cut left half-written (its records are still in slots)."""
        path = self.seg_dir + "/new"
        found = exists(path)
        remove(path)
        return found

    def list_segments(self):
        firsts = []
        for name in os.listdir(self.seg_dir):
            if len(name) == 8:
                try:
                    firsts.append(int(name, 16))
                except ValueError:
                    pass
        firsts.sort()
        return firsts

    def all_segments(self):
        """Every segment's first sequence number, listing seg/ the first time."""
        if not self.complete:
            self.segments = self.list_segments()
            self.complete = True
        return self.segments

    def _segments_from(self, from_seq):
        """Segments to read from from_seq on.  LittleFS lists a folder by
        scanning its metadata log for every entry, so listing seg/ costs
        reads that grow with the unsynced history; when from_seq lies in the
        two newest segments named by the counters' hint, boot reads just those."""
        prev, newest = self.hint
        oldest = prev or newest
        if newest and oldest <= from_seq and exists(self.segment_path(newest)):
            if not prev or exists(self.segment_path(prev)):
                self.segments = [prev, newest] if prev else [newest]
                return self.segments
        return self.all_segments()

    def scan(self, verifier, from_seq, on_record, on_segment=None):
        """Read the log from the segment holding from_seq (or the first) to the
        newest slot; on_record(seq, data, payload_start, payload_end, game_start)
        for every intact record at or after from_seq, on_segment(index, last seq,
        verified chain there or None) after each segment.  Sets tip and chain."""
        segments = self._segments_from(from_seq)
        start = 0
        for i, first in enumerate(segments):
            if first <= from_seq:
                start = i
        if segments:
            verifier.chain = None  # the first segment read gives the full value
            verifier.next_seq = segments[start]

        def wanted(seq, data, payload_start, payload_end, game_start):
            if seq >= from_seq:
                on_record(seq, data, payload_start, payload_end, game_start)

        index = start
        while index < len(segments):
            first = segments[index]
            where = "segment %08x" % first
            data = read_file(self.segment_path(first))
            if data is None:
                verifier.issues.append("%s: unreadable" % where)
            else:
                self.last_end = verifier.segment(data, first, where, wanted)
                data = None
                if on_segment is not None:
                    on_segment(index, self.last_end, verifier.chain)
            index += 1
            if index == len(segments) and not self.complete and exists(self.segment_path(self.last_end + 1)):
                # sealed after the hint was saved (a power cut in between)
                segments.append(self.last_end + 1)
        self.pending_chain = verifier.chain if verifier.chain is not None else rec.reanchor(self.last_end)
        self._scan_slots(verifier, wanted)

    def _scan_slots(self, verifier, on_record):
        tip = self.last_end
        unreadable = []
        self.pending_bytes = 0
        for seq in range(self.last_end + 1, self.last_end + SLOTS + 1):
            data = read_file(self.slot_path(seq))
            if not data:
                continue  # never written, or created empty by a write the power cut
            found = rec.decode(data, 0, seq)
            if found is None or found[1] != len(data):
                unreadable.append(seq)
                continue
            if found[0] != seq:
                continue  # an older record already copied into a segment
            for lost in unreadable:
                verifier.lost(lost, lost, "slot file %s" % self.slot_path(lost))
                self.pending_bytes += len(read_file(self.slot_path(lost)) or b"")
            unreadable = []
            if verifier.feed(seq, data, 0, found[1], found[2], "slot file %s" % self.slot_path(seq)):
                on_record(seq, data, found[2], found[1] - 4, found[3])
            self.pending_bytes += len(data)
            tip = seq
        for seq in unreadable:
            verifier.issues.append(
                "slot file %s unreadable (record %d, or an older one)" % (self.slot_path(seq), seq)
            )
        self.tip = tip
        self.chain = verifier.chain if verifier.chain is not None else rec.reanchor(tip)

    def append(self, payload, game_start):
        """Write record tip + 1 durably (LittleFS commits the slot file on close)."""
        seq = self.tip + 1
        data = rec.frame(seq, self.chain, payload, game_start)
        if seq - self.last_end > SLOTS or (
            self.pending_bytes and self.pending_bytes + len(data) > SEGMENT_BYTES - rec.SEGMENT_HEADER_SIZE
        ):
            self._seal_segment()
        try:
            with open(self.slot_path(seq), "wb") as f:
                f.write(data)
        except OSError as e:
            if e.args[0] == ENOSPC:
                raise StoreFull() from None
            raise
        self.tip = seq
        self.chain = rec.chain_next(self.chain, data, 0, len(data))
        self.pending_bytes += len(data)
        return seq

    def _seal_segment(self):
        """Copy the pending slot records into a new segment (temp file + rename)."""
        if free_blocks(self.root)[0] < RESERVE_BLOCKS:
            raise StoreFull()
        first = self.last_end + 1
        temp = self.seg_dir + "/new"
        try:
            with open(temp, "wb") as f:
                f.write(rec.segment_header(first, self.tip, self.pending_chain))
                for seq in range(first, self.tip + 1):
                    data = read_file(self.slot_path(seq))
                    if data:
                        f.write(data)
            os.rename(temp, self.segment_path(first))
        except OSError as e:
            remove(temp)
            if e.args[0] == ENOSPC:
                raise StoreFull() from None
            raise
        self.segments.append(first)
        self.last_end = self.tip
        self.pending_chain = self.chain
        self.pending_bytes = 0

    def segment_ends(self):
        """[(first, last)] of every segment, oldest first."""
        segments = self.all_segments()
        ends = []
        for i, first in enumerate(segments):
            last = segments[i + 1] - 1 if i + 1 < len(segments) else self.last_end
            ends.append((first, last))
        return ends

    def chain_after(self, index):
        """chain(last record of segment `index`) as the bowl knows it, or None."""
        if index + 1 == len(self.segments):
            return self.pending_chain
        data = read_file(self.segment_path(self.segments[index + 1]))
        header = rec.parse_segment_header(data or b"")
        return None if header is None else header[2]

    def release(self, last_seq, chain, keep_after):
        """Delete the segments the host acknowledged up to last_seq (whose chain
        value must match), except the newest and any holding records after
        keep_after.  Returns the number deleted, or -1 if the ack does not match."""
        ends = self.segment_ends()
        for i, (first, last) in enumerate(ends):
            if last == last_seq:
                if self.chain_after(i) != chain:
                    return -1
                deleted = 0
                for first, last in ends[: min(i + 1, len(ends) - 1)]:
                    if last <= keep_after:
                        os.remove(self.segment_path(first))
                        self.segments.remove(first)
                        deleted += 1
                return deleted
        return -1
