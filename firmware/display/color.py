"""The screens of the 240x320 colour panels (ST7789, ILI9341): ColorScreen.

Each method of docs/device.md's Screen is one screen here, built of
display.colorbands' bands: attract, turn, roll, result, end, menu, pin,
lifetime, about, message and notice.  How they are drawn (the layout, the
palettes, the band buffer) is display.colorbands'.
"""

from micropython import const

from bobing import names
from bobing.classify import kind_of
from display import colorbands as bands
from display import texts

# The layout, as display.colorbands draws it (its docstring): the numbers
# repeated as private consts, which cost no name and no heap
_W = const(240)
_H = const(320)
_HEAD_H = const(30)
_BIG_TOP = const(162)
_ROW_H = const(47)  # a menu or counter row: 24 px Chinese over its 16 px visitor line
_LEFT_TOP = const(280)  # the prizes-left band, two rows of 16 px, always there on a turn or a result

_AWARDS = texts.Table(names.KIND_TABLE)  # an award's kind: (Chinese, pinyin, English), by KIND_*


class ColorScreen(bands.ColorBands):
    """docs/device.md's Screen on a display.mipi panel (ST7789, ILI9341).

    scratch: the buffer it draws in (display.colorbands.ColorBands)."""

    def attract(self, players, preset):
        self._header(texts.T_TITLE, -1, bands.GOLD)
        self._show_dice(b"\x04\x04\x04\x04\x01\x01")  # 状元插金花, the best throw
        y = _BIG_TOP
        t = texts.TEXTS[texts.T_PRESS_TO_THROW]
        h = self._lines(self.big, t[0], y, bands.GOLD, 2)
        self._text(self.small, t[1 + self.visitor], -1, y + h, bands.SOFT)
        y = self._band(y, h + self.small.height, bands.BG)
        # players, and under them the rule preset (an ASCII name: xiamen, folk, competition)
        self._pair(texts.T_PLAYERS, y, bands.INK, 8)
        self._int(
            self.mid, players, 16 + self._width(self.mid, texts.SENTENCES, texts.T_PLAYERS, 0), y, bands.GOLD
        )
        from bobing.rules import PRESETS

        name = PRESETS[preset] if 0 <= preset < len(PRESETS) else "?"
        x = 16 + self._say(self.mid, texts.T_RULES, False, 8, y + _ROW_H, bands.INK)
        self._text(self.mid, name, x, y + _ROW_H, bands.GOLD)
        self._left_shown = False
        self._band(y, _H - y, bands.BG)

    def turn(self, seat, players, remaining, zy_seat, zy_faces):
        self._header(texts.T_TURN, -1, bands.INK)
        self._show_dice(zy_faces if zy_seat >= 0 else None)
        y = _BIG_TOP
        big = self.big
        x = (
            _W - self._width(big, texts.SENTENCES, texts.T_PLAYER, 0) - 12 - bands.int_width(big, seat + 1)
        ) // 2
        x += 12 + self._say(big, texts.T_PLAYER, False, x, y, bands.GOLD)
        self._int(big, seat + 1, x, y, bands.GOLD)
        self._say(self.small, texts.T_PLAYER, True, -1, y + big.height, bands.SOFT)
        y = self._band(y, big.height + self.small.height, bands.BG)
        # under the dice: whose 状元 they are
        if zy_seat >= 0:
            self._pair(texts.T_ZHUANGYUAN_HOLDER, y, bands.INK, 8)
            x = 16 + self._width(self.mid, texts.SENTENCES, texts.T_ZHUANGYUAN_HOLDER, 0)
            x += 8 + self._say(self.mid, texts.T_PLAYER, False, x, y, bands.INK)
            self._int(self.mid, zy_seat + 1, x, y, bands.GOLD)
        else:
            self._pair(texts.T_NO_ZHUANGYUAN, y, bands.INK, 8)
        self._remaining(self._band(y, _LEFT_TOP - y, bands.BG), remaining)

    def roll(self, faces):
        for i in range(6):
            self._die(i, faces[i])

    def result(
        self, seat, faces, award, won_tier, won_count, empty_tier, new_zy, remaining, zy_seat, zy_faces
    ):
        if new_zy:
            self._header(texts.T_NEW_ZHUANGYUAN, seat, bands.GOLD)
        else:
            self._header(texts.T_PLAYER, seat, bands.INK)
        self._show_dice(faces)
        big, mid, small = self.big, self.mid, self.small
        kind = kind_of(award)
        extra = names.award_extra(award)  # 带一秀 or 带二举 of a combined award, or None
        vis = 1 + self.visitor
        w = self._width(big, _AWARDS, kind, 0) + (big.width(extra[0]) if extra else 0)
        # the name on one 48 px line; a seven-character one (五子登科带一秀)
        # keeps 48 px for its kind and puts its 带一秀 under it at 24 px
        name_h = big.height if w <= _W else big.height + mid.height
        vw = self._width(small, _AWARDS, kind, vis) + (small.width(extra[vis]) if extra else 0)
        # what fits above the prizes left, which never move: the won line's
        # visitor half goes first, then the name's visitor line
        room = _LEFT_TOP - _BIG_TOP
        won_vis = name_h + small.height + _ROW_H <= room
        name_vis = vw <= _W and name_h + small.height + (_ROW_H if won_vis else mid.height) <= room
        y = _BIG_TOP
        if w <= _W:
            x = (_W - w) // 2
            x += self._t(big, _AWARDS, kind, 0, x, y, bands.GOLD)
            if extra:
                self._text(big, extra[0], x, y, bands.GOLD)
        else:
            self._t(big, _AWARDS, kind, 0, -1, y, bands.GOLD)
            self._text(mid, extra[0], -1, y + big.height, bands.GOLD)
        y += name_h
        if name_vis:
            x = (_W - vw) // 2
            x += self._t(small, _AWARDS, kind, vis, x, y, bands.SOFT)
            if extra:
                self._text(small, extra[vis], x, y, bands.SOFT)
            y += small.height
        y = self._band(_BIG_TOP, y - _BIG_TOP, bands.BG)
        low = y + mid.height  # the won line's visitor half
        if won_tier >= 0:
            tier = names.TIER_NAMES[won_tier]
            w = self._say(mid, texts.T_WON, False, 8, y, bands.INK)
            w += 8 + self._text(mid, tier[0], 16 + w, y, bands.GOLD)
            if won_count > 1:
                self._text(mid, "x", 24 + w, y, bands.INK)
                self._int(mid, won_count, 24 + w + mid.width("x") + 2, y, bands.INK)
            if won_vis:
                w = self._say(small, texts.T_WON, True, 8, low, bands.SOFT)
                self._text(small, tier[vis], 16 + w, low, bands.SOFT)
        elif empty_tier >= 0:
            tier = names.TIER_NAMES[empty_tier]
            w = self._text(mid, tier[0], 8, y, bands.INK)
            self._say(mid, texts.T_TIER_EMPTY, False, 16 + w, y, bands.SOFT)
            if won_vis:
                w = self._text(small, tier[vis], 8, low, bands.SOFT)
                self._say(small, texts.T_TIER_EMPTY, True, 16 + w, low, bands.SOFT)
        else:
            self._say(mid, texts.T_NOTHING_WON, False, 8, y, bands.INK)
            if won_vis:
                self._say(small, texts.T_NOTHING_WON, True, 8, low, bands.SOFT)
        self._remaining(self._band(y, _LEFT_TOP - y, bands.BG), remaining)

    def end(self, reason, zy_seat, zy_faces, holdings, players, audit):
        self._full()
        self._header(texts.T_GAME_OVER, -1, bands.GOLD)
        y = _HEAD_H
        title = texts.end_text(reason)
        if title != texts.T_GAME_OVER:  # the header says that already
            y = self._band(y, self._pair(title, y, bands.INK, -1) + 2, bands.BG)
        # the 状元 and their throw, six small dice
        if zy_seat >= 0:
            x = 16 + self._say(self.mid, texts.T_ZHUANGYUAN_HOLDER, False, 8, y + 4, bands.INK)
            self._int(self.mid, zy_seat + 1, x, y + 4, bands.GOLD)
            for i in range(6):
                self._item(bands.ITEM_DIE, zy_faces[i], 110 + i * 21, y + 6, 20, 0, 0, 0)
        else:
            self._say(self.mid, texts.T_NO_ZHUANGYUAN, False, 8, y + 4, bands.INK)
        y = self._band(y, 34, bands.BG)
        # each player's prizes: a row per seat, a column per tier; more than
        # ten seats sit in two tables side by side, each tier headed by the
        # last character of its name (names.TIER_MARKS)
        halves = 1 if players <= 10 else 2
        per = (players + halves - 1) // halves
        font = self.small if players <= 7 else self.tiny
        row = font.height if halves == 1 else font.height - 1
        for h in range(halves):
            for t in range(6):
                if halves == 1:
                    self._text(font, names.TIER_NAMES[t][0], 36 + t * 34, y + 2, bands.SOFT)
                else:
                    self._text(font, names.TIER_MARKS, 120 * h + 24 + t * 16, y + 2, bands.SOFT, t, t + 1)
        y = self._band(y, row + 2, bands.BG_DARK)
        for r in range(per):
            for h in range(halves):
                s = h * per + r
                if s < players:
                    self._prizes(font, s, holdings, 120 * h, y, halves, s == zy_seat)
            y = self._band(y, row, bands.BG_DARK)
        y = self._band(y, 4, bands.BG_DARK)
        w = self._say(self.mid, texts.T_AUDIT_CODE, False, 8, y + 2, bands.INK)
        self._text(self.mid, audit, 16 + w, y + 2, bands.GOLD)
        self._say(self.small, texts.T_AUDIT_CODE, True, 8, y + 2 + self.mid.height, bands.SOFT)
        self._rest(self._band(y, min(_H - y, _ROW_H + 4), bands.BG))

    def next_page(self):
        """Every seat of the end screen fits the glass: no page turns (0)."""
        return 0

    def _prizes(self, font, seat, holdings, x, y, halves, holder):
        """Queue a seat's row of the end table at y: its number, then its prizes
        per tier (one table 240 px wide, or half of two, from x)."""
        if halves == 1:
            self._int(font, seat + 1, -30, y, bands.GOLD if holder else bands.INK)
        else:
            self._int(font, seat + 1, -(x + 20), y, bands.GOLD if holder else bands.INK)
        for t in range(6):
            n = holdings[seat * 6 + t]
            left = 36 + t * 34 if halves == 1 else x + 22 + t * 16
            if n:
                self._int(font, n, -(left + (24 if halves == 1 else 15)), y, bands.INK)
            else:
                self._text(font, "-", left + (12 if halves == 1 else 6), y, bands.SOFT)

    def menu(self, title, items, values, selected):
        self._full()
        self._header(title, -1, bands.GOLD)
        y = _HEAD_H
        rows = (_H - _HEAD_H) // _ROW_H
        first = max(0, min(selected - rows + 1, len(items) - rows))
        for k in range(first, min(len(items), first + rows)):
            chosen = k == selected
            bg = bands.NOTICE_BG if chosen else bands.BG
            ink = bands.NOTICE_INK if chosen else bands.INK
            n = items[k]
            v = values[k] if k < len(values) else ""
            # the value at the right, in 24 px beside the item, or in 16 px on
            # its visitor line when the item leaves no room; the visitor line
            # only if it fits beside the value
            vw = self.mid.width(v) if v else 0
            cw = self._width(self.mid, texts.SENTENCES, n, 0)
            vy = y + 6
            vfont = self.mid
            if vw and 12 + cw + 8 + vw > _W - 12:
                vfont = self.small
                vw = self.small.width(v)
                vy = y + self.mid.height
            self._say(self.mid, n, False, 12, y, ink)
            room = _W - 12 - (vw + 8 if vw else 0)
            if 12 + self._width(self.small, texts.SENTENCES, n, 1 + self.visitor) <= room:
                self._say(
                    self.small, n, True, 12, y + self.mid.height, bands.NOTICE_INK if chosen else bands.SOFT
                )
            if v:
                self._text(vfont, v, _W - 12 - vw, vy, ink)
            y = self._band(y, _ROW_H, bg)
        self._rest(y)

    def pin(self, entered, digit):
        self._full()
        self._header(texts.T_ENTER_PIN, -1, bands.INK)
        count = entered if isinstance(entered, int) else len(entered)
        for k in range(4):
            self._item(
                bands.ITEM_DOT,
                60 + k * 40,
                _HEAD_H + 32,
                12,
                bands.INK if k < count else bands.BG_DARK,
                0,
                0,
                0,
            )
        y = self._band(_HEAD_H, 64, bands.BG)
        self._text(self.big, "^", -1, y, bands.SOFT)
        y = self._band(y, 40, bands.BG)
        self._int(self.big, digit, -(_W // 2 + bands.int_width(self.big, digit) // 2), y + 10, bands.GOLD)
        y = self._band(y, self.big.height + 20, bands.BG)
        self._text(self.big, "v", -1, y, bands.SOFT)
        self._rest(self._band(y, self.big.height, bands.BG))

    def lifetime(self, games, throws, recoveries, boots):
        self._full()
        self._header(texts.T_LIFETIME, -1, bands.GOLD)
        y = _HEAD_H + 4
        for text, n in (
            (texts.T_GAMES, games),
            (texts.T_THROWS, throws),
            (texts.T_RECOVERIES, recoveries),
            (texts.T_BOOTS, boots),
        ):
            self._pair(text, y, bands.INK, 12)
            self._int(self.mid, n, -(_W - 12), y + 6, bands.GOLD)
            y = self._band(y, _ROW_H + 4, bands.BG)
        self._rest(y)

    def about(self, entropy, version, board):
        self._full()
        self._header(texts.T_ABOUT, -1, bands.GOLD)
        y = _HEAD_H + 4
        rng = texts.T_RNG_TRUE if entropy == 1 else texts.T_RNG_PSEUDO
        y = self._band(y, self._pair(rng, y, bands.INK, 12) + 8, bands.BG)
        self._pair(texts.T_VERSION, y, bands.INK, 12)
        self._text(self.mid, version, _W - 12 - self.mid.width(version), y + 6, bands.GOLD)
        y = self._band(y, _ROW_H + 4, bands.BG)
        self._pair(texts.T_BOARD, y, bands.INK, 12)
        self._text(self.mid, board, _W - 12 - self.mid.width(board), y + 6, bands.GOLD)
        self._rest(self._band(y, _ROW_H + 4, bands.BG))

    def message(self, text, detail):
        self._full()
        self._header(-1, -1, bands.INK)
        t = texts.TEXTS[text]
        y = 72
        self._band(_HEAD_H, y - _HEAD_H, bands.BG)
        h = self._lines(self.big, t[0], y, bands.GOLD, 3)
        h += self._lines(self.small, t[1 + self.visitor], y + h, bands.SOFT, 2)
        y = self._band(y, h + 16, bands.BG)
        if detail >= 0:
            d = texts.TEXTS[detail]
            h = self._lines(self.mid, d[0], y, bands.INK, 2)
            h += self._lines(self.small, d[1 + self.visitor], y + h, bands.SOFT, 2)
            y = self._band(y, h + 8, bands.BG)
        self._rest(y)

    def notice(self, text):
        """A one-line band over the header; notice(-1) gives the header back."""
        if text < 0:
            self._header(self._head_text, self._head_seat, self._head_color)
            return
        w = self._say(self.mid, text, False, 8, 2, bands.NOTICE_INK)
        vw = self._width(self.small, texts.SENTENCES, text, 1 + self.visitor)
        if 16 + w + vw <= _W - 8:
            self._say(self.small, text, True, _W - 8 - vw, 8, bands.NOTICE_INK)
        self._band(0, _HEAD_H, bands.NOTICE_BG)
