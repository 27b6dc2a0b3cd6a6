"""The screens of the 128x64 mono OLEDs (SSD1306, SH1106): MonoScreen.

The panel's own 1,024-byte MONO_VLSB framebuffer holds the whole picture;
each method redraws it and sends the pages (8-row bands) it changed: all
eight for a new screen, the three of the dice for a roll frame, the two at
the bottom for a notice.  Chinese lines are 16 px (8 characters a line),
pinyin/English and small labels 12 px.  The result screen:

    y  0..19   the six dice, 20 px (red faces: ringed pips)
    y 20..38   the award, 16 px
    y 37..50   its pinyin or English, 12 px (cut at the right when longer)
    y 50..63   what it won (or that the tier is empty), and who threw

The end screen: the reason and the 状元's seat, a head row of the tiers
(秀 举 进 红 堂 元, lowest first) and under it END_SEATS players a page,
each seat's prizes in the panel's built-in 8 px font (a digit a tier, "+"
for ten or more) at 18 px a column, the 状元's seat in inverse; the audit
code at the bottom.  More players than a page holds: next_page() shows the
next seats (the app calls it every few seconds while the end screen stays),
redrawing only the rows of seats, above where a notice goes.

    y  0..11   the reason and the 状元's seat, 12 px
    y 12..23   the tiers' heads, 12 px
    y 24..47   three seats, 8 px a row
    y 55..63   a rule and the audit code
"""

import framebuf
from micropython import const

from bobing import names
from bobing.classify import kind_of
from display import texts
from display.dice import draw_die
from display.font import Font, break_lines, line_end
from display.ssd1306 import CONTRAST_HIGH, CONTRAST_NORMAL

W = const(128)
H = const(64)
DIE = const(20)
_NOTICE_TOP = const(48)

_AWARDS = texts.Table(names.KIND_TABLE)  # an award's kind: (Chinese, pinyin, English), by KIND_*

END_SEATS = const(3)  # seats on a page of the end screen
_SEATS_TOP = const(24)  # the end screen's first row of seats
_CELLS = const(20)  # x of its first tier column, after the seat numbers
_CELL = const(18)  # the width of a tier column

_DIGITS = "0123456789+"


def die_x(i):
    """x of die i (0..5): one row, 21 px apart."""
    return i * 21 + 1


class MonoScreen:
    """docs/device.md's Screen on a display.ssd1306 panel (SSD1306, SH1106)."""

    def __init__(self, panel):
        self.panel = panel
        self.fb = panel.fb
        self.mid = Font("f16")
        self.small = Font("f12")
        self.small.plain = True  # its tone marks would be 1 px: pinyin shows without them
        self._normal = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
        self._normal.pixel(1, 0, 1)
        self._inverse = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
        self._inverse.pixel(0, 0, 1)
        self._under = bytearray(2 * W)  # the pages a notice covers, kept to restore them
        self._noticed = False
        self._starts = [0] * 24
        self.visitor = 0
        # the end screen's table, kept for next_page (players 0: not on the end screen)
        self._holdings = b""
        self._players = 0
        self._holder = -1
        self._first = 0  # the first seat on the page shown

    # ---- drawing helpers ----
    def _text(self, font, s, x, y, inverse=False, start=0, end=-1, lo=0, hi=-1):
        """Draw s[start:end] at (x, y); x -1 centres it.  Returns its width.
        lo, hi: the bytes of s that hold the text (display.font.decode)."""
        w = font.width(s, start, end, lo, hi)
        if x < 0:
            x = (W - w) // 2
        if inverse:
            font.draw(self.fb, s, x, y, self._inverse, 1, start, end, lo, hi)
        else:
            font.draw(self.fb, s, x, y, self._normal, 0, start, end, lo, hi)
        return w

    def _say(self, font, n, visitor, x, y, inverse=False):
        """Draw sentence n (texts): its Chinese, or (visitor) its pinyin or English."""
        lo = texts.SENTENCES.field(n, 1 + self.visitor if visitor else 0)
        return self._text(font, texts.SENTENCES.raw, x, y, inverse, 0, -1, lo, texts.SENTENCES.end(lo))

    def _said(self, font, n, visitor):
        """Width of what _say draws."""
        lo = texts.SENTENCES.field(n, 1 + self.visitor if visitor else 0)
        return font.width(texts.SENTENCES.raw, 0, -1, lo, texts.SENTENCES.end(lo))

    def _int(self, font, n, x, y, inverse=False):
        """Draw a number at (x, y), digit by digit (no string made); returns its width."""
        w = _int_width(font, n)
        pal = self._inverse if inverse else self._normal
        key = 1 if inverse else 0
        x += w
        while True:
            d = 48 + n % 10
            x -= font.advance(d)
            font.load(d)
            self.fb.blit(font.glyph, x, y, key, pal)
            n //= 10
            if not n:
                break
        return w

    def _visitor(self, n):
        return texts.TEXTS[n][1 + self.visitor]

    def _lines(self, font, s, y, most):
        count = min(most, break_lines(font, s, W, self._starts, most))
        for k in range(count):
            self._text(font, s, -1, y + k * font.height, False, self._starts[k], line_end(s, self._starts, k))
        return count * font.height

    def _dice(self, faces):
        fb = self.fb
        fb.fill_rect(0, 0, W, DIE, 0)
        for i in range(6):
            draw_die(fb, die_x(i), 0, DIE, faces[i] if faces else 0, 0, 1, 1, 1)

    def _new(self):
        self.fb.fill(0)
        self._noticed = False
        self._players = 0

    def _show(self):
        self.panel.show(0, 7)

    # ---- the Screen (docs/device.md) ----
    def set_language(self, visitor):
        """0: pinyin under the Chinese; 1: English.  Takes effect from the next screen drawn."""
        self.visitor = 1 if visitor else 0

    def set_contrast(self, on):
        """1: the panel at full contrast (brightness), 0: its usual level; at once.
        White on black is as much contrast as the glass has: only the level changes."""
        self.panel.contrast(CONTRAST_HIGH if on else CONTRAST_NORMAL)

    def attract(self, players, preset):
        from bobing.rules import PRESETS

        self._new()
        self._dice(b"\x04\x04\x04\x04\x01\x01")
        self._text(self.mid, texts.TEXTS[texts.T_PRESS_TO_THROW][0], -1, 20)
        self._text(self.small, self._visitor(texts.T_PRESS_TO_THROW), -1, 37)
        name = PRESETS[preset] if 0 <= preset < len(PRESETS) else "?"
        # 玩家人数 20 competition is wider than the glass: then 玩家 20 competition
        label = texts.T_PLAYERS
        if (
            self._said(self.small, label, False)
            + 8
            + _int_width(self.small, players)
            + self.small.width(name)
            > W
        ):
            label = texts.T_PLAYER
        x = 2 + self._say(self.small, label, False, 0, 50)
        x += 6 + self._int(self.small, players, x, 50)
        self._text(self.small, name, x, 50)
        self._show()

    def turn(self, seat, players, remaining, zy_seat, zy_faces):
        self._new()
        x = 4 + self._say(self.mid, texts.T_TURN, False, 0, 0)
        x += 2 + self._say(self.mid, texts.T_PLAYER, False, x, 0)
        x += 6 + self._int(self.mid, seat + 1, x, 0)
        vw = self._said(self.small, texts.T_PLAYER, True)
        if x + vw <= W:
            self._say(self.small, texts.T_PLAYER, True, W - vw, 4)
        if zy_seat >= 0:
            x = 4 + self._say(self.small, texts.T_ZHUANGYUAN_HOLDER, False, 0, 20)
            x += 2 + self._say(self.small, texts.T_PLAYER, False, x, 20)
            self._int(self.small, zy_seat + 1, x, 20)
        else:
            self._say(self.small, texts.T_NO_ZHUANGYUAN, False, 0, 20)
        self._remaining(remaining, 36)
        self._show()

    def _remaining(self, remaining, y):
        for t in range(6):
            x = (t % 3) * 43
            ty = y + (t // 3) * 14
            x += 1 + self._text(self.small, names.TIER_NAMES[t][0], x, ty)
            self._int(self.small, remaining[t], x, ty)

    def roll(self, faces):
        self._dice(faces)
        self.panel.show(0, 2)

    def _award_visitor(self, kind, extra, y):
        """The award's pinyin or English, as much of it as fits one line: the
        whole, or without 带一秀 (a combined award), or only what follows its
        ": " (four of a kind: Jinshi), or nothing."""
        table = _AWARDS
        k = 1 + self.visitor
        lo = table.field(kind, k)
        hi = table.end(lo)
        raw = table.raw
        short = lo  # after ": ", if it has one
        for i in range(lo, hi - 1):
            if raw[i] == 58 and raw[i + 1] == 32:  # ": "
                short = i + 2
        small = self.small
        more = small.width(extra[k]) if extra else 0
        for i in range(4):  # whole, short, whole without 带一秀, short without
            start = short if i & 1 else lo
            add = 0 if i & 2 else more
            w = small.width(raw, 0, -1, start, hi) + add
            if w <= W:
                x = self._text(small, raw, (W - w) // 2, y, False, 0, -1, start, hi) + (W - w) // 2
                if add:
                    self._text(small, extra[k], x, y)
                return

    def result(
        self, seat, faces, award, won_tier, won_count, empty_tier, new_zy, remaining, zy_seat, zy_faces
    ):
        self._new()
        self._dice(faces)
        kind = kind_of(award)
        extra = names.award_extra(award)  # 带一秀 or 带二举 of a combined award, or None
        table = _AWARDS
        lo = table.field(kind, 0)
        hi = table.end(lo)
        w = self.mid.width(table.raw, 0, -1, lo, hi) + (self.mid.width(extra[0]) if extra else 0)
        x = (W - w) // 2 + self._text(self.mid, table.raw, (W - w) // 2, 20, False, 0, -1, lo, hi)
        if extra:
            self._text(self.mid, extra[0], x, 20)
        self._award_visitor(kind, extra, 37)
        y = 50
        if won_tier >= 0:
            x = 1 + 3 + self._say(self.small, texts.T_WON, False, 1, y)
            x += 3 + self._text(self.small, names.TIER_NAMES[won_tier][0], x, y)
            if won_count > 1:
                x += self._text(self.small, "x", x, y)
                x += 3 + self._int(self.small, won_count, x, y)
        elif empty_tier >= 0:
            x = 1 + 3 + self._text(self.small, names.TIER_NAMES[empty_tier][0], 1, y)
            x += 3 + self._say(self.small, texts.T_TIER_EMPTY, False, x, y)
        else:
            x = 1 + 3 + self._say(self.small, texts.T_NOTHING_WON, False, 1, y)
        # who threw, at the right of the bottom line; a new 状元 shows in inverse
        t = texts.T_NEW_ZHUANGYUAN if new_zy else texts.T_PLAYER
        w = self._said(self.small, t, False) + 2 + _int_width(self.small, seat + 1)
        if new_zy:
            self.fb.fill_rect(W - w - 2, y, w + 2, H - y, 1)
        x = W - w - 1
        x += 2 + self._say(self.small, t, False, x, y, new_zy)
        self._int(self.small, seat + 1, x, y, new_zy)
        self._show()

    def end(self, reason, zy_seat, zy_faces, holdings, players, audit):
        self._new()
        fb = self.fb
        # the reason says the game is over: 奖品领完, 六勃红 通吃...
        title = texts.end_text(reason)
        x = 4 + self._text(self.small, texts.TEXTS[title][0], 0, 0)
        if zy_seat >= 0:
            x += 2 + self._text(self.small, names.TIER_NAMES[5][0], x, 0)
            self._int(self.small, zy_seat + 1, x, 0)
        for t in range(6):  # each tier headed by the last character of its name
            self._text(self.small, names.TIER_MARKS, _CELLS + t * _CELL + 3, 12, False, t, t + 1)
        fb.hline(0, 55, W, 1)
        fb.text(audit, W - 8 * len(audit), 56, 1)
        self._holdings = holdings
        self._players = players
        self._holder = zy_seat
        self._first = 0
        self._seats()
        self._show()

    def next_page(self):
        """The end screen's next END_SEATS seats (after the last, the first
        again); nothing on any other screen or when every seat fits one page.
        Only the rows of seats are sent: a notice over the bottom stays.
        Returns the first seat shown (from 1), 0 if no page turned."""
        players = self._players
        if players <= END_SEATS:
            return 0
        self._first += END_SEATS
        if self._first >= players:
            self._first = 0
        self.fb.fill_rect(0, _SEATS_TOP, W, END_SEATS * 8, 0)
        self._seats()
        self.panel.show(_SEATS_TOP // 8, (_SEATS_TOP + END_SEATS * 8) // 8 - 1)
        return self._first + 1

    def _seats(self):
        """Draw the end screen's page of seats from self._first: "S  a b c d e f"."""
        fb = self.fb
        holdings = self._holdings
        for s in range(self._first, min(self._players, self._first + END_SEATS)):
            y = _SEATS_TOP + (s - self._first) * 8
            ink = 1
            if s == self._holder:  # the 状元's seat in inverse
                fb.fill_rect(0, y, 17, 8, 1)
                ink = 0
            if s + 1 >= 10:
                fb.text(_DIGITS[(s + 1) // 10], 0, y, ink)
            fb.text(_DIGITS[(s + 1) % 10], 8, y, ink)
            for t in range(6):
                n = holdings[s * 6 + t]
                fb.text(_DIGITS[n if n < 10 else 10], _CELLS + t * _CELL + 5, y, 1)

    def menu(self, title, items, values, selected):
        self._new()
        w = self._say(self.small, title, False, 0, 0)
        vw = self._said(self.small, title, True)
        if w + 8 + vw <= W:  # the visitor line beside the title, when it fits
            self._say(self.small, title, True, W - vw, 0)
        rows = 3
        first = max(0, min(selected - rows + 1, len(items) - rows))
        y = 15
        for k in range(first, min(len(items), first + rows)):
            chosen = k == selected
            if chosen:
                self.fb.fill_rect(0, y, W, 16, 1)
            t = texts.TEXTS[items[k]]
            self._text(self.small, t[0], 2, y + 1, chosen)
            v = values[k] if k < len(values) else ""
            if v:
                self._text(self.small, v, W - 2 - self.small.width(v), y + 1, chosen)
            y += 16
        self._show()

    def pin(self, entered, digit):
        self._new()
        self._text(self.mid, texts.TEXTS[texts.T_ENTER_PIN][0], -1, 0)
        count = entered if isinstance(entered, int) else len(entered)
        for k in range(4):
            self.fb.ellipse(20 + k * 12, 36, 4, 4, 1, k < count)
        self.fb.rect(80, 22, 28, 30, 1)
        self._int(self.mid, digit, 89, 28)
        self._show()

    def lifetime(self, games, throws, recoveries, boots):
        self._new()
        self._text(self.small, texts.TEXTS[texts.T_LIFETIME][0], 0, 0)
        y = 14
        for text, n in (
            (texts.T_GAMES, games),
            (texts.T_THROWS, throws),
            (texts.T_RECOVERIES, recoveries),
            (texts.T_BOOTS, boots),
        ):
            self._text(self.small, texts.TEXTS[text][0], 0, y)
            self._int(self.small, n, W - _int_width(self.small, n), y)
            y += 12
        self._show()

    def about(self, entropy, version, board):
        self._new()
        self._text(self.small, texts.TEXTS[texts.T_ABOUT][0], 0, 0)
        rng = texts.T_RNG_TRUE if entropy == 1 else texts.T_RNG_PSEUDO
        self._text(self.small, texts.TEXTS[rng][0], 0, 14)
        self._text(self.small, self._visitor(rng), 0, 27)
        x = 4 + self._text(self.small, texts.TEXTS[texts.T_VERSION][0], 0, 40)
        self._text(self.small, version, x, 40)
        x = 4 + self._text(self.small, texts.TEXTS[texts.T_BOARD][0], 0, 52)
        self._text(self.small, board, x, 52)
        self._show()

    def message(self, text, detail):
        self._new()
        t = texts.TEXTS[text]
        y = 2 + self._lines(self.mid, t[0], 2, 2)
        y += self._lines(self.small, t[1 + self.visitor], y, 1)
        if detail >= 0:
            self._lines(self.small, texts.TEXTS[detail][0], y + 2, 2)
        self._show()

    def notice(self, text):
        """A band over the bottom 16 rows; notice(-1) gives back what it covered."""
        buf = self.panel.buffer
        start = (_NOTICE_TOP // 8) * W
        if text < 0:
            if self._noticed:
                buf[start : start + 2 * W] = self._under
                self._noticed = False
                self.panel.show(6, 7)
            return
        if not self._noticed:
            self._under[:] = buf[start : start + 2 * W]
            self._noticed = True
        self.fb.fill_rect(0, _NOTICE_TOP, W, H - _NOTICE_TOP, 1)
        w = self._say(self.small, text, False, 2, _NOTICE_TOP + 1, True)
        vw = self._said(self.small, text, True)
        if 8 + w + vw <= W:
            self._say(self.small, text, True, W - 2 - vw, _NOTICE_TOP + 1, True)
        self.panel.show(6, 7)


def _int_width(font, n):
    w = font.advance(48 + n % 10)
    while n >= 10:
        n //= 10
        w += font.advance(48 + n % 10)
    return w
