# Game engine benchmark in the MicroPython unix port (run by bench/run.py):
# microseconds and heap bytes per throw for whole 10-player games, with the
# event batch encoded for the flash log as the bowl does.
import gc
import time

from bobing.dice import Dice, SeededBytes
from bobing.game import Game
from bobing.rules import Rules

GAMES = 30
rules = Rules("xiamen")
dice = Dice(SeededBytes(2024))
throws = 0
elapsed = 0
allocated = 0
batch_bytes = 0
for _ in range(GAMES):
    game = Game(rules, 10)
    gc.collect()
    while not game.ended:
        d = dice.roll()
        gc.disable()
        before = gc.mem_alloc()
        t0 = time.ticks_us()
        batch = game.throw(d)
        elapsed += time.ticks_diff(time.ticks_us(), t0)
        allocated += gc.mem_alloc() - before
        gc.enable()
        batch_bytes += len(batch)
        throws += 1
print("game.throw_us_per_throw %.1f us -" % (elapsed / throws))
print("game.alloc_bytes_per_throw %.0f B -" % (allocated / throws))
print("game.log_batch_bytes_per_throw %.1f B -" % (batch_bytes / throws))
print("game.throws_per_10_player_game %.0f throws -" % (throws / GAMES))
