"""The screens of the 240x320 colour panels (ST7789, ILI9341): ColorScreen.

Portrait, 240 wide by 320 tall.  Why portrait: the dice are what every
player checks, and two rows of three give them 62 px (six in a landscape
row would get 50); every award name but the two seven-character combined
ones (五子登科带一秀/带二举) fits one 240 px line at 48 px, and those two
break after 五子登科 onto a second 48 px line; both panels are portrait
glass, so no row/column exchange is needed.

A full RGB565 frame is 150 KB, more than the heap: the screen is drawn as
full-width bands, 8 rows at a time, and as six die windows (half a die at
a time), all through one 3,844-byte buffer built once (docs/screens.md has the figures).  A screen is
a stack of bands:

    y   0.. 29  header: seat, title or a notice()
    y  30..159  the six dice, 62 px, two rows of three
    y 162..     the big line: the award (48 px) or whose turn, with its
                visitor line (pinyin or English, 16 px)
    then        what the throw won, the 状元 holder (24 px + 16 px)
    bottom      prizes left per tier (two rows of three)

Each method sends only its bands; roll() sends only the dice that changed,
and the prizes-left band goes again only when a count changed.
"""

import framebuf
from micropython import const

from bobing import names
from bobing.classify import kind_of
from display import texts
from display.dice import draw_die
from display.font import Font, break_lines, line_end


def rgb(r, g, b):
    """A colour (0..255 each) as framebuf.RGB565 stores it for the panel: big-endian RGB565."""
    v = (r & 0xF8) << 8 | (g & 0xFC) << 3 | b >> 3
    return (v & 255) << 8 | v >> 8


# The palettes: background, dice tray and tables, ink, gold, visitor lines,
# die faces, pips, red pips, notice band, notice ink.  Festive (0..9), then
# high contrast (10..19, set_contrast: white and yellow on black, for low
# vision).  One flat tuple: a tuple per palette would be one more object
# kept on the heap for good (docs/memory.md).
_PALETTES = (
    rgb(128, 16, 16),  # festive red
    rgb(72, 8, 8),
    rgb(255, 255, 255),
    rgb(255, 208, 64),
    rgb(255, 196, 180),
    rgb(250, 246, 232),
    rgb(24, 24, 24),
    rgb(220, 0, 0),
    rgb(255, 208, 64),
    rgb(40, 0, 0),
    rgb(0, 0, 0),  # black
    rgb(0, 0, 0),
    rgb(255, 255, 255),
    rgb(255, 255, 0),  # yellow
    rgb(224, 224, 224),
    rgb(255, 255, 255),
    rgb(0, 0, 0),
    rgb(255, 0, 0),
    rgb(255, 255, 0),
    rgb(0, 0, 0),
)
BG, BG_DARK, INK, GOLD, SOFT, PAPER, PIP, RED, NOTICE_BG, NOTICE_INK = _PALETTES[:10]

_W = const(240)
_H = const(320)
_STRIP = const(8)  # rows a band is drawn in at once: 240 x 8 x 2 = 3,840 bytes
_DIE = const(62)
_DIE_TOP = const(30)
_TRAY_H = const(130)  # two rows of dice and the gap
_BIG_TOP = const(162)
_HEAD_H = const(30)
_ROW_H = const(47)  # a menu or counter row: 24 px Chinese over its 16 px visitor line
_LEFT_TOP = const(280)  # the prizes-left band, two rows of 16 px, always there on a turn or a result

ITEM_TEXT = const(0)
ITEM_INT = const(1)
_DIE_ITEM = const(2)
_DOT = const(3)
_MAX_ITEMS = const(16)

_AWARDS = texts.Table(names.KIND_TABLE)  # an award's kind: (Chinese, pinyin, English), by KIND_*

# what the screen draws in: half a die (62 x 31 px, 2 bytes each: 3,844 B), over a band (240 x 8 x 2)
_SCRATCH = const(_DIE * (_DIE // 2) * 2)

# The first screen's item queue (a 512-byte list), made when this module is
# imported, early in boot, before the heap is cut up: made later, runs that
# long may no longer be free (docs/memory.md).  A second screen makes its own.


ITEM_SLOTS = const(10)  # an item's: kind, font, text, start, end, x, y, colour, lo, hi


def _items():
    # the queued items, ITEM_SLOTS each: kind, then fonts, texts, ints (one
    # flat list: a list per item would be 16 more objects, each with its own
    # header and allocation rounding, in the heap; docs/memory.md)
    return [0] * (ITEM_SLOTS * _MAX_ITEMS)


_first = [_items()]


class ColorScreen:
    """docs/device.md's Screen on a display.mipi panel (ST7789, ILI9341).

    scratch: a bytearray of at least 3,844 bytes the screen draws its bands
    and dice in, only during its calls, so it may be lent: a bowl lends the
    log's buffer (bowl.py), which the log uses only during its own calls.
    None: the screen makes its own."""

    def __init__(self, panel, scratch=None):
        self.panel = panel
        self._items = _first.pop() if _first else _items()
        scratch = scratch or bytearray(_SCRATCH)
        mv = memoryview(scratch)
        self._band_fb = framebuf.FrameBuffer(scratch, _W, _STRIP, framebuf.RGB565)
        self._rows = [mv[: 2 * _W * n] for n in range(_STRIP + 1)]
        self._die_fb = framebuf.FrameBuffer(scratch, _DIE, _DIE // 2, framebuf.RGB565)
        self._die_half = mv[: _DIE * _DIE]
        self._pal = framebuf.FrameBuffer(bytearray(4), 2, 1, framebuf.RGB565)
        self.big = Font("f48")
        self.mid = Font("f24")
        self.small = Font("f16")
        self.tiny = Font("f12")
        self._n = 0
        self._starts = bytearray(24)  # break_lines' line starts: a text is at most 192 characters
        self._faces = bytearray(6)  # the dice on the panel; 0: blank, 255: unknown
        self._left = bytearray(6)  # the prizes-left counts on the panel
        self._left_shown = False
        self._head_text = -1  # what the header shows, so notice(-1) can restore it
        self._head_seat = -1
        self._head_color = INK
        self.visitor = 0
        self._full()

    # ---- items and bands ----
    def _item(self, kind, a, b, c, d, e, f, g, lo=0, hi=-1):
        it = self._items
        i = ITEM_SLOTS * self._n
        it[i] = kind
        it[i + 1] = a
        it[i + 2] = b
        it[i + 3] = c
        it[i + 4] = d
        it[i + 5] = e
        it[i + 6] = f
        it[i + 7] = g
        it[i + 8] = lo
        it[i + 9] = hi
        self._n += 1

    def _text(self, font, s, x, y, color, start=0, end=-1, lo=0, hi=-1):
        """Queue s[start:end] at (x, y) in the band; x -1 centres it; returns its width.
        lo, hi: the bytes of s that hold the text (display.font.decode)."""
        w = font.width(s, start, end, lo, hi)
        if x < 0:
            x = (_W - w) // 2
        self._item(ITEM_TEXT, font, s, start, end, x, y, color, lo, hi)
        return w

    def _t(self, font, table, row, k, x, y, color):
        """Queue field k of a texts.Table's row, as _text; returns its width."""
        lo = table.field(row, k)
        return self._text(font, table.raw, x, y, color, 0, -1, lo, table.end(lo))

    def _say(self, font, n, visitor, x, y, color):
        """Queue sentence n (texts): its Chinese, or (visitor) its pinyin or English."""
        return self._t(font, texts.SENTENCES, n, 1 + self.visitor if visitor else 0, x, y, color)

    def _width(self, font, table, row, k):
        lo = table.field(row, k)
        return font.width(table.raw, 0, -1, lo, table.end(lo))

    def _int(self, font, n, x, y, color):
        """Queue a number; x negative: right-aligned to -x.  Returns its width."""
        w = _int_width(font, n)
        if x < 0:
            x = -x - w
        self._item(ITEM_INT, font, n, 0, 0, x, y, color)
        return w

    def _band(self, y, h, bg):
        """Draw the queued items on a band of h rows at y, filled with bg, and send it."""
        fb = self._band_fb
        pal = self._pal
        pal.pixel(0, 0, bg)
        it = self._items
        for sy in range(y, y + h, _STRIP):  # item coordinates are the screen's
            rows = min(_STRIP, y + h - sy)
            fb.fill(bg)
            for i in range(0, ITEM_SLOTS * self._n, ITEM_SLOTS):
                kind = it[i]
                if kind == ITEM_TEXT or kind == ITEM_INT:
                    font = it[i + 1]
                    top = it[i + 6] - sy
                    if top >= rows or top + font.height <= 0:
                        continue
                    pal.pixel(1, 0, it[i + 7])
                    if kind == ITEM_TEXT:
                        font.draw(
                            fb, it[i + 2], it[i + 5], top, pal, bg, it[i + 3], it[i + 4], it[i + 8], it[i + 9]
                        )
                    else:
                        _draw_int(font, fb, it[i + 2], it[i + 5], top, pal, bg)
                elif kind == _DIE_ITEM:
                    draw_die(fb, it[i + 2], it[i + 3] - sy, it[i + 4], it[i + 1], PAPER, PIP, RED, -1)
                else:
                    fb.ellipse(it[i + 1], it[i + 2] - sy, it[i + 3], it[i + 3], it[i + 4], True)
            self.panel.blit(0, sy, _W, rows, self._rows[rows])
        self._n = 0
        return y + h

    def _pair(self, n, y, color, x=-1):
        """Queue text n in 24 px with its visitor line (16 px) under it; returns the height."""
        self._say(self.mid, n, False, x, y, color)
        self._say(self.small, n, True, x, y + self.mid.height, SOFT)
        return self.mid.height + self.small.height

    def _lines(self, font, s, y, color, most):
        """Queue s broken into centred lines (at most `most`); returns the height used."""
        count = min(most, break_lines(font, s, _W, self._starts, most))
        for k in range(count):
            self._text(font, s, -1, y + k * font.height, color, self._starts[k], line_end(s, self._starts, k))
        return count * font.height

    # ---- the bands every screen is built of ----
    def _header(self, text, seat, color):
        """The header band: text (-1: none), seat (-1: none) in color; kept so notice(-1) can restore it."""
        self._head_text = text
        self._head_seat = seat
        self._head_color = color
        if text >= 0:
            x = 8 + self._say(self.mid, text, False, 8, 2, color)
            if seat >= 0:
                x += 8
                x += 8 + self._int(self.mid, seat + 1, x, 2, color)
            vw = self._width(self.small, texts.SENTENCES, text, 1 + self.visitor)
            if x + vw <= _W - 8:
                self._say(self.small, text, True, _W - 8 - vw, 8, SOFT)
        self._band(0, _HEAD_H, BG)

    def _die(self, i, face):
        if self._faces[i] == face:
            return
        self._faces[i] = face
        gap = (_W - 3 * _DIE) // 4
        x = gap + (i % 3) * (_DIE + gap)
        y = _DIE_TOP + (i // 3) * (_DIE + 6)
        fb = self._die_fb
        for sy in (0, _DIE // 2):  # half a die at a time fits the shared buffer
            fb.fill(BG)
            draw_die(fb, 0, -sy, _DIE, face, PAPER if face else BG_DARK, PIP, RED, -1)
            self.panel.blit(x, y + sy, _DIE, _DIE // 2, self._die_half)

    def _show_dice(self, faces):
        if self._faces[0] == 255:
            # a screen that first shows the dice sends the background around their windows
            gap = (_W - 3 * _DIE) // 4
            p = self.panel
            for row in range(2):
                y = _DIE_TOP + row * (_DIE + 6)
                for col in range(3):
                    p.fill(col * (_DIE + gap), y, gap, _DIE, BG)
                p.fill(
                    3 * (_DIE + gap), y, _W - 3 * (_DIE + gap), _DIE, BG
                )  # the right margin takes the odd px
            p.fill(0, _DIE_TOP + _DIE, _W, 6, BG)
            p.fill(0, _DIE_TOP + _TRAY_H, _W, _BIG_TOP - _DIE_TOP - _TRAY_H, BG)
        for i in range(6):
            self._die(i, faces[i] if faces else 0)

    def _remaining(self, y, remaining):
        """Prizes left per tier, two rows of three, from y to the bottom."""
        if self._left_shown:
            for t in range(6):
                if self._left[t] != min(255, remaining[t]):
                    break
            else:  # the same counts as on the panel
                return
        for t in range(6):
            self._left[t] = min(255, remaining[t])
            x = 8 + (t % 3) * 78
            ty = y + 1 + (t // 3) * 19
            w = self._text(self.small, names.TIER_NAMES[t][0], x, ty, SOFT)
            self._int(self.small, remaining[t], x + w + 6, ty, INK if remaining[t] else SOFT)
        self._band(y, _H - y, BG_DARK)
        self._left_shown = True

    def _rest(self, y, bg=-1):
        """Fill from y to the bottom: the screen below its last band (bg -1: BG,
        looked up now: set_contrast changes it)."""
        if y < _H:
            self.panel.fill(0, y, _W, _H - y, BG if bg < 0 else bg)
        self._left_shown = False

    def _full(self):
        # a screen without the dice: the tray is gone
        for i in range(6):
            self._faces[i] = 255
        self._left_shown = False

    # ---- the Screen (docs/device.md) ----
    def set_language(self, visitor):
        """0: pinyin under the Chinese; 1: English.  Takes effect from the next screen drawn."""
        self.visitor = 1 if visitor else 0

    def set_contrast(self, on):
        """1: the high-contrast palette, 0: the festive one.  Takes effect from
        the next screen drawn: the colours are the module's globals, read as
        each band is drawn (no per-screen copy: one panel per bowl)."""
        global BG, BG_DARK, INK, GOLD, SOFT, PAPER, PIP, RED, NOTICE_BG, NOTICE_INK
        BG, BG_DARK, INK, GOLD, SOFT, PAPER, PIP, RED, NOTICE_BG, NOTICE_INK = (
            _PALETTES[10:] if on else _PALETTES[:10]
        )
        self._full()

    def attract(self, players, preset):
        self._header(texts.T_TITLE, -1, GOLD)
        self._show_dice(b"\x04\x04\x04\x04\x01\x01")  # 状元插金花, the best throw
        y = _BIG_TOP
        t = texts.TEXTS[texts.T_PRESS_TO_THROW]
        h = self._lines(self.big, t[0], y, GOLD, 2)
        self._text(self.small, t[1 + self.visitor], -1, y + h, SOFT)
        y = self._band(y, h + self.small.height, BG)
        # players, and under them the rule preset (an ASCII name: xiamen, folk, competition)
        self._pair(texts.T_PLAYERS, y, INK, 8)
        self._int(self.mid, players, 16 + self._width(self.mid, texts.SENTENCES, texts.T_PLAYERS, 0), y, GOLD)
        from bobing.rules import PRESETS

        name = PRESETS[preset] if 0 <= preset < len(PRESETS) else "?"
        x = 16 + self._say(self.mid, texts.T_RULES, False, 8, y + _ROW_H, INK)
        self._text(self.mid, name, x, y + _ROW_H, GOLD)
        self._left_shown = False
        self._band(y, _H - y, BG)

    def turn(self, seat, players, remaining, zy_seat, zy_faces):
        self._header(texts.T_TURN, -1, INK)
        self._show_dice(zy_faces if zy_seat >= 0 else None)
        y = _BIG_TOP
        big = self.big
        x = (_W - self._width(big, texts.SENTENCES, texts.T_PLAYER, 0) - 12 - _int_width(big, seat + 1)) // 2
        x += 12 + self._say(big, texts.T_PLAYER, False, x, y, GOLD)
        self._int(big, seat + 1, x, y, GOLD)
        self._say(self.small, texts.T_PLAYER, True, -1, y + big.height, SOFT)
        y = self._band(y, big.height + self.small.height, BG)
        # under the dice: whose 状元 they are
        if zy_seat >= 0:
            self._pair(texts.T_ZHUANGYUAN_HOLDER, y, INK, 8)
            x = 16 + self._width(self.mid, texts.SENTENCES, texts.T_ZHUANGYUAN_HOLDER, 0)
            x += 8 + self._say(self.mid, texts.T_PLAYER, False, x, y, INK)
            self._int(self.mid, zy_seat + 1, x, y, GOLD)
        else:
            self._pair(texts.T_NO_ZHUANGYUAN, y, INK, 8)
        self._remaining(self._band(y, _LEFT_TOP - y, BG), remaining)

    def roll(self, faces):
        for i in range(6):
            self._die(i, faces[i])

    def result(
        self, seat, faces, award, won_tier, won_count, empty_tier, new_zy, remaining, zy_seat, zy_faces
    ):
        if new_zy:
            self._header(texts.T_NEW_ZHUANGYUAN, seat, GOLD)
        else:
            self._header(texts.T_PLAYER, seat, INK)
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
            x += self._t(big, _AWARDS, kind, 0, x, y, GOLD)
            if extra:
                self._text(big, extra[0], x, y, GOLD)
        else:
            self._t(big, _AWARDS, kind, 0, -1, y, GOLD)
            self._text(mid, extra[0], -1, y + big.height, GOLD)
        y += name_h
        if name_vis:
            x = (_W - vw) // 2
            x += self._t(small, _AWARDS, kind, vis, x, y, SOFT)
            if extra:
                self._text(small, extra[vis], x, y, SOFT)
            y += small.height
        y = self._band(_BIG_TOP, y - _BIG_TOP, BG)
        low = y + mid.height  # the won line's visitor half
        if won_tier >= 0:
            tier = names.TIER_NAMES[won_tier]
            w = self._say(mid, texts.T_WON, False, 8, y, INK)
            w += 8 + self._text(mid, tier[0], 16 + w, y, GOLD)
            if won_count > 1:
                self._text(mid, "x", 24 + w, y, INK)
                self._int(mid, won_count, 24 + w + mid.width("x") + 2, y, INK)
            if won_vis:
                w = self._say(small, texts.T_WON, True, 8, low, SOFT)
                self._text(small, tier[vis], 16 + w, low, SOFT)
        elif empty_tier >= 0:
            tier = names.TIER_NAMES[empty_tier]
            w = self._text(mid, tier[0], 8, y, INK)
            self._say(mid, texts.T_TIER_EMPTY, False, 16 + w, y, SOFT)
            if won_vis:
                w = self._text(small, tier[vis], 8, low, SOFT)
                self._say(small, texts.T_TIER_EMPTY, True, 16 + w, low, SOFT)
        else:
            self._say(mid, texts.T_NOTHING_WON, False, 8, y, INK)
            if won_vis:
                self._say(small, texts.T_NOTHING_WON, True, 8, low, SOFT)
        self._remaining(self._band(y, _LEFT_TOP - y, BG), remaining)

    def end(self, reason, zy_seat, zy_faces, holdings, players, audit):
        self._full()
        self._header(texts.T_GAME_OVER, -1, GOLD)
        y = _HEAD_H
        title = texts.end_text(reason)
        if title != texts.T_GAME_OVER:  # the header says that already
            y = self._band(y, self._pair(title, y, INK, -1) + 2, BG)
        # the 状元 and their throw, six small dice
        if zy_seat >= 0:
            x = 16 + self._say(self.mid, texts.T_ZHUANGYUAN_HOLDER, False, 8, y + 4, INK)
            self._int(self.mid, zy_seat + 1, x, y + 4, GOLD)
            for i in range(6):
                self._item(_DIE_ITEM, zy_faces[i], 110 + i * 21, y + 6, 20, 0, 0, 0)
        else:
            self._say(self.mid, texts.T_NO_ZHUANGYUAN, False, 8, y + 4, INK)
        y = self._band(y, 34, BG)
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
                    self._text(font, names.TIER_NAMES[t][0], 36 + t * 34, y + 2, SOFT)
                else:
                    self._text(font, names.TIER_MARKS, 120 * h + 24 + t * 16, y + 2, SOFT, t, t + 1)
        y = self._band(y, row + 2, BG_DARK)
        for r in range(per):
            for h in range(halves):
                s = h * per + r
                if s < players:
                    self._prizes(font, s, holdings, 120 * h, y, halves, s == zy_seat)
            y = self._band(y, row, BG_DARK)
        y = self._band(y, 4, BG_DARK)
        w = self._say(self.mid, texts.T_AUDIT_CODE, False, 8, y + 2, INK)
        self._text(self.mid, audit, 16 + w, y + 2, GOLD)
        self._say(self.small, texts.T_AUDIT_CODE, True, 8, y + 2 + self.mid.height, SOFT)
        self._rest(self._band(y, min(_H - y, _ROW_H + 4), BG))

    def next_page(self):
        """Every seat of the end screen fits the glass: no page turns (0)."""
        return 0

    def _prizes(self, font, seat, holdings, x, y, halves, holder):
        """Queue a seat's row of the end table at y: its number, then its prizes
        per tier (one table 240 px wide, or half of two, from x)."""
        if halves == 1:
            self._int(font, seat + 1, -30, y, GOLD if holder else INK)
        else:
            self._int(font, seat + 1, -(x + 20), y, GOLD if holder else INK)
        for t in range(6):
            n = holdings[seat * 6 + t]
            left = 36 + t * 34 if halves == 1 else x + 22 + t * 16
            if n:
                self._int(font, n, -(left + (24 if halves == 1 else 15)), y, INK)
            else:
                self._text(font, "-", left + (12 if halves == 1 else 6), y, SOFT)

    def menu(self, title, items, values, selected):
        self._full()
        self._header(title, -1, GOLD)
        y = _HEAD_H
        rows = (_H - _HEAD_H) // _ROW_H
        first = max(0, min(selected - rows + 1, len(items) - rows))
        for k in range(first, min(len(items), first + rows)):
            chosen = k == selected
            bg = NOTICE_BG if chosen else BG
            ink = NOTICE_INK if chosen else INK
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
                self._say(self.small, n, True, 12, y + self.mid.height, NOTICE_INK if chosen else SOFT)
            if v:
                self._text(vfont, v, _W - 12 - vw, vy, ink)
            y = self._band(y, _ROW_H, bg)
        self._rest(y)

    def pin(self, entered, digit):
        self._full()
        self._header(texts.T_ENTER_PIN, -1, INK)
        count = entered if isinstance(entered, int) else len(entered)
        for k in range(4):
            self._item(_DOT, 60 + k * 40, _HEAD_H + 32, 12, INK if k < count else BG_DARK, 0, 0, 0)
        y = self._band(_HEAD_H, 64, BG)
        self._text(self.big, "^", -1, y, SOFT)
        y = self._band(y, 40, BG)
        self._int(self.big, digit, -(_W // 2 + _int_width(self.big, digit) // 2), y + 10, GOLD)
        y = self._band(y, self.big.height + 20, BG)
        self._text(self.big, "v", -1, y, SOFT)
        self._rest(self._band(y, self.big.height, BG))

    def lifetime(self, games, throws, recoveries, boots):
        self._full()
        self._header(texts.T_LIFETIME, -1, GOLD)
        y = _HEAD_H + 4
        for text, n in (
            (texts.T_GAMES, games),
            (texts.T_THROWS, throws),
            (texts.T_RECOVERIES, recoveries),
            (texts.T_BOOTS, boots),
        ):
            self._pair(text, y, INK, 12)
            self._int(self.mid, n, -(_W - 12), y + 6, GOLD)
            y = self._band(y, _ROW_H + 4, BG)
        self._rest(y)

    def about(self, entropy, version, board):
        self._full()
        self._header(texts.T_ABOUT, -1, GOLD)
        y = _HEAD_H + 4
        rng = texts.T_RNG_TRUE if entropy == 1 else texts.T_RNG_PSEUDO
        y = self._band(y, self._pair(rng, y, INK, 12) + 8, BG)
        self._pair(texts.T_VERSION, y, INK, 12)
        self._text(self.mid, version, _W - 12 - self.mid.width(version), y + 6, GOLD)
        y = self._band(y, _ROW_H + 4, BG)
        self._pair(texts.T_BOARD, y, INK, 12)
        self._text(self.mid, board, _W - 12 - self.mid.width(board), y + 6, GOLD)
        self._rest(self._band(y, _ROW_H + 4, BG))

    def message(self, text, detail):
        self._full()
        self._header(-1, -1, INK)
        t = texts.TEXTS[text]
        y = 72
        self._band(_HEAD_H, y - _HEAD_H, BG)
        h = self._lines(self.big, t[0], y, GOLD, 3)
        h += self._lines(self.small, t[1 + self.visitor], y + h, SOFT, 2)
        y = self._band(y, h + 16, BG)
        if detail >= 0:
            d = texts.TEXTS[detail]
            h = self._lines(self.mid, d[0], y, INK, 2)
            h += self._lines(self.small, d[1 + self.visitor], y + h, SOFT, 2)
            y = self._band(y, h + 8, BG)
        self._rest(y)

    def notice(self, text):
        """A one-line band over the header; notice(-1) gives the header back."""
        if text < 0:
            self._header(self._head_text, self._head_seat, self._head_color)
            return
        w = self._say(self.mid, text, False, 8, 2, NOTICE_INK)
        vw = self._width(self.small, texts.SENTENCES, text, 1 + self.visitor)
        if 16 + w + vw <= _W - 8:
            self._say(self.small, text, True, _W - 8 - vw, 8, NOTICE_INK)
        self._band(0, _HEAD_H, NOTICE_BG)


def _int_width(font, n):
    if n < 0:
        return font.advance(45) + _int_width(font, -n)
    w = font.advance(48 + n % 10)
    while n >= 10:
        n //= 10
        w += font.advance(48 + n % 10)
    return w


def _draw_int(font, fb, n, x, y, pal, key):
    # digit by digit, right to left: no string is made
    x += _int_width(font, n)
    if n < 0:
        font.load(45)
        fb.blit(font.glyph, x - _int_width(font, -n) - font.advance(45), y, key, pal)
        n = -n
    while True:
        d = 48 + n % 10
        x -= font.advance(d)
        font.load(d)
        fb.blit(font.glyph, x, y, key, pal)
        n //= 10
        if not n:
            break
