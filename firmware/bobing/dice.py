"""Fair dice from a byte source.

A byte is uniform on 0..255; 256 is not a multiple of 6, so `byte % 6` would
favour faces 1-4 (43 chances against 42).  Bytes 252..255 are thrown away
instead (rejection sampling), which makes every face exactly 1/6.

The byte source is a function n -> n bytes: os.urandom on both runtimes (the
ESP32's hardware RNG), or SeededBytes for tests and simulations.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


_LIMIT = const(252)  # 42 * 6: the largest multiple of 6 that fits a byte


class Dice:
    """Rolls six dice at a time into one reused list (no allocation per roll)."""

    def __init__(self, source):
        self._source = source
        self._buf = b""
        self._pos = 0
        self.dice = [1] * 6

    def roll(self):
        """Six fair dice 1..6, in self.dice (the same list every time)."""
        d = self.dice
        buf = self._buf
        pos = self._pos
        i = 0
        while i < 6:
            if pos >= len(buf):
                buf = self._buf = self._source(16)
                pos = 0
            b = buf[pos]
            pos += 1
            if b < _LIMIT:
                d[i] = b % 6 + 1
                i += 1
        self._pos = pos
        return d


class SeededBytes:
    """A reproducible byte source (xorshift32): the same seed gives the same
    bytes on MicroPython and CPython, so a simulated game replays anywhere."""

    def __init__(self, seed):
        self._state = (seed & 0xFFFFFFFF) or 0x9E3779B9

    def __call__(self, n):
        out = bytearray(n)
        x = self._state
        for i in range(n):
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            out[i] = x >> 24
        self._state = x
        return bytes(out)
