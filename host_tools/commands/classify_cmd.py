"""`bobing classify`: name, tiers and 状元 rank of given throws."""

import json

from bobing.classify import classify, kind_of, rank_of, tiers_of
from bobing.names import KINDS, TIER_NAMES, TIERS, award_names, rank_parts
from host_tools.args import add_rules_arguments, rules_from_args
from host_tools.play.throwtext import parse_dice


def register(sub):
    p = sub.add_parser("classify", help="classify throws of six dice")
    add_rules_arguments(p)
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument(
        "throws", nargs="+", metavar="THROW", help="six faces 1-6: 444411, '4 4 4 4 1 1' or ４４４４１１"
    )
    p.set_defaults(run=run)


def describe(dice, rules):
    """The JSON contract of one classified throw."""
    result = classify(dice, rules.flags)
    tiers = tiers_of(result)
    rank = rank_of(result)
    return {
        "dice": dice,
        "kind": KINDS[kind_of(result)],
        "name": award_names(result)[0],
        "tiers": [TIERS[t] for t in range(len(TIERS) - 1, -1, -1) if tiers & (1 << t)],
        "rank": list(rank_parts(rank)) if rank else None,
    }


def readable(dice, rules):
    result = classify(dice, rules.flags)
    hanzi, pinyin, english = award_names(result)
    tiers = tiers_of(result)
    won = [TIER_NAMES[t][0] for t in range(len(TIERS) - 1, -1, -1) if tiers & (1 << t)]
    line = "%s  %s (%s; %s)" % ("".join(map(str, dice)), hanzi, pinyin, english)
    line += "  wins: " + (" + ".join(won) if won else "nothing")
    rank = rank_of(result)
    if rank:
        line += "  rank %d.%d.%d" % rank_parts(rank)
    return line


def run(args):
    rules = rules_from_args(args)
    throws = [parse_dice(t) for t in args.throws]  # all checked before any output
    for dice in throws:
        if args.json:
            print(json.dumps(describe(dice, rules), ensure_ascii=False))
        else:
            print(readable(dice, rules))
