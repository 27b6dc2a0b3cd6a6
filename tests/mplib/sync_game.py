"""A bowl's store made by the firmware's own code, in MicroPython.

    micropython sync_game.py ROOT THROWS SEED [PLAYERS]

Boots a Session on the store folder ROOT (creating it, and its `id` file of
16 hex digits from SEED, as the firmware does at first boot), plays THROWS
presses (a new game whenever one ends, housekeeping after each) with
SeededBytes(SEED) dice, and prints "tip N".
"""

import sys

from bobing.dice import Dice, SeededBytes
from bobing.rules import Rules
from bobing.session import Session
from bobing.store.store import Store

root = sys.argv[1]
throws = int(sys.argv[2])
seed = int(sys.argv[3])
players = int(sys.argv[4]) if len(sys.argv) > 4 else 6
session = Session(Store(root), Dice(SeededBytes(seed)))
session.boot()
try:
    open(root + "/id").close()
except OSError:
    with open(root + "/id", "w") as f:
        f.write("%016x" % (0x5EED000000000000 + seed))
rules = Rules("xiamen")
for _ in range(throws):
    if session.game is None or session.game.ended:
        session.new_game(rules, players)
    else:
        session.throw()
    session.maintain()
print("tip", session.store.seq)
