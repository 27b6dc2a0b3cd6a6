"""How the colour screens are drawn (240x320 ST7789, ILI9341): ColorBands.

Portrait, 240 wide by 320 tall.  Why portrait: the dice are what every
player checks, and two rows of three give them 62 px (six in a landscape
row would get 50); every award name but the two seven-character combined
ones (五子登科带一秀/带二举) fits one 240 px line at 48 px, and those two
break after 五子登科 onto a second 48 px line; both panels are portrait
glass, so no row/column exchange is needed.

A full RGB565 frame is more than the heap: the screen is drawn as
full-width bands, 8 rows at a time, and as six die windows (half a die at
a time), all through one buffer built once (docs/screens.md has the figures).
A screen is a stack of bands:

    y   0.. 29  header: seat, title or a notice()
    y  30..159  the six dice, 62 px, two rows of three
    y 162..     the big line: the award (48 px) or whose turn, with its
                visitor line (pinyin or English, 16 px)
    then        what the throw won, the 状元 holder (24 px + 16 px)
    bottom      prizes left per tier (two rows of three)

ColorBands queues what a band shows (texts, numbers, small dice, dots),
then draws and sends the band; it also draws the bands every screen shares:
the header, the dice tray and the prizes left.  Each screen
(display.color.ColorScreen) sends only its bands; the dice tray redraws only
the dice that changed, and the prizes-left band goes again only when a
count changed.
"""

import framebuf
from micropython import const

from bobing import names
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

# The layout; display.color repeats the numbers its screens need: a private
# const costs no name and no heap, a public one both, in each module
_W = const(240)
_H = const(320)
_HEAD_H = const(30)
_BIG_TOP = const(162)
_STRIP = const(8)  # rows a band is drawn in at once: 240 x 8 x 2 = 3,840 bytes
_DIE = const(62)
_DIE_TOP = const(30)
_TRAY_H = const(130)  # two rows of dice and the gap

# What an item is (its first slot): public, the screens queue them too (and
# the screens' fit test reads them)
ITEM_TEXT = const(0)
ITEM_INT = const(1)
ITEM_DIE = const(2)
ITEM_DOT = const(3)
_MAX_ITEMS = const(16)

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


class ColorBands:
    """What every colour screen is drawn with, on a display.mipi panel (ST7789, ILI9341).

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
        w = int_width(font, n)
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
                elif kind == ITEM_DIE:
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

    # ---- the Screen (docs/device.md): what every colour screen does alike ----
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


def int_width(font, n):
    """The width of a number in a font, as ITEM_INT draws it (no string is made)."""
    if n < 0:
        return font.advance(45) + int_width(font, -n)
    w = font.advance(48 + n % 10)
    while n >= 10:
        n //= 10
        w += font.advance(48 + n % 10)
    return w


def _draw_int(font, fb, n, x, y, pal, key):
    # digit by digit, right to left: no string is made
    x += int_width(font, n)
    if n < 0:
        font.load(45)
        fb.blit(font.glyph, x - int_width(font, -n) - font.advance(45), y, key, pal)
        n = -n
    while True:
        d = 48 + n % 10
        x -= font.advance(d)
        font.load(d)
        fb.blit(font.glyph, x, y, key, pal)
        n //= 10
        if not n:
            break
