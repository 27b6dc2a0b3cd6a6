"""A whole game followed from speech alone (issue 11).

Under MicroPython, tests/mplib/speech_game.py plays scripted games with the
engine, says every throw and the game end through app/speech.py, the
DFPlayer driver and the simulated module, and a listener that hears only the
clip numbers the module played reconstructs the game.  Here the
reconstruction is checked against the engine's own record of the same game:
if it differs, a player who cannot see the screen was told something wrong.
"""

import json
import os
import sys

import pytest
from mp import run_micropython

from bobing import events as ev
from bobing.classify import TIER_ERJU, TIER_YIXIU, classify, kind_of, tiers_of

MPLIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mplib")
sys.path.insert(0, MPLIB)

import speech_game  # noqa: E402

COMMON = ("444411", "455555", "123456", "444412", "444456", "444442")
SCENARIOS = {
    # 10 players to the empty pool, voids (and skipped turns), in Mandarin
    "pool_empty": ("xiamen", {}, 10, 1, 1, COMMON, 9, 13, 1),
    # 追: won prizes taken back from the previous winner, in English
    "chase": ("folk", {"chase": "previous", "chase_from": "all"}, 6, 1, 2, COMMON, 7, 11, 3),
    # 六勃黑 ends it, the 状元 handed over and the rest shared, in Cantonese
    "liubo_hei": ("xiamen", {}, 4, 1, 3, ("666666",), 40, 0, 2),
    # 六勃红 takes everything already won too
    "liubo_hong": ("folk", {}, 5, 1, 4, ("444444",), 30, 0, 1),
    # the largest table, two sets, equal rounds, 六勃黑 goes on
    "twenty": ("competition", {}, 20, 2, 5, COMMON + ("222222",), 11, 17, 3),
}


def truth(scenario):
    """The engine's record of the scenario: each throw (seat, kind, suffix,
    faces) or None for a void, and the final game."""
    preset, options, players, sets, seed, specials, special_every, void_every, _ = scenario
    game = speech_game.new_game(preset, options, players, sets)
    record = []
    seen = set()
    holders = [-1]  # after the game start: nobody yet
    lugu = 0
    script = speech_game.throws(seed, specials, special_every, void_every)
    while not game.ended:
        faces = next(script)
        events = game.void() if faces is None else game.throw(faces)
        decoded = ev.decode_batch(events)[2]
        seen.update(e[0] for e in decoded)
        first = decoded[0]
        for e in decoded:
            # 禄骨: the holder's own new throw lost the 状元 to another seat
            lugu += e[0] == ev.ZY and e[1] not in (first[1], ev.NO_SEAT)
        if not game.ended:
            holders.append(-1 if game.top == ev.NO_SEAT else game.top)
        if first[0] == ev.VOID:
            record.append(None)
        else:
            record.append([first[1], *award_parts(first[3]), ev.dice_of(first[2])])
    zy = game.zhuangyuan()
    holders.append(-1 if zy is None else zy[0])  # the end's: the prize's holder
    return record, game, seen, holders, lugu


def award_parts(award):
    """(kind, suffix) as the announcement names an award: suffix 1 带一秀, 2 带二举."""
    tiers = tiers_of(award)
    kind = kind_of(award)
    suffix = 0
    if kind in (3, 7):  # 四进, 五子登科: the combined awards
        suffix = 1 if tiers & (1 << TIER_YIXIU) else 2 if tiers & (1 << TIER_ERJU) else 0
    return kind, suffix


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_whole_game_followed_from_speech_alone(name):
    scenario = SCENARIOS[name]
    code = "import speech_game\nspeech_game.main(%s)" % ", ".join(repr(a) for a in scenario)
    heard = json.loads(run_micropython(code, heapsize=2_000_000, path=(MPLIB,)))
    record, game, _, holders, lugu = truth(scenario)

    assert heard["players"] == game.players
    # every throw: who threw, the award and the six dice, in order
    assert heard["throws"] == record
    for throw in heard["throws"]:
        if throw is not None:
            assert list(award_parts(classify(throw[3], game.rules.flags))) == throw[1:3]
    # the prizes as the throws' announcements moved them, then as the end says them
    assert heard["ended"]
    assert heard["holdings"] == game.holdings
    assert heard["shared"] == game.shared
    end = heard["end"]
    assert end["reason"] == game.end_reason
    assert end["holdings"] == game.holdings
    assert end["shared"] == game.shared
    zy = game.zhuangyuan()
    if zy is None:
        assert end["zy"] is None
    else:
        seat, code, _ = zy
        faces = ev.dice_of(code)
        assert end["zy"] == [seat, *award_parts(classify(faces, game.rules.flags)), faces]
    # after every announcement, a listener knows who holds the 状元 (the last
    # words say it); 禄骨 is said whenever it is why the holder changed
    assert heard["holders"] == holders
    assert heard["lugu"] == lugu
    # the standings asked for during the game: the pool as it was (the table and
    # the holder are checked against what the listener followed as it hears them)
    assert heard["standings"] == heard["pools"] and heard["pools"]


def test_the_scenarios_reach_what_they_are_named_for():
    """Each scripted game says what its name promises: the checks above are
    only as good as the events the games produce."""
    games = {name: truth(scenario) for name, scenario in SCENARIOS.items()}
    assert sum(game[4] for game in games.values()) > 0  # 禄骨 said somewhere
    _, game, seen, _, _ = games["pool_empty"]
    assert game.end_reason == ev.END_POOL_EMPTY and {ev.VOID, ev.SKIP, ev.MISS, ev.EXHAUSTED, ev.ZY} <= seen
    assert ev.TAKE in games["chase"][2]
    _, game, seen, _, _ = games["liubo_hei"]
    assert game.end_reason == ev.END_LIUBO_HEI and ev.SHARE in seen
    _, game, seen, _, _ = games["liubo_hong"]
    assert game.end_reason == ev.END_LIUBO_HONG and ev.TAKE in seen
    _, game, _, _, _ = games["twenty"]
    assert game.players == 20 and game.end_reason == ev.END_POOL_EMPTY
