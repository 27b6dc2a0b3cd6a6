"""Helpers for driving games in tests."""

from bobing.game import Game
from bobing.rules import Rules

TIER = {"yixiu": 0, "erju": 1, "sijin": 2, "sanhong": 3, "duitang": 4, "zhuangyuan": 5}


def new_game(players=4, preset="xiamen", sets=1, **options):
    return Game(Rules(preset, options), players, sets)


def play(game, *throws):
    """Apply throws given as strings like '444411' or 'void'; returns the game."""
    for t in throws:
        if t == "void":
            game.void()
        else:
            game.throw([int(c) for c in t])
    return game


def holdings(game, seat):
    """Prizes per tier (一秀 first) held by a 0-based seat."""
    return game.holdings[seat * 6 : seat * 6 + 6]


def held(game, seat, tier):
    """Prizes of a tier held by a 1-based seat."""
    return holdings(game, seat - 1)[TIER[tier]]


def check_conservation(game):
    pool = [n * game.sets for n in (32, 16, 8, 4, 2, 1)]
    for t in range(6):
        total = game.remaining[t] + game.shared[t] + sum(holdings(game, s)[t] for s in range(game.players))
        assert total == pool[t], (t, total, pool[t])
        assert game.remaining[t] >= 0 and game.shared[t] >= 0
        assert all(holdings(game, s)[t] >= 0 for s in range(game.players))
