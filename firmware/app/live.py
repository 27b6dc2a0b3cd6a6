"""Live events: one JSON object a line on the USB serial, for the host.

docs/events.md is the schema.  Keys come in a fixed order, seats 1-based,
tiers and kinds by the ids of bobing.names (as `bobing replay --json`
names them).

A line is written into one buffer of _PIECE bytes, made once, and goes
out (board.serial.write) each time the buffer is full and at the line's
end, never built whole: the end of a large table's game is a long line,
and one string that long wants a free run of heap that a long game may no
longer have.  Nor is it built from % pieces: every piece would be a string
left behind on every throw (docs/memory.md has the figures).  A throw's
line allocates only the view of its last piece; a line that fills the
buffer exactly ends with a write of the whole buffer.
"""

from micropython import const

from bobing import events as ev
from bobing.names import KINDS, TIERS
from bobing.rules import PRESETS

_PIECE = const(64)  # bytes of a line written at once


def _ids(names):
    # (the names' bytes run together, where each starts): the kind and tier
    # ids copied byte by byte with no allocation (a str's own bytes are only
    # reached through a new memoryview, and a 1-character str indexed out of
    # one becomes a qstr)
    joined = "".join(names).encode()
    starts = bytearray(len(names) + 1)
    for i in range(len(names)):
        starts[i + 1] = starts[i] + len(names[i])
    return joined, bytes(starts)


_KIND_IDS, _KIND_AT = _ids(KINDS)
_TIER_IDS, _TIER_AT = _ids(TIERS)


class Live:
    def __init__(self, serial):
        self.write = serial.write
        self._buf = bytearray(_PIECE)
        self._view = memoryview(self._buf)
        self._n = 0  # bytes of the line in the buffer

    # --- the line buffer --------------------------------------------------------

    def _byte(self, b):
        n = self._n
        if n == _PIECE:
            self.write(self._buf)
            n = 0
        self._buf[n] = b
        self._n = n + 1

    def _put(self, data):
        """A bytes constant (its object points into the flash: no copy)."""
        n = self._n
        k = len(data)
        if n + k <= _PIECE:
            self._buf[n : n + k] = data
            self._n = n + k
        else:
            for b in data:
                self._byte(b)

    def _int(self, n):
        """n >= 0 in decimal."""
        unit = 1
        while unit * 10 <= n:
            unit *= 10
        while unit:
            self._byte(48 + n // unit % 10)
            unit //= 10

    def _id(self, joined, starts, i):
        """The i-th kind or tier id, quoted."""
        self._byte(34)
        for at in range(starts[i], starts[i + 1]):
            self._byte(joined[at])
        self._byte(34)

    def _text(self, s):
        """Any str, quoted, its double quotes as single ones (rare lines only:
        the memoryview of its bytes is an allocation)."""
        self._byte(34)
        for b in memoryview(s):
            self._byte(39 if b == 34 else b)
        self._byte(34)

    def _end(self):
        """The line's end: the rest of the buffer goes out."""
        self._byte(10)
        self.write(self._buf if self._n == _PIECE else self._view[: self._n])
        self._n = 0

    # --- the parts of a line ------------------------------------------------------

    def _tiers(self, counts, every=True, at=0):
        # {"yixiu": n, ...} of counts[at:at + 6]: every tier, or (every False) the non-zero counts only
        sep = b"{"
        for t in range(6):
            n = counts[at + t]
            if every or n:
                self._put(sep)
                self._id(_TIER_IDS, _TIER_AT, t)
                self._put(b": ")
                self._int(n)
                sep = b", "
        self._put(b"{}" if sep == b"{" else b"}")

    def _faces(self, faces):
        sep = b"["
        for face in faces:
            self._put(sep)
            self._int(face)
            sep = b", "
        self._put(b"]")

    def _code(self, code):
        # the six faces of a dice code (bobing.events.dice_code), first die first
        sep = b"["
        unit = 7776
        while unit:
            self._put(sep)
            self._int(code // unit % 6 + 1)
            unit //= 6
            sep = b", "
        self._put(b"]")

    def _seat_set(self, bits, count):
        # [1, 3]: the 1-based numbers of the bits set, of `count`
        self._put(b"[")
        sep = b""
        for i in range(count):
            if bits & (1 << i):
                self._put(sep)
                self._int(i + 1)
                sep = b", "
        self._put(b"]")

    # --- the lines ------------------------------------------------------------------

    def game(self, game, resumed, last):
        """A game started, or resumed after a power cut (`last`: the Outcome
        shown again, or None)."""
        self._put(b'{"event": "game", "players": ')
        self._int(game.players)
        self._put(b', "rules": ')
        self._text(PRESETS[game.rules.preset_id])
        self._put(b', "sets": ')
        self._int(game.sets)
        self._put(b', "first": ')
        self._int(game.first_seat + 1)
        self._put(b', "resumed": true' if resumed else b', "resumed": false')
        self._put(b', "throws": ')
        self._int(game.batches)
        self._put(b', "last": ')
        if last is None:
            self._put(b"null}")
        else:
            self._put(b'{"seat": ')
            self._int(last.seat + 1)
            if last.void:
                self._put(b', "dice": null, "void": true}}')
            else:
                self._put(b', "dice": ')
                self._faces(last.faces)
                self._put(b"}}")
        self._end()

    def turn(self, game, out):
        """A throw or a void, once it is durable."""
        self._put(b'{"event": "void", "n": ' if out.void else b'{"event": "throw", "n": ')
        self._int(game.batches)
        self._put(b', "seat": ')
        self._int(out.seat + 1)
        if not out.void:
            self._put(b', "dice": ')
            self._faces(out.faces)
            self._put(b', "kind": ')
            self._id(_KIND_IDS, _KIND_AT, out.award & 15)
            self._put(b', "won": ')
            self._tiers(out.won, False)
            self._put(b', "taken": ')
            self._tiers(out.taken, False)
        self._put(b', "missed": [')
        sep = b""
        for t in range(6):
            if out.missed & (1 << t):
                self._put(sep)
                self._id(_TIER_IDS, _TIER_AT, t)
                sep = b", "
        self._put(b'], "shared": ')
        self._tiers(out.shared, False)
        self._put(b', "skipped": ')
        self._seat_set(out.skipped, game.players)
        self._put(b', "zhuangyuan": ')
        seat = game.holder()
        if seat == ev.NO_SEAT:
            self._put(b"null")
        else:
            self._int(seat + 1)
        self._put(b', "remaining": ')
        self._tiers(game.remaining)
        self._put(b"}")
        self._end()

    def end(self, game, audit):
        self._put(b'{"event": "end", "reason": ')
        self._text(game.end_reason_name())
        self._put(b', "throws": ')
        self._int(game.batches)
        self._put(b', "zhuangyuan": ')
        seat = game.holder()
        if seat == ev.NO_SEAT:
            self._put(b"null")
        else:
            self._put(b'{"player": ')
            self._int(seat + 1)
            self._put(b', "dice": ')
            self._code(game.zy_dice[seat])
            self._put(b', "kind": ')
            self._id(_KIND_IDS, _KIND_AT, game.zy_kind[seat])
            self._put(b"}")
        self._put(b', "holdings": {')
        for s in range(game.players):
            self._put(b', "' if s else b'"')
            self._int(s + 1)
            self._put(b'": ')
            self._tiers(game.holdings, True, s * 6)
        self._put(b'}, "shared": ')
        self._tiers(game.shared)
        self._put(b', "audit": ')
        self._text(audit)
        self._put(b"}")
        self._end()

    def sync(self):
        """The app has left its loop for the host's sync (docs/sync.md)."""
        self._put(b'{"event": "sync"}')
        self._end()

    def status(self, what, detail):
        """Anything else the host should know: what in out_of_service,
        flash_full, flash_warning, settings, resumed_issue, stuck, idle,
        waiting (booted with no game in play)."""
        self._put(b'{"event": ')
        self._text(what)
        self._put(b', "detail": ')
        self._text(detail)
        self._put(b"}")
        self._end()
