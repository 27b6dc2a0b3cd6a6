"""Lifetime counters: games, throws and power-cut recoveries.

Throws come from the log itself (every record has a sequence number that
only grows, and the game-start records are counted apart), so they cost no
write.  Games and recoveries live in two copies, `count.a` and `count.b`,
written alternately: a power cut or a damaged copy leaves the other one,
and the larger value of the intact copies wins.  The log's own numbers are
folded in again at boot, so nothing but erasing the flash resets them.

The copies also keep the last sequence number the host acknowledged, so a
segment deleted without an acknowledgement shows as missing, and the first
sequence numbers of the two newest segments, so boot need not list seg/.

File layout (36 bytes, integers little-endian):
    4 bytes magic b"BBC2", then u32 generation, games, recoveries, the log
    sequence number the counts include, the last acknowledged sequence
    number, the previous and the newest segment's first sequence number
    (0: none), then a CRC-32 of those 32 bytes.
"""

import struct
from binascii import crc32

from bobing.store.log import read_file

MAGIC = b"BBC2"
_FIELDS = "<IIIIIII"
_SIZE = 36
NAMES = ("count.a", "count.b")


class Counters:
    """games, recoveries, seq (log sequence number counted up to), acked, and
    prev_segment / newest_segment (a hint: every value only grows)."""

    def __init__(self, root):
        self.root = root
        self.generation = 0
        self.games = 0
        self.recoveries = 0
        self.seq = 0  # game-start records up to here are included in games
        self.acked = 0  # the host acknowledged every record up to here
        self.prev_segment = 0
        self.newest_segment = 0

    def load(self, issues):
        for name in NAMES:
            data = read_file(self.root + "/" + name)
            if not data:
                continue  # never written, or created empty by a write the power cut
            if (
                len(data) != _SIZE
                or data[:4] != MAGIC
                or crc32(memoryview(data)[: _SIZE - 4]) != struct.unpack_from("<I", data, _SIZE - 4)[0]
            ):
                issues.append("counter copy %s damaged: the other copy is used" % name)
                continue
            values = struct.unpack_from(_FIELDS, data, 4)
            self.generation = max(self.generation, values[0])
            self.games = max(self.games, values[1])
            self.recoveries = max(self.recoveries, values[2])
            self.seq = max(self.seq, values[3])
            self.acked = max(self.acked, values[4])
            if values[6] > self.newest_segment:
                self.prev_segment, self.newest_segment = values[5], values[6]

    def save(self):
        """Write the copy not written last; one small file, committed on close."""
        self.generation += 1
        body = MAGIC + struct.pack(
            _FIELDS,
            self.generation,
            self.games,
            self.recoveries,
            self.seq,
            self.acked,
            self.prev_segment,
            self.newest_segment,
        )
        with open(self.root + "/" + NAMES[self.generation & 1], "wb") as f:
            f.write(body + struct.pack("<I", crc32(body)))
