"""`bobing stats --seed` throws the very dice of bobing.dice, only faster: the same seed
gives the same games as the firmware's Dice(SeededBytes(seed)) (issue 12)."""

import os

import pytest

from bobing.dice import Dice, SeededBytes
from host_tools.stats.fastdice import LANE_STEPS, LANES, bulk_throws, seeded_bytes


@pytest.mark.parametrize("seed", [0, 1, 5, 12345, 2**32 - 1, 0x9E3779B9])
def test_seeded_bytes_are_the_firmware_stream_across_every_boundary(seed):
    fast, slow = seeded_bytes(seed), SeededBytes(seed)
    chunk = LANES * LANE_STEPS
    for n in (16, 1, chunk - 20, 3, 50, chunk * 2 + 7, 16):  # calls that straddle refills
        assert fast(n) == slow(n)


def test_bulk_throws_are_what_dice_throw():
    slow, fast = Dice(SeededBytes(7)), bulk_throws(seeded_bytes(7))
    for _ in range(30000):  # about 180,000 bytes: several refills of both
        assert list(next(fast)) == slow.roll()


def test_bulk_throws_read_a_byte_stream_as_dice_do():
    data = os.urandom(60000)  # with rejected bytes (252..255) here and there
    positions = {"slow": 0, "fast": 0}

    def reader(name):  # the same bytes for both, whatever amounts each asks for
        def read(n):
            start = positions[name]
            positions[name] = start + n
            return data[start : start + n]

        return read

    slow, fast = Dice(reader("slow")), bulk_throws(reader("fast"))
    for _ in range(5000):
        assert list(next(fast)) == slow.roll()
