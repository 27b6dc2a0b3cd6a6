"""`bobing replay`: apply a file of throws to a game and report the outcome."""

import json
import sys

from bobing.game import MAX_PLAYERS, MIN_PLAYERS, Game
from host_tools.classify_cmd import parse_throw
from host_tools.cli import UsageError, add_rules_arguments, rules_from_args
from host_tools.describe import add_label_argument, event_line, labels_from_args, standings_table, summary


def register(sub):
    p = sub.add_parser("replay", help="replay a file of throws (one six-digit throw a line)")
    add_rules_arguments(p)
    add_players_argument(p)
    add_label_argument(p)
    p.add_argument("--json", action="store_true", help="print the outcome as one JSON object")
    p.add_argument("file", metavar="FILE", help="throws, one a line ('#' comments); - for stdin")
    p.set_defaults(run=run)


def add_players_argument(parser, required=True):
    parser.add_argument(
        "--players",
        type=players_count,
        required=required,
        metavar="N",
        help="players at the table, %d-%d, throwing in seat order 1, 2, ... N" % (MIN_PLAYERS, MAX_PLAYERS),
    )


def players_count(text):
    if not text.isdigit() or not MIN_PLAYERS <= int(text) <= MAX_PLAYERS:
        raise UsageError("--players %r: expected a whole number %d-%d" % (text, MIN_PLAYERS, MAX_PLAYERS))
    return int(text)


def read_throws(path):
    """[(line number, dice)] of a throws file; UsageError names the bad line."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError("%s: cannot read: %s" % (path, getattr(e, "strerror", None) or e)) from None
    throws = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            throws.append((number, parse_throw(line)))
        except UsageError as e:
            raise UsageError("%s line %d: %s" % ("stdin" if path == "-" else path, number, e)) from None
    return throws


def run(args):
    rules = rules_from_args(args)
    labels = labels_from_args(args)
    throws = read_throws(args.file)
    game = Game(rules, args.players, labels=labels)
    used = 0
    log = []
    for _, dice in throws:
        if game.ended:
            break
        game.throw(dice)
        used += 1
        log.extend(event_line(e, game) for e in game.last_events())
    if args.json:
        out = summary(game)
        out["throws_used"] = used
        keys = ("ended", "end_reason", "throws_used", "zhuangyuan", "holdings", "remaining", "shared")
        print(json.dumps({k: out[k] for k in keys}, ensure_ascii=False))
        return
    print("\n".join(log))
    print()
    state = "ended: %s" % game.end_reason_name() if game.ended else "still going"
    print("%d throws applied, game %s" % (used, state))
    print("\n".join(standings_table(game)))
