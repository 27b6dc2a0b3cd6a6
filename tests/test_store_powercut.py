"""Power cut at every flash operation of a whole game, on the real LittleFS code.

Runs in the MicroPython unix port: vfs.VfsLfs2 on a simulated NOR flash
(tests/mplib/nor_flash.py).  For each preset a whole game is played to its
end; then the flash is rebuilt as it was at every program/erase operation,
with that operation not started and half done, and the bowl boots on it.
cutgame.check_boot asserts, at every one of those points: no damage
reported, the log an exact prefix of what was written, every shown throw
kept and at most the one in flight lost, the rebuilt tally equal to the
state after the last kept record with prizes conserved, the last throw shown
again, and play going on from there.
"""

import os

import pytest
from mp import run_micropython

MPLIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mplib")

CODE = """
import cutgame
rec = cutgame.record(%r, %d, 10, %r)
checked, recovered = cutgame.check_every_cut(rec, 4242)
print(len(rec.trace), checked, recovered, rec.end, len(rec.batches))
"""


@pytest.mark.parametrize(("preset", "seed"), [("xiamen", 11), ("folk", 12), ("competition", 13)])
def test_every_cut_point_of_a_whole_game(preset, seed):
    out = run_micropython(CODE % (preset, seed, None), heapsize=16_000_000, path=(MPLIB,))
    ops, checked, recovered, end, records = out.split()
    assert int(checked) == 2 * int(ops) >= 1000
    assert end == "pool_empty" and int(records) > 100
    assert 0 < int(recovered) < int(checked)


# Each preset's own special ending, forced at the 60th throw: xiamen's 六勃黑 shares
# the rest, folk's 六勃黑 is a grab and its 六勃红 takes everything back, and
# competition's 六勃黑 goes on (the game then ends at an equal round).
ENDINGS = [
    ("xiamen", 21, "222222", "liubo_hei"),
    ("xiamen", 22, "444444", "liubo_hong"),
    ("folk", 23, "555555", "liubo_hei"),
    ("folk", 24, "444444", "liubo_hong"),
    ("competition", 25, "333333", "pool_empty"),
]


@pytest.mark.parametrize(("preset", "seed", "ending", "reason"), ENDINGS)
def test_every_cut_point_of_each_special_ending(preset, seed, ending, reason):
    out = run_micropython(CODE % (preset, seed, ending), heapsize=16_000_000, path=(MPLIB,))
    ops, checked, recovered, end, records = out.split()
    assert int(checked) == 2 * int(ops) >= 200
    assert end == reason and int(records) >= 61
    # most cut points leave work after the last snapshot: those boots count as recoveries
    assert 0 < int(recovered) < int(checked)
