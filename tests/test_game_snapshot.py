"""Saving and restoring a game, judged by what happens next, and the decoders
fed valid records with one field damaged.

A restored game must play on exactly as the original: the same continuation
gives the same events on both.  Comparing snapshot() bytes cannot show that,
as a field missing from the snapshot is missing on both sides.
"""

import pytest
from gamehelp import new_game, play
from hypothesis import given, settings
from hypothesis import strategies as st
from test_game_properties import SPECIAL, games

from bobing import events as ev
from bobing.classify import classify
from bobing.dice import Dice, SeededBytes
from bobing.game import Game, starter_dice_count, starter_seat
from bobing.names import award_names
from bobing.rules import Rules

NOTHING = "112235"


def plays_on_the_same(game, *throws):
    """Restore `game` from its snapshot, then throw the same on both: every batch
    (and so every event) must be the same."""
    restored = Game.from_snapshot(game.snapshot())
    for t in throws:
        if t == "void":
            expected, got = game.void(), restored.void()
        else:
            dice = [int(c) for c in t]
            expected, got = game.throw(dice), restored.throw(dice)
        assert ev.decode_batch(got) == ev.decode_batch(expected), t
        assert got == expected
    assert restored.snapshot() == game.snapshot()


def test_restore_keeps_the_duitang_a_chajinhua_took_through_a_liubo_hong():
    # S000.3: 六勃红 「不能追缴状元插金花所得」: after a power cut too
    game = play(new_game(players=2, preset="folk", liubo_hong="all_but_chajinhua"), "444411", NOTHING)
    plays_on_the_same(game, NOTHING, "444444")
    assert game.holdings[4] == 2  # seat 0 kept both 对堂


def test_restore_keeps_the_liubo_hei_exemption_from_luogu():
    # competition: a 六勃黑 is not replaced by its thrower's later, lower 状元
    game = play(new_game(players=2, preset="competition"), "222222", NOTHING)
    plays_on_the_same(game, "444412", "444466", NOTHING, "444466")
    assert game.zhuangyuan()[0] == 0


def test_restore_mid_void_skip_and_chase():
    game = play(new_game(players=3, chase="previous", chase_from="all"), "void", "123456", "123456")
    plays_on_the_same(game, NOTHING, "123456", "412235", "void", "123456")


def _inputs_and_batches(rules, players, sets, seed, special_every, void_every):
    """A whole game: the throws given (dice lists or None for a void) and its batches."""
    game = Game(rules, players, sets)
    dice = Dice(SeededBytes(seed))
    inputs, batches = [], []
    n = 0
    while not game.ended:
        if void_every and n % void_every == void_every - 1:
            inputs.append(None)
            batches.append(game.void())
        else:
            if special_every and n % special_every == special_every - 1:
                d = [int(c) for c in SPECIAL[(seed + n) % len(SPECIAL)]]
            else:
                d = list(dice.roll())
            inputs.append(d)
            batches.append(game.throw(d))
        n += 1
    return game, inputs, batches


@settings(max_examples=25, deadline=None)
@given(games, st.lists(st.integers(0, 10_000), min_size=1, max_size=6))
def test_a_restored_game_plays_on_exactly_as_the_original(params, cuts):
    game, inputs, batches = _inputs_and_batches(*params)
    for cut in sorted({c % (len(inputs) + 1) for c in cuts}):
        original = Game.from_header(game.header())
        for batch in batches[:cut]:
            original.apply(batch)
        restored = Game.from_snapshot(original.snapshot())
        for d, batch in zip(inputs[cut:], batches[cut:], strict=True):
            got = restored.void() if d is None else restored.throw(d)
            assert got == batch, cut
        assert restored.snapshot() == game.snapshot()


# --- damaged records: ValueError, never another exception ------------------


def _fields(snapshot):
    """(header, [varint values]) of a snapshot."""
    header = snapshot[2 : 2 + snapshot[1]]
    values = []
    pos = 2 + snapshot[1]
    n = [0]
    while pos < len(snapshot):
        pos = ev.read_varint(snapshot, pos, n, 0)
        values.append(n[0])
    return header, values


def _snapshot_of(header, values):
    buf = bytearray([snapshot_format(), len(header)]) + header
    for n in values:
        ev.put_varint(buf, n)
    return bytes(buf)


def snapshot_format():
    return ev.SNAPSHOT_FORMAT


def _mid_game(params, stop):
    game = Game(*params[:3])
    dice = Dice(SeededBytes(params[3]))
    for _ in range(stop):
        if game.ended:
            break
        game.throw(dice.roll())
    return game


def test_a_turn_seat_past_the_table_is_refused():
    game = play(new_game(players=3), NOTHING)
    header, values = _fields(game.snapshot())
    assert values[0] == 1  # turn
    for seat in (3, 4, 200, ev.NO_SEAT):
        values[0] = seat
        with pytest.raises(ValueError):
            Game.from_snapshot(_snapshot_of(header, values))


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 300), st.data())
def test_a_snapshot_with_one_field_damaged_is_refused_or_restores_what_it_says(params, stop, data):
    game = _mid_game(params, stop)
    header, values = _fields(game.snapshot())
    i = data.draw(st.integers(0, len(values) - 1), label="field")
    values[i] = data.draw(
        st.sampled_from([0, 1, 2, game.players, 255, 256, 2**20]).filter(lambda v: v != values[i])
    )
    damaged = _snapshot_of(header, values)
    try:
        restored = Game.from_snapshot(damaged)
    except ValueError:
        return
    assert restored.snapshot() == damaged
    assert 0 <= restored.turn < restored.players


@settings(max_examples=15, deadline=None)
@given(games, st.integers(0, 300))
def test_a_truncated_snapshot_is_refused(params, stop):
    snapshot = _mid_game(params, stop).snapshot()
    for n in range(len(snapshot)):
        with pytest.raises(ValueError):
            Game.from_snapshot(snapshot[:n])


@settings(max_examples=15, deadline=None)
@given(games)
def test_a_header_with_any_byte_damaged_is_refused_or_opens_that_game(params):
    rules, players, sets, seed = params[:4]
    game = Game.start(rules, players, Dice(SeededBytes(seed)), sets, ["红包", "", "", "", "", "月饼"])
    header = game.header()
    for i in range(len(header)):
        for value in range(256):
            damaged = bytearray(header)
            damaged[i] = value
            try:
                opened = Game.from_header(bytes(damaged))
            except ValueError:
                continue
            assert opened.header() == damaged
    for n in range(len(header)):
        with pytest.raises(ValueError):
            Game.from_header(header[:n])


@settings(max_examples=15, deadline=None)
@given(games)
def test_truncated_or_damaged_batches_raise_value_error_only(params):
    _, _, batches = _inputs_and_batches(*params)
    for batch in batches[:40]:
        for n in range(len(batch)):
            try:
                record, first, events = ev.decode_batch(batch[:n])
            except ValueError:
                continue
            assert ev.encode_batch(record, first, events) == batch[:n]  # a whole shorter batch
        for i in range(len(batch)):
            for value in (0, 1, 0x7F, 0x80, 0xFF, batch[i] ^ 0x10):
                damaged = bytearray(batch)
                damaged[i] = value
                try:
                    ev.decode_batch(bytes(damaged))
                except ValueError:
                    pass


def test_a_batch_cut_inside_its_dice_code_is_a_clean_error():
    batch = new_game().throw([1, 1, 2, 2, 3, 5])
    assert batch[:3] == bytes([ev.FORMAT, 0, 0]) and len(batch) == 8  # head, THROW seat code award
    for n in (1, 2, 4, 5, 6, 7):  # 3 bytes are a whole batch of no events
        with pytest.raises(ValueError):
            ev.decode_batch(batch[:n])


# --- the 答起 draw and the entropy source ----------------------------------


@pytest.mark.parametrize("players", [2, 6, 10, 12, 20])
def test_start_draws_the_starter_from_one_roll_and_records_it(players):
    dice = Dice(SeededBytes(players))
    game = Game.start(Rules(), players, dice, entropy=ev.ENTROPY_SEEDED)
    roll = Dice(SeededBytes(players)).roll()
    count = starter_dice_count(players)
    assert game.draw == tuple(roll[:count]) and game.draw_seat == 0
    assert game.first_seat == game.turn == starter_seat(0, sum(roll[:count]), players)
    for again in (Game.from_header(game.header()), Game.from_snapshot(game.snapshot())):
        assert (again.draw, again.draw_seat, again.first_seat, again.entropy) == (
            game.draw,
            0,
            game.first_seat,
            ev.ENTROPY_SEEDED,
        )


@settings(max_examples=25, deadline=None)
@given(games, games, st.integers(-1, 19))
def test_a_game_made_into_an_old_one_plays_exactly_as_a_new_one(old_params, params, first_seat):
    # The bowl's session makes each new game into the last one's object
    # (Game.start into=): nothing of the old game may leak into the new one.
    rules, players, sets, seed = params[:4]
    first_seat = first_seat % players if first_seat >= 0 else -1
    old = _inputs_and_batches(*old_params)[0]
    labels = ["红包", "", "", "", "", "月饼"]
    fresh = Game.start(rules, players, Dice(SeededBytes(seed)), sets, labels, ev.ENTROPY_SEEDED, first_seat)
    made = Game.start(
        rules, players, Dice(SeededBytes(seed)), sets, labels, ev.ENTROPY_SEEDED, first_seat, old
    )
    assert made is old and made.snapshot() == fresh.snapshot()
    dice = Dice(SeededBytes(seed + 1))
    while not fresh.ended:
        d = list(dice.roll())
        assert made.throw(d) == fresh.throw(d)
    assert made.snapshot() == fresh.snapshot() and made.ended


def test_a_header_whose_draw_names_another_first_seat_is_refused():
    game = Game.start(Rules(), 10, Dice(SeededBytes(1)), entropy=ev.ENTROPY_TRUE)
    header = bytearray(game.header())
    assert header[3] == game.first_seat and header[4] == ev.ENTROPY_TRUE
    header[3] = (game.first_seat + 1) % 10
    with pytest.raises(ValueError, match="starter draw"):
        Game.from_header(bytes(header))
    with pytest.raises(ValueError):
        Game(Rules(), 4, entropy=ev.ENTROPY_SEEDED + 1)


def test_a_game_without_a_draw_records_none():
    game = Game(Rules(), 4, first_seat=2)
    again = Game.from_header(game.header())
    assert again.draw == () and again.draw_seat == ev.NO_SEAT and again.entropy == ev.ENTROPY_UNKNOWN


# --- what the batch carries -------------------------------------------------


@pytest.mark.parametrize(
    "throw", ["112235", "412235", "222241", "333344", "123456", "444411", "555554", "444444"]
)
def test_the_throw_event_carries_the_award_so_nobody_classifies_twice(throw):
    dice = [int(c) for c in throw]
    rules = Rules("xiamen", {"wuzi_yixiu": "yes"})
    game = Game(rules, 4)
    event = ev.decode_batch(game.throw(dice))[2][0]
    assert event[:3] == (ev.THROW, 0, ev.dice_code(dice))
    assert event[3] == classify(dice, rules.flags) & 0x3FF
    assert award_names(event[3]) == award_names(classify(dice, rules.flags))
    assert game.last_events()[0] == event
