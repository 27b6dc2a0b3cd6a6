"""The `bobing classify` and `bobing rules` command-line contract, run as a user runs it."""

import json
import os
import subprocess
import sys

import pytest
import slowdown

BOBING = os.path.join(os.path.dirname(sys.executable), "bobing")


def bobing(*args):
    return subprocess.run([BOBING, *args], capture_output=True, text=True, timeout=slowdown.seconds(60))


def test_json_one_object_per_throw_in_order():
    proc = bobing("classify", "--json", "444411", "123456", "222241", "555554")
    assert proc.returncode == 0 and proc.stderr == ""
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert lines[0] == {
        "dice": [4, 4, 4, 4, 1, 1],
        "kind": "chajinhua",
        "name": "状元插金花",
        "tiers": ["zhuangyuan"],
        "rank": [4, 0, 0],  # docs/rules.md: class 4, 状元插金花 under chajinhua_rank=third
    }
    assert lines[1]["kind"] == "duitang" and lines[1]["tiers"] == ["duitang"] and lines[1]["rank"] is None
    assert lines[2]["kind"] == "sijin" and lines[2]["tiers"] == ["sijin", "yixiu"]
    assert lines[3]["kind"] == "wuzi" and lines[3]["tiers"] == ["zhuangyuan"]


def test_rank_lists_order_throws_lexicographically():
    """The rank list is [class, primary, secondary] (docs/rules.md), best throw first here."""
    expected = {
        "444444": [8, 0, 0],  # 六勃红
        "666666": [5, 0, 0],  # 六勃黑
        "444411": [4, 0, 0],  # 状元插金花
        "444446": [3, 0, 6],  # 五红, kicker 6
        "444441": [3, 0, 1],
        "222226": [2, 0, 6],  # 五子, kicker 6 (the face does not count by default)
        "111114": [2, 0, 4],
        "444466": [1, 0, 12],  # 四红, the other two dice add to 12
        "444412": [1, 0, 3],
    }
    proc = bobing("classify", "--json", *expected)
    assert proc.returncode == 0 and proc.stderr == ""
    ranks = [json.loads(line)["rank"] for line in proc.stdout.splitlines()]
    assert ranks == list(expected.values())
    assert ranks == sorted(ranks, reverse=True) and len({tuple(r) for r in ranks}) == len(ranks)


def test_rules_and_options_change_the_answer():
    proc = bobing("classify", "--json", "--rules", "folk", "--option", "wuzi_yixiu=yes", "333334", "666666")
    assert proc.returncode == 0 and proc.stderr == ""
    a, b = (json.loads(line) for line in proc.stdout.splitlines())
    assert a["tiers"] == ["zhuangyuan", "yixiu"]
    assert b["kind"] == "liubo_hei" and b["rank"] is None and b["tiers"] == []


def test_readable_line_has_chinese_pinyin_and_english():
    proc = bobing("classify", "444411")
    assert proc.returncode == 0
    assert "状元插金花" in proc.stdout and "zhuàng yuán chā jīn huā" in proc.stdout
    assert "golden flowers" in proc.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["classify", "44441"], "44441"),
        (["classify", "123456", "444447"], "444447"),
        (["classify", "12a456"], "12a456"),
        (["classify", "１２３４５７"], "１２３４５７"),  # full-width digits are read, a 7 is not a die
        (["classify", "--rules", "taipei", "123456"], "taipei"),
        (["classify", "--option", "nope=1", "123456"], "nope"),
        (["classify", "--option", "chase", "123456"], "NAME=VALUE"),
        (["classify", "--option", "chase=sometimes", "123456"], "sometimes"),
        (["classify"], "THROW"),
        (["frobnicate"], "frobnicate"),
    ],
)
def test_bad_input_exit_2_one_line_nothing_on_stdout(args, needle):
    proc = bobing(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and needle in proc.stderr


def test_rules_lists_presets_and_options():
    proc = bobing("rules")
    assert proc.returncode == 0
    for word in ("xiamen", "folk", "competition", "chajinhua_rank", "liubo_hei", "chase", "rounds"):
        assert word in proc.stdout
    data = json.loads(bobing("rules", "--json").stdout)
    assert data["presets"]["competition"]["liubo_hei"] == "continue"


def test_combined_awards_name_both_awards_in_every_language():
    """A 四进 with one 4 is announced as 四进带一秀, with two 4s as 四进带二举, and a 五子
    with a 4 as 五子登科带一秀 only where that wins the 一秀 (wuzi_yixiu=yes)."""
    proc = bobing("classify", "--option", "wuzi_yixiu=yes", "333341", "333344", "555554")
    assert proc.returncode == 0 and proc.stderr == ""
    assert [line.split("  wins:")[0] for line in proc.stdout.splitlines()] == [
        "333341  四进带一秀 (sì jìn dài yī xiù; four of a kind: Jinshi with a Scholar)",
        "333344  四进带二举 (sì jìn dài èr jǔ; four of a kind: Jinshi with a Graduate)",
        "555554  五子登科带一秀 (wǔ zǐ dēng kē dài yī xiù; five of a kind: Champion with a Scholar)",
    ]
    proc = bobing("classify", "555554", "333312")
    assert proc.returncode == 0 and proc.stderr == ""
    assert [line.split("  wins:")[0] for line in proc.stdout.splitlines()] == [
        "555554  五子登科 (wǔ zǐ dēng kē; five of a kind: Champion)",
        "333312  四进 (sì jìn; four of a kind: Jinshi)",
    ]


def test_rank_primary_is_the_face_of_the_five_under_face_kicker():
    """docs/rules.md: with wuzi_order=face_kicker a 五子 reads [2, face, kicker], so five 1s,
    3s and 6s are told apart in the JSON and in the readable line."""
    throws = ("111116", "333332", "666661")
    proc = bobing("classify", "--json", "--option", "wuzi_order=face_kicker", *throws)
    assert proc.returncode == 0 and proc.stderr == ""
    assert [json.loads(line)["rank"] for line in proc.stdout.splitlines()] == [
        [2, 1, 6],
        [2, 3, 2],
        [2, 6, 1],
    ]
    proc = bobing("classify", "--option", "wuzi_order=face_kicker", *throws)
    assert proc.returncode == 0
    assert [line.split("rank ")[1] for line in proc.stdout.splitlines()] == ["2.1.6", "2.3.2", "2.6.1"]
