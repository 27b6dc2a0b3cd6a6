"""Power cut at flash operations of a whole game, on the real LittleFS code.

Runs in the MicroPython unix port: vfs.VfsLfs2 on a simulated NOR flash
(tests/mplib/nor_flash.py).  For each preset a whole game is played to its
end; then the flash is rebuilt as it was at a program/erase operation, with
that operation not started and half done, and the bowl boots on it.
cutgame.check_boot asserts, at every one of those points: no damage
reported, the log an exact prefix of what was written, every shown throw
kept and at most the one in flight lost, the rebuilt tally equal to the
state after the last kept record with prizes conserved, the last throw shown
again, and play going on from there.

Coverage: by default a seeded one in ONE_IN of a game's operations (about
a hundred of each game's 700-1,300), always with the first and the last
erase and program, each cut not done and torn: the same points every run.
BOBING_EVERY_CUT=1 cuts at every operation (a few CPU-minutes a game):
run it after a change to the store, the session or LittleFS's use.
`make test-quick` plays the xiamen game only.
"""

import os

import pytest
from mp import run_micropython

# the flash's bytes and the heap a whole game's check needs are the ESP32's
pytestmark = pytest.mark.mp_ports("esp32word")

MPLIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mplib")

ONE_IN = 1 if os.environ.get("BOBING_EVERY_CUT", "0") not in ("", "0") else 8

CODE = """
import cutgame
rec = cutgame.record(%r, %d, 10, %r)
checked, recovered, erases = cutgame.check_every_cut(rec, 4242, %d)
print(len(rec.trace), checked, recovered, erases, rec.end, len(rec.batches))
"""


def swept(preset, seed, ending):
    """(operations, cut points checked, recoveries, erases cut, end, records) of a game's sweep."""
    out = run_micropython(CODE % (preset, seed, ending, ONE_IN), heapsize=16_000_000, path=(MPLIB,))
    ops, checked, recovered, erases, end, records = out.split()
    ops, checked = int(ops), int(checked)
    assert checked == 2 * ops if ONE_IN == 1 else ops // ONE_IN // 2 < checked < ops  # the share it says
    assert int(erases) >= 1  # the erases are cut too, not only the programs
    return ops, checked, int(recovered), end, int(records)


@pytest.mark.parametrize(
    ("preset", "seed"),
    [
        ("xiamen", 11),
        pytest.param("folk", 12, marks=pytest.mark.slow),
        pytest.param("competition", 13, marks=pytest.mark.slow),
    ],
)
def test_cut_points_of_a_whole_game(preset, seed):
    ops, checked, recovered, end, records = swept(preset, seed, None)
    assert ops >= 500
    assert end == "pool_empty" and records > 100
    assert 0 < recovered < checked


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


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "seed", "ending", "reason"), ENDINGS)
def test_cut_points_of_each_special_ending(preset, seed, ending, reason):
    ops, checked, recovered, end, records = swept(preset, seed, ending)
    assert ops >= 100
    assert end == reason and records >= 61
    # most cut points leave work after the last snapshot: those boots count as recoveries
    assert 0 < recovered < checked
