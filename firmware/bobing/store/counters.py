"""Lifetime counters: games, throws and power-cut recoveries.

Throws come from the log itself (every record has a sequence number that
only grows, and the game-start records are counted apart), so they cost no
write.  Games and recoveries live in two copies, `count.a` and `count.b`,
written alternately: a power cut or a damaged copy leaves the other one,
and the larger value of the intact copies wins.  The log's own numbers are
folded in again at boot, so nothing but erasing the flash resets them.

The copies also keep the last sequence number the host acknowledged, so a
segment deleted without an acknowledgement shows as missing.

File layout (28 bytes, integers little-endian):
    4 bytes magic b"BBC1", then u32 generation, games, recoveries, the log
    sequence number the counts include and the last acknowledged sequence
    number, then a CRC-32 of those 24 bytes.
"""

import struct
from binascii import crc32

from bobing.store.log import read_file

MAGIC = b"BBC1"
NAMES = ("count.a", "count.b")


class Counters:
    """games, recoveries, seq (log sequence number counted up to) and acked."""

    def __init__(self, root):
        self.root = root
        self.generation = 0
        self.games = 0
        self.recoveries = 0
        self.seq = 0  # game-start records up to here are included in games
        self.acked = 0  # the host acknowledged every record up to here

    def load(self, issues):
        for name in NAMES:
            data = read_file(self.root + "/" + name)
            if not data:
                continue  # never written, or created empty by a write the power cut
            if (
                len(data) != 28
                or data[:4] != MAGIC
                or crc32(memoryview(data)[:24]) != struct.unpack_from("<I", data, 24)[0]
            ):
                issues.append("counter copy %s damaged: the other copy is used" % name)
                continue
            generation, games, recoveries, seq, acked = struct.unpack_from("<IIIII", data, 4)
            self.generation = max(self.generation, generation)
            self.games = max(self.games, games)
            self.recoveries = max(self.recoveries, recoveries)
            self.seq = max(self.seq, seq)
            self.acked = max(self.acked, acked)

    def save(self):
        """Write the copy not written last; one small file, committed on close."""
        self.generation += 1
        body = MAGIC + struct.pack(
            "<IIIII", self.generation, self.games, self.recoveries, self.seq, self.acked
        )
        with open(self.root + "/" + NAMES[self.generation & 1], "wb") as f:
            f.write(body + struct.pack("<I", crc32(body)))
