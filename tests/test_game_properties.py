"""Property tests over random games: conservation, no negative stock, every game
ends, and the log (header + batches) or any snapshot rebuilds the same game."""

import pytest
from gamehelp import check_conservation, holdings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bobing import events as ev
from bobing.dice import Dice, SeededBytes
from bobing.game import Game
from bobing.rules import Rules, options, presets

PRESETS = [name for name, _ in presets()]
OPTION_VALUES = dict(options())
MAX_THROWS = 20_000  # a 2-player game ends in a few hundred; this only bounds a bug

rule_sets = st.builds(
    lambda preset, picks: Rules(preset, picks),
    st.sampled_from(PRESETS),
    st.dictionaries(st.sampled_from(sorted(OPTION_VALUES)), st.integers(0, 2), max_size=4).map(
        lambda d: {k: OPTION_VALUES[k][v % len(OPTION_VALUES[k])] for k, v in d.items()}
    ),
)

# Rare throws made common, so endings and 状元 fights happen in every game.
SPECIAL = ["444444", "222222", "111111", "444411", "444446", "555554", "444466", "123456"]


def play_random(rules, players, sets, seed, special_every, void_every):
    game = Game(rules, players, sets)
    dice = Dice(SeededBytes(seed))
    batches = []
    for n in range(MAX_THROWS):
        if game.ended:
            return game, batches
        if void_every and n % void_every == void_every - 1:
            batches.append(game.void())
        elif special_every and n % special_every == special_every - 1:
            batches.append(game.throw([int(c) for c in SPECIAL[(seed + n) % len(SPECIAL)]]))
        else:
            batches.append(game.throw(dice.roll()))
        check_conservation(game)
    raise AssertionError("game did not end in %d throws" % MAX_THROWS)


games = st.tuples(
    rule_sets,
    st.integers(2, 12),
    st.integers(1, 2),
    st.integers(1, 2**31),
    st.sampled_from([0, 7, 40]),
    st.sampled_from([0, 9]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_games_conserve_prizes_and_end(params):
    game, batches = play_random(*params)
    assert game.ended and game.end_reason_name() in ("pool_empty", "liubo_hong", "liubo_hei", "biandijin")
    assert game.remaining[5] == 0 or game.end_reason_name() == "liubo_hei"
    if game.end_reason_name() == "pool_empty":
        assert game.remaining == [0] * 6 and game.shared == [0] * 6
        assert sum(holdings(game, s)[5] for s in range(game.players)) == game.sets


@settings(max_examples=30, deadline=None)
@given(games)
def test_the_log_replays_the_same_game(params):
    game, batches = play_random(*params)
    again = Game.from_header(game.header())
    for batch in batches:
        again.apply(batch)
    assert again.snapshot() == game.snapshot()


@settings(max_examples=30, deadline=None)
@given(games)
def test_a_game_without_its_log_plays_as_the_bowl_does(params):
    """`bobing stats` plays Game(log=False), which skips the log's work: throw after
    throw it must stand exactly where the logged game of the bowl stands."""
    rules, players, sets, seed, special_every, void_every = params
    logged, unlogged = Game(rules, players, sets), Game(rules, players, sets, log=False)
    dice = Dice(SeededBytes(seed))
    for n in range(MAX_THROWS):
        if logged.ended:
            break
        if void_every and n % void_every == void_every - 1:
            logged.void()
            assert unlogged.void() is None
        else:
            if special_every and n % special_every == special_every - 1:
                faces = [int(c) for c in SPECIAL[(seed + n) % len(SPECIAL)]]
            else:
                faces = dice.roll()
            logged.throw(faces)
            assert unlogged.throw(faces) is None
        assert unlogged.event_types == logged.event_types
        assert unlogged.snapshot() == logged.snapshot()
    assert unlogged.ended
    with pytest.raises(ValueError, match="ended"):
        unlogged.throw([1, 2, 3, 4, 5, 6])


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 10_000))
def test_a_snapshot_plus_the_tail_rebuilds_the_game(params, cut):
    game, batches = play_random(*params)
    cut %= len(batches) + 1
    partial = Game.from_header(game.header())
    for batch in batches[:cut]:
        partial.apply(batch)
    restored = Game.from_snapshot(partial.snapshot())
    assert restored.snapshot() == partial.snapshot()
    for batch in batches[cut:]:
        restored.apply(batch)
    assert restored.snapshot() == game.snapshot()


@settings(max_examples=30, deadline=None)
@given(games)
def test_every_batch_decodes_and_reencodes(params):
    game, batches = play_random(*params)
    first_events = []
    for number, batch in enumerate(batches):
        record, first, events = ev.decode_batch(batch)
        assert record == number
        assert ev.encode_batch(record, first, events) == batch
        assert events[0][0] in (ev.THROW, ev.VOID)
        first_events.append(first)
    assert first_events == sorted(first_events)
    assert max(len(b) for b in batches) < 200


def test_a_batch_out_of_order_or_from_other_rules_is_refused():
    game, batches = play_random(Rules("xiamen"), 4, 1, 5, 0, 0)
    again = Game.from_header(game.header())
    with pytest.raises(ValueError, match="does not follow"):
        again.apply(batches[1])
    xiamen = Game(Rules("xiamen"), 4)
    batch = xiamen.throw([2, 2, 2, 2, 2, 2])  # 六勃黑: the 状元 under xiamen, a grab under folk
    with pytest.raises(ValueError, match="does not match"):
        Game(Rules("folk"), 4).apply(batch)


@given(st.binary(max_size=40))
def test_garbage_never_crashes_the_decoders(data):
    for decode in (ev.decode_batch, ev.decode_header, Game.from_snapshot):
        try:
            decode(data)
        except ValueError:
            pass
