"""Tally snapshots: the game state at a log sequence number, kept in two generations.

A snapshot is written to `snap.tmp` and renamed over the older of `snap.a`
and `snap.b` (LittleFS renames atomically), so a power cut leaves either
the old or the new file, and a damaged newest snapshot still leaves the
previous one, whose log tail is kept until it is superseded.

File layout (all integers little-endian):
    4 bytes   magic b"BBS1"
    4 bytes   sequence number of the last record the state includes
    32 bytes  chain value at that record
    n bytes   the state (opaque: Game.snapshot())
    4 bytes   CRC-32 of everything before it
"""

import struct
from binascii import crc32

from bobing.store.log import exists, read_into, remove, write_file

MAGIC = b"BBS1"
NAMES = ("snap.a", "snap.b")


def decode(data):
    """(seq, chain, state) or None if the bytes are not an intact snapshot."""
    if data is None or len(data) < 44 or bytes(data[:4]) != MAGIC:
        return None
    if crc32(memoryview(data)[:-4]) != struct.unpack_from("<I", data, len(data) - 4)[0]:
        return None
    return struct.unpack_from("<I", data, 4)[0], bytes(data[8:40]), bytes(data[40:-4])


class Snapshots:
    """The two snapshot generations under root."""

    def __init__(self, root):
        self.root = root
        self.newest = None  # (seq, chain, state) of the newest intact snapshot
        self.older_seq = 0  # seq of the other intact one (0: none): its tail is kept
        self._next = NAMES[0]  # the file the next save replaces
        self.damaged = 0  # snapshot files found unreadable at load

    def remove_temp(self):
        path = self.root + "/snap.tmp"
        found = exists(path)
        remove(path)
        return found

    def load(self, issues, scratch):
        """Read both generations through `scratch` (a memoryview, the log's
        segment buffer before boot reads the log into it: no file image in
        the heap); damaged ones are reported in issues."""
        found = []
        self.damaged = 0
        for name in NAMES:
            path = self.root + "/" + name
            n = read_into(path, scratch)
            data = scratch[:n] if n >= 0 else b"?" if n == -2 else None  # b"?": too long to be one
            snap = decode(data)
            if snap is None:
                if data and bytes(data[:3]) == MAGIC[:3] and bytes(data[3:4]) != MAGIC[3:]:
                    issues.append("snapshot %s: format %r not supported: ignored" % (name, bytes(data[:4])))
                elif data is not None:
                    issues.append("snapshot %s damaged: ignored" % name)
                self.damaged += data is not None
                self._next = name
            else:
                found.append((snap[0], name, snap))
        found.sort()
        self.newest = found[-1][2] if found else None
        self.older_seq = found[0][0] if len(found) == 2 else 0
        if len(found) == 2:
            self._next = found[0][1]

    def save(self, seq, chain, state):
        """Write a snapshot of `state` (bytes) as of record seq."""
        # written in three parts: the state (about 250 bytes for 10 players)
        # is never copied into a joined file image
        head = MAGIC + struct.pack("<I", seq) + chain
        tail = struct.pack("<I", crc32(state, crc32(head)))
        write_file(self.root + "/" + self._next, (head, state, tail), self.root + "/snap.tmp")
        self.older_seq = self.newest[0] if self.newest else 0
        self.newest = (seq, bytes(chain), bytes(state))
        self._next = NAMES[1] if self._next == NAMES[0] else NAMES[0]

    def keep_after(self):
        """Records after this seq must stay on flash: the tails of both snapshots."""
        if self.newest is None:
            return 0
        return self.older_seq if self.older_seq else self.newest[0]
