"""Scenario tests of the game engine, one per rule, quoted from the seeds."""

import pytest
from gamehelp import check_conservation, held, holdings, new_game, play

from bobing.game import Game, starter_dice_count, starter_seat
from bobing.rules import Rules

YIXIU, ERJU, SIJIN, SANHONG, DUITANG = "412235", "441235", "222213", "444123", "123456"
NOTHING = "112235"


def all_but_zhuangyuan(game, skip_last=0):
    """Throws that empty every tier but the 状元 (and leave `skip_last` 一秀)."""
    return [DUITANG] * 2 + [SANHONG] * 4 + [SIJIN] * 8 + [ERJU] * 16 + [YIXIU] * (32 - skip_last)


def test_first_come_first_served_until_the_tier_runs_out():
    # 001: "有1個“四點”的得一秀餅(秀才).拿完爲止. 共32個。"
    g = play(new_game(), *[YIXIU] * 33)
    assert sum(holdings(g, s)[0] for s in range(4)) == 32
    assert g.remaining[0] == 0
    assert g.last_events()[-1] == (8, 0)  # MISS 一秀: the 33rd throw wins nothing
    check_conservation(g)


def test_sijin_with_a_four_takes_a_yixiu_too():
    g = play(new_game(), "222241", "333344")
    assert held(g, 1, "sijin") == 1 and held(g, 1, "yixiu") == 1
    assert held(g, 2, "sijin") == 1 and held(g, 2, "erju") == 1


def test_zhuangyuan_is_provisional_and_only_a_strictly_better_throw_takes_it():
    # 003: "状元插金花、五红、五子、四红，带的点数相等则先博得者拓后博得者"
    g = play(new_game(), "444462", "444435")
    assert g.zhuangyuan()[0] == 0  # equal sums: the earlier throw keeps it
    play(g, "444466")
    assert g.zhuangyuan()[0] == 2
    assert held(g, 3, "zhuangyuan") == 0  # the prize is only handed over at the end
    assert g.remaining[5] == 1


def test_luogu_a_later_lower_zhuangyuan_replaces_the_players_own():
    # 004: "同一选手两次或两次以上博到状元，取其最后一次的成绩为最终成绩" and the 禄骨 note
    g = play(new_game(players=2), "444466", "444423")
    assert g.zhuangyuan()[0] == 0
    play(g, "444412")  # player 1 falls to 状元带3, below player 2's 带5
    assert g.zhuangyuan()[0] == 1
    play(g, NOTHING, "444423")  # an equal throw by player 1 later still loses the tie
    assert g.zhuangyuan()[0] == 1


def test_chajinhua_takes_the_remaining_duitang_and_keeps_them():
    # 004: "如博到状元插金花可兼得还未被博取的对堂，若该选手在以后的轮次中“禄骨”，对堂不被追回，只追回状元"
    g = play(new_game(players=2), DUITANG, "444411")
    assert held(g, 2, "duitang") == 1 and held(g, 1, "duitang") == 1
    play(g, NOTHING, "444412")  # 禄骨: player 2 drops to 状元带3 ...
    play(g, "555556")  # ... and player 1's 五子 takes the 状元
    assert g.zhuangyuan()[0] == 0
    assert held(g, 2, "duitang") == 1
    check_conservation(g)


def test_normal_end_waits_for_a_zhuangyuan():
    # 000 part 1: "饼没全博完，博饼就不能结束。这时状元得主也不能马上拿状元"
    g = play(new_game(), *all_but_zhuangyuan(None))
    assert not g.ended and g.remaining == [0, 0, 0, 0, 0, 1]
    play(g, NOTHING, YIXIU, "444455")
    assert g.ended and g.end_reason_name() == "pool_empty"
    assert g.zhuangyuan()[0] == 0  # the 65th throw: seat 65 of 4 is player 1
    assert held(g, 1, "zhuangyuan") == 1


def test_zhuangyuan_thrown_early_is_handed_over_when_the_last_prize_goes():
    g = play(new_game(), "444466", *all_but_zhuangyuan(None, skip_last=1))
    assert not g.ended
    play(g, YIXIU)
    assert g.ended and held(g, 1, "zhuangyuan") == 1
    check_conservation(g)


def test_equal_rounds_the_round_is_finished_and_can_still_change_the_zhuangyuan():
    # 003: "直至所有奖品博完且同桌(台)每位选手博的轮次相等比赛即结束"
    throws = ["444466"] + all_but_zhuangyuan(None, skip_last=1) + [YIXIU]  # 63 throws: ends at seat 3 of 4
    g = play(new_game(preset="competition"), *throws)
    assert not g.ended and g.turn == 3
    play(g, "666664")  # the round's last player: a 五子 beats the 四红
    assert g.ended and held(g, 4, "zhuangyuan") == 1
    x = play(new_game(), *throws)
    assert x.ended and held(x, 1, "zhuangyuan") == 1


def test_liubo_hong_takes_the_unclaimed_prizes_and_ends():
    # 003: "博得红六勃，比赛结束，博得者可获得还未被博取的全部奖品（含状元）"
    g = play(new_game(), SANHONG, "444444")
    assert g.ended and g.end_reason_name() == "liubo_hong"
    assert holdings(g, 1) == [32, 16, 8, 3, 2, 1]
    assert held(g, 1, "sanhong") == 1
    check_conservation(g)


def test_liubo_hong_everything_folk():
    # 000 part 1: "不管桌上剩下的饼还是被博走的饼，都是你的，博走的要还出来给你…状元插金花都要还出来给你"
    g = play(new_game(preset="folk"), "444411", SANHONG, "444444")
    assert holdings(g, 2) == [32, 16, 8, 4, 2, 1] and holdings(g, 0) == [0] * 6
    # 000 part 3: "六勃红：可得整会的饼，不能追缴状元插金花所得"
    h = play(new_game(liubo_hong="all_but_chajinhua"), "444411", SANHONG, "444444")
    assert held(h, 1, "duitang") == 2 and held(h, 2, "sanhong") == 0
    assert holdings(h, 2) == [32, 16, 8, 4, 0, 1]


def test_liubo_hei_xiamen_ends_and_the_rest_is_shared():
    # 004: "博得红六勃或黑六勃，博饼立即结束。红六勃获未被博取的饼，黑六勃则未被博取的饼大家吃"
    g = play(new_game(), SANHONG, "444466", "222222")
    assert g.ended and g.end_reason_name() == "liubo_hei"
    assert held(g, 3, "zhuangyuan") == 1  # 六勃黑 outranks the 四红
    assert g.shared == [32, 16, 8, 3, 2, 0]
    check_conservation(g)


def test_liubo_hei_competition_goes_on_and_is_exempt_from_luogu():
    # 003: "博得黑六勃，比赛则继续进行，博得者可兼得还未被博取的三红、对堂，博得者不存在禄骨…只有红六勃才能拓黑六勃"
    g = play(new_game(preset="competition", players=2), SANHONG, "333333")
    assert not g.ended
    assert held(g, 2, "sanhong") == 3 and held(g, 2, "duitang") == 2
    play(g, "444411", "444412")  # a 插金花 does not beat it; its own lower 状元 does not replace it
    assert g.zhuangyuan()[0] == 1
    play(g, "444444")
    assert g.ended and held(g, 1, "zhuangyuan") == 1
    assert held(g, 2, "sanhong") == 3  # "三红、对堂不被追回，只追回状元"


def test_liubo_hei_folk_everyone_grabs():
    # 000 part 1: "要把博饼的大瓷碗倒扣，关灯，抢桌上所有的饼"
    g = play(new_game(preset="folk"), "444466", "555555")
    assert g.ended and g.shared == [32, 16, 8, 4, 2, 1]
    assert g.zhuangyuan() is None
    check_conservation(g)


def test_biandijin_separate_takes_what_is_left():
    # 000 part 3: "遍地锦：投出六个幺花，只得桌上所剩之饼"
    g = play(new_game(biandijin="separate"), SANHONG, "111111")
    assert g.ended and g.end_reason_name() == "biandijin"
    assert holdings(g, 1) == [32, 16, 8, 3, 2, 1] and held(g, 1, "sanhong") == 1


def test_chajinhua_duitang_at_end_seed_001():
    # 001: "如果這個狀元是“狀元插金花”或“六杯紅”，還有拿走2個對堂的所有獎品"
    g = play(new_game(chajinhua_duitang="at_end"), "444411")
    assert held(g, 1, "duitang") == 0
    rest = all_but_zhuangyuan(None)
    play(g, *rest)
    assert g.ended
    assert held(g, 1, "duitang") == 2 and held(g, 1, "zhuangyuan") == 1
    check_conservation(g)


def test_void_skips_the_next_turn_by_preset():
    # 001: "如果骰子掉出大碗，本輪就作廢，到下輪繼續參與(傳統是下一輪不能投，要空一輪)"
    g = play(new_game(players=3), "void", YIXIU, YIXIU)
    assert g.turn == 1  # player 1 sits out: after players 2 and 3 comes player 2
    assert held(g, 1, "yixiu") == 0
    # 003: 跳猴 "凡违例者不得重博，该选手本轮成绩判为“罚黑”" (no skipped turn)
    c = play(new_game(players=3, preset="competition"), "void", YIXIU, YIXIU)
    assert c.turn == 0


def test_chase_previous_winner_and_nearest_back():
    # 001: "後來獲得者可向自己前一個獲得者追得獎品"
    g = play(new_game(players=4, chase="previous"), DUITANG, DUITANG, DUITANG)
    assert [held(g, s, "duitang") for s in (1, 2, 3)] == [1, 0, 1]
    # 000 part 3: "此人按游戏进行的反方向向离自己最近的一个三红饼获得者拿回奖品"
    n = play(new_game(players=4, chase="nearest_back"), DUITANG, NOTHING, DUITANG, DUITANG)
    assert [held(n, s, "duitang") for s in (1, 2, 3, 4)] == [1, 0, 0, 1]
    off = play(new_game(players=4), DUITANG, DUITANG, DUITANG)
    assert [held(off, s, "duitang") for s in (1, 2, 3)] == [1, 1, 0]


def test_chase_from_limits_the_tiers():
    g = play(new_game(players=2, chase="previous"), *[SANHONG] * 5)
    assert [held(g, s, "sanhong") for s in (1, 2)] == [2, 2]
    assert g.last_events()[-1] == (8, 3)  # 三红 not chased: chase_from is 对堂
    h = play(new_game(players=2, chase="previous", chase_from="sanhong"), *[SANHONG] * 5)
    assert h.last_events()[-1][0] == 5  # TAKE


def test_two_sets_two_zhuangyuan_prizes():
    g = new_game(players=3, sets=2)
    play(g, "444466", "444423", "555552")
    play(g, *[t for t in all_but_zhuangyuan(None) for _ in range(2)])
    assert g.ended
    assert [held(g, s, "zhuangyuan") for s in (1, 2, 3)] == [1, 0, 1]
    check_conservation(g)


def test_two_sets_equal_sihong_the_earlier_thrower_is_zhuangyuan():
    # 003: "带的点数相等则先博得者拓后博得者", also between the two 状元 prize holders
    g = play(new_game(players=2, sets=2), "444462", "444435")
    play(g, *[t for t in all_but_zhuangyuan(None) for _ in range(2)])
    assert g.ended and [held(g, s, "zhuangyuan") for s in (1, 2)] == [1, 1]
    assert g.zhuangyuan()[0] == 0


def test_starter_draw():
    # 001: "取兩顆骰子扔出數點，如n點，由扔者開始逆時針方向數到第n個人"
    assert starter_dice_count(10) == 2 and starter_dice_count(12) == 3 and starter_dice_count(20) == 4
    assert starter_seat(thrower=0, total=1, players=10) == 0
    assert starter_seat(thrower=3, total=12, players=10) == 4
    # 003: "例骰子点数之和为6，其顺时针方向第5位为始博者" counts the thrower's neighbour as 1
    assert starter_seat(thrower=0, total=6, players=12) == 5


def test_after_the_end_nothing_more_applies():
    g = play(new_game(), "444444")
    with pytest.raises(ValueError):
        g.throw([1, 2, 3, 4, 5, 6])


@pytest.mark.parametrize("players", [1, 21])
def test_player_count_is_checked(players):
    with pytest.raises(ValueError):
        Game(Rules(), players)


def test_biandijin_sweeps_the_zhuangyuan_past_a_better_chajinhua():
    # with 插金花 ranked second (folk order), 遍地锦 still "只得桌上所剩之饼": the 状元 prize is on the table
    g = play(new_game(biandijin="separate", chajinhua_rank="second"), "444411", "111111")
    assert g.ended and held(g, 2, "zhuangyuan") == 1
    assert g.zhuangyuan()[0] == 1


def test_prize_labels_travel_with_the_game():
    labels = ["牙膏", "洗发水", "沐浴露", "食用油", "红包", "电饭锅"]
    g = Game(Rules(), 3, labels=labels)
    assert Game.from_header(g.header()).labels == labels
    assert Game.from_snapshot(g.snapshot()).labels == labels
    with pytest.raises(ValueError):
        Game(Rules(), 3, labels=["一二三四五六七八九十一二三四五六七八九十"] + [""] * 5)


def test_liubo_endings_can_be_ignored():
    # 001 說明4: "六?g紅、六?g黑是否採用，一般依照大家意願，很多時候，爲了照顧玩家都能獲得獎品，這兩種情形就忽略"
    g = play(new_game(preset="folk", liubo_endings="off"), "444466", "555555", SANHONG)
    assert not g.ended and g.zhuangyuan()[0] == 1  # 六勃黑: a plain 状元 above the 四红
    play(g, "444444")
    assert not g.ended and g.zhuangyuan()[0] == 3
    assert g.remaining[:5] == [32, 16, 8, 3, 2]  # nothing swept, nothing shared
    assert g.shared == [0] * 6
