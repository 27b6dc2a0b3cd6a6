"""`bobing play`: a whole game at the terminal, on the bowl's own engine.

Enter throws the computer's dice; six faces typed (444411, 4 4 4 4 1 1, ４４４４１１)
score a real bowl's throw for the player on turn, so a family can use it as the
scorekeeper.  From the first typed throw on (or with --real from the start) the
game is a scorekeeper's: Enter alone throws nothing, so a stray key cannot throw
for a real player.  `v` voids the turn (跳猴), `u` takes back the last turn
whatever made it, `s` shows the standings, `q` asks, then stops.  Every turn is
saved as it happens (gamefile), so `--resume` continues a game that was stopped,
interrupted or lost its terminal, and `u` reaches back before it.
"""

import os
import shlex
import sys
import time

from bobing.dice import Dice, SeededBytes
from bobing.game import MAX_SETS, starter_dice_count, starter_seat
from host_tools.args import add_players_argument, add_rules_arguments, seed_value
from host_tools.errors import UsageError
from host_tools.invocation import bobing_command
from host_tools.play import gamefile
from host_tools.play.describe import Table, default_names, parse_names
from host_tools.play.texts import add_lang_argument, texts_from_args, width
from host_tools.play.throwtext import clean_line, looks_like_dice, parse_dice

RED = "\033[1;31m"
PLAIN = "\033[0m"
COLUMNS = 79  # a status line longer than this is split in two, for an 80-column terminal
QUIT_WORDS = ("q", "quit", "exit", "退出", "结束")
UNDO_WORDS = ("u", "undo", "撤销")
STANDINGS_WORDS = ("s", "积分")
HELP_WORDS = ("?", "h", "help", "帮助")
EXIT_INTERRUPTED = 130


def register(sub):
    p = sub.add_parser("play", help="play a whole game in the terminal, or keep score of a real bowl")
    add_rules_arguments(p, default=None)
    add_players_argument(p, required=False)
    p.add_argument("--names", metavar="A,B,...", help="the players' names in seat order, e.g. 阿公,阿嬷,小明")
    p.add_argument(
        "--label",
        action="append",
        default=[],
        metavar="TIER=PRIZE",
        help="what a tier's prize is: 状元=红包 or zhuangyuan=红包 (at most 10 Chinese characters)",
    )
    p.add_argument("--sets", type=sets_count, default=None, metavar="K", help="sets of 63 prizes (default 1)")
    p.add_argument("--seed", type=seed_value, metavar="S", help="reproducible dice, 0-4294967295")
    p.add_argument("--no-color", action="store_true", help="no ANSI colours for the red 4s and 1s")
    p.add_argument(
        "--real",
        action="store_true",
        help="keep score of a real bowl: only typed throws count, Enter alone throws nothing "
        "(the default once a game has a typed throw)",
    )
    add_lang_argument(p)
    p.add_argument(
        "--save", metavar="FILE", help="save the game here (default: a new file in your data folder)"
    )
    p.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="FILE",
        help="continue a saved game (default: the latest unfinished one that has turns)",
    )
    p.set_defaults(run=run)


def sets_count(text):
    return gamefile.whole_number("--sets", text, 1, MAX_SETS)


def setup_from_args(args):
    setup = gamefile.Setup()
    setup.players = args.players
    if args.names is not None:
        setup.names = parse_names(args.names)
    setup.preset = args.rules or setup.preset
    setup.options = list(args.option)
    setup.sets = args.sets or 1
    setup.labels = list(args.label)
    setup.check()
    return setup


class Sitting:
    """One game at the terminal: the game, its file, and every turn of it."""

    def __init__(self, path, setup, turns, game, texts, roll, color):
        self.path = path
        self.setup = setup
        self.turns = turns  # every turn so far, this sitting's and before: dice, or None for a void
        self.game = game
        self.texts = texts
        self.roll = roll
        self.color = color
        self.table = Table(game, setup.names or default_names(setup.players, texts), texts)
        self.command = bobing_command()
        self.save_error = None

    def save(self):
        """Save the whole game; a failure is told once on stderr and play goes on."""
        try:
            gamefile.save(self.path, gamefile.game_text(self.setup, self.turns, self.command))
        except gamefile.SaveError as e:
            if self.save_error is None:  # told once, not at every throw
                print(self.texts("save_failed", path=self.path, why=e.reason), file=sys.stderr)
            self.save_error = e.reason
            return
        self.save_error = None

    def show_dice(self, dice):
        if not self.color:
            return " ".join(map(str, dice))
        return " ".join(RED + str(d) + PLAIN if d in (1, 4) else str(d) for d in dice)

    def turn(self, dice):
        """Apply a throw (dice) or a void (None), tell what happened, save."""
        before = self.table.before()
        if dice is None:
            self.game.void()
        else:
            self.game.throw(dice)
        self.turns.append(None if dice is None else list(dice))
        for line in self.table.narrate(before):
            print(line)
        self.save()

    def typed(self, dice):
        """A real bowl's throw typed: from now on the game is a scorekeeper's."""
        if not self.setup.real:
            self.setup.real = True
            print(self.texts("keeper_on"))
        self.turn(dice)

    def undo(self):
        """Take back the last turn, whoever or whatever made it, before a --resume too."""
        t = self.texts
        if not self.turns:
            print(t("nothing_to_undo"))
            return
        last = self.turns.pop()
        game = self.setup.game()
        gamefile.play_turns(game, self.turns)
        self.game = self.table.game = game
        what = t("undo_void") if last is None else "".join(map(str, last))
        print(t("undone", name=self.table.name(game.turn), what=what))
        self.save()

    def status_lines(self):
        t = self.texts
        pool, holder = self.table.pool(), self.table.holder()
        line = t("status", pool=pool, holder=holder)
        if width(line) <= COLUMNS:
            return [line]
        parts = line.split(" ｜ " if t.lang == "zh" else " | ")
        return parts

    def help(self):
        print(self.texts("help_keeper" if self.setup.real else "help1"))
        print(self.texts("help2"))

    def stop(self, key):
        """Standings, and how to go on, when the game stops before its end."""
        t = self.texts
        print(t(key))
        print("\n".join(self.table.standings()))
        if self.save_error:
            print(t("not_saved", why=self.save_error))
        if not self.game.ended:
            print(t("resume_hint", command=self.command, quoted=shlex.quote(self.path)))

    def finish(self):
        print()
        print(self.table.winners())
        print("\n".join(self.table.standings()))
        print(self.texts("saved_at", command=self.command, path=self.path, quoted=shlex.quote(self.path)))

    def play(self):
        """Turns until the game ends and stays ended, or the players stop; the exit status."""
        self.help()
        while True:
            if not self.game.ended and not self.turns_until_end():
                return 1 if self.save_error else 0
            self.finish()
            if not self.taken_back():
                return 1 if self.save_error else 0

    def taken_back(self):
        """After the end: True if the players take back the last turn (a wrong throw typed
        may have ended the game).  Keeping score, Enter alone does nothing here either."""
        real = self.setup.real
        while True:
            answer = ask(self.texts("end_prompt_keeper" if real else "end_prompt"))
            command = "q" if answer is None else clean_line(answer).lower()
            if command in UNDO_WORDS:
                self.undo()
                return True
            if command or not real:
                return False

    def turns_until_end(self):
        """Ask for turns until the game ends (True) or the players stop (False)."""
        t = self.texts
        while not self.game.ended:
            print()
            for line in self.status_lines():
                print(line)
            answer = ask(t("prompt", name=self.table.name(self.game.turn)))
            if answer is None:
                self.stop("unfinished")
                return False
            command = clean_line(answer).lower()
            if command == "":
                if self.setup.real:
                    print(t("keeper_enter"))  # a stray Enter throws nothing for a real player
                else:
                    self.turn(self.roll())
            elif command in QUIT_WORDS:
                sure = ask(t("quit_ask"))
                if sure is None or (sure.strip()[:1].lower() and sure.strip()[:1].lower() in t("yes")):
                    self.stop("unfinished")
                    return False
            elif command in STANDINGS_WORDS:
                print("\n".join(self.table.standings()))
            elif command in HELP_WORDS:
                self.help()
            elif command in gamefile.VOID_WORDS:
                self.turn(None)
            elif command in UNDO_WORDS:
                self.undo()
            elif looks_like_dice(command):
                try:
                    dice = parse_dice(command)
                except UsageError:
                    print(t("bad_dice", text=answer.strip()))
                    continue
                self.typed(dice)
            else:
                print(t("unknown", text=answer.strip()))
        return True


def ask(prompt):
    """A line typed at the prompt; None when the input has ended or was never there."""
    if sys.stdin is None:
        print()
        return None
    try:
        return input(prompt)
    except EOFError:
        print()
        return None


def run(args):
    texts = texts_from_args(args)
    dice = Dice(SeededBytes(args.seed) if args.seed is not None else os.urandom)
    if args.resume is not None:
        sitting = resume(args, texts, dice)
    else:
        sitting = start(args, texts, dice)
        if sitting is None:  # the input ended before the 答起 was typed: nothing saved
            return 0
    try:
        return sitting.play()
    except KeyboardInterrupt:
        print()
        sitting.stop("interrupted")
        return EXIT_INTERRUPTED


def start(args, texts, dice):
    setup = setup_from_args(args)
    setup.real = args.real
    setup.game()  # the settings checked before any dice are thrown or any folder made
    path = os.path.abspath(args.save) if args.save else gamefile.new_game_path()
    if os.path.isfile(path) and os.path.getsize(path):
        raise UsageError(
            "%s already holds a game: `%s play --resume %s` continues it"
            % (path, bobing_command(), shlex.quote(path))
        )
    count = starter_dice_count(setup.players)
    drawer = (setup.names or default_names(setup.players, texts))[0]
    if setup.real:  # the real bowl's 答起 too
        setup.draw = ask_dice(texts("draw_ask", name=drawer, n=count), count, texts)
        if setup.draw is None:
            print(texts("not_started"))
            return None
    else:
        setup.draw = tuple(dice.roll()[:count])
    setup.first = starter_seat(0, sum(setup.draw), setup.players)
    color = sys.stdout.isatty() and not args.no_color and not os.environ.get("NO_COLOR")
    sitting = Sitting(path, setup, [], setup.game(), texts, dice.roll, color)
    # a Failure here: nothing played, nothing lost
    gamefile.save(path, gamefile.game_text(setup, [], sitting.command))
    print(
        texts(
            "draw",
            name=drawer,
            n=count,
            dice=sitting.show_dice(setup.draw),
            sum=sum(setup.draw),
            first=sitting.table.name(setup.first),
        )
    )
    print(texts("saving", path=path))
    return sitting


def ask_dice(prompt, count, texts):
    """`count` dice typed at the prompt, asked again until they are right; None at the input's end."""
    while True:
        answer = ask(prompt)
        if answer is None:
            return None
        try:
            return tuple(parse_dice(answer, count))
        except UsageError:
            if clean_line(answer):
                print(texts("bad_draw", text=answer.strip(), n=count))


def resume(args, texts, dice):
    given = [
        option
        for option, value in (
            ("--players", args.players),
            ("--names", args.names),
            ("--rules", args.rules),
            ("--option", args.option),
            ("--label", args.label),
            ("--sets", args.sets),
            ("--save", args.save),
        )
        if value
    ]
    if given:
        raise UsageError("--resume plays on with the saved game's own settings: drop %s" % given[0])
    path = os.path.abspath(args.resume) if args.resume else choose_game(texts)
    setup, turns = gamefile.load(path)
    game = setup.game()
    used = gamefile.play_turns(game, turns)
    del turns[used:]
    color = sys.stdout.isatty() and not args.no_color and not os.environ.get("NO_COLOR")
    sitting = Sitting(path, setup, turns, game, texts, dice.roll, color)
    print(texts("already_over" if game.ended else "resumed", path=path, n=len(turns)))
    if args.real and not setup.real:
        setup.real = True
        sitting.save()
    return sitting


def choose_game(texts):
    """The saved game `--resume` with no file continues: the most recently saved
    unfinished one that has turns (one abandoned at once has none); with several,
    the player picks from a list, or, with no one at a terminal to ask, is told how."""
    folder, games = gamefile.unfinished_games()
    if not games:
        raise UsageError("no unfinished game in %s to resume" % folder)
    played = [saved for saved in games if saved.turns] or games[:1]
    if len(played) == 1:
        return played[0].path
    if sys.stdin is None or not sys.stdin.isatty():
        raise UsageError(
            "%d unfinished games in %s: name one, e.g. the latest: %s play --resume %s"
            % (len(played), folder, bobing_command(), shlex.quote(played[0].path))
        )
    print(texts("pick_head", n=len(played)))
    for number, saved in enumerate(played, 1):
        setup = saved.setup
        print(
            texts(
                "pick_item",
                i=number,
                when=time.strftime("%Y-%m-%d %H:%M", time.localtime(saved.saved)),
                players=",".join(setup.names) if setup.names else texts("pick_players", n=setup.players),
                turns=len(saved.turns),
                file=os.path.basename(saved.path),
            )
        )
    while True:
        answer = ask(texts("pick_ask", n=len(played)))
        if answer is None:
            raise UsageError("no game chosen to resume")
        choice = clean_line(answer) or "1"
        if choice.isdigit() and 1 <= int(choice) <= len(played):
            return played[int(choice) - 1].path
        print(texts("pick_again", n=len(played)))
