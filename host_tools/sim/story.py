"""What the virtual bowl's screen means, in words: the text beside `bobing sim`'s panel.

    story = Story(Words("en"))
    story.feed('{"event": "throw", "n": 1, "seat": 3, "dice": [4, 4, 2, 6, 3, 3], ...}')
    story.now      # player 3 · two reds: Graduate (二举) · 4 4 2 6 3 3 · wins Graduate (二举) · Champion (状元): ...
    story.speech   # says: 二举 红四 红四 ... (the words of the clips, not their numbers)
    story.history  # every line `now` was, oldest first (a game told from its start)

It reads the lines the bowl writes (sim.console): the live JSON events
(docs/events.md), the trace screen's words (sim/tracescreen.py), speech
clips and the sim's own notes.  Award and tier names are bobing.names' and
host_tools/play/describe.py's; sentences shared with `play` are host_tools/play/texts.py's;
the clips' words are the table `bobing voice` records (host_tools/phrases.py).
"""

import json
import os
import re
import types

from display.texts import TEXTS

from bobing.names import TIERS
from bobing.rules import PRESETS, Rules
from host_tools.phrases import phrases, spoken
from host_tools.play.describe import show_dice, throw_name, tier_label
from host_tools.play.texts import T, Texts

ENGLISH_FOLDER = 3  # the card's English folder (app/speech.py ENGLISH): its words, as spoken

# The sim's own sentences, beside texts.T's: (中文, English).
SIM = {
    "seat": ("玩家 %(n)d", "player %(n)d"),
    "zy": ("状元：%(holder)s", "Champion (状元): %(holder)s"),
    "wins": ("得 %(prizes)s", "wins %(prizes)s"),
    "takes": ("追得 %(prizes)s", "takes %(prizes)s"),
    "missed": ("%(tiers)s已博完", "%(tiers)s all gone"),
    "new_game": (
        "新的一局：%(players)d 位玩家，%(rules)s 规则，%(first)s 先掷",
        "new game: %(players)d players, %(rules)s rules, %(first)s throws first",
    ),
    "resumed": (
        "断电后继续这一局：已有 %(throws)d 掷",
        "the game goes on after a power cut: %(throws)d throws so far",
    ),
    "turn": ("轮到 %(name)s 掷骰", "%(name)s to throw"),
    "rolling": ("摇骰中 %(dice)s", "rolling %(dice)s"),
    "attract": (
        "等待开始：%(players)d 位玩家，按 THROW 掷骰",
        "waiting: %(players)d players, press THROW to start",
    ),
    "game_over": ("本局结束", "game over"),
    "audit": ("核对码 %(code)s", "audit %(code)s"),
    "menu": ("菜单 %(title)s › %(item)s", "menu %(title)s › %(item)s"),
    "pin": ("输入密码：已输 %(n)d 位", "PIN: %(n)d digits entered"),
    "lifetime": (
        "累计：%(games)d 局，%(throws)d 掷，恢复 %(recoveries)d 次，开机 %(boots)d 次",
        "lifetime: %(games)d games, %(throws)d throws, %(recoveries)d recoveries, %(boots)d boots",
    ),
    "about": ("关于：版本 %(version)s，板子 %(board)s", "about: version %(version)s, board %(board)s"),
    "says": ("语音：%(words)s", "says: %(words)s"),
    "power": ("碗通电启动", "the bowl powers up"),
    "off": ("碗已关闭", "the bowl is off"),
    "sync": ("同步模式：碗在主机的 REPL", "sync mode: the bowl is at the host's REPL"),
    "status": ("%(event)s：%(detail)s", "%(event)s: %(detail)s"),
}
_DOT = " · "
_TEXT = re.compile(r"T(\d+):")
_FIELD = re.compile(r"(\w+)=(\S+)")


def sim_lang(environ=None):
    """The view's default language: zh where the locale is Chinese (LC_ALL, else LANG), else en."""
    environ = os.environ if environ is None else environ
    locale = environ.get("LC_ALL") or environ.get("LANG") or ""
    return "zh" if locale.startswith("zh") else "en"


class Words(Texts):
    """texts.Texts with the sim's sentences too."""

    def __call__(self, key, **fields):
        table = SIM if key in SIM else T
        return table[key][self.index] % fields if fields else table[key][self.index]

    def text(self, number):
        """A sentence of the bowl's screen (display.texts) in this language."""
        hanzi, _, english = TEXTS[number]
        return hanzi if self.lang == "zh" else english


class Story:
    def __init__(self, words):
        self.words = words
        self.now = ""
        self.said = []  # the words of the clips of the sentence being spoken
        self.history = []
        self.lamp = "off"
        self.game = types.SimpleNamespace(rules=Rules())  # what throw_name reads of a game
        self.clips = phrases()
        self.saying = False  # the last line was a speech clip: the next one adds to it

    def feed(self, line):
        """Take one line of the bowl's."""
        if not line.startswith("speech "):
            self.saying = False
        if line.startswith("{"):
            try:
                event = json.loads(line)
            except ValueError:
                self.tell(line)
                return
            self.event(event)
        elif line.startswith("screen "):
            self.screen(line[7:])
        elif line.startswith("speech "):
            self.say(line[7:])
        elif line.startswith("lamp "):
            self.lamp = line[5:]
        elif line in ("power", "off"):
            self.tell(self.words(line))
        elif not line.startswith(("sound ", "motor ", "backlight ")) and line.strip():
            self.tell(line)  # the sim's notes (a reset), the REPL's words

    def tell(self, text, keep=True):
        self.now = text
        if keep:
            self.history.append(text)
            del self.history[:-200]

    def name(self, seat):
        return self.words("seat", n=seat)

    def holder(self, seat):
        return self.words("zy", holder=self.name(seat) if seat else self.words("nobody"))

    def prizes(self, counts):
        w = self.words
        return " ".join(
            (
                tier_label(TIERS.index(t), None, w)
                if n == 1
                else "%d x %s" % (n, tier_label(TIERS.index(t), None, w))
            )
            for t, n in counts.items()
        )

    def event(self, e):
        w, kind = self.words, e.get("event")
        if kind == "game":
            if e["rules"] in PRESETS:
                self.game = types.SimpleNamespace(rules=Rules(e["rules"]))
            if e["resumed"]:
                self.tell(w("resumed", throws=e["throws"]))
            else:
                first = self.name(e["first"])
                self.tell(w("new_game", players=e["players"], rules=e["rules"], first=first))
        elif kind == "throw":
            parts = [self.name(e["seat"]), throw_name(self.game, e["dice"], w), show_dice(e["dice"])]
            if e["won"]:
                parts.append(w("wins", prizes=self.prizes(e["won"])))
            if e["taken"]:
                parts.append(w("takes", prizes=self.prizes(e["taken"])))
            if e["missed"]:
                parts.append(
                    w("missed", tiers=" ".join(tier_label(TIERS.index(t), None, w) for t in e["missed"]))
                )
            parts.append(self.holder(e["zhuangyuan"]))
            self.tell(_DOT.join(parts))
        elif kind == "void":
            self.tell(_DOT.join((w("void", name=self.name(e["seat"])), self.holder(e["zhuangyuan"]))))
        elif kind == "end":
            parts = [w("game_over")]
            zy = e["zhuangyuan"]
            if zy:
                throw = throw_name(self.game, zy["dice"], w)
                winner = w("winner", name=self.name(zy["player"]), throw=throw, dice=show_dice(zy["dice"]))
                parts.append(w("winners", list=winner))
            else:
                parts.append(w("no_winner"))
            parts.append(w("audit", code=e["audit"]))
            self.tell(_DOT.join(parts))
        elif kind == "sync":
            self.tell(w("sync"))
        elif kind:
            self.tell(w("status", event=kind, detail=e.get("detail", "")))

    def screen(self, text):
        w = self.words
        what, _, rest = text.partition(" ")
        fields = dict(_FIELD.findall(rest))
        if what == "turn" and fields["seat"] != "-":
            zy = fields["zy"].split(":")[0]
            holder = self.holder(0 if zy == "-" else int(zy))
            self.tell(_DOT.join((w("turn", name=self.name(int(fields["seat"]))), holder)))
        elif what == "roll":
            self.tell(w("rolling", dice=show_dice(fields["faces"])), keep=False)
        elif what == "attract":
            self.tell(w("attract", players=int(fields["players"])))
        elif what == "menu":
            title, item = (w.text(int(n)) for n in _TEXT.findall(rest)[:2])
            value = fields.get("value", "-")
            self.tell(w("menu", title=title, item=item) + ("" if value == "-" else ": " + value))
        elif what in ("message", "notice"):
            self.tell(_DOT.join(w.text(int(n)) for n in _TEXT.findall(rest)))
        elif what == "pin":
            self.tell(w("pin", n=int(fields["entered"])))
        elif what == "lifetime":
            self.tell(w("lifetime", **{k: int(v) for k, v in fields.items()}))
        elif what == "about":
            self.tell(w("about", version=fields["version"], board=fields["board"]))

    def say(self, clip):
        """`FF/NNN`: the words of clip NNN (whatever the folder's language), added to
        the sentence being spoken."""
        number = int(clip.partition("/")[2])
        phrase = self.clips.get(number)
        if phrase is None:
            said = "#%d" % number
        else:
            said = phrase[0] if self.words.lang == "zh" else spoken(phrase, ENGLISH_FOLDER)
        if not self.saying:
            self.said = []
        self.said.append(said)
        self.saying = True

    @property
    def speech(self):
        """The words of the last sentence spoken, or ""."""
        return (
            self.words("says", words=(" " if self.words.lang == "zh" else ", ").join(self.said))
            if self.said
            else ""
        )
