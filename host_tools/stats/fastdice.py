"""Dice for simulations, rolled in bulk: the very stream of bobing.dice.Dice, faster.

bulk_throws(source) gives the same six faces, throw after throw, as
Dice(source).roll() over the same byte source: the bytes are mapped to faces and
the rejected ones (252..255) dropped in C by bytes.translate, not one by one.

seeded_bytes(seed) is bobing.dice.SeededBytes(seed) byte for byte, computed on
many stretches of the stream at once: xorshift32 is linear, so the state LANE_STEPS
bytes ahead is a fixed matrix times the state (JUMP), and LANES such stretches
advance together as 32-bit fields of one big int.  About ten times faster on
CPython, which is what keeps `bobing stats --seed` within its 10 s.
"""

from itertools import chain

_MASK = 0xFFFFFFFF
_FACES = bytes(b % 6 + 1 for b in range(256))  # byte b is face b % 6 + 1 ...
_REJECTED = bytes(range(252, 256))  # ... unless it is one of these (bobing.dice)
_CHUNK = 8192  # bytes asked of the source at a time
LANES = 256
LANE_STEPS = 256


def _step(x):
    x ^= (x << 13) & _MASK
    x ^= x >> 17
    return x ^ ((x << 5) & _MASK)


def _jump_tables():
    # The jump matrix (LANE_STEPS steps) as four tables, one per byte of the state:
    # tables[k][v] is where the state v << 8k goes, and the images of the four
    # bytes add up by xor (the map is linear), so a jump is four look-ups.
    columns = []  # the images of the 32 unit vectors
    for bit in range(32):
        x = 1 << bit
        for _ in range(LANE_STEPS):
            x = _step(x)
        columns.append(x)
    tables = []
    for k in range(4):
        table = [0] * 256
        for v in range(1, 256):
            low = v & -v  # v's lowest bit: v is that bit plus v ^ low, already done
            table[v] = table[v ^ low] ^ columns[8 * k + low.bit_length() - 1]
        tables.append(table)
    return tables


def _lane_mask(word):
    return int.from_bytes(word.to_bytes(4, "little") * LANES, "little")


class seeded_bytes:  # noqa: N801 (a drop-in for the SeededBytes class)
    """n -> the next n bytes of SeededBytes(seed)'s stream."""

    _jump = None

    def __init__(self, seed):
        self._state = seed & _MASK or 0x9E3779B9  # as SeededBytes: xorshift never leaves 0
        self._buf = b""
        self._pos = 0
        if seeded_bytes._jump is None:
            seeded_bytes._jump = (
                _jump_tables(),
                _lane_mask(0xFFFFE000),  # x << 13: drop what spilled into the next lane
                _lane_mask(0x00007FFF),  # x >> 17: drop what came down from the next lane
                _lane_mask(0xFFFFFFE0),  # x << 5
            )

    def _refill(self):
        (byte0, byte1, byte2, byte3), keep13, keep17, keep5 = self._jump
        starts = []
        x = self._state
        for _ in range(LANES):
            starts.append(x)
            x = byte0[x & 255] ^ byte1[x >> 8 & 255] ^ byte2[x >> 16 & 255] ^ byte3[x >> 24]
        lanes = 0
        for start in reversed(starts):
            lanes = lanes << 32 | start
        size = 4 * LANES
        rows = []
        for _ in range(LANE_STEPS):
            lanes ^= (lanes << 13) & keep13
            lanes ^= (lanes >> 17) & keep17
            lanes ^= (lanes << 5) & keep5
            rows.append(lanes.to_bytes(size + 4, "little")[3:size:4])  # each lane's top byte
        grid = b"".join(rows)  # row after row: byte j of row s is stream byte j * LANE_STEPS + s
        self._state = x  # LANES * LANE_STEPS bytes on
        return b"".join(grid[lane::LANES] for lane in range(LANES))

    def __call__(self, n):
        while len(self._buf) - self._pos < n:
            self._buf = self._buf[self._pos :] + self._refill()
            self._pos = 0
        start = self._pos
        self._pos += n
        return self._buf[start : self._pos]


def bulk_throws(source):
    """Dice(source).roll() in bulk: an endless iterator of throws, six faces each (tuples
    of ints 1..6), the very throws Dice(source) makes, with no Python code per throw."""
    return chain.from_iterable(_chunks_of_throws(source))


def _chunks_of_throws(source):
    # The throws of a chunk of the source, cut in C: zip takes six faces at a time
    # from one iterator.  A throw cut by the chunk's end goes on in the next chunk.
    faces = b""
    while True:
        faces += source(_CHUNK).translate(_FACES, _REJECTED)
        whole = len(faces) - len(faces) % 6
        yield zip(*[iter(faces[:whole])] * 6, strict=True)  # whole: a multiple of 6
        faces = faces[whole:]
