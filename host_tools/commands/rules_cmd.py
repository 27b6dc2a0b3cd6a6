"""`bobing rules`: the presets and every rule option, with what each value means."""

import json

from bobing.rules import options, presets

# What each option decides; docs/rules.md quotes the source of every value.
OPTION_HELP = {
    "chajinhua_rank": "状元插金花 below 六勃黑 (third) or right below 六勃红 (second)",
    "liubo_hei": "六勃黑: 状元 and game ends, rest shared (end_shared); 状元, takes 三红+对堂, "
    "game goes on (continue); lights off, everyone grabs (grab)",
    "biandijin": "six 1s (遍地锦) count as 六勃黑, or separate: ends, thrower takes what is left",
    "wuzi_order": "五子 compared by kicker only, or by face first then kicker",
    "wuzi_yixiu": "五子 with a 4 kicker also wins one 一秀 (五子带一秀)",
    "sijin_combo": "四进 with one or two 4s also wins a 一秀 / 二举",
    "duitang": "对堂 is 123456 only, or also three pairs (334455), or also two triples",
    "liubo_hong": "六勃红 takes the unclaimed prizes, or everything already won too, "
    "or everything but what 插金花 won",
    "chajinhua_duitang": "插金花 takes the remaining 对堂 at once, or the final 插金花 takes both at the end",
    "chase": "追: once a tier is empty a later winner takes one from the previous winner, "
    "or from the nearest holder counting back",
    "chase_from": "追 applies to 对堂, to 三红 and up, or to every tier",
    "rounds": "the game may end mid-round, or only when everyone has thrown equally often",
    "void": "a void throw (跳猴) also skips the player's next turn, or not",
    "liubo_endings": "六勃红 / 六勃黑 (and 遍地锦) end the game as the other options say, or are "
    "ignored (off): plain top-ranked 状元 throws",
}


def register(sub):
    p = sub.add_parser("rules", help="list rule presets and options")
    p.add_argument("--json", action="store_true", help="presets and options as JSON")
    p.set_defaults(run=run)


def run(args):
    OPTIONS = options()
    PRESETS = dict(presets())
    PRESET_ORDER = list(PRESETS)
    if args.json:
        print(
            json.dumps(
                {
                    "presets": {
                        p: dict(zip([o[0] for o in OPTIONS], PRESETS[p], strict=True)) for p in PRESET_ORDER
                    },
                    "options": {name: list(values) for name, values in OPTIONS},
                },
                ensure_ascii=False,
                indent=1,
            )
        )
        return
    print("Presets: %s (default xiamen). Sources and quotes: docs/rules.md" % ", ".join(PRESET_ORDER))
    print()
    width = max(len(name) for name, _ in OPTIONS)
    header = "%-*s  " % (width, "option") + "  ".join("%-12s" % p for p in PRESET_ORDER)
    print(header + "  values")
    print("-" * (len(header) + 8))
    for i, (name, values) in enumerate(OPTIONS):
        row = "%-*s  " % (width, name) + "  ".join("%-12s" % PRESETS[p][i] for p in PRESET_ORDER)
        print(row + "  " + "|".join(values))
        print(" " * (width + 2) + OPTION_HELP[name])
