"""Classification of all 46,656 throws, and golden cases quoted from the seeds."""

from collections import Counter
from itertools import product

import pytest

from bobing.classify import classify, kind_of, rank_of, tiers_of
from bobing.names import KINDS, TIERS
from bobing.rules import Rules, presets

PRESET_ORDER = [name for name, _ in presets()]

ALL_THROWS = list(product(range(1, 7), repeat=6))

# Seed 001, 情形概率: counts over the 6^6 ordered throws.  "五子登科180，其中五子带一秀30"
# splits here into 五红 30 and 五子 150; 满地锦 (six 1s) is one of the 5 六勃黑.
SEED_001_TABLE = {
    "liubo_hong": 1,
    "liubo_hei": 4 + 1,
    "chajinhua": 15,
    "wuhong": 30,
    "wuzi": 150,
    "sihong": 360,
    "duitang": 720,
    "sanhong": 2500,
    "sijin": 1875,
    "erju": 9300,
    "yixiu": 17400,
    "none": 14300,
}


def kind(throw, rules=None):
    return KINDS[kind_of(classify([int(c) for c in throw], (rules or Rules()).flags))]


def tiers(throw, rules=None):
    t = tiers_of(classify([int(c) for c in throw], (rules or Rules()).flags))
    return {TIERS[i] for i in range(6) if t & (1 << i)}


def rank(throw, rules=None):
    return rank_of(classify([int(c) for c in throw], (rules or Rules()).flags))


@pytest.mark.parametrize("preset", PRESET_ORDER)
def test_every_preset_reproduces_the_seed_001_table(preset):
    flags = Rules(preset).flags
    counts = Counter(KINDS[kind_of(classify(d, flags))] for d in ALL_THROWS)
    assert counts == SEED_001_TABLE


def test_combined_awards_counts():
    flags = Rules().flags
    combos = Counter((kind_of(r), tiers_of(r)) for r in (classify(d, flags) for d in ALL_THROWS))
    sijin = KINDS.index("sijin")
    assert combos[(sijin, 0b100)] == 1200  # 四进 alone
    assert combos[(sijin, 0b101)] == 600  # 四进带一秀
    assert combos[(sijin, 0b110)] == 75  # 四进带二举


def test_order_of_dice_does_not_matter():
    flags = Rules("folk", {"duitang": "also_pairs", "wuzi_yixiu": "yes"}).flags
    by_multiset = {}
    for d in ALL_THROWS:
        by_multiset.setdefault(tuple(sorted(d)), set()).add(classify(d, flags))
    assert all(len(results) == 1 for results in by_multiset.values())
    assert len(by_multiset) == 462


def test_every_state_kind_has_tiers_and_only_zhuangyuan_class_has_rank():
    for preset in PRESET_ORDER:
        flags = Rules(preset).flags
        for d in ALL_THROWS:
            r = classify(d, flags)
            if rank_of(r):
                assert tiers_of(r) & (1 << TIERS.index("zhuangyuan"))
            else:
                assert not tiers_of(r) & (1 << TIERS.index("zhuangyuan"))


# --- golden cases -----------------------------------------------------------


def test_seed_004_basic_tiers():
    # 004: "【一秀又叫秀才】一个4（对堂即一条龙除外）"
    assert tiers("412356") == {"duitang"}
    assert kind("123456") == "duitang"
    assert tiers("412235") == {"yixiu"}
    # "【二举又叫举人】二个4"  "【三红又叫探花】三个4"
    assert tiers("441235") == {"erju"}
    assert tiers("444123") == {"sanhong"}
    # "四个1或2或3或5或6，若还带一个4可多得一个一秀，若带二个4可多得一个二举"
    assert tiers("333312") == {"sijin"}
    assert tiers("333341") == {"sijin", "yixiu"}
    assert tiers("333344") == {"sijin", "erju"}


def test_nothing_throws():
    # 000 part 1: "先找红四点；没红四点，看有没有4个或5个一样，前面两条都没有就是什么都没有"
    for throw in ("111222", "112233", "666555", "123556"):
        assert kind(throw) == "none"
        assert tiers(throw) == set()


def test_seed_004_zhuangyuan_order():
    # 004: "红六勃（六个4）>黑六勃（六个1或2或3或5或6）>状元插金花（四个4、二个1）>五红（五个4）
    #       >五子（五个1或2或3或5或6）>四红（四个4）"
    ordered = ["444444", "666666", "444411", "444446", "222223", "444466"]
    ranks = [rank(t) for t in ordered]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)
    assert rank("111111") == rank("222222") == rank("666666")


# docs/rules.md section 3: the 状元 class of each kind, per rule set.  A class is
# the first thing two 状元 are compared by: the weakest throw of a class beats
# the strongest of every class below it, whatever the kickers.
CLASS_TABLES = [
    (
        Rules("xiamen"),
        {"sihong": 1, "wuzi": 2, "wuhong": 3, "chajinhua": 4, "liubo_hei": 5, "liubo_hong": 8},
    ),
    (
        Rules("xiamen", {"chajinhua_rank": "second", "biandijin": "separate"}),
        {
            "sihong": 1,
            "wuzi": 2,
            "wuhong": 3,
            "liubo_hei": 5,
            "biandijin": 6,
            "chajinhua": 7,
            "liubo_hong": 8,
        },
    ),
    (Rules("folk"), {"sihong": 1, "wuzi": 2, "wuhong": 3, "chajinhua": 7, "liubo_hong": 8}),
    (
        Rules("competition", {"wuzi_yixiu": "yes", "duitang": "also_pairs"}),
        {"sihong": 1, "wuzi": 2, "wuhong": 3, "chajinhua": 4, "liubo_hei": 5, "liubo_hong": 8},
    ),
]


@pytest.mark.parametrize(("rules", "classes"), CLASS_TABLES)
def test_zhuangyuan_classes_never_overlap(rules, classes):
    """A 五红 with a 1 beats a 五子 with a 6: no 状元 is outranked by one of a lower class."""
    ranks = {}
    for d in ALL_THROWS:
        r = classify(d, rules.flags)
        ranks.setdefault(KINDS[kind_of(r)], set()).add(rank_of(r))
    for name, ranks_of_kind in ranks.items():
        if name in classes:
            assert {r >> 8 for r in ranks_of_kind} == {classes[name]}, name
        else:
            assert ranks_of_kind == {0}, name  # not 状元-class: no rank at all
    by_class = sorted(classes, key=classes.get)
    for lower, higher in zip(by_class, by_class[1:], strict=False):
        assert min(ranks[higher]) > max(ranks[lower]), (lower, higher)


@pytest.mark.parametrize(("rules", "classes"), CLASS_TABLES)
def test_every_ranked_throw_wins_a_zhuangyuan_prize_and_only_those(rules, classes):
    """Under options too (遍地锦 separate, 插金花 second...): a throw that can be 状元 wins the
    状元 tier and nothing else (五子带一秀 aside), and no other throw wins it."""
    zy = 1 << TIERS.index("zhuangyuan")
    yixiu = 1 << TIERS.index("yixiu")
    for d in ALL_THROWS:
        r = classify(d, rules.flags)
        if rank_of(r):
            assert tiers_of(r) & ~yixiu == zy, d
        else:
            assert not tiers_of(r) & zy, d


def test_kicker_rules_seeds_004_and_003():
    # "同是五红或五子所带的点数多>点数少，即带6最大，带1最小"
    assert rank("444446") > rank("444445") > rank("444443") > rank("444441")
    assert rank("555556") > rank("555553") > rank("555551")
    # "同是四红所带的点数多>点数少，带12最大，带三最小"
    assert rank("444466") > rank("444465") == rank("444456") > rank("444455") > rank("444412")
    assert rank("444462") == rank("444426") == rank("444435")  # equal sums tie: earlier throw wins


def test_wuzi_face_does_not_matter_seed_000():
    # 000 part 1: "不管5个几，比如5个六和5个一是一样大的…只比后面带的点数的大小；
    #              带四虽然是红四点，但做点数解，不做带一秀解，比带五带六小"
    assert rank("666662") == rank("111112")
    assert rank("111116") > rank("111115") > rank("111114") > rank("111113")
    assert tiers("111114") == {"zhuangyuan"}


def test_wuzi_face_first_seed_001():
    # 001: "先比較相同點數的數字大小,5個紅4最大，其他按數字順序，如果相同點數的數字一樣,則比較後面的點數大小"
    rules = Rules("xiamen", {"wuzi_order": "face_kicker"})
    assert rank("666661", rules) > rank("555556", rules) > rank("111116", rules)
    assert rank("444441", rules) > rank("666665", rules)
    assert rank("222226", rules) > rank("222225", rules)
    assert Rules("folk").get("wuzi_order") == "face_kicker"


def test_wuzi_with_a_four_wins_a_yixiu_only_by_option():
    # 000 part 3: "『6』．五子带一秀：可先得秀才一个，再观谁带的点数最大得状元"
    rules = Rules("xiamen", {"wuzi_yixiu": "yes"})
    assert tiers("555554", rules) == {"zhuangyuan", "yixiu"}
    assert rank("555554", rules) == rank("555554")
    # 003: "五子带4不能兼得一秀"
    assert tiers("555554", Rules("competition")) == {"zhuangyuan"}


def test_chajinhua_second_only_to_liubo_hong_folk():
    # 000 part 1 Q&A: "状元插金花只比六粒红小"; 001: "狀元插金花…是狀元中最大的"
    rules = Rules("xiamen", {"chajinhua_rank": "second"})
    assert rank("444444", rules) > rank("444411", rules) > rank("666666", rules) > rank("444446", rules)
    folk = Rules("folk")
    assert rank("444444", folk) > rank("444411", folk) > rank("444446", folk)


def test_liubo_hei_is_not_a_zhuangyuan_when_everyone_grabs():
    # 000 part 1: "这个饼不是用拿的，是用抢的！…关灯，抢桌上所有的饼"
    folk = Rules("folk")
    assert kind("333333", folk) == "liubo_hei"
    assert rank("333333", folk) == 0
    assert tiers("333333", folk) == set()


def test_biandijin_separate_seed_000_part_3():
    # 000 part 3: "『3』．遍地锦：投出六个幺花，只得桌上所剩之饼。（六颗“一”）
    #              『4』．六勃黑：投出六个相同点数（除了幺花和四）都是六勃黑"
    rules = Rules("xiamen", {"biandijin": "separate"})
    assert kind("111111", rules) == "biandijin"
    assert kind("222222", rules) == "liubo_hei"
    assert rank("444444", rules) > rank("111111", rules) > rank("222222", rules)
    # 000 part 1: "6个一点，虽然看过去是红颜色的，但在博饼中属于黑色，所以也是六博黑"
    assert kind("111111") == "liubo_hei"


def test_sijin_combo_off():
    rules = Rules("xiamen", {"sijin_combo": "no"})
    assert tiers("222241", rules) == {"sijin"}
    assert tiers("222244", rules) == {"sijin"}


def test_duitang_by_table_agreement():
    # 000 Q&A: "对堂：一般为六粒骰子为123456,也可自己约定，如334455等"
    pairs = Rules("xiamen", {"duitang": "also_pairs"})
    assert kind("334455", pairs) == "duitang" and tiers("334455", pairs) == {"duitang"}
    assert kind("121233", pairs) == "duitang"
    assert kind("123456", pairs) == "duitang"
    assert kind("334455") == "erju"
    assert kind("444411", pairs) == "chajinhua"  # a 状元 pattern is never demoted
    triples = Rules("xiamen", {"duitang": "also_triples"})
    assert kind("111222", triples) == "duitang"
    assert kind("444111", triples) == "duitang"
    assert kind("444111") == "sanhong"
    assert kind("334455", triples) == "erju"


def test_kind_and_tier_constants_are_the_numbers_the_results_carry():
    """classify.KIND_* and TIER_* are the numbers events, logs and the engine use
    (events.py: "tiers as classify.TIER_*"): each names its own kind or tier, and a
    throw that wins a tier sets exactly that bit."""
    from bobing import classify as c

    for name in KINDS:
        assert getattr(c, "KIND_" + name.upper()) == KINDS.index(name)
    for tier, throw in [
        ("yixiu", "412235"),
        ("erju", "441235"),
        ("sijin", "333312"),
        ("sanhong", "444123"),
        ("duitang", "123456"),
        ("zhuangyuan", "444412"),
    ]:
        number = getattr(c, "TIER_" + tier.upper())
        assert TIERS[number] == tier
        assert tiers_of(classify([int(d) for d in throw], Rules().flags)) == 1 << number
