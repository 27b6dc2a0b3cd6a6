"""`bobing replay` and `bobing play` as a user runs them."""

import json
import os
import subprocess
import sys

import pytest
import slowdown

BOBING = os.path.join(os.path.dirname(sys.executable), "bobing")
KEYS = ["ended", "end_reason", "throws_used", "zhuangyuan", "holdings", "remaining", "shared"]
TIERS = ["yixiu", "erju", "sijin", "sanhong", "duitang", "zhuangyuan"]


@pytest.fixture(autouse=True)
def _saved_games_in_tmp(tmp_path, monkeypatch):
    # `play` saves every game in the user's data folder: a test's own, here.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))


def bobing(*args, stdin=""):
    return subprocess.run(
        [BOBING, *args], input=stdin, capture_output=True, text=True, timeout=slowdown.seconds(60)
    )


def replay_json(text, *args):
    proc = bobing("replay", "--json", *args, "-", stdin=text)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_replay_json_contract_mid_game():
    out = replay_json("# two throws\n444411\n\n123456\n", "--players", "3")
    assert list(out) == KEYS
    assert out["ended"] is False and out["end_reason"] is None and out["throws_used"] == 2
    assert out["zhuangyuan"] == {"player": 1, "dice": [4, 4, 4, 4, 1, 1], "kind": "chajinhua"}
    assert sorted(out["holdings"]) == ["1", "2", "3"]
    assert list(out["holdings"]["1"]) == TIERS
    assert out["holdings"]["1"]["duitang"] == 2 and out["holdings"]["1"]["zhuangyuan"] == 0
    assert out["holdings"]["2"]["duitang"] == 0  # 对堂 already gone
    assert out["remaining"] == {
        "yixiu": 32,
        "erju": 16,
        "sijin": 8,
        "sanhong": 4,
        "duitang": 0,
        "zhuangyuan": 1,
    }
    assert out["shared"] == dict.fromkeys(TIERS, 0)


def test_replay_lines_after_the_end_are_not_applied():
    out = replay_json("412235\n444444\n123456\n444123\n", "--players", "2")
    assert out["ended"] is True and out["end_reason"] == "liubo_hong" and out["throws_used"] == 2
    assert out["holdings"]["2"]["zhuangyuan"] == 1 and out["holdings"]["2"]["yixiu"] == 31
    assert out["remaining"] == dict.fromkeys(TIERS, 0)


def test_replay_liubo_hei_shares_by_preset():
    xiamen = replay_json("444466\n222222\n", "--players", "2")
    assert xiamen["end_reason"] == "liubo_hei" and xiamen["holdings"]["2"]["zhuangyuan"] == 1
    assert xiamen["shared"]["yixiu"] == 32 and xiamen["zhuangyuan"]["player"] == 2
    folk = replay_json("444466\n222222\n", "--players", "2", "--rules", "folk")
    assert folk["shared"]["zhuangyuan"] == 1 and folk["zhuangyuan"] is None
    comp = replay_json("444466\n222222\n", "--players", "2", "--rules", "competition")
    assert comp["ended"] is False and comp["holdings"]["2"]["sanhong"] == 4


def test_replay_from_a_file_and_readable_output(tmp_path):
    path = tmp_path / "throws.txt"
    path.write_text("444411\n412356\n")
    proc = bobing("replay", "--lang", "en", "--players", "2", str(path))
    assert proc.returncode == 0
    assert "状元插金花" in proc.stdout and "2 throws applied" in proc.stdout


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (["--players", "3", "-"], "444411\n12345\n", "line 2"),
        (["--players", "3", "-"], "# c\n\n444411\n444417\n", "line 4"),
        (["--players", "3", "-"], "abc\n", "line 1"),
        (["--players", "1", "-"], "444411\n", "--players"),
        (["--players", "x", "-"], "", "--players"),
        (["-"], "444411\n", "--players"),
        (["--players", "3", "--rules", "mars", "-"], "444411\n", "mars"),
        (["--players", "3", "/no/such/file"], "", "/no/such/file"),
    ],
)
def test_replay_bad_input(args, stdin, needle):
    proc = bobing("replay", "--json", *args, stdin=stdin)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and needle in proc.stderr


def test_play_runs_a_game_from_keystrokes():
    proc = bobing("play", "--lang", "en", "--players", "2", "--seed", "3", stdin="\n" * 3000)
    assert proc.returncode == 0, proc.stderr
    assert "答起" in proc.stdout and "game over" in proc.stdout
    assert "\x1b[" not in proc.stdout  # no colour codes when not on a terminal


def test_play_quits_cleanly_and_rejects_bad_sets():
    proc = bobing("play", "--lang", "en", "--players", "3", stdin="\nq\n")
    assert proc.returncode == 0 and "unfinished" in proc.stdout
    bad = bobing("play", "--players", "3", "--sets", "0")
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1


def test_labels_name_the_prizes():
    proc = bobing("replay", "--players", "2", "--label", "duitang=红包", "-", stdin="123456\n")
    assert proc.returncode == 0 and "红包" in proc.stdout
    bad = bobing("replay", "--players", "2", "--label", "gold=x", "-", stdin="123456\n")
    assert bad.returncode == 2 and bad.stdout == "" and "gold=x" in bad.stderr
