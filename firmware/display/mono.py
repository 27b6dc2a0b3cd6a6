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

The end screen lists every player's prizes with the panel's built-in 8 px
ASCII font, a digit a tier (lowest tier first; "+" for ten or more), two
columns of five players, the 状元's seat in inverse.
"""

import framebuf
from micropython import const

from bobing import names
from display import texts
from display.dice import draw_die
from display.font import Font, break_lines, line_end
from display.ssd1306 import CONTRAST_HIGH, CONTRAST_NORMAL

W = const(128)
H = const(64)
DIE = const(20)
_NOTICE_TOP = const(48)

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
        self._normal = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
        self._normal.pixel(1, 0, 1)
        self._inverse = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
        self._inverse.pixel(0, 0, 1)
        self._under = bytearray(2 * W)  # the pages a notice covers, kept to restore them
        self._noticed = False
        self._starts = [0] * 24
        self.visitor = 0

    # ---- drawing helpers ----
    def _text(self, font, s, x, y, inverse=False, start=0, end=-1):
        """Draw s[start:end] at (x, y); x -1 centres it.  Returns its width."""
        w = font.width(s, start, end)
        if x < 0:
            x = (W - w) // 2
        if inverse:
            font.draw(self.fb, s, x, y, self._inverse, 1, start, end)
        else:
            font.draw(self.fb, s, x, y, self._normal, 0, start, end)
        return w

    def _int(self, font, n, x, y, inverse=False):
        """Draw a number at (x, y), digit by digit (no string made); returns its width."""
        w = _int_width(font, n)
        pal, key = (self._inverse, 1) if inverse else (self._normal, 0)
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
        x = 2 + self._text(self.small, texts.TEXTS[texts.T_PLAYERS][0], 0, 50)
        x += 6 + self._int(self.small, players, x, 50)
        self._text(self.small, PRESETS[preset] if 0 <= preset < len(PRESETS) else "?", x, 50)
        self._show()

    def turn(self, seat, players, remaining, zy_seat, zy_faces):
        self._new()
        x = 4 + self._text(self.mid, texts.TEXTS[texts.T_TURN][0], 0, 0)
        x += 2 + self._text(self.mid, texts.TEXTS[texts.T_PLAYER][0], x, 0)
        x += 6 + self._int(self.mid, seat + 1, x, 0)
        vis = self._visitor(texts.T_PLAYER)
        if x + self.small.width(vis) <= W:
            self._text(self.small, vis, W - self.small.width(vis), 4)
        if zy_seat >= 0:
            x = 4 + self._text(self.small, texts.TEXTS[texts.T_ZHUANGYUAN_HOLDER][0], 0, 20)
            x += 2 + self._text(self.small, texts.TEXTS[texts.T_PLAYER][0], x, 20)
            self._int(self.small, zy_seat + 1, x, 20)
        else:
            self._text(self.small, texts.TEXTS[texts.T_NO_ZHUANGYUAN][0], 0, 20)
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

    def result(
        self, seat, faces, award, won_tier, won_count, empty_tier, new_zy, remaining, zy_seat, zy_faces
    ):
        self._new()
        self._dice(faces)
        award_names = names.award_names(award)
        self._text(self.mid, award_names[0], -1, 20)
        vis = award_names[1 + self.visitor]
        self._text(self.small, vis, -1 if self.small.width(vis) <= W else 0, 37)
        y = 50
        if won_tier >= 0:
            x = 3 + self._text(self.small, texts.TEXTS[texts.T_WON][0], 0, y)
            x += 3 + self._text(self.small, names.TIER_NAMES[won_tier][0], x, y)
            if won_count > 1:
                x += self._text(self.small, "x", x, y)
                x += 3 + self._int(self.small, won_count, x, y)
        elif empty_tier >= 0:
            x = 3 + self._text(self.small, names.TIER_NAMES[empty_tier][0], 0, y)
            x += 3 + self._text(self.small, texts.TEXTS[texts.T_TIER_EMPTY][0], x, y)
        else:
            x = 3 + self._text(self.small, texts.TEXTS[texts.T_NOTHING_WON][0], 0, y)
        # who threw, at the right of the bottom line; a new 状元 shows in inverse
        t = texts.T_NEW_ZHUANGYUAN if new_zy else texts.T_PLAYER
        w = self.small.width(texts.TEXTS[t][0]) + 2 + _int_width(self.small, seat + 1)
        if new_zy:
            self.fb.fill_rect(W - w - 2, y, w + 2, H - y, 1)
        x = W - w - 1
        x += 2 + self._text(self.small, texts.TEXTS[t][0], x, y, new_zy)
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
        # prizes: "S abcdef", a digit a tier, two columns of five seats
        for s in range(min(players, 10)):
            cx = (s // 5) * 66
            cy = 15 + (s % 5) * 8
            ink = 1
            if s == zy_seat:  # the 状元's seat in inverse
                fb.fill_rect(cx, cy, 16, 8, 1)
                ink = 0
            if s + 1 >= 10:
                fb.text("1", cx, cy, ink)
            fb.text(_DIGITS[(s + 1) % 10], cx + 8, cy, ink)
            for t in range(6):
                n = holdings[s * 6 + t]
                fb.text(_DIGITS[n if n < 10 else 10], cx + 18 + t * 7, cy, 1)
        fb.text(audit, W - 8 * len(audit), 56, 1)
        fb.hline(0, 55, W, 1)
        self._show()

    def menu(self, title, items, values, selected):
        self._new()
        self._text(self.small, texts.TEXTS[title][0], 0, 0)
        vis = self._visitor(title)
        self._text(self.small, vis, W - self.small.width(vis), 0)
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
        t = texts.TEXTS[text]
        w = self._text(self.small, t[0], 2, _NOTICE_TOP + 1, True)
        vis = t[1 + self.visitor]
        if 8 + w + self.small.width(vis) <= W:
            self._text(self.small, vis, W - 2 - self.small.width(vis), _NOTICE_TOP + 1, True)
        self.panel.show(6, 7)


def _int_width(font, n):
    w = font.advance(48 + n % 10)
    while n >= 10:
        n //= 10
        w += font.advance(48 + n % 10)
    return w
