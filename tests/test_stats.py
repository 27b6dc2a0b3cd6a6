"""`bobing stats`: exact odds, simulated games, and the command-line contract."""

import json
import os
import subprocess
import sys

import pytest
import slowdown
from test_classify import SEED_001_TABLE

from bobing.dice import Dice, SeededBytes
from bobing.game import Game
from bobing.names import KINDS, TIERS
from bobing.rules import Rules, presets
from host_tools.stats.simulate import ALL_THROWS, median, percentile, simulate, throw_odds

BOBING = os.path.join(os.path.dirname(sys.executable), "bobing")
PRESETS = [name for name, _ in presets()]


def bobing(*args):
    return subprocess.run([BOBING, *args], capture_output=True, text=True, timeout=slowdown.seconds(60))


def stats_json(*args):
    proc = bobing("stats", "--json", *args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


# --- exact odds -------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_kind_counts_are_the_seed_001_table_and_sum_to_every_throw(preset):
    kind_counts, _ = throw_odds(Rules(preset))
    assert dict(zip(KINDS, kind_counts, strict=True)) == {k: SEED_001_TABLE.get(k, 0) for k in KINDS}
    assert sum(kind_counts) == ALL_THROWS


def test_tier_counts_add_combined_awards():
    _, tier_counts = throw_odds(Rules("xiamen"))
    tiers = dict(zip(TIERS, tier_counts, strict=True))
    assert tiers["yixiu"] == 17400 + 600  # 一秀, and 四进带一秀
    assert tiers["erju"] == 9300 + 75  # 二举, and 四进带二举
    # every 状元-class throw: 四红, 五子, 五红, 插金花, 六勃黑 (a 状元 under end_shared), 六勃红
    assert tiers["zhuangyuan"] == 360 + 150 + 30 + 15 + 5 + 1


def test_options_change_the_odds():
    grab = dict(zip(TIERS, throw_odds(Rules("folk"))[1], strict=True))
    assert grab["zhuangyuan"] == 561 - 5  # 六勃黑 is a grab, no 状元
    pairs = dict(zip(TIERS, throw_odds(Rules("xiamen", {"duitang": "also_pairs"}))[1], strict=True))
    assert pairs["duitang"] > 720


def test_json_probabilities_sum_to_one():
    odds = stats_json("--games", "1", "--seed", "1")["odds"]
    assert odds["throws"] == ALL_THROWS
    assert sum(k["probability"] for k in odds["kinds"].values()) == pytest.approx(1.0)
    assert odds["kinds"]["yixiu"] == {"count": 17400, "probability": 17400 / 46656}


# --- simulated games ----------------------------------------------------------


def test_percentiles_are_nearest_rank():
    values = list(range(1, 11))
    assert percentile(values, 90) == 9 and percentile(values, 100) == 10 and percentile([7], 90) == 7
    assert median(values) == 5.5 and median([1, 2, 9]) == 2


@pytest.mark.parametrize(
    ("preset", "players", "sets"), [("xiamen", 10, 1), ("folk", 3, 2), ("competition", 7, 1)]
)
def test_every_game_ends_and_every_prize_is_accounted_for(preset, players, sets):
    games = 150
    tally = simulate(Rules(preset), players, sets, games, SeededBytes(7))
    assert tally.games == games and min(tally.throws) >= 1
    assert tally.end_reasons[0] == 0 and sum(tally.end_reasons) == games
    assert sum(tally.held) + sum(tally.shared) == 63 * sets * games
    assert 0 <= tally.wasted <= sum(tally.throws)
    assert 0 <= tally.zhuangyuan_missing <= games
    assert tally.zhuangyuan_missing == 0 or tally.waiting_throws > 0


def test_progress_is_reported_up_to_the_last_game():
    seen = []
    simulate(Rules(), 4, 1, 250, SeededBytes(3), lambda done, total: seen.append((done, total)))
    assert seen[-1] == (250, 250) and seen == sorted(seen) and len(seen) <= 101


def test_seeded_runs_are_reproducible_and_seeds_differ():
    a = stats_json("--seed", "42", "--games", "200")
    assert stats_json("--seed", "42", "--games", "200") == a
    assert stats_json("--seed", "43", "--games", "200")["simulation"] != a["simulation"]


def test_json_contract_and_shares():
    out = stats_json(
        "--rules", "competition", "--players", "6", "--sets", "2", "--games", "200", "--seed", "5"
    )
    assert set(out) == {"rules", "players", "sets", "odds", "simulation"}
    assert out["rules"] == {"preset": "competition", "overrides": {}}
    assert out["players"] == 6 and out["sets"] == 2
    sim = out["simulation"]
    assert sim["games"] == 200 and sim["seed"] == 5
    throws = sim["throws_per_game"]
    assert throws["min"] <= throws["median"] <= throws["p90"] <= throws["max"]
    assert 0 <= sim["wasted_share"] <= 1 and 0 <= sim["zhuangyuan_missing_share"] <= 1
    assert set(sim["end_reasons"]) == {"pool_empty", "liubo_hong", "liubo_hei", "biandijin"}
    assert sum(sim["end_reasons"].values()) == pytest.approx(1.0)
    seats = sim["seats"]
    assert [s["seat"] for s in seats] == [1, 2, 3, 4, 5, 6]
    assert sum(s["prizes"] for s in seats) + sim["shared_per_game"] == pytest.approx(63 * 2)


def test_prizes_per_seat_are_what_the_seats_won():
    """Seat by seat, the mean prizes and their worth are those of the same 200 games
    played here on the engine: a report that swapped two seats or two tiers would differ."""
    out = stats_json(
        "--rules", "competition", "--players", "6", "--sets", "2", "--games", "200", "--seed", "5"
    )
    roll = Dice(SeededBytes(5)).roll
    won = [[0] * len(TIERS) for _ in range(6)]
    for _ in range(200):
        game = Game(Rules("competition"), 6, 2, log=False)
        while not game.ended:
            game.throw(roll())
        for seat in range(6):
            for tier in range(len(TIERS)):
                won[seat][tier] += game.holdings[seat * len(TIERS) + tier]
    worth = {"yixiu": 1, "erju": 2, "sijin": 4, "sanhong": 8, "duitang": 16, "zhuangyuan": 32}  # in 一秀
    for seat, report in zip(won, out["simulation"]["seats"], strict=True):
        assert report["tiers"] == pytest.approx({t: n / 200 for t, n in zip(TIERS, seat, strict=True)})
        assert report["prizes"] == pytest.approx(sum(seat) / 200)
        assert report["value"] == pytest.approx(
            sum(n * worth[t] for t, n in zip(TIERS, seat, strict=True)) / 200
        )


def test_defaults_are_ten_players_and_overrides_are_reported():
    out = stats_json("--games", "20", "--option", "chase=previous")
    assert (
        out["players"] == 10 and len(out["simulation"]["seats"]) == 10 and out["simulation"]["seed"] is None
    )
    assert out["rules"]["overrides"] == {"chase": "previous"}


def test_summary_table_names_the_figures():
    proc = bobing("stats", "--games", "50", "--seed", "1", "--players", "3")
    assert proc.returncode == 0 and proc.stderr == ""  # no progress bar when stderr is no terminal
    for needle in ("一秀", "17400", "median", "wasted", "状元 still missing", "pool_empty"):
        assert needle in proc.stdout
    assert proc.stdout.count("\n     3 ") == 1  # the last seat's row


def test_progress_goes_to_stderr_only():
    proc = bobing("stats", "--json", "--progress", "--games", "300", "--seed", "1")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["simulation"]["games"] == 300
    assert "300/300 games" in proc.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--players", "1"], "--players"),
        (["--players", "ten"], "ten"),
        (["--sets", "0"], "--sets"),
        (["--sets", "9"], "--sets"),
        (["--games", "0"], "--games"),
        (["--games", "-5"], "--games"),
        (["--seed", "x"], "--seed"),
        (["--seed", str(2**32)], "--seed"),
        (["--rules", "taipei"], "taipei"),
        (["--option", "chase"], "NAME=VALUE"),
        (["--option", "chase=sometimes"], "sometimes"),
        (["--plot", "/no/such/folder/x.png"], "/no/such/folder"),
        (["--frobnicate"], "frobnicate"),
    ],
)
def test_bad_input_exit_2_one_line_nothing_on_stdout(args, needle):
    proc = bobing("stats", "--games", "5", *args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and needle in proc.stderr


def test_plot_writes_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "stats.png"
    proc = bobing("stats", "--games", "100", "--seed", "1", "--plot", str(path))
    assert proc.returncode == 0, proc.stderr
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10000
