"""Lifetime counters, the current game's first record, and hints for boot.

Throws come from the log itself (every record has a sequence number that
only grows, and the game-start and note records are counted apart), so they
cost no write.  Games and recoveries live in two copies, `count.a` and
`count.b`, written alternately: a power cut or a damaged copy leaves the
other one, and the larger value of the intact copies wins.  Boot counts the
game-start and note records after `counted` again, so a copy one save
behind loses nothing.

The copies also keep the last sequence number the host acknowledged (so a
segment deleted without an acknowledgement shows as missing), the record
that started the current game (boot replays from there when no snapshot is
intact) and the first sequence numbers of the two newest segments (so boot
need not list seg/).

File layout (44 bytes, integers little-endian):
    4 bytes magic b"BBC4", then u32 generation, games, recoveries, counted
    (the log sequence number the counts include), acked (the last
    acknowledged sequence number), game (the current game's header record,
    0: none), the previous and the newest segment's first sequence number
    (0: none), notes (the note records up to `counted`), then a CRC-32 of
    those 40 bytes.  A copy in the format before it, b"BBC3" (40 bytes,
    without notes), is read too: its notes count from 0.
"""

import struct
from binascii import crc32

from bobing.store.log import read_file, write_file

MAGIC = b"BBC4"
SIZES = {MAGIC: 44, b"BBC3": 40}  # the formats read, and their sizes
_FIELDS = "<IIIIIIIII"
NAMES = ("count.a", "count.b")


class Counters:
    """games, recoveries, counted, acked, game, prev_segment /
    newest_segment, and notes (every value only grows)."""

    def __init__(self, root):
        self.root = root
        self.generation = 0
        self.games = 0
        self.recoveries = 0
        self.counted = 0  # game-start records up to here are included in games
        self.acked = 0  # the host acknowledged every record up to here
        self.game = 0  # the current game's header record
        self.prev_segment = 0
        self.newest_segment = 0
        self.notes = 0  # note records up to `counted`: not throws

    def load(self, issues):
        for name in NAMES:
            data = read_file(self.root + "/" + name)
            if not data:
                continue  # never written, or created empty by a write the power cut
            magic = bytes(data[:4])
            if data[:3] == MAGIC[:3] and magic not in SIZES:
                issues.append("counter copy %s: format %s not supported: ignored" % (name, data[:4]))
                continue
            size = SIZES.get(magic, 0)
            if (
                len(data) != size
                or crc32(memoryview(data)[: size - 4]) != struct.unpack_from("<I", data, size - 4)[0]
            ):
                issues.append("counter copy %s damaged: the other copy is used" % name)
                continue
            values = struct.unpack_from(_FIELDS[: (size - 8) // 4 + 1], data, 4)
            self.generation = max(self.generation, values[0])
            self.games = max(self.games, values[1])
            self.recoveries = max(self.recoveries, values[2])
            self.counted = max(self.counted, values[3])
            self.acked = max(self.acked, values[4])
            self.game = max(self.game, values[5])
            if values[7] > self.newest_segment:
                self.prev_segment, self.newest_segment = values[6], values[7]
            if size == SIZES[MAGIC]:
                self.notes = max(self.notes, values[8])

    def save(self):
        """Write the copy not written last; one small file, committed on close."""
        self.generation += 1
        body = MAGIC + struct.pack(
            _FIELDS,
            self.generation,
            self.games,
            self.recoveries,
            self.counted,
            self.acked,
            self.game,
            self.prev_segment,
            self.newest_segment,
            self.notes,
        )
        write_file(self.root + "/" + NAMES[self.generation & 1], body + struct.pack("<I", crc32(body)))
