"""The append-only game log on LittleFS: a ring of slot files plus segment files.

Why two kinds of file: LittleFS copies a file's last block to a fresh block
every time an append is flushed (copy-on-write), about 2 KB programmed and
one erase per throw.  Rewriting a small file instead is a single metadata
commit of about 64 bytes.  So each record is written alone to its slot file
(slot = sequence number mod SLOTS), which makes it durable; once SLOTS
records (or nearly a block's worth of bytes) are pending, seal() reads them
back from their slots into the log's buffer and writes it in one go as a
new, never-modified segment file `seg/<first seq, 8 hex>`.  The buffer holds
nothing between the log's calls, so the bowl's colour screen draws in it
(bowl.py lends it): 4 KB of heap the bowl does not keep twice.
docs/storage.md has the numbers and the recovery procedure.
"""

import os

from micropython import const

from bobing.store import record as rec

SLOT_DIRS = const(16)  # slots are spread so each directory's metadata stays small
SLOTS_PER_DIR = const(8)
SLOTS = const(128)
SEGMENT_BYTES = const(4096)  # a segment fills at most one LittleFS block
SEAL_MARGIN = const(512)  # maintain() seals once less room than this is left
RESERVE_BLOCKS = const(8)  # kept free for snapshots, counters and metadata
_ENOSPC = const(28)

# The first Log's buffer, made when this module is imported: early in boot,
# before the heap is cut up by the app's other objects, so the one 4 KB run
# a bowl needs is found.  Made later, it fails with a fifth of the heap free
# (docs/memory.md).  A second Log (after a power cut) makes its own.  Its
# bytes mean nothing between the log's calls: others may write it then.
_first_buf = [bytearray(SEGMENT_BYTES)]
_HEADER = rec.SEGMENT_HEADER_SIZE
_RUN = const(16)  # slots alternating between two folders
_LAST = const(64)  # a throw's record is about 22 bytes framed; a game's header may be longer


class StoreFull(Exception):
    """The flash has no room for another record: sync with the host first.

    Nothing was written: the log and the tally are intact."""


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def is_dir(path):
    try:
        return os.stat(path)[0] & 0x4000 != 0
    except OSError:
        return False


def remove(path):
    """Remove a file, or an empty folder, if it is there."""
    try:
        os.remove(path)
    except OSError:
        try:
            os.rmdir(path)
        except OSError:
            pass


def read_into(path, view):
    """Read the file into the memoryview; its length, or -1 if it cannot be
    read, -2 if it is longer than the view."""
    try:
        with open(path, "rb") as f:
            n = f.readinto(view)
            if n == len(view) and f.read(1):
                return -2
            return n or 0
    except OSError:
        return -1


def read_file(path):
    """The file's bytes, or None if it cannot be read (host side and small files).
    Read at its size: f.read() would take 256 bytes at once whatever the
    file's length, a run a fragmented heap may no longer have."""
    try:
        with open(path, "rb") as f:
            size = f.seek(0, 2)
            f.seek(0)
            return f.read(size)
    except OSError:
        return None


def write_file(path, data, temp=None):
    """Write data (bytes-like, or a tuple of them written one after another:
    no joined copy in the heap) to path, through `temp` and a rename when
    given (LittleFS renames atomically).  StoreFull when the flash is full;
    a temp file left by the failure is removed."""
    try:
        with open(temp or path, "wb") as f:
            for part in data if type(data) is tuple else (data,):
                f.write(part)
        if temp:
            os.rename(temp, path)
    except OSError as e:
        if temp:
            remove(temp)
        if e.args[0] == _ENOSPC:
            raise StoreFull() from None
        raise


def free_blocks(path):
    """(free blocks, total blocks, bytes per block) of the filesystem holding path.

    LittleFS walks the whole filesystem for this: call it after housekeeping,
    never per throw."""
    st = os.statvfs(path)
    # LittleFS counts each directory's blocks twice, so on a small filesystem
    # the free count can go below zero and wrap around: that is none free.
    return st[3] if st[3] <= st[2] else 0, st[2], st[0]


class Log:
    """Segments and slots under `root`; `tip` is the last durable sequence number.

    `buf` (SEGMENT_BYTES) is the log's scratch during its calls only: boot
    reads every file through it, seal() gathers the pending records
    (last_end + 1 .. tip, `pending` bytes framed after the segment header's
    room) from their slots into it.  Between calls its bytes mean nothing,
    so it can be lent (bowl.py lends it to the colour screen).  A record is
    framed in `_last` (kept, _LAST bytes), or in buf if it is longer."""

    def __init__(self, root):
        self.root = root
        self.seg_dir = root + "/seg"
        self.buf = _first_buf.pop() if _first_buf else bytearray(SEGMENT_BYTES)
        self.pending = _HEADER
        self.segments = []  # first sequence numbers, ascending (see all_segments)
        self.complete = False  # True once self.segments holds every segment file
        self.hint = (0, 0)  # (previous, newest) segment's first seq, kept in the counters
        self.last_end = 0  # last sequence number of the newest segment
        self.tip = 0
        self._chain = bytearray(rec.CHAIN_SIZE)  # chain(tip), once _last[:_hash_to] is in
        self._last = bytearray(_LAST)  # the newest record, if it fits
        self._hash_to = 0  # the newest record, _last[:_hash_to], if not hashed in yet
        self.pending_chain = rec.GENESIS  # chain(last_end): the next segment's header value
        self.key = None  # the key the records appended now are chained under (None: plain SHA-256)
        self.keys: tuple = ()  # every key a segment header may be signed with (bobing/keyed.py)
        self.new_store = False  # create_dirs() found no store (a first power-up, or a store lost)
        self.migrated = False  # boot read slots at their paths from before issue 24: seal them

    def hash_pending(self):
        """Fold the newest record into the chain.  append() leaves it to later
        (the next append, a seal, or the caller's maintain(), after the
        display): SHA-256 is the largest cost of a throw, and its hasher
        and digest the largest garbage."""
        if self._hash_to:
            # into the kept buffer: a new digest kept per throw would
            # scatter long-lived objects over the heap and fragment it
            self._chain[:] = rec.chain_next(self._chain, self._last, 0, self._hash_to, self.key)
            self._hash_to = 0
        return self._chain

    @property
    def chain(self):
        """chain(tip), in a buffer the log reuses: copy what you keep."""
        return self.hash_pending()

    @chain.setter
    def chain(self, value):
        self._chain[:] = value
        self._hash_to = 0

    def slot_path(self, seq, old=False):
        """Record seq's slot file.  Two records in a row are never in one
        folder (each run of 16 alternates between two folders): a folder that
        LittleFS rolls back loses its newest commits, and unless that is the
        newest record alone, a later record in the other folder shows the gap.
        `old`: the path a store written before issue 24 used (8 in a row)."""
        i = seq % SLOTS
        if old:
            return "%s/s%d/%d" % (self.root, i // SLOTS_PER_DIR, i % SLOTS_PER_DIR)
        return "%s/s%d/%d" % (self.root, self.slot_folder(seq), i % _RUN >> 1)

    def slot_folder(self, seq):
        i = seq % SLOTS
        return i // _RUN * 2 + (i & 1)

    def segment_path(self, first):
        return "%s/%08x" % (self.seg_dir, first)

    def create_dirs(self):
        """Make the store's folders; returns the slot folders that had to be
        made again (missing, or a file in their place) in a store in use.
        seg/ is made last, so a store whose seg/ exists had all its folders."""
        in_use = is_dir(self.seg_dir)
        self.new_store = not in_use
        remade = []
        for d in range(-1, SLOT_DIRS + 1):
            path = self.root if d < 0 else self.seg_dir if d == SLOT_DIRS else "%s/s%d" % (self.root, d)
            if not is_dir(path):
                remove(path)  # a file in a folder's place
                os.mkdir(path)
                if in_use and 0 <= d < SLOT_DIRS:
                    remade.append(d)
        return remade

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
                    first = int(name, 16)
                except ValueError:
                    continue
                if 0 < first < 0x7FFFFFFF:  # a stray name is not a segment
                    firsts.append(first)
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
        if not self.complete and newest and oldest <= from_seq and exists(self.segment_path(newest)):
            if not prev or exists(self.segment_path(prev)):
                self.segments = [prev, newest] if prev else [newest]
                return self.segments
        return self.all_segments()

    def _read(self, path, issues):
        """The file's bytes as a view of buf, or None (reported) if unreadable."""
        n = read_into(path, memoryview(self.buf))
        if n < 0:
            issues.append("%s: unreadable or too long" % path[len(self.root) + 1 :])
            return None
        return memoryview(self.buf)[:n]

    def scan(self, verifier, from_seq, on_record, on_segment=None):
        """Read the log from the segment holding from_seq (or the first) to the
        newest slot; on_record(seq, data, payload_start, payload_end, game_start)
        for every intact record at or after from_seq (data is a view of the
        reused buffer: copy what you keep), on_segment(index, last seq,
        verified chain there or None) after each segment.  Sets tip, chain
        and pending."""
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
            data = self._read(self.segment_path(first), verifier.issues)
            if data is not None:
                self.last_end = verifier.segment(data, first, "segment %08x" % first, wanted)
                if on_segment is not None:
                    on_segment(index, self.last_end, verifier.chain)
            index += 1
            following = self.last_end + 1
            if index == len(segments) and following not in segments and not self.complete:
                if exists(self.segment_path(following)):
                    segments.append(following)  # sealed after the hint was saved (a power cut)
        self.pending_chain = verifier.chain if verifier.chain is not None else rec.reanchor(self.last_end)
        verifier.key = self.key  # the pending records: chained under the log's key
        self._scan_slots(verifier, wanted)

    def _load_slots(self, first, last):
        """Read slot files for records first .. last into buf after the
        header's room, `pending` bytes, in order, keeping those that hold
        exactly the record expected there (a damaged one is left out: a gap,
        which every reader reports as lost records).  Returns (newest record
        seen in any slot, sequence numbers of damaged slots).  A slot file
        missing or empty once the ring went round (seq > SLOTS) is damaged:
        LittleFS leaves a rewritten file either old or new, never empty."""
        view = memoryview(self.buf)
        self.pending = _HEADER
        newest = 0
        damaged = []
        old = False  # the store is from before issue 24: its slots at their old paths
        for seq in range(first, last + 1):
            n, found = self._read_slot(view, seq, old)
            if seq == first and (found is None or found[0] != seq):
                # the first pending record not at its path: where the layout
                # before issue 24 kept it?  (Once: no read more per slot.)
                n_old, at_old = self._read_slot(view, seq, True)
                if at_old is not None and at_old[0] == seq:
                    old = self.migrated = True
                    n, found = n_old, at_old
            if found is None:
                if n != 0 and (n != -1 or exists(self.slot_path(seq))) or seq > SLOTS:
                    damaged.append(seq)
                continue
            newest = max(newest, found[0])
            if found[0] == seq:
                self.pending += n
        return newest, damaged

    def _read_slot(self, view, seq, old):
        """(length, decode() of the record) of seq's slot file read into
        view after `pending`; the record is None unless the file holds
        exactly one intact record."""
        n = read_into(self.slot_path(seq, old), view[self.pending :])
        if n <= 0:
            return n, None
        found = rec.decode(view[: self.pending + n], self.pending, seq)
        return n, found if found is not None and found[1] == self.pending + n else None

    def _scan_slots(self, verifier, on_record):
        first = self.last_end + 1
        newest, damaged = self._load_slots(first, first + SLOTS - 1)
        if newest >= first + SLOTS:
            # A slot holds a record newer than the ring can: the newest segment
            # is missing, and the records between it and the ring are lost.
            first = newest - SLOTS + 1
            newest, damaged = self._load_slots(first, first + SLOTS - 1)
            # the next segment starts at the first record the slots hold, after
            # a re-anchored gap: never a segment that claims the lost records
            self.last_end = first - 1
            self.pending_chain = rec.reanchor(first - 1)
        # Feed the records read, in order, from the buffer.
        buf = self.buf
        pos = _HEADER
        tip = first - 1
        gaps = 0  # bit f: slot folder f lost a record (a rollback loses its newest)
        while pos < self.pending:
            seq, end, payload_start, game_start = rec.decode(buf, pos, tip + 1)
            for lost in range(tip + 1, min(seq, tip + 1 + SLOTS)):
                gaps |= 1 << self.slot_folder(lost)
            where = "slot file %s" % self.slot_path(seq)
            if verifier.feed(seq, buf, pos, end, payload_start, where):
                on_record(seq, buf, payload_start, end - 4, game_start)
            tip = seq
            pos = end
        for seq in damaged:
            # Before the tip the verifier reported the gap; after it, a damaged
            # copy of a record already sealed is harmless, but a damaged newest
            # record is lost and its number is never used again.
            path = self.slot_path(seq)
            if seq > tip and self._slot_held(path, seq):
                verifier.lost(seq, seq, "slot file %s damaged" % path)
                tip = seq
        if tip < verifier.next_seq - 1:
            tip = verifier.next_seq - 1
        if gaps >> self.slot_folder(tip + 1) & 1:
            # the folder that lost records was the next one's: a rolled-back
            # folder loses its newest commits, so the next record may be gone too
            verifier.lost(tip + 1, tip + 1, "slot file %s: its folder lost records" % self.slot_path(tip + 1))
            tip += 1
        self.tip = tip
        self.chain = verifier.chain if verifier.chain is not None else rec.reanchor(tip)

    def _slot_held(self, path, seq):
        """Whether a damaged slot file may have held record `seq` (then it is
        lost), rather than the older record seq - SLOTS, whose sealed copy is
        intact: its sequence bytes (after a 1- or 2-byte length) tell."""
        data = read_file(path) or b""
        old = (seq - SLOTS) & 0xFFFF
        for at in (1, 2):
            if len(data) >= at + 2 and data[at] | data[at + 1] << 8 == old:
                return False
        return True  # cannot tell: count it as lost, so no number is reused

    def append(self, payload, game_start):
        """Write record tip + 1 durably (LittleFS commits the slot file on close).
        StoreFull, with nothing written, if the flash has no room."""
        seq = self.tip + 1
        size = rec.frame_size(len(payload))
        if seq - self.last_end > SLOTS or self.pending + size > SEGMENT_BYTES:
            self.seal()  # only when maintain() was not called since the last throws
        frame = self._last if size <= _LAST else self.buf
        end = rec.frame_into(frame, 0, seq, self.chain, payload, game_start)
        write_file(self.slot_path(seq), memoryview(frame)[:end])
        self.tip = seq
        if frame is self._last:
            self._hash_to = end
        else:  # hashed now: buf is lent between the log's calls
            self._chain[:] = rec.chain_next(self._chain, frame, 0, end, self.key)
        self.pending += end
        return seq

    def needs_seal(self):
        return self.tip - self.last_end >= SLOTS or self.pending > SEGMENT_BYTES - SEAL_MARGIN

    def seal(self):
        """Write the pending records as a new segment (temp file + rename);
        False if none are pending.  StoreFull if the flash cannot take it."""
        if self.tip == self.last_end:
            return False
        if free_blocks(self.root)[0] < RESERVE_BLOCKS:
            raise StoreFull()
        first = self.last_end + 1
        self._load_slots(first, self.tip)  # the pending records, back from their slots
        rec.segment_header_into(self.buf, first, self.tip, self.pending_chain, self.key)
        write_file(self.segment_path(first), memoryview(self.buf)[: self.pending], self.seg_dir + "/new")
        self.segments.append(first)
        self.last_end = self.tip
        self.pending_chain = bytes(self.chain)
        self.pending = _HEADER
        return True

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
        header = bytearray(_HEADER)
        try:
            with open(self.segment_path(self.segments[index + 1]), "rb") as f:
                f.readinto(header)
        except OSError:
            return None
        header = rec.parse_segment_header(header, self.keys)
        return None if header is None else header[2]

    def acked_segment(self, last_seq, chain):
        """Index of the segment ending at last_seq whose chain there is `chain`, or -1."""
        ends = self.segment_ends()
        for i in range(len(ends)):
            if ends[i][1] == last_seq:
                return i if self.chain_after(i) == chain else -1
        return -1

    def release(self, through):
        """Delete the segments whose records all lie at or before `through`,
        except the newest.  Returns how many were deleted."""
        ends = self.segment_ends()
        deleted = 0
        for first, last in ends[:-1]:
            if last <= through:
                os.remove(self.segment_path(first))
                self.segments.remove(first)
                deleted += 1
        return deleted
