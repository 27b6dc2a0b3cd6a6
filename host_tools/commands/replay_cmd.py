"""`bobing replay`: play a file of turns back and report the outcome.

The file is what `play` saves (settings, then one turn a line) or just throws,
one a line; options given here override the file's settings.  Lines are read
one at a time and reading stops at the game's end, so a huge or endless input
is answered in bounded memory; what came after the end is counted (up to
AFTER_END_LIMIT lines) and reported.
"""

import json
import sys

from bobing.game import MAX_PLAYERS, MAX_SETS
from host_tools.args import add_players_argument, add_rules_arguments
from host_tools.errors import UsageError
from host_tools.play import gamefile
from host_tools.play.describe import Table, default_names, parse_names, summary
from host_tools.play.texts import add_lang_argument, texts_from_args

AFTER_END_LIMIT = 10_000  # lines read after the end to count them, then reading stops


def register(sub):
    p = sub.add_parser("replay", help="play back a saved game or a file of throws (one a line)")
    add_rules_arguments(p, default=None)
    add_players_argument(p, required=False)
    p.add_argument("--names", metavar="A,B,...", help="the players' names in seat order")
    p.add_argument("--first", metavar="SEAT", help="who throws first, 1-based (default 1, or the file's)")
    p.add_argument("--sets", metavar="K", help="sets of 63 prizes (default 1, or the file's)")
    p.add_argument(
        "--label", action="append", default=[], metavar="TIER=PRIZE", help="a tier's prize: 状元=红包"
    )
    add_lang_argument(p)
    p.add_argument("--json", action="store_true", help="print the outcome as one JSON object")
    p.add_argument(
        "file", metavar="FILE", help="turns, one a line (444411, v for a void, '#' comments); - for stdin"
    )
    p.set_defaults(run=run)


def override(setup, args):
    """The command line's settings over the file's."""
    if args.players is not None and args.players != setup.players:
        if setup.players is not None:  # the file's names and draw were for another table
            setup.names = None
            setup.draw = ()
        setup.players = args.players
    if args.names is not None:
        setup.names = parse_names(args.names)
    if args.rules is not None:
        setup.preset = args.rules
    if args.option:
        setup.options = list(args.option)
    if args.sets is not None:
        setup.sets = gamefile.whole_number("--sets", args.sets, 1, MAX_SETS)
    if args.first is not None:
        setup.first = gamefile.whole_number("--first", args.first, 1, MAX_PLAYERS) - 1
        setup.draw = ()  # a seat chosen by hand, not by the file's draw
    if args.label:
        setup.labels = list(args.label)
    setup.check()


def run(args):
    texts = texts_from_args(args)
    stream, name = gamefile.open_input(args.file)
    lines = gamefile.numbered_lines(stream, name)
    setup = gamefile.Setup()
    pending = None  # the first turn, read before the game could be made
    for number, text in lines:
        item = gamefile.parse_line(name, number, text)
        if item[0] != "setting":
            pending = item[1]
            break
        try:
            setup.set(item[1], item[2])
        except UsageError as e:
            raise UsageError("%s line %d: %s" % (name, number, e)) from None
    override(setup, args)
    game = setup.game()
    table = Table(game, setup.names or default_names(setup.players, texts), texts)
    used = 0
    started = pending is not None
    while started and not game.ended:
        before = table.before()
        if pending is None:
            game.void()
        else:
            game.throw(pending)
        used += 1
        if not args.json:
            print("\n".join(table.narrate(before)))
        if game.ended:
            break
        started = False
        for number, text in lines:
            item = gamefile.parse_line(name, number, text)
            if item[0] == "setting":
                raise UsageError("%s line %d: a setting after the first throw" % (name, number))
            pending, started = item[1], True
            break
    ignored = 0
    if game.ended:
        for _ in lines:
            ignored += 1
            if ignored == AFTER_END_LIMIT:
                break
    if ignored:
        key = "ignored_more" if ignored == AFTER_END_LIMIT else "ignored"
        print(texts(key, n=ignored), file=sys.stderr if args.json else sys.stdout)
    if args.json:
        out = summary(game)
        out["throws_used"] = used
        keys = ("ended", "end_reason", "throws_used", "zhuangyuan", "holdings", "remaining", "shared")
        print(json.dumps({k: out[k] for k in keys}, ensure_ascii=False))
        return
    print()
    print(texts("applied", n=used, state=texts("ended" if game.ended else "going")))
    print(table.winners() if game.ended else texts("holder", holder=table.holder()))
    print("\n".join(table.standings()))
