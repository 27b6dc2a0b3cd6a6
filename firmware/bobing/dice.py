"""Fair dice from a byte source.

A byte is uniform on 0..255; 256 is not a multiple of 6, so `byte % 6` would
favour faces 1-4 (43 chances against 42).  Bytes 252..255 are thrown away
instead (rejection sampling), which makes every face exactly 1/6.

The byte source is a function n -> n bytes: os.urandom on both runtimes (the
ESP32's hardware RNG), or SeededBytes for tests and simulations.
"""

from micropython import const

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
    bytes on MicroPython and CPython, so a simulated game replays anywhere.

    The 32-bit state is kept as two 16-bit halves so every intermediate value
    stays a small int (below 2**30) on a 32-bit port: no long ints per call.
    """

    def __init__(self, seed):
        hi = (seed >> 16) & 0xFFFF  # the low 32 bits of the seed, as before
        lo = seed & 0xFFFF
        if not hi and not lo:
            hi, lo = 0x9E37, 0x79B9  # xorshift never leaves 0: any other start
        self._hi = hi
        self._lo = lo

    def __call__(self, n):
        out = bytearray(n)
        hi = self._hi
        lo = self._lo
        for i in range(n):
            # x ^= x << 13 (mod 2**32)
            hi ^= ((hi << 13) | (lo >> 3)) & 0xFFFF
            lo ^= (lo << 13) & 0xFFFF
            # x ^= x >> 17: only the high half reaches the low one
            lo ^= hi >> 1
            # x ^= x << 5 (mod 2**32)
            hi ^= ((hi << 5) | (lo >> 11)) & 0xFFFF
            lo ^= (lo << 5) & 0xFFFF
            out[i] = hi >> 8
        self._hi = hi
        self._lo = lo
        return bytes(out)
