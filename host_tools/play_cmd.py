"""`bobing play`: a whole game at the terminal on the bowl's own engine.

Enter throws for the player on turn; `v` voids the last throw's player's next
throw as a referee would (跳猴), `s` shows the standings, `q` quits.
"""

import os
import sys

from bobing import events as ev
from bobing.dice import Dice, SeededBytes
from bobing.game import ENTROPY_SEEDED, ENTROPY_UNKNOWN, MAX_SETS, Game
from host_tools.cli import UsageError, add_rules_arguments, rules_from_args
from host_tools.describe import add_label_argument, event_line, labels_from_args, standings_table, tier_label
from host_tools.replay_cmd import add_players_argument

RED = "\033[1;31m"
PLAIN = "\033[0m"
HELP = "Enter: throw   v: void this player's throw (跳猴)   s: standings   q: quit"


def register(sub):
    p = sub.add_parser("play", help="play a whole game in the terminal (Enter throws)")
    add_rules_arguments(p)
    add_players_argument(p)
    add_label_argument(p)
    p.add_argument("--sets", type=int, default=1, metavar="K", help="sets of 63 prizes (default 1)")
    p.add_argument("--seed", type=int, metavar="S", help="reproducible dice (default: os.urandom)")
    p.add_argument("--no-color", action="store_true", help="no ANSI colours for the red 4s and 1s")
    p.set_defaults(run=run)


def show_dice(dice, color):
    """Dice as digits; the red faces (4 and 1) in red when colour is on."""
    if not color:
        return " ".join(map(str, dice))
    return " ".join(RED + str(d) + PLAIN if d in (1, 4) else str(d) for d in dice)


def prompt(text):
    try:
        return input(text).strip().lower()
    except EOFError:
        return "q"


def run(args):
    if not 1 <= args.sets <= MAX_SETS:
        raise UsageError("--sets %d: expected 1-%d" % (args.sets, MAX_SETS))
    rules = rules_from_args(args)
    labels = labels_from_args(args)
    color = sys.stdout.isatty() and not args.no_color and not os.environ.get("NO_COLOR")
    dice = Dice(SeededBytes(args.seed) if args.seed is not None else os.urandom)

    # os.urandom on a desktop: the source is the OS's, not one the bowl names
    entropy = ENTROPY_SEEDED if args.seed is not None else ENTROPY_UNKNOWN
    game = Game.start(rules, args.players, dice, args.sets, labels, entropy)
    draw = game.draw
    print(
        "答起 starter draw: player %d throws %d dice: %s = %d, so player %d starts."
        % (game.draw_seat + 1, len(draw), show_dice(draw, color), sum(draw), game.first_seat + 1)
    )
    print(HELP)
    while not game.ended:
        pool = "  ".join("%s %d" % (tier_label(t).split()[0], game.remaining[t]) for t in range(5, -1, -1))
        answer = prompt("\n[left: %s]  player %d, Enter to throw > " % (pool, game.turn + 1))
        if answer == "q":
            print("Game left unfinished.")
            break
        if answer == "s":
            print("\n".join(standings_table(game)))
            continue
        if answer == "v":
            game.void()
        elif answer == "":
            thrown = dice.roll()
            print("  " + show_dice(thrown, color))
            game.throw(thrown)
        else:
            print(HELP)
            continue
        for event in game.last_events():
            print(event_line(event, game))
    if game.ended:
        zy = game.zhuangyuan()
        if zy is not None:
            print("\n状元: player %d with %s" % (zy[0] + 1, "".join(map(str, ev.dice_of(zy[1])))))
        print("\n".join(standings_table(game)))
