"""The engine's heap figures at the ESP32's word size: micropython32 running the
.mpy files mpy-cross makes, as deployed (issue 7's targets, bytes)."""

from mp import run_micropython

SCRIPT = """
import gc
from mp_heap import freed
from bobing.dice import Dice, SeededBytes
from bobing.game import Game
from bobing.rules import Rules


rules_garbage, rules = freed(lambda: Rules("xiamen"))
game_garbage, game = freed(lambda: Game(rules, 10))
dice = Dice(SeededBytes(7))
worst = 0
while not game.ended:
    d = dice.roll()
    gc.collect()
    gc.disable()
    start = gc.mem_alloc()
    batch = game.throw(d)
    used = gc.mem_alloc() - start
    gc.enable()
    worst = max(worst, used - 16 * ((len(batch) + 15) // 16))  # beyond the batch's data
    if game.batches == 60:
        snapshot = game.snapshot()
restore_garbage, _ = freed(lambda: Game.from_snapshot(snapshot))
source = SeededBytes(2**31 - 1)
seeded_garbage, _ = freed(lambda: source(16))
print(rules_garbage, game_garbage, restore_garbage, worst, seeded_garbage)
"""


def test_rules_game_restore_and_throw_garbage_meet_the_esp32_targets():
    """The garbage a new game or a boot's restore leaves is what cuts up a
    small board's heap: the bounds sit just above what the engine makes
    today (bench/mp_rules.py and bench/mp_game.py print it; issue 7's
    targets, 2, 4 and 12 KB, are far above), so any growth is seen here."""
    out = run_micropython(SCRIPT, heapsize=64 * 1024, port="esp32word")
    rules, game, restore, per_throw, seeded = map(int, out.split())
    assert rules <= 64 and game <= 640 and restore <= 1536, (rules, game, restore)
    assert per_throw <= 16, per_throw  # a throw allocates its batch (a 16-byte bytes head) and nothing else
    assert seeded <= 48, seeded  # the 16 bytes and their buffer: no long ints on a 32-bit port
