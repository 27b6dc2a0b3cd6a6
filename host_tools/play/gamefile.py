"""A game as a text file: its settings, then one turn a line.  `play` saves every game
this way as it goes, `play --resume` continues one, `replay` plays one back.

    # comments and blank lines anywhere
    players: 3
    names: 阿公,阿嬷,小明
    rules: xiamen
    option: chase=previous        (any number)
    sets: 1
    draw: 5 3                     (the 答起 starter draw, thrown by seat 1)
    first: 2                      (who throws first, 1-based)
    label: 状元=红包               (any number)
    dice: real                    (a scorekeeper's game: only typed throws count)
    444411                        (a throw, in any form throwtext reads)
    v                             (a void: 跳猴)

Settings come before the first turn.  Lines are read one at a time, at most
MAX_LINE bytes each, so an endless or binary input never fills the memory.
"""

import os
import sys
import time

from bobing import events as ev
from bobing.game import MAX_PLAYERS, MAX_SETS, MIN_PLAYERS, Game
from bobing.rules import Rules
from host_tools.errors import Failure, UsageError
from host_tools.play.describe import labels_from_list, parse_names
from host_tools.play.throwtext import clean_line, looks_like_dice, parse_dice

MAX_LINE = 1000  # bytes: far more than any setting or throw
VOID_WORDS = ("v", "void", "跳猴")
KEYS = ("players", "names", "rules", "option", "sets", "draw", "first", "label", "dice")
DICE = ("computer", "real")  # who throws: Enter rolls the computer's dice, or the players type a bowl's


class Setup:
    """Everything about a game but its turns; seats 0-based, `first` too."""

    def __init__(self):
        self.players = None
        self.names = None  # [name per seat], None: numbered
        self.preset = "xiamen"
        self.options = []  # ["NAME=VALUE", ...] as given
        self.sets = 1
        self.draw = ()
        self.first = 0
        self.labels = []  # ["TIER=PRIZE", ...] as given
        self.real = False  # a scorekeeper's game: Enter throws nothing, only typed dice count

    def game(self):
        """A new Game of these settings; UsageError if they do not fit together."""
        overrides = {}
        for item in self.options:
            name, sep, value = item.partition("=")
            if not sep or not name or not value:
                raise UsageError("option %r: expected NAME=VALUE" % item)
            overrides[name.strip()] = value.strip()
        try:
            rules = Rules(self.preset, overrides)
            return Game(
                rules,
                self.players,
                self.sets,
                self.first,
                labels=labels_from_list(self.labels),
                draw=self.draw,
                draw_seat=0 if self.draw else ev.NO_SEAT,
            )
        except ValueError as e:
            raise UsageError(str(e)) from None

    def text(self):
        """The settings lines of a saved game."""
        lines = ["players: %d" % self.players]
        if self.names:
            lines.append("names: " + ",".join(self.names))
        lines.append("rules: " + self.preset)
        lines.extend("option: " + item for item in self.options)
        lines.append("sets: %d" % self.sets)
        if self.draw:
            lines.append("draw: " + " ".join(map(str, self.draw)))
        lines.append("first: %d" % (self.first + 1))
        lines.extend("label: " + item for item in self.labels)
        if self.real:
            lines.append("dice: real")
        return lines

    def set(self, key, value):
        """Apply one `key: value` setting; UsageError says what is wrong with the value."""
        if key == "players":
            self.players = whole_number("players", value, MIN_PLAYERS, MAX_PLAYERS)
        elif key == "names":
            self.names = parse_names(value)
        elif key == "rules":
            self.preset = value
        elif key == "option":
            self.options.append(value)
        elif key == "sets":
            self.sets = whole_number("sets", value, 1, MAX_SETS)
        elif key == "draw":
            self.draw = tuple(whole_number("draw", d, 1, 6) for d in value.split())
        elif key == "first":
            self.first = whole_number("first", value, 1, MAX_PLAYERS) - 1
        elif key == "dice":
            if value not in DICE:
                raise UsageError("dice %r: expected %s" % (value, " or ".join(DICE)))
            self.real = value == "real"
        else:
            self.labels.append(value)

    def check(self):
        """Players from the names when not given; UsageError if missing or contradictory."""
        if self.names:
            if self.players is None:
                self.players = len(self.names)
            elif self.players != len(self.names):
                raise UsageError("%d players but %d names" % (self.players, len(self.names)))
        if self.players is None:
            raise UsageError("--players (or --names) is needed: how many play?")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise UsageError("%d players: a table has %d-%d" % (self.players, MIN_PLAYERS, MAX_PLAYERS))
        if self.first >= self.players:
            raise UsageError("first seat %d: there are %d players" % (self.first + 1, self.players))


def whole_number(what, text, low, high):
    text = text.strip()
    if not text.isascii() or not text.isdigit() or not low <= int(text) <= high:
        raise UsageError("%s %r: expected a whole number %d-%d" % (what, text, low, high))
    return int(text)


# --- reading --------------------------------------------------------------------------


def open_input(path):
    """(binary stream, name for messages) of a file or `-` (stdin); UsageError if unreadable."""
    if path == "-":
        if sys.stdin is None:
            raise UsageError("stdin is closed")
        return sys.stdin.buffer, "stdin"
    try:
        return open(path, "rb"), path
    except OSError as e:
        raise UsageError("%s: cannot read: %s" % (path, e.strerror or e)) from None


def numbered_lines(stream, name):
    """(line number, cleaned text) of each line with content; UsageError on a line too
    long or not UTF-8.  Reads one line at a time."""
    number = 0
    while True:
        try:
            raw = stream.readline(MAX_LINE + 1)
        except OSError as e:
            raise UsageError("%s: cannot read: %s" % (name, e.strerror or e)) from None
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            raise UsageError("%s line %d: longer than %d bytes" % (name, number, MAX_LINE))
        try:
            text = clean_line(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise UsageError("%s line %d: not UTF-8 text" % (name, number)) from None
        if text:
            yield number, text


def parse_line(name, number, text):
    """("setting", key, value), ("throw", dice) or ("void", None) of a cleaned line."""
    if text.lower() in VOID_WORDS:
        return "void", None
    if looks_like_dice(text):
        try:
            return "throw", parse_dice(text)
        except UsageError as e:
            raise UsageError("%s line %d: %s" % (name, number, e)) from None
    key, sep, value = text.partition(":")
    key = key.strip().lower()
    if sep and key in KEYS:
        return "setting", key, value.strip()
    raise UsageError(
        "%s line %d: %r is no throw (444411), void (v) or setting (players: 4)" % (name, number, text)
    )


def load(path):
    """(setup, turns) of a saved game: turns are dice lists, None for a void."""
    stream, name = open_input(path)
    setup, turns = Setup(), []
    with stream:
        for number, text in numbered_lines(stream, name):
            item = parse_line(name, number, text)
            if item[0] == "setting":
                if turns:
                    raise UsageError("%s line %d: a setting after the first throw" % (name, number))
                try:
                    setup.set(item[1], item[2])
                except UsageError as e:
                    raise UsageError("%s line %d: %s" % (name, number, e)) from None
            else:
                turns.append(item[1])
    setup.check()
    return setup, turns


def play_turns(game, turns):
    """Apply saved turns to a new game, stopping at its end; the number applied."""
    for used, dice in enumerate(turns):
        if game.ended:
            return used
        if dice is None:
            game.void()
        else:
            game.throw(dice)
    return len(turns)


# --- saving ---------------------------------------------------------------------------


def game_text(setup, turns, command="bobing"):
    """The file of a game; `command` runs bobing where the user is (invocation)."""
    header = "# 博饼 bobing: continue with `%s play --resume FILE`, check with `%s replay FILE`" % (
        command,
        command,
    )
    lines = [header, *setup.text()]
    lines.extend("v" if dice is None else "".join(map(str, dice)) for dice in turns)
    return "\n".join(lines) + "\n"


def save(path, text):
    """Write the file whole, so an interrupted write leaves the previous version;
    Failure (one line) if it cannot be written."""
    data = text.encode("utf-8")
    try:
        if os.path.exists(path) and not os.path.isfile(path):  # a device or a pipe: write in place
            with open(path, "wb") as f:
                f.write(data)
            return
        temporary = path + ".part"
        try:
            with open(temporary, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):
                os.remove(temporary)
    except OSError as e:
        raise SaveError(path, e.strerror or str(e)) from None


class SaveError(Failure):
    """The game could not be saved; `reason` is the system's word for why."""

    def __init__(self, path, reason):
        super().__init__("cannot save to %s: %s" % (path, reason))
        self.reason = reason


def data_dir():
    """Where saved games go: the user's data directory, per system."""
    home = os.path.expanduser("~")
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.environ.get("APPDATA") or home
    elif sys.platform == "darwin":
        base = os.path.join(home, "Library", "Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    return os.path.join(base, "bobing", "games")


def new_game_path():
    """A fresh file in data_dir(), named by the date and time; Failure if the folder
    cannot be made."""
    folder = data_dir()
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise Failure("cannot make %s: %s (choose a file with --save)" % (folder, e.strerror or e)) from None
    stem = os.path.join(folder, time.strftime("%Y%m%d-%H%M%S"))
    path, n = stem + ".txt", 1
    while os.path.exists(path):
        n += 1
        path = "%s-%d.txt" % (stem, n)
    return path


class Saved:
    """A saved game in data_dir(): its path, when it was last saved, its setup, turns and game."""

    def __init__(self, path, saved, setup, turns, game):
        self.path = path
        self.saved = saved  # seconds since the epoch
        self.setup = setup
        self.turns = turns
        self.game = game


def unfinished_games():
    """(folder, [Saved]) of the games in data_dir() that have not ended, the most
    recently saved first; files that are no game are passed over."""
    folder = data_dir()
    try:
        names = [os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".txt")]
    except OSError:
        names = []
    games = []
    for path in names:
        try:
            saved = os.path.getmtime(path)
            setup, turns = load(path)
            game = setup.game()
            del turns[play_turns(game, turns) :]
        except (OSError, UsageError):
            continue
        if not game.ended:
            games.append(Saved(path, saved, setup, turns, game))
    games.sort(key=lambda g: g.saved, reverse=True)
    return folder, games
