"""The figures behind `bobing stats`: exact odds of one throw, and whole games simulated.

Kept apart from the command line so that tests check the very loop the command
runs.  The loop is the engine's hot path (Game with log=False) plus a few list
reads per throw: 10,000 ten-player games must take under 10 s, the whole command
included (bench/py_games.py times it).
"""

from collections import Counter
from itertools import product

from bobing import events as ev
from bobing.classify import classify, kind_of, tiers_of
from bobing.game import TIER_SIZES, Game
from bobing.names import KINDS, TIERS
from host_tools.stats.fastdice import bulk_throws

ALL_THROWS = 6**6
# A prize's worth in 一秀: each tier's prizes together are worth the same (32 一秀),
# as the tier sizes halve from 一秀 to 状元.
TIER_VALUES = tuple(TIER_SIZES[0] // size for size in TIER_SIZES)


def throw_odds(rules):
    """(kind_counts, tier_counts) over all 6^6 ordered throws: kind_counts[k]
    throws are of kind k (KIND_*), tier_counts[t] win a prize of tier t."""
    results = Counter(classify(dice, rules.flags) for dice in product(range(1, 7), repeat=6))
    kind_counts = [0] * len(KINDS)
    tier_counts = [0] * len(TIERS)
    for result, count in results.items():
        kind_counts[kind_of(result)] += count
        tiers = tiers_of(result)
        for tier in range(len(TIERS)):
            if tiers & (1 << tier):
                tier_counts[tier] += count
    return kind_counts, tier_counts


# A throw is wasted when it won a tier that was gone (MISS) and nothing came of it.
_MISS = 1 << ev.MISS
_GAINED = 1 << ev.AWARD | 1 << ev.TAKE


def play_game(game, dice):
    """Throw the throws of the endless iterator `dice` (six faces each) until the
    game ends: (throws, wasted throws, dry_at).

    dry_at is the throw after which every non-状元 tier was empty while the game
    went on still short of 状元 throws (with one set: nobody had thrown one yet);
    0 if that never happened.
    """
    throw = game.throw
    remaining = game.remaining
    throws = wasted = dry_at = 0
    watching = True  # for the moment the non-状元 prizes run out
    for faces in dice:
        throw(faces)
        throws += 1
        types = game.event_types
        if types & _MISS and not types & _GAINED:
            wasted += 1
        # Short-circuits on the first tier left, so this costs one read until the end is near.
        if watching and not (remaining[0] or remaining[1] or remaining[2] or remaining[3] or remaining[4]):
            watching = False
            if not game.end_reason and _zhuangyuan_throwers(game) < remaining[5]:
                dry_at = throws
        if game.end_reason:
            break
    return throws, wasted, dry_at


def _zhuangyuan_throwers(game):
    """Seats holding a 状元-class throw: each takes one 状元 prize at the end."""
    return sum(1 for rank in game.zy_rank if rank)


class Tally:
    """Sums over simulated games, all of the same table."""

    def __init__(self, players, sets):
        self.players = players
        self.sets = sets
        self.throws = []  # per game, in play order
        self.wasted = 0
        self.zhuangyuan_missing = 0  # games whose other prizes ran out before any 状元
        self.waiting_throws = 0  # in those games, throws after that moment
        self.end_reasons = [0] * len(ev.END_REASONS)
        self.held = [0] * (6 * players)  # summed Game.holdings: [seat * 6 + tier]
        self.shared = [0] * 6

    @property
    def games(self):
        return len(self.throws)

    def add(self, game, throws, wasted, dry_at):
        self.throws.append(throws)
        self.wasted += wasted
        if dry_at:
            self.zhuangyuan_missing += 1
            self.waiting_throws += throws - dry_at
        self.end_reasons[game.end_reason] += 1
        held = self.held
        for i, count in enumerate(game.holdings):
            held[i] += count
        for tier, count in enumerate(game.shared):
            self.shared[tier] += count


def simulate(rules, players, sets, games, source, progress=None):
    """A Tally of `games` games; dice from the byte source (os.urandom, or SeededBytes or
    its faster double fastdice.seeded_bytes), thrown as bobing.dice.Dice throws them.
    progress(done, games) is called about a hundred times, and after the last game."""
    dice = bulk_throws(source)
    tally = Tally(players, sets)
    step = -(-games // 100)  # ceiling: at most 100 calls
    for done in range(1, games + 1):
        game = Game(rules, players, sets, log=False)
        tally.add(game, *play_game(game, dice))
        if progress and (done % step == 0 or done == games):
            progress(done, games)
    return tally


def percentile(sorted_values, percent):
    """Nearest-rank percentile: the smallest value with `percent`% of the values at or below it."""
    rank = (len(sorted_values) * percent + 99) // 100  # ceiling, in whole numbers
    return sorted_values[max(0, rank - 1)]


def median(sorted_values):
    n = len(sorted_values)
    middle = n // 2
    if n % 2:
        return sorted_values[middle]
    return (sorted_values[middle - 1] + sorted_values[middle]) / 2


def seat_means(tally):
    """Per seat, 1 first: (mean prizes per tier, mean prize count, mean value in 一秀)."""
    games = tally.games
    seats = []
    for seat in range(tally.players):
        tiers = [n / games for n in tally.held[seat * 6 : seat * 6 + 6]]
        value = sum(mean * worth for mean, worth in zip(tiers, TIER_VALUES, strict=True))
        seats.append((tiers, sum(tiers), value))
    return seats
