"""Read announcements back from clip numbers alone, as a listener would.

Knows only the clip numbering of app/speech.py (its CLIP_* constants and the
display.texts numbers), never the game: what it reconstructs is what a
player who cannot see the screen can know.  Runs under MicroPython and CPython.

parse(clips) gives items:
    ("award", kind, suffix)    suffix 0, 1 (带一秀) or 2 (带二举)
    ("faces", [f1..f6])  ("draw", [faces])  ("seat", seat0)  ("number", n)
    ("prize", tier, count)  ("text", T_*)  ("skipped",)  ("from",)
    ("draw", seat0, [faces], total)  ("lugu",)  ("word", clip): a menu unit or value
Listener follows a whole game from its announcements; after each one it
knows who holds the 状元 as the announcement ends by saying so, and checks
that against what it followed.
"""

from app import speech as sp
from display import texts as tx

_FACES = sp.CLIP_FACE
_NUM = sp.CLIP_NUMBER


def _is_number(clip):
    return _NUM <= clip <= sp.CLIP_AND or clip == sp.CLIP_THOUSAND


def _number(clips, pos):
    # one number: NUMBER / TENS / HUNDRED / AND clips, 二十五 and 一百一十二 alike
    value = 0
    current = 0
    last_digit = False
    while pos < len(clips) and _is_number(clips[pos]):
        clip = clips[pos]
        pos += 1
        if clip == sp.CLIP_THOUSAND:
            value += current * 1000
            current = 0
            last_digit = False
        elif clip == sp.CLIP_HUNDRED:
            value += current * 100
            current = 0
            last_digit = False
        elif clip == sp.CLIP_AND:
            last_digit = False
        elif clip > _NUM + 20:
            current += (clip - sp.CLIP_TENS) * 10
            last_digit = False
        elif clip == _NUM + 10 and last_digit:
            current *= 10  # 一十: the Chinese ten after a hundred
            last_digit = False
        else:
            current += clip - _NUM
            last_digit = clip - _NUM < 10
    return value + current, pos


def parse(clips):
    """Items of an announcement (see the module docstring); ValueError on a clip
    that has no meaning where it stands."""
    items = []
    pos = 0
    n = len(clips)
    while pos < n:
        clip = clips[pos]
        pos += 1
        if clip == sp.CLIP_TEXT + tx.T_PLAYER:
            seat, pos = _number(clips, pos)
            if not 1 <= seat <= 20:
                raise ValueError("player %d" % seat)
            items.append(("seat", seat - 1))
        elif clip == sp.CLIP_TEXT + tx.T_DRAW:
            if clips[pos] != sp.CLIP_TEXT + tx.T_PLAYER:
                raise ValueError("a draw without who threw it")
            seat, pos = _number(clips, pos + 1)
            faces = []
            while pos < n and _FACES <= clips[pos] < _FACES + 6:
                faces.append(clips[pos] - _FACES + 1)
                pos += 1
            if pos >= n or clips[pos] != sp.CLIP_TOTAL:
                raise ValueError("a draw without its sum")
            total, pos = _number(clips, pos + 1)
            items.append(("draw", seat - 1, faces, total))
        elif sp.CLIP_TEXT <= clip < sp.CLIP_TEXT + sp.TEXT_ROOM:
            items.append(("text", clip - sp.CLIP_TEXT))
        elif sp.CLIP_KIND <= clip < sp.CLIP_KIND + 13:
            suffix = 0
            if pos < n and clips[pos] in (sp.CLIP_WITH_YIXIU, sp.CLIP_WITH_ERJU):
                suffix = clips[pos] - sp.CLIP_WITH_YIXIU + 1
                pos += 1
            items.append(("award", clip - sp.CLIP_KIND, suffix))
            faces = list(clips[pos : pos + 6])
            if len(faces) != 6 or any(not _FACES <= f < _FACES + 6 for f in faces):
                raise ValueError("an award not followed by six faces")
            items.append(("faces", [f - _FACES + 1 for f in faces]))
            pos += 6
        elif sp.CLIP_TIER <= clip < sp.CLIP_TIER + 6:
            count = 1
            if pos < n and _is_number(clips[pos]):
                count, pos = _number(clips, pos)
            items.append(("prize", clip - sp.CLIP_TIER, count))
        elif _is_number(clip):
            value, pos = _number(clips, pos - 1)
            items.append(("number", value))
        elif clip == sp.CLIP_SKIPPED:
            items.append(("skipped",))
        elif clip == sp.CLIP_TAKEN_FROM:
            items.append(("from",))
        elif clip == sp.CLIP_LUGU:
            items.append(("lugu",))
        elif sp.CLIP_MS <= clip <= sp.LAST_CLIP:
            items.append(("word", clip))  # the menu's units and values
        else:
            raise ValueError("clip %d means nothing here" % clip)
    return items


class Listener:
    """Follows a game from what it hears: each throw's award and dice, the
    prizes each seat holds, and at the end the 状元 and each seat's prizes."""

    def __init__(self):
        self.players = 0
        self.turn = -1  # the seat last announced as on turn
        self.throws = []  # (seat, kind, suffix, faces) per throw, None per void
        self.holdings = []  # seat * 6 + tier, from the throws' announcements
        self.shared = [0] * 6
        self.zy_seat = -1  # the provisional 状元 as announced
        self.holders = []  # the holder each turn and the end ended with
        self.lugu = 0  # new 状元 announced as 禄骨
        self.standings = []  # the pool [tier] said by each standings announcement
        self.ended = False
        self.end = None  # from the game end: dict

    def hear(self, clips):
        items = parse(clips)
        if not items:
            raise ValueError("an empty announcement")
        first = items[0]
        if first == ("text", tx.T_RESUMED):
            items = items[1:]
            first = items[0]
        if first == ("text", tx.T_NEW_GAME):
            self._game_start(items)
        elif first == ("text", tx.T_STANDINGS):
            self._standings(items)
        elif first == ("text", tx.T_GAME_OVER) and self.ended:
            self._game_end(items)
        else:
            self._throw(items)

    def _game_start(self, items):
        if items[1] != ("text", tx.T_PLAYERS) or items[2][0] != "number":
            raise ValueError("a game start without the number of players")
        self.players = items[2][1]
        self.holdings = [0] * (6 * self.players)
        self.shared = [0] * 6
        self.ended = False
        self.zy_seat = -1
        if self._turn(items, 3 if items[3][0] != "draw" else 4) != len(items):
            raise ValueError("more after the turn: %r" % (items,))

    def _turn(self, items, i):
        if items[i:] and items[i] == ("text", tx.T_TURN) and items[i + 1][0] == "seat":
            self.turn = items[i + 1][1]
            return self._holder(items, i + 2)
        raise ValueError("expected whose turn, got %r" % (items[i:],))

    def _holder(self, items, i, record=True):
        # 状元在 玩家 N / 暂无状元: must be the holder the announcements so far made
        if items[i:] and items[i] == ("text", tx.T_NO_ZHUANGYUAN):
            said, i = -1, i + 1
        elif items[i:] and items[i] == ("text", tx.T_ZHUANGYUAN_HOLDER) and items[i + 1][0] == "seat":
            said, i = items[i + 1][1], i + 2
        else:
            raise ValueError("expected who holds the 状元, got %r" % (items[i:],))
        if said != self.zy_seat:
            raise ValueError("the 状元 said to be with %d, followed to %d" % (said, self.zy_seat))
        if record:
            self.holders.append(said)
        return i

    def _throw(self, items):
        thrower = self.turn
        i = 0
        if items[0] == ("text", tx.T_VOIDED):
            self.throws.append(None)
            i = 1
        else:
            _, kind, suffix = items[0]
            self.throws.append((thrower, kind, suffix, items[1][1]))
            i = 2
        while i < len(items):
            item = items[i]
            seat = thrower
            if item[0] == "seat" and items[i + 1] == ("skipped",):
                i += 2
                continue
            if item[0] == "seat" and items[i + 1] == ("text", tx.T_WON):
                seat = item[1]
                i += 1
                item = items[i]
            if item == ("text", tx.T_WON):
                _, tier, count = items[i + 1]
                i += 2
                self.holdings[seat * 6 + tier] += count
                if i < len(items) and items[i] == ("from",):
                    source = items[i + 1][1]
                    self.holdings[source * 6 + tier] -= count
                    i += 2
            elif item[0] == "prize" and items[i + 1] == ("text", tx.T_SHARED):
                self.shared[item[1]] += item[2]
                i += 2
            elif item[0] == "prize" and items[i + 1] == ("text", tx.T_TIER_EMPTY):
                i += 2
            elif item == ("text", tx.T_NOTHING_WON):
                i += 3  # the tier, 已领完
            elif item == ("lugu",) and items[i + 1] == ("text", tx.T_NEW_ZHUANGYUAN):
                if self.zy_seat != thrower:
                    raise ValueError("禄骨 said, but the thrower did not hold the 状元")
                self.lugu += 1
                i += 1
            elif item == ("text", tx.T_NEW_ZHUANGYUAN):
                if items[i - 1] != ("lugu",) and self.zy_seat == thrower and thrower >= 0:
                    raise ValueError("the holder's own throw lost the 状元, and no 禄骨 said")
                self.zy_seat = items[i + 1][1]
                i += 2
            elif item == ("text", tx.T_NO_ZHUANGYUAN):
                self.zy_seat = -1
                i += 1
            elif item == ("text", tx.T_GAME_OVER):
                self.ended = True
                i += 2  # and the reason
            elif item == ("text", tx.T_TURN):
                i = self._turn(items, i)
                if i != len(items):
                    raise ValueError("more after the turn: %r" % (items[i:],))
            else:
                raise ValueError("unexpected %r in a throw" % (item,))

    def _game_end(self, items):
        end = {"reason": items[1][1] - tx.T_END_POOL_EMPTY + 1, "zy": None, "holdings": [], "shared": [0] * 6}
        i = 2
        if items[i] == ("text", tx.T_NO_ZHUANGYUAN):
            i += 1
        elif items[i] == ("text", tx.T_ZHUANGYUAN_HOLDER):
            end["zy"] = (items[i + 1][1], items[i + 2][1], items[i + 2][2], items[i + 3][1])
            i += 4
        self.zy_seat = end["zy"][0] if end["zy"] else -1
        end["holdings"], end["shared"] = self._table(items[i : self._ends_with_holder(items)])
        self.end = end

    def _ends_with_holder(self, items):
        # where the holder said last begins; it must be the one followed
        if items[-1] == ("text", tx.T_NO_ZHUANGYUAN):
            start = len(items) - 1
        elif items[-2] == ("text", tx.T_ZHUANGYUAN_HOLDER):
            start = len(items) - 2
        else:
            raise ValueError("no holder at the end: %r" % (items[-2:],))
        self._holder(items, start)
        return start

    def _standings(self, items):
        """玩家奖品, the holder, 剩余奖品 and the pool, the table: as followed."""
        i = self._holder(items, 1, False)
        if items[i] != ("text", tx.T_PRIZES_LEFT):
            raise ValueError("standings without the pool: %r" % (items[i:],))
        i += 1
        pool = [0] * 6
        while items[i][0] == "prize":
            pool[items[i][1]] = items[i][2]
            i += 1
        if items[i][0] == "number":
            i += 1  # 零: nothing left
        holdings, shared = self._table(items[i:])
        if holdings != self.holdings or shared != self.shared:
            raise ValueError("standings %r, followed %r" % (holdings, self.holdings))
        self.standings.append(pool)

    def _table(self, items):
        # each seat's prizes, then the shared ones
        holdings = [0] * (6 * self.players)
        shared = [0] * 6
        seat = -1
        i = 0
        while i < len(items):
            item = items[i]
            i += 1
            if item[0] == "seat":
                seat = item[1]
            elif item[0] == "prize" and items[i:] and items[i] == ("text", tx.T_SHARED):
                shared[item[1]] += item[2]
                i += 1
            elif item[0] == "prize" and seat >= 0:
                holdings[seat * 6 + item[1]] += item[2]
            elif item != ("text", tx.T_NOTHING_WON):
                raise ValueError("unexpected %r in a table of prizes" % (item,))
        return holdings, shared
