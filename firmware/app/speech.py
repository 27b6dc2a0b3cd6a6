"""What the bowl says, as clip numbers for the DFPlayer's microSD card.

A clip is one phrase, recorded once per language; the card holds folder 01
(Mandarin), 02 (Cantonese) and 03 (English), each with files 001..255 named
by clip number (`bobing voice OUT_DIR` makes them, docs/accessibility.md).
The numbers never change, so the firmware and any card ever made agree:

    clip   1..100   1 + display.texts T_* number (texts 0..99: every sentence the bowl shows)
    clip 101..113   101 + classify KIND_* (the award of a throw, bobing.names.KIND_NAMES)
    clip 121..126   121 + TIER_* (a prize tier, bobing.names.TIER_NAMES)
    clip 127..255   the phrases of PHRASES below: suffixes, dice faces, numbers, joins,
                    the menu's units and values

Announcement order, for a player who cannot see the screen (issue 11): the
award first, then the six dice faces, then what changed (prizes won, taken
or shared, a tier empty, a new 状元, the game over) and last whose turn is
next and who holds the 状元 (issue 23: a listener can name the holder after
any announcement, as the screen always shows it).  Every screen that
matters to a player has a spoken form here.

    said = Announcement()                  # once; keep it: the referee's repeat
    throw(said, batch, game)               # the batch Session.throw() logged
    player.say(said.clips, said.count, said.language)

A prize the thrower wins is said without a seat ("获得 二举"); prizes that go
to another seat (the 状元 handed over at the end, a 追 take) name it first.
A count is said only when it is more than one.
"""

from display import texts as tx
from micropython import const

from bobing import classify as C
from bobing import events as ev

# Languages: the card folder of each.  Folders 04..99 are free for more
# (human recordings, e.g. Hokkien, the Xiamen tongue: docs/accessibility.md).
MANDARIN = const(1)
CANTONESE = const(2)
ENGLISH = const(3)

CLIP_TEXT = const(1)  # + T_* number
TEXT_ROOM = const(100)  # texts 0..99 have a clip; texts.py appends within this
CLIP_KIND = const(101)  # + KIND_*
CLIP_TIER = const(121)  # + TIER_*
CLIP_WITH_YIXIU = const(127)  # 带一秀, after a 四进 or 五子登科
CLIP_WITH_ERJU = const(128)  # 带二举
CLIP_FACE = const(131)  # + face - 1: 一 二 三 红四 五 六
CLIP_NUMBER = const(141)  # + n, n 0..20
CLIP_TENS = const(159)  # + n // 10, n 30..90: 三十 .. 九十 (162..168)
CLIP_HUNDRED = const(169)  # 百
CLIP_AND = const(170)  # 零 in 105 (一百零五), "and" in one hundred and five
CLIP_SKIPPED = const(171)  # seat, then 轮空: the turn is skipped after a void
CLIP_TAKEN_FROM = const(172)  # 追: won tier, then 夺自 seat
CLIP_LUGU = const(173)  # before 新状元 when the holder's own new throw lost it (禄骨)
CLIP_TOTAL = const(174)  # 合计: the 答起 draw's sum
CLIP_THOUSAND = const(175)  # 千, for the menu's milliseconds
CLIP_MS = const(176)  # 毫秒
CLIP_MINUTES = const(177)  # 分钟
CLIP_SECONDS = const(178)  # 秒
CLIP_VOICE = const(178)  # + card folder 1..3: 普通话 粤语 英语 (179..181)
CLIP_FOLDER = const(182)  # 文件夹 N: a folder of recordings
CLIP_PRESET = const(183)  # + bobing.rules.PRESETS index: 厦门 民间 比赛
LAST_CLIP = const(185)

# The phrases beyond texts.py and bobing.names, by clip: 汉字|pinyin|English.
# `bobing voice` reads this; the bowl never does.
PHRASES = """\
127|带一秀|dài yī xiù|with a Scholar
128|带二举|dài èr jǔ|with a Graduate
131|一|yī|one
132|二|èr|two
133|三|sān|three
134|红四|hóng sì|red four
135|五|wǔ|five
136|六|liù|six
141|零|líng|zero
142|一|yī|one
143|二|èr|two
144|三|sān|three
145|四|sì|four
146|五|wǔ|five
147|六|liù|six
148|七|qī|seven
149|八|bā|eight
150|九|jiǔ|nine
151|十|shí|ten
152|十一|shí yī|eleven
153|十二|shí èr|twelve
154|十三|shí sān|thirteen
155|十四|shí sì|fourteen
156|十五|shí wǔ|fifteen
157|十六|shí liù|sixteen
158|十七|shí qī|seventeen
159|十八|shí bā|eighteen
160|十九|shí jiǔ|nineteen
161|二十|èr shí|twenty
162|三十|sān shí|thirty
163|四十|sì shí|forty
164|五十|wǔ shí|fifty
165|六十|liù shí|sixty
166|七十|qī shí|seventy
167|八十|bā shí|eighty
168|九十|jiǔ shí|ninety
169|百|bǎi|hundred
170|零|líng|and
171|轮空|lún kōng|skips this turn
172|夺自|duó zì|taken from
173|禄骨 以新替旧|lù gǔ yǐ xīn tì jiù|lu gu: their new throw replaces their old one
174|合计|hé jì|total
175|千|qiān|thousand
176|毫秒|háo miǎo|milliseconds
177|分钟|fēn zhōng|minutes
178|秒|miǎo|seconds
179|普通话|pǔ tōng huà|Mandarin
180|粤语|yuè yǔ|Cantonese
181|英语|yīng yǔ|English
182|文件夹|wén jiàn jiā|folder
183|厦门|xià mén|Xiamen rules
184|民间|mín jiān|folk rules
185|比赛|bǐ sài|competition rules"""

_CAPACITY = const(255)  # clips in one announcement: a 20-player, 8-set game end needs ~220

_NO_SEAT = const(255)
_ZY = const(5)


class Announcement:
    """One announcement: clips[0:count] (bytes 1..255) of folder `language`.

    Built once and refilled for every announcement, so the last one is
    still there for the referee's repeat.  Clips beyond _CAPACITY are
    dropped and `truncated` is set.
    """

    def __init__(self, language=MANDARIN):
        self.clips = bytearray(_CAPACITY)
        self.count = 0
        self.language = language
        self.truncated = False

    def clear(self):
        self.count = 0
        self.truncated = False

    def add(self, clip):
        if self.count < _CAPACITY:
            self.clips[self.count] = clip
            self.count += 1
        else:
            self.truncated = True

    def text(self, number):
        """A display.texts sentence, by its T_* number."""
        self.add(CLIP_TEXT + number)

    def number(self, n):
        """n >= 0 in words: 二十五, 一百零五, 一百一十二, 一千五百 / twenty five...;
        from 10000 (a lifetime's throws) digit by digit: 万 is not worth a clip."""
        if n >= 10000:
            power = 10000
            while power * 10 <= n:
                power *= 10
            while power:
                self.add(CLIP_NUMBER + n // power % 10)
                power //= 10
            return
        if n >= 1000:
            n = self._place(n, 1000, CLIP_THOUSAND)
        if n >= 100:
            n = self._place(n, 100, CLIP_HUNDRED)
        if n < 0:
            return
        if n <= 20:
            self.add(CLIP_NUMBER + n)
            return
        self.add(CLIP_NUMBER + 20 if n < 30 else CLIP_TENS + n // 10)
        if n % 10:
            self.add(CLIP_NUMBER + n % 10)

    def _place(self, n, unit, clip):
        # n's leading digit and its unit (一千, 一百), then what the rest needs
        # first: 零 / "and" over an empty place (一千零五十, 一百零五), 一 before
        # a Chinese ten (一百一十二).  The rest still to say, -1 if none.
        self.add(CLIP_NUMBER + n // unit)
        self.add(clip)
        n %= unit
        if n and n < unit // 10:
            self.add(CLIP_AND)
        if 10 <= n < 20 and self.language != ENGLISH:
            self.add(CLIP_NUMBER + 1)
            self.add(CLIP_NUMBER + 10)
            n -= 10
        return n if n else -1

    def seat(self, seat):
        """玩家 N, for a 0-based seat."""
        self.text(tx.T_PLAYER)
        self.number(seat + 1)

    def award(self, award):
        """The name of a classify() result: its kind, then 带一秀 / 带二举 if combined."""
        kind = C.kind_of(award)
        self.add(CLIP_KIND + kind)
        if kind == C.KIND_SIJIN or kind == C.KIND_WUZI:
            tiers = C.tiers_of(award)
            if tiers & (1 << C.TIER_YIXIU):
                self.add(CLIP_WITH_YIXIU)
            elif tiers & (1 << C.TIER_ERJU):
                self.add(CLIP_WITH_ERJU)

    def faces(self, code):
        """The six dice of a dice code (bobing.events.dice_code), first die first."""
        power = 7776
        while power:
            self.add(CLIP_FACE + code // power % 6)
            power //= 6

    def prize(self, tier, count):
        """A tier's name, and the count if more than one."""
        self.add(CLIP_TIER + tier)
        if count > 1:
            self.number(count)


_event = [0] * ev.EVENT_SIZE  # the event throw() is reading: a batch is read in place


def throw(said, batch, game):
    """Fill `said` with a throw's or a void's batch (the bytes Session.throw()
    or void() logged); `game` the Game after it (whose turn is next).  The
    award, the six faces, what changed, then whose turn it is."""
    said.clear()
    thrower = _NO_SEAT
    event = _event
    pos = ev.read_head(batch, event)
    while pos < len(batch):
        pos = ev.read_event(batch, pos, event)
        kind = event[0]
        if kind == ev.THROW:
            thrower = event[1]
            said.award(event[3])
            said.faces(event[2])
        elif kind == ev.VOID:
            thrower = event[1]
            said.text(tx.T_VOIDED)
        elif kind == ev.SKIP:
            said.seat(event[1])
            said.add(CLIP_SKIPPED)
        elif kind == ev.AWARD or kind == ev.TAKE:
            if event[1] != thrower:
                said.seat(event[1])
            said.text(tx.T_WON)
            said.prize(event[2], event[3] if kind == ev.AWARD else event[4])
            if kind == ev.TAKE:
                said.add(CLIP_TAKEN_FROM)
                said.seat(event[3])
        elif kind == ev.SHARE:
            said.prize(event[1], event[2])
            said.text(tx.T_SHARED)
        elif kind == ev.MISS:
            said.text(tx.T_NOTHING_WON)
            said.add(CLIP_TIER + event[1])
            said.text(tx.T_TIER_EMPTY)
        elif kind == ev.EXHAUSTED:
            said.add(CLIP_TIER + event[1])
            said.text(tx.T_TIER_EMPTY)
        elif kind == ev.ZY:
            if event[1] == _NO_SEAT:
                said.text(tx.T_NO_ZHUANGYUAN)
            else:
                if thrower != _NO_SEAT and event[1] != thrower:
                    # the thrower held it: their new, lower (or equal, later) throw replaced
                    # their own, and another seat's stands above it
                    said.add(CLIP_LUGU)
                said.text(tx.T_NEW_ZHUANGYUAN)
                said.seat(event[1])
        elif kind == ev.END:
            said.text(tx.T_GAME_OVER)
            said.text(tx.end_text(event[1]))
    if not game.ended:
        turn(said, game, False)


def turn(said, game, clear=True):
    """轮到 玩家 N, then who holds the 状元: whose turn it is."""
    if clear:
        said.clear()
    said.text(tx.T_TURN)
    said.seat(game.turn)
    holder(said, game)


def holder(said, game):
    """状元在 玩家 N, or 暂无状元: the 状元 the screen shows (the provisional
    holder during a game, the prize's holder once it has ended)."""
    seat = game.top
    if game.end_reason:
        zy = game.zhuangyuan()
        seat = _NO_SEAT if zy is None else zy[0]
    if seat == _NO_SEAT:
        said.text(tx.T_NO_ZHUANGYUAN)
    else:
        said.text(tx.T_ZHUANGYUAN_HOLDER)
        said.seat(seat)


def game_start(said, game):
    """A new game: 新游戏, the number of players, the 答起 draw if there was
    one (who threw it, its dice and their sum: counted from that player the
    sum gives the first), then whose turn and 暂无状元."""
    said.clear()
    said.text(tx.T_NEW_GAME)
    said.text(tx.T_PLAYERS)
    said.number(game.players)
    if game.draw:
        said.text(tx.T_DRAW)
        said.seat(game.draw_seat)
        total = 0
        for face in game.draw:
            said.add(CLIP_FACE + face - 1)
            total += face
        said.add(CLIP_TOTAL)
        said.number(total)
    turn(said, game, False)


def standings(said, game):
    """玩家奖品: who holds the 状元, 剩余奖品 and what is left in the pool,
    then each seat's prizes (状元 first, 无奖 for none) and the shared ones:
    what the screen shows, asked for at any time (App.standings).  The
    holder and the pool first: a 20-player table may not fit _CAPACITY."""
    said.clear()
    said.text(tx.T_STANDINGS)
    holder(said, game)
    said.text(tx.T_PRIZES_LEFT)
    left = False
    for tier in range(_ZY, -1, -1):
        count = game.remaining[tier]
        if count:
            said.prize(tier, count)
            left = True
    if not left:
        said.number(0)
    _holdings(said, game)


def game_end(said, game):
    """The end screen: 游戏结束 and why, the 状元 (seat, award, dice) or none,
    then each seat's prizes (状元 first, 无奖 for none) and the shared ones."""
    said.clear()
    said.text(tx.T_GAME_OVER)
    if game.end_reason:
        said.text(tx.end_text(game.end_reason))
    zy = game.zhuangyuan()
    if zy is None:
        said.text(tx.T_NO_ZHUANGYUAN)
    else:
        seat, code, _ = zy
        said.text(tx.T_ZHUANGYUAN_HOLDER)
        said.seat(seat)
        said.award(C.classify(ev.dice_of(code), game.rules.flags))
        said.faces(code)
    _holdings(said, game)
    holder(said, game)  # again after the table: the last thing heard, as after every turn


def _holdings(said, game):
    # each seat's prizes, the highest tier first, then the shared ones
    holdings = game.holdings
    for seat in range(game.players):
        said.seat(seat)
        won = False
        for tier in range(_ZY, -1, -1):
            count = holdings[seat * 6 + tier]
            if count:
                said.prize(tier, count)
                won = True
        if not won:
            said.text(tx.T_NOTHING_WON)
    for tier in range(_ZY, -1, -1):
        if game.shared[tier]:
            said.prize(tier, game.shared[tier])
            said.text(tx.T_SHARED)


def resumed(said, game, shown):
    """After a power cut: 断电后已恢复, then what is on the screen again: the
    end of the game if it had ended, else the last throw (`shown` is
    Session.shown: the last batch, or the game header for the game start)."""
    if game.ended:
        game_end(said, game)
    elif shown is None or shown[0] != ev.FORMAT:
        game_start(said, game)
    else:
        throw(said, shown, game)
    clips = said.clips  # 断电后已恢复 first: the clips so far move one on
    n = said.count
    if n == _CAPACITY:
        n -= 1
        said.truncated = True
    for i in range(n, 0, -1):
        clips[i] = clips[i - 1]
    clips[0] = CLIP_TEXT + tx.T_RESUMED
    said.count = n + 1
