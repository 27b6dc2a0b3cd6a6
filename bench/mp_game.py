# Game engine benchmark in MicroPython (run by bench/run.py from the .mpy files).
# Prints "name value unit target" lines.  Heap targets are for the ESP32's word
# size (micropython32, issue 7); the 64-bit port reports 1.6-2x larger figures.
import gc
import sys
import time

from mp_heap import freed

# A word is 4 bytes on the ESP32 and micropython32, 8 on the pinned 64-bit port.
WORD = 8 if sys.maxsize > 2**32 else 4

# Heap kept by `import bobing.game` (it brings events, classify and rules).
gc.collect()
before = gc.mem_alloc()
from bobing.game import Game  # noqa: E402

gc.collect()
import_bytes = gc.mem_alloc() - before

from bobing.dice import Dice, SeededBytes  # noqa: E402
from bobing.rules import Rules  # noqa: E402

rules = Rules("xiamen")
new_game_garbage, game = freed(lambda: Game(rules, 10))
dice = Dice(SeededBytes(2024))
for _ in range(40):  # mid-game: some prizes won, a 状元 standing or not
    game.throw(dice.roll())
snapshot = game.snapshot()
restore_garbage, _ = freed(lambda: Game.from_snapshot(snapshot))

# Whole 10-player games: time per throw with the collector on, as on the bowl,
# then the bytes each throw allocates (the batch it returns, nothing else).
GAMES = 30
throws = 0
elapsed = 0
batch_bytes = 0
for _ in range(GAMES):
    game = Game(rules, 10)
    while not game.ended:
        d = dice.roll()
        t0 = time.ticks_us()
        batch = game.throw(d)
        elapsed += time.ticks_diff(time.ticks_us(), t0)
        batch_bytes += len(batch)
        throws += 1
allocated = 0
counted = 0
for _ in range(5):
    game = Game(rules, 10)
    while not game.ended:
        d = dice.roll()
        gc.collect()  # room for the throw with the collector off
        gc.disable()
        start = gc.mem_alloc()
        game.throw(d)
        allocated += gc.mem_alloc() - start
        gc.enable()
        counted += 1

print("game.import_game_heap_bytes %d B -" % import_bytes)
print("game.new_game_garbage_bytes %d B 4096" % new_game_garbage)
print("game.from_snapshot_garbage_bytes %d B 12288" % restore_garbage)
# The batch's bytes object alone: an ordinary batch (about 11 bytes) takes two
# GC blocks of 4 words; the target leaves room for the longer batches.
print("game.alloc_bytes_per_throw %.1f B %d" % (allocated / counted, 10 * WORD))
print("game.throw_us_per_throw %.1f us -" % (elapsed / throws))
print("game.log_batch_bytes_per_throw %.1f B -" % (batch_bytes / throws))
print("game.throws_per_10_player_game %.0f throws -" % (throws / GAMES))
