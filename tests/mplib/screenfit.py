"""Every line fits its screen: draws every screen, for every case a bowl can
show, through the shipped layouts on an emulated panel, and prints a line
for each glyph that would be clipped.

    micropython screenfit.py KIND GLASS_FILE

KIND is a panel of sim/panels.py (st7789, ili9341, ssd1306, sh1106).  A
glyph is judged by its ink (the set pixels of its bitmap, where the blit
puts them), not by golden pixels:

- on the colour screens, each band (display.color.ColorScreen._band) is
  drawn 8 rows at a time into a strip: a glyph whose ink leaves its band's
  rows, or the glass's 240 columns, is cut;
- on the mono screens, a glyph whose ink leaves the 128 x 64 glass is cut;
  ink that falls on a die is lost in it;
- on both, two glyphs whose ink overlaps each other, or a glyph covered by a
  fill (the mono notice, an inverse label's box) over part of it, are not
  read.

Prints "fit SCREEN: WHAT" for each such glyph (the first few a screen) and
"screens N" at the end.
"""

import sys

from display import color, mono, texts
from display.texts import TEXTS
from sim import panels

from bobing import names
from bobing.classify import F_SIJIN_COMBO, F_WUZI_YIXIU, classify

_ink = {}  # (font height, glyph number) -> its ink box in the cell, or None


def ink(font):
    """The ink box (x0, y0, x1, y1, exclusive ends) of the glyph `font` has loaded."""
    key = font.height * 1000 + font._loaded
    if key in _ink:
        return _ink[key]
    g = font.glyph
    w = 8 * (font._glyph_bytes // font.height)
    x0, y0, x1, y1 = w, font.height, 0, 0
    for y in range(font.height):
        for x in range(w):
            if g.pixel(x, y):
                x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x + 1), max(y1, y + 1)
    box = (x0, y0, x1, y1) if x1 else None
    _ink[key] = box
    return box


class Judge:
    """What was drawn on the screen now: ink boxes, and what is wrong with them."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.fonts = {}
        self.wrong = []  # what is wrong on the screen being drawn
        self.plain = False  # True: no 12 px pinyin tone marks (the mono OLED's 1 px ones)
        self.boxes = []  # (x0, y0, x1, y1, text number)
        self.text = 0

    def clear(self):
        self.boxes = []

    def fault(self, what):
        self.wrong.append(what)

    def glyph(self, src, x, y, top=0, bottom=0):
        """A glyph blitted at (x, y), judged against the glass and [top, bottom) rows."""
        font = self.fonts[id(src)]
        code = font._codes[2 * font._loaded] | font._codes[2 * font._loaded + 1] << 8
        if self.plain and font.height < 16 and 0xE0 <= code < 0x1E0 and code != 0xD7:
            self.fault("pinyin with a 1 px tone mark (U+%04X) at %d, %d" % (code, x, y))
        box = ink(font)
        if box is None:
            return
        b = (x + box[0], y + box[1], x + box[2], y + box[3], self.text)
        self.shape(b, "glyph %d of font %d" % (font._loaded, font.height), top, bottom)

    def shape(self, b, what, top=0, bottom=0):
        if b[0] < 0 or b[2] > self.width or b[1] < 0 or b[3] > self.height:
            self.fault("%s at %s is off the glass" % (what, b[:4]))
        if bottom and (b[1] < top or b[3] > bottom):
            self.fault("%s at %s leaves its band (rows %d..%d)" % (what, b[:4], top, bottom - 1))
        for o in self.boxes:
            if o[4] != b[4] and b[0] < o[2] and o[0] < b[2] and b[1] < o[3] and o[1] < b[3]:
                self.fault("%s at %s overlaps %s" % (what, b[:4], o[:4]))
                break
        self.boxes.append(b)

    def covered(self, x, y, w, h):
        """A fill over (x, y, w, h): glyphs under all of it go, under part of it are cut."""
        kept = []
        for b in self.boxes:
            if b[0] < x + w and x < b[2] and b[1] < y + h and y < b[3]:
                if not (x <= b[0] and b[2] <= x + w and y <= b[1] and b[3] <= y + h):
                    self.fault("a fill at %s cuts ink at %s" % ((x, y, w, h), b[:4]))
            else:
                kept.append(b)
        self.boxes = kept


class Recorder:
    """A framebuffer stand-in the colour check draws a band's items on: it records, never draws."""

    def __init__(self, judge):
        self.judge = judge
        self.top = self.bottom = 0

    def blit(self, src, x, y, key=-1, palette=None):
        self.judge.glyph(src, x, y, self.top, self.bottom)


class Mono:
    """The mono panel's framebuffer, drawn on as before, every glyph and fill judged."""

    def __init__(self, fb, judge):
        self.fb = fb
        self.judge = judge

    def fill(self, c):
        self.judge.clear()
        self.fb.fill(c)

    def fill_rect(self, x, y, w, h, c):
        self.judge.covered(x, y, w, h)
        self.fb.fill_rect(x, y, w, h, c)

    def blit(self, src, x, y, key=-1, palette=None):
        self.judge.text += 1
        self.judge.glyph(src, x, y)
        self.fb.blit(src, x, y, key, palette)

    def text(self, s, x, y, c=1):
        # the built-in 8 px font: a cell of 8 x 8 a character, ink in its 7 x 7
        for i in range(len(s)):
            self.judge.text += 1
            self.judge.shape((x + 8 * i, y, x + 8 * i + 7, y + 7, self.judge.text), "8 px %r" % s)
        self.fb.text(s, x, y, c)

    def hline(self, x, y, w, c):
        self.fb.hline(x, y, w, c)

    def rect(self, x, y, w, h, c, f=False):
        self.fb.rect(x, y, w, h, c, f)

    def ellipse(self, x, y, xr, yr, c, f=False, m=15):
        self.fb.ellipse(x, y, xr, yr, c, f, m)

    def pixel(self, x, y, c=-1):
        return self.fb.pixel(x, y) if c < 0 else self.fb.pixel(x, y, c)


def judge_colour(screen, judge):
    """Judge every band the colour screen sends, before it is drawn."""
    band = color.ColorScreen._band
    rec = Recorder(judge)

    def judged(self, y, h, bg):
        it = self._items
        rec.top, rec.bottom = y, y + h
        judge.boxes = [b for b in judge.boxes if b[3] <= y or b[1] >= y + h]  # what the band replaces
        for i in range(0, color.ITEM_SLOTS * self._n, color.ITEM_SLOTS):
            judge.text += 1
            if it[i] == color.ITEM_TEXT:
                it[i + 1].draw(
                    rec, it[i + 2], it[i + 5], it[i + 6], None, 0, it[i + 3], it[i + 4], it[i + 8], it[i + 9]
                )
            elif it[i] == color.ITEM_INT:
                color._draw_int(it[i + 1], rec, it[i + 2], it[i + 5], it[i + 6], None, 0)
        return band(self, y, h, bg)

    color.ColorScreen._band = judged


def judge_mono(screen, judge):
    screen.fb = Mono(screen.fb, judge)
    draw_die = mono.draw_die

    def die(fb, x, y, size, face, bg, ink_, red, key):
        judge.text += 1
        judge.shape((x, y, x + size, y + size, judge.text), "a die")
        draw_die(fb.fb if isinstance(fb, Mono) else fb, x, y, size, face, bg, ink_, red, key)

    mono.draw_die = die


def awards():
    """One classify() result for each name a throw can show (combined awards too)."""
    seen = []
    found = []
    faces = bytearray(6)
    for code in range(6**6):
        c = code
        for i in range(6):
            faces[i] = c % 6 + 1
            c //= 6
        if any(faces[i] > faces[i + 1] for i in range(5)):
            continue  # one order of each throw
        for flags in (0, F_WUZI_YIXIU | F_SIJIN_COMBO):
            result = classify(faces, flags)
            name = names.award_names(result)[0]
            if name not in seen:
                seen.append(name)
                found.append((result, bytes(faces)))
    return found


def scenes(screen, is_colour):
    """Draw every case; yields each screen's name."""
    from app import menu
    from app.settings import Settings

    from bobing.rules import PRESETS

    defaults = Settings("/no-such-file").values
    # every setting at its widest value: 20 players, competition, 8 sets,
    # seat 1, 2000 ms, speech folder 9, 60 min...
    widest = [20, 2, 8, 1, 10, 1, 1, 2000, 1000, 5000, 1, 9999, 1, 9, 30, 60, 1, 1]
    widest += defaults[len(widest) :]
    left_low = (0, 0, 0, 0, 0, 0)
    left_high = (255, 128, 64, 48, 32, 16)
    zy = b"\x04\x04\x04\x04\x01\x01"
    for contrast in (0, 1) if is_colour else (0,):
        screen.set_contrast(contrast)
        for lang in (0, 1):
            screen.set_language(lang)
            tag = "c%d l%d" % (contrast, lang)
            for result, faces in awards():
                for seat in (0, 19):
                    screen.result(seat, faces, result, 5, 2, -1, seat == 19, left_high, seat, faces)
                    yield "%s result award %d seat %d" % (tag, result, seat + 1)
            result, faces = awards()[-1]
            for tier in range(6):
                screen.result(17, faces, result, tier, 12, -1, False, left_high, 19, zy)
                yield "%s result won tier %d" % (tag, tier)
                screen.result(17, faces, result, -1, 0, tier, True, left_low, 19, zy)
                yield "%s result tier %d empty" % (tag, tier)
            screen.result(19, faces, result, -1, 0, -1, False, left_low, -1, zy)
            yield "%s result nothing" % tag
            for seat in (0, 9, 19):
                screen.turn(seat, 20, left_high, seat, zy)
                yield "%s turn seat %d" % (tag, seat + 1)
                screen.turn(seat, 20, left_low, -1, None)
                yield "%s turn seat %d, no 状元" % (tag, seat + 1)
            for n in range(len(TEXTS)):
                screen.notice(n)
                yield "%s notice %d" % (tag, n)
            screen.notice(-1)
            for n in range(len(TEXTS)):
                screen.message(n, n)
                yield "%s message %d" % (tag, n)
            for players in (2, 20):
                for preset in range(len(PRESETS)):
                    screen.attract(players, preset)
                    yield "%s attract %d players, preset %d" % (tag, players, preset)
            for players in range(2, 21):
                holdings = bytearray(6 * players)
                for i in range(len(holdings)):
                    holdings[i] = (i * 7) % 13
                # every page of the mono end table (the colour one has one page)
                pages = 1 if is_colour else (players + mono.END_SEATS - 1) // mono.END_SEATS
                for zy_seat in (players - 1, -1):
                    screen.end(1 if zy_seat >= 0 else 2, zy_seat, zy, holdings, players, "5e1f03a9")
                    for page in range(pages):
                        if page:
                            screen.next_page()
                        yield "%s end %d players, 状元 %d, page %d" % (tag, players, zy_seat + 1, page + 1)
            for settings in (defaults, widest):
                values = menu.values(settings)
                for selected in range(len(menu.ITEMS)):
                    screen.menu(texts.T_MENU, menu.ITEMS, values, selected)
                    yield "%s menu item %d" % (tag, selected)
            screen.pin(3, 9)
            yield "%s pin" % tag
            screen.lifetime(999999, 9999999, 99999, 99999)
            yield "%s lifetime" % tag
            screen.about(0, "0.4.0", "oled-sh1106")
            yield "%s about" % tag


def main(kind, path):
    is_colour = kind in ("st7789", "ili9341")
    if is_colour:
        screen, _ = panels.color_screen(kind, path)
        judge = Judge(240, 320)
        judge_colour(screen, judge)
        fonts = (screen.big, screen.mid, screen.small, screen.tiny)
    else:
        screen, _ = panels.mono_screen(kind)
        judge = Judge(128, 64)
        judge.plain = True
        judge_mono(screen, judge)
        fonts = (screen.mid, screen.small)
    for f in fonts:
        judge.fonts[id(f.glyph)] = f
    count = 0
    for name in scenes(screen, is_colour):
        for what in judge.wrong[:4]:
            print("fit %s: %s" % (name, what))
        judge.wrong = []
        count += 1
    print("screens", count)


main(sys.argv[1], sys.argv[2])
