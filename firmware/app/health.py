"""Health tests on every random byte, in the spirit of NIST SP 800-90B section 4.4.

The dice's bytes (board.random_bytes: os.urandom, the ESP32's hardware RNG)
pass through both tests before bobing.dice sees them.  A failure raises
RngFailure, so no die is ever made from a byte that failed; the bowl then
shows "out of service", never rolls again until restarted, and logs it.

Cut-offs, for a false-alarm rate alpha = 2^-30 on a source of H = 8 bits of
min-entropy per byte (a healthy RNG byte: every value p = 2^-8):

- Repetition count test (4.4.1): C = 1 + ceil(-log2(alpha) / H)
  = 1 + ceil(30 / 8) = 5: five equal bytes in a row fail (a healthy source
  does that with probability 2^-32 per byte).
- Adaptive proportion test (4.4.2), window W = 512 (non-binary samples): the
  window's first byte A, then B counts A in the window; C is the smallest c
  with P(B >= c) <= alpha for B = 1 + Binomial(W - 1, 2^-H):
  C = 17 (P(B >= 17) = 3.9e-10 <= 2^-30 = 9.3e-10).

At boot, start() runs _STARTUP_BYTES (1,024, as 4.3 asks) through the tests
before the first die.
"""

from micropython import const

RCT_CUTOFF = const(5)
APT_WINDOW = const(512)
APT_CUTOFF = const(17)
_STARTUP_BYTES = const(1024)


class RngFailure(Exception):
    """The random source failed a health test: never roll from it again."""


class HealthyBytes:
    """A byte source n -> n bytes (for bobing.dice.Dice) that tests every byte."""

    def __init__(self, source):
        self._source = source
        self.failed = ""  # "" while healthy, else which test failed
        self._last = -1
        self._run = 0
        self._ref = -1
        self._seen = 0
        self._pos = 0

    def start(self):
        """The start-up test; RngFailure if it fails."""
        done = 0
        while done < _STARTUP_BYTES:
            self(64)
            done += 64

    def __call__(self, n):
        if self.failed:
            raise RngFailure(self.failed)
        data = self._source(n)
        if len(data) != n:
            self._fail("short read")
        for b in data:
            # repetition count: the same byte RCT_CUTOFF times in a row
            if b == self._last:
                self._run += 1
                if self._run >= RCT_CUTOFF:
                    self._fail("repetition count test")
            else:
                self._last = b
                self._run = 1
            # adaptive proportion: the window's first byte APT_CUTOFF times in APT_WINDOW
            if self._pos == 0:
                self._ref = b
                self._seen = 1
            elif b == self._ref:
                self._seen += 1
                if self._seen >= APT_CUTOFF:
                    self._fail("adaptive proportion test")
            self._pos += 1
            if self._pos == APT_WINDOW:
                self._pos = 0
        return data

    def _fail(self, test):
        self.failed = test
        raise RngFailure(test)
