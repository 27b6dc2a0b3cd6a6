"""The game engine under the real MicroPython unix port, in an ESP32-sized heap."""

import os
from collections import Counter

import pytest
import test_game_rules
from mp import run_micropython

from bobing.dice import Dice, SeededBytes
from bobing.game import Game
from bobing.rules import Rules

TESTS = os.path.dirname(os.path.abspath(__file__))

# Whole games from a seeded byte source, every so often a rare throw forced in,
# hashed batch by batch together with the final snapshot.
GAME_DIGEST = """
import hashlib
from bobing.dice import Dice, SeededBytes
from bobing.game import Game
from bobing.rules import Rules
SPECIAL = ("444444", "222222", "111111", "444411", "444446", "555554", "444466", "123456")
def digest(preset, options, players, sets, seed, special_every):
    game = Game(Rules(preset, options), players, sets)
    dice = Dice(SeededBytes(seed))
    h = hashlib.sha256(game.header())
    n = 0
    while not game.ended:
        if special_every and n % special_every == special_every - 1:
            h.update(game.throw([int(c) for c in SPECIAL[(seed + n) % len(SPECIAL)]]))
        elif n % 11 == 10:
            h.update(game.void())
        else:
            h.update(game.throw(dice.roll()))
        n += 1
    h.update(game.snapshot())
    return ''.join('%02x' % b for b in h.digest())
"""

CASES = [
    ("xiamen", {}, 10, 1, 1, 0),
    ("xiamen", {}, 10, 2, 2, 25),
    ("folk", {}, 6, 1, 3, 30),
    ("competition", {}, 12, 1, 4, 30),
    ("xiamen", {"chase": "previous", "chase_from": "all"}, 8, 1, 5, 0),
    (
        "folk",
        {"chase": "nearest_back", "chajinhua_duitang": "at_end", "liubo_hong": "all_but_chajinhua"},
        5,
        1,
        6,
        9,
    ),
    ("competition", {"biandijin": "separate", "duitang": "also_pairs", "wuzi_yixiu": "yes"}, 20, 1, 7, 13),
]


def cpython_digest(preset, options, players, sets, seed, special_every):
    namespace = {}
    exec(GAME_DIGEST, namespace)
    return namespace["digest"](preset, options, players, sets, seed, special_every)


def test_whole_games_are_identical_in_both_runtimes():
    calls = "".join("print(digest%r)\n" % (case,) for case in CASES)
    got = run_micropython(GAME_DIGEST + calls).split()
    assert got == [cpython_digest(*case) for case in CASES]


def scenario_cases(module):
    """{test function name: number of cases} as pytest runs them on CPython."""
    cases = {}
    for name in dir(module):
        fn = getattr(module, name)
        if name.startswith("test_") and callable(fn):
            cases[name] = 1
            for mark in getattr(fn, "pytestmark", []):
                if mark.name == "parametrize":
                    cases[name] *= len(mark.args[1])
    return cases


def test_scenario_tests_pass_in_micropython():
    """Every engine scenario that passes here passes on the board's runtime too: each
    one ran and passed there, none was lost on the way (0 passed is a failure)."""
    expected = scenario_cases(test_game_rules)
    assert sum(expected.values()) >= 20  # the scenario file, not an empty stand-in
    out = run_micropython(
        os.path.join(TESTS, "mplib", "mptest.py"),
        path=(os.path.join(TESTS, "mplib"), TESTS),
        script_args=["test_game_rules"],
    )
    lines = out.splitlines()
    assert lines[-1] == "%d passed, 0 failed" % sum(expected.values())
    ran = Counter(line.split()[1].split("[")[0] for line in lines if line.startswith("PASS "))
    assert ran == expected


@pytest.mark.parametrize("preset", ["xiamen", "folk", "competition"])
def test_a_twenty_player_game_fits_the_esp32_heap(preset):
    # 100 KB heap, as an ESP32 without PSRAM leaves: a full game of the largest table.
    out = run_micropython(
        "from bobing.dice import Dice, SeededBytes\n"
        "from bobing.game import Game\nfrom bobing.rules import Rules\n"
        "g = Game(Rules(%r), 20)\nd = Dice(SeededBytes(9))\n"
        "while not g.ended:\n    g.throw(d.roll())\n"
        "print(g.end_reason_name(), len(g.snapshot()))\n" % preset
    )
    local = Game(Rules(preset), 20)
    dice = Dice(SeededBytes(9))
    while not local.ended:
        local.throw(dice.roll())
    assert out.split() == [local.end_reason_name(), str(len(local.snapshot()))]
