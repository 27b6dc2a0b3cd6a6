"""The serial's `sync` line: in kiosk mode it opens only to the bowl's key.

Family mode (kiosk off), or a bowl never given a key: `sync` opens at
once, as it always has (docs/sync.md).  A kiosk bowl with a key answers
`sync` with a challenge line

    {"event": "challenge", "bowl": "<id>", "key": <generation>, "nonce": "<32 hex digits>"}

(16 fresh bytes from the bowl's RNG), and opens only to the line
`auth <64 hex digits>`: HMAC-SHA256(key, "bobing sync " + the nonce's hex
digits).  A nonce takes one answer: a wrong one, or an answer to an older
nonce (a replay), gets {"event": "refused", "wait": S}, is logged as a note
record the next sync reports, and every `sync` is ignored for S seconds,
doubling with each wrong answer in a row up to _MAX_LOCK_MS.  Every other
line is ignored; Ctrl-C is off in kiosk mode (App.apply_settings), and the
raw REPL's Ctrl-A and Ctrl-D are bytes the app reads and drops: no REPL
runs while the app does.  docs/security.md is the threat model.
"""

from binascii import hexlify

from micropython import const

from app import settings as S
from bobing import keyed

_NONCE_BYTES = const(16)
_LOCK_MS = const(2000)  # after the first wrong answer
_MAX_LOCK_MS = const(64000)


def _same(a, b):
    """a == b in a time that does not tell where they first differ."""
    if len(a) != len(b):
        return False
    diff = 0
    for i in range(len(a)):
        diff |= a[i] ^ b[i]
    return diff == 0


class Gate:
    """The App's judge of its serial command lines (opens())."""

    def __init__(self, app):
        self.app = app
        loaded = keyed.load(app.board.flash_root)
        self.key = None if loaded is None else loaded[0]
        self.generation = 0 if loaded is None else loaded[1]
        self.nonce = None  # the hex digits of the challenge not yet answered
        self.fails = 0  # wrong answers in a row
        self.locked_at = 0  # ticks_ms of the last wrong answer

    def opens(self, line):
        """True if this received line opens the bowl for the host's sync."""
        app = self.app
        if line == b"sync":
            if self.key is None or not app.settings[S.KIOSK]:
                return True
            clock = app.clock
            if self.fails and clock.ticks_diff(clock.ticks_ms(), self.locked_at) < self._lock_ms():
                return False
            self.nonce = hexlify(app.board.random_bytes(_NONCE_BYTES))
            app.board.serial.write(
                '{"event": "challenge", "bowl": "%s", "key": %d, "nonce": "%s"}\n'
                % (app.session.store.bowl_id, self.generation, self.nonce.decode())
            )
            return False
        if self.nonce is None or line[:5] != b"auth ":
            return False
        from bobing.hmacsha import hmac_sha256  # loaded by the first answer: a family bowl never needs it

        expected = hexlify(hmac_sha256(self.key, b"bobing sync ", self.nonce))
        self.nonce = None
        if _same(expected, line[5:]):
            self.fails = 0
            return True
        self.fails += 1
        self.locked_at = app.clock.ticks_ms()
        app.note("sync refused: a wrong answer to the key's challenge (%d in a row)" % self.fails)
        app.board.serial.write('{"event": "refused", "wait": %d}\n' % (self._lock_ms() // 1000))
        return False

    def _lock_ms(self):
        return min(_LOCK_MS << min(self.fails - 1, 6), _MAX_LOCK_MS)
