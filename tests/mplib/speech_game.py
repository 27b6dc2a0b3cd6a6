"""A scripted game told through the whole speech chain, and heard back.

bobing.game.Game with fixed dice -> app/speech.py -> board/dfplayer.py ->
sim/dfplayer.py (every frame checked) on a virtual clock; the clips the
simulated module played go to speech_decode.Listener, which sees nothing
else.  main() prints what the listener reconstructed as one JSON line, for
the test to compare with the engine's own record.  Runs under MicroPython.
"""

import json

from app import speech
from board.dfplayer import DFPlayer
from sim.dfplayer import SimDFPlayer
from speech_decode import Listener

from bobing.dice import Dice, SeededBytes
from bobing.game import Game, starter_dice_count, starter_seat
from bobing.rules import Rules

STEP_MS = 20
STANDINGS_EVERY = 9  # a player asks for the standings every this many turns


class Clock:
    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now


def new_game(preset, options, players, sets):
    """A game whose first seat came from a fixed 答起 draw (3, 4, 5, 6...)."""
    draw = (3, 4, 5, 6)[: starter_dice_count(players)]
    first = starter_seat(0, sum(draw), players)
    return Game(Rules(preset, options), players, sets, first, draw=draw, draw_seat=0)


def throws(seed, specials, special_every, void_every):
    """The script: dice from a seeded source, one of `specials` (throws such as
    "444411", taken in turn) every special_every throws, a referee void every
    void_every turns (0: never)."""
    dice = Dice(SeededBytes(seed))
    n = 0
    while True:
        n += 1
        if void_every and n % void_every == 0:
            yield None
        elif special_every and n % special_every == 0:
            yield [int(c) for c in specials[(n // special_every - 1) % len(specials)]]
        else:
            yield dice.roll()


class Chain:
    """Announcement -> driver -> simulated module, and what it played."""

    def __init__(self, language):
        self.clock = Clock()
        self.module = SimDFPlayer(self.clock.ticks_ms)
        self.player = DFPlayer(self.module.uart, self.module.busy, 0)
        self.said = speech.Announcement(language)
        self.heard = []  # clip lists, one per announcement

    def speak(self):
        said = self.said
        played = len(self.module.played)
        self.player.say(said.clips, said.count, said.language)
        while True:
            self.player.poll(self.clock.now)
            if not self.player.speaking:
                break
            self.clock.now += STEP_MS
        clips = []
        for folder, clip in self.module.played[played:]:
            if folder != said.language:
                raise AssertionError("clip %d played from folder %d, not %d" % (clip, folder, said.language))
            clips.append(clip)
        if clips != list(said.clips[: said.count]) or said.truncated:
            raise AssertionError("the module did not play the announcement as said")
        self.heard.append(clips)


def play(
    preset, options, players, sets, seed, specials, special_every, void_every, language, max_throws=3000
):
    """The game through the chain; (game, Listener after hearing it all)."""
    game = new_game(preset, options, players, sets)
    chain = Chain(language)
    listener = Listener()
    speech.game_start(chain.said, game)
    chain.speak()
    script = throws(seed, specials, special_every, void_every)
    pools = []  # the engine's pool at each standings
    for n in range(max_throws):
        if game.ended:
            break
        faces = next(script)
        if faces is None:
            batch = game.void()
        else:
            batch = game.throw(faces)
        speech.throw(chain.said, batch, game)
        chain.speak()
        if n % STANDINGS_EVERY == STANDINGS_EVERY - 1 and not game.ended:
            speech.standings(chain.said, game)
            chain.speak()
            pools.append(list(game.remaining))
    speech.game_end(chain.said, game)
    chain.speak()
    for clips in chain.heard:
        listener.hear(clips)
    return game, listener, pools


def main(*scenario):
    """The listener's reconstruction of play(*scenario), as one JSON line."""
    _, listener, pools = play(*scenario)
    print(
        json.dumps(
            {
                "players": listener.players,
                "throws": listener.throws,
                "holdings": listener.holdings,
                "shared": listener.shared,
                "ended": listener.ended,
                "end": listener.end,
                "holders": listener.holders,
                "lugu": listener.lugu,
                "standings": listener.standings,
                "pools": pools,
            }
        )
    )
