"""The bowl's storage flow, as the firmware runs it, for tests and the bench.

Boot: recover the store and rebuild the game (snapshot + every logged batch
after it).  Throw: roll, apply, append, and only then "show".  A snapshot
every SNAPSHOT_EVERY records and at the end of a game.
"""

from bobing.dice import Dice, SeededBytes
from bobing.game import Game
from bobing.store.log import StoreFull
from bobing.store.store import SNAPSHOT_EVERY, Store


def rebuild(boot):
    """The game as the store left it: the snapshot, then each batch after it."""
    game = Game.from_snapshot(boot.state) if boot.state is not None else None
    for _, payload, game_start in boot.tail:
        if game_start:
            game = Game.from_header(payload)
        else:
            game.apply(payload)
    return game


class Bowl:
    def __init__(self, root, seed):
        self.store = Store(root)
        self.dice = Dice(SeededBytes(seed))
        self.game = None
        self.shown = None  # the batch on screen: after a power cut, the last logged one
        self.boot = None
        self.on_shown = None  # test hook: called the moment a throw may be shown

    def power_on(self):
        self.boot = self.store.recover()
        self.game = rebuild(self.boot)
        self.shown = self.boot.tail[-1][1] if self.boot.tail else None
        return self.boot

    def new_game(self, rules, players):
        game = Game(rules, players)
        self.store.append(game.header(), True)
        self.game = game
        if self.on_shown is not None:
            self.on_shown()
        self.store.save_snapshot(game.snapshot())

    def throw(self, dice=None):
        """One throw (rolled, or the dice given); False (nothing shown, tally
        unchanged) if the flash is full."""
        payload = self.game.throw(dice or self.dice.roll())
        try:
            self.store.append(payload)
        except StoreFull:
            self.game = rebuild(self.store.recover())  # undo the unlogged throw
            return False
        self.shown = payload
        if self.on_shown is not None:
            self.on_shown()
        if self.store.seq % SNAPSHOT_EVERY == 0 or self.game.ended:
            self.store.save_snapshot(self.game.snapshot())
        return True
