"""Bitmap fonts read from flash one glyph at a time, and Chinese line breaking.

A font is a file of tools/make_fonts.py (its docstring gives the layout),
kept in display/fonts/.  From a ROMFS image (/rom on a bowl) its index
(3 bytes per glyph: code point and advance) is read in place, from the
flash; from any other filesystem the index is held in the heap, the code
points shared by all fonts.  A glyph is read on demand into one buffer per
font, which a MONO_HLSB FrameBuffer wraps once, so drawing a character
allocates nothing (a read, not a slice of the ROMFS file: a slice would
make a memoryview, 16 bytes of garbage, each glyph).  Why a file and not a
module of bytes constants: an .mpy module's bytes land in the heap when
imported from a filesystem (frozen ones stay in flash, but the sim and the
heap tests run .mpy files), and the 48 px font alone is larger than the
bowl's whole heap (docs/screens.md).

FONT_DIR is display/fonts beside this module, and nowhere else: a deploy
(and tools/mpy_build.py's .mpy tree, and the ROMFS image) puts the fonts
there.  A test may set FONT_DIR before building a screen.
"""

import io
from array import array

import framebuf
from micropython import const

# Only where a deploy puts them: display/fonts beside this module (a .mpy
# tree, a ROMFS image, or the sources), never elsewhere: a bowl without its
# fonts must fail at power-up, where the boot's handling shows it.
FONT_DIR = (__file__.rsplit("/", 1)[0] if "/" in __file__ else ".") + "/fonts"

# Text is read as code points decoded from its UTF-8 bytes into this one
# buffer, never as s[i]: on MicroPython indexing a str makes the character
# a qstr, interned for good, so every character ever drawn grew the qstr
# pool, until a new pool was made in the middle of play (docs/memory.md).
# A text is read up to 192 characters (_MAX_CHARS): the most any screen can
# show.
_MAX_CHARS = const(192)
_points = array("H", bytes(2 * _MAX_CHARS))

# A short str's bytes are copied through one BytesIO into _short, which
# makes no object: memoryview(s) would make one every text drawn,
# and a throw draws about thirty (docs/screens.md, Texts).  Longer strs (menus,
# messages: never drawn per throw) are viewed in place.
_SHORT = const(24)  # characters: 96 bytes of UTF-8 at most
_short = bytearray(4 * _SHORT)
_copier = io.BytesIO(_short)

# Pinyin's vowels with tone marks (and ü), each followed by its plain vowel:
# a Font with `plain` set draws the plain one (the 12 px font's marks are
# 1 px on a mono OLED, too small to tell apart).
_TONED = "āaáaǎaàaēeéeěeèeīiíiǐiìiōoóoǒoòoūuúuǔuùuǖuǘuǚuǜuüu"

# From this code point up, a CJK ideograph or fullwidth sign: a line may break beside it
_WIDE = const(0x2E80)


def decode(s, lo=0, hi=-1):
    """Decode s (bytes lo..hi of its UTF-8; hi -1: to the end) into the
    shared code-point buffer; returns how many it holds.

    s is a str or a buffer of UTF-8 (a texts.Table's rows).  Characters are
    counted from lo (code point i is the i-th character from there), up to
    192; one outside the Basic Multilingual Plane reads as 0xFFFF (no font
    has it)."""
    if not isinstance(s, str):
        b = s
        size = len(s)
    else:
        try:
            if len(s) <= _SHORT:
                _copier.seek(0)
                size = _copier.write(s)  # MicroPython writes a str's own bytes
                _copier.seek(0)
                _copier.readinto(_short)
                b = _short
            else:
                b = memoryview(s)  # type: ignore[arg-type]  # a MicroPython str is a buffer
                size = len(b)
        except TypeError:  # CPython (host tools): a copy
            b = s.encode()
            size = len(b)
    if hi >= 0:
        size = hi
    pos = lo
    n = 0
    points = _points
    while pos < size and n < _MAX_CHARS:
        c = b[pos]
        if c < 0x80:
            pos += 1
        elif c < 0xE0:
            c = (c & 0x1F) << 6 | b[pos + 1] & 0x3F
            pos += 2
        elif c < 0xF0:
            c = (c & 0x0F) << 12 | (b[pos + 1] & 0x3F) << 6 | b[pos + 2] & 0x3F
            pos += 3
        else:
            c = 0xFFFF
            pos += 4
        points[n] = c
        n += 1
    return n


_shared_codes = None  # make_fonts gives every font the same characters: one table serves all


class Font:
    """One font file: `height` px cells, glyphs looked up by code point.

    draw() blits a glyph onto any FrameBuffer (RGB565 or MONO_VLSB) through a
    palette, so one font serves both display classes.
    """

    plain = False  # set on a font: pinyin's tone marks left out (_TONED)

    def __init__(self, name):
        self.file = open(FONT_DIR + "/" + name + ".bin", "rb")
        head = self.file.read(8)
        if head[:4] != b"BBF1":
            raise ValueError("%s is not a font file" % name)
        self.height = head[4]
        stride = head[5]
        count = head[6] | head[7] << 8
        self._body = 8 + count * 3
        self._glyph_bytes = self.height * stride
        self._buf = bytearray(max(self._glyph_bytes, 32))
        try:
            # a ROMFS file is flash, mapped: the tables are read in place, not copied into the heap
            rom = memoryview(self.file)
            self._codes = rom[8 : 8 + 2 * count]
            self._advances = rom[8 + 2 * count : self._body]
        except TypeError:  # LittleFS (a frozen build), the unix port's files, CPython
            self._codes = self._code_table(2 * count)
            self.file.seek(8 + 2 * count)
            self._advances = self.file.read(count)
        self.glyph = framebuf.FrameBuffer(self._buf, stride * 8, self.height, framebuf.MONO_HLSB)
        self._loaded = -1

    def _code_table(self, n):
        # the n bytes of the code points: the shared table if this font's is the same, else its own
        global _shared_codes
        shared = _shared_codes
        if shared is not None and len(shared) == n:
            buf = memoryview(self._buf)[:32]
            pos = 0
            while pos < n:
                got = self.file.readinto(buf)
                if not got or buf[: min(got, n - pos)] != shared[pos : pos + min(got, n - pos)]:
                    break
                pos += got
            if pos >= n:
                return shared
            self.file.seek(8)
        own = self.file.read(n)
        if shared is None:
            _shared_codes = own
        return own

    def find(self, code):
        """Glyph number of a code point, or -1 when the font lacks it."""
        if self.plain and 0xE0 <= code < 0x1E0:
            code = _plain(code)
        index = self._codes
        lo, hi = 0, len(self._advances) - 1
        while lo <= hi:
            mid = (lo + hi) >> 1
            c = index[2 * mid] | index[2 * mid + 1] << 8
            if c == code:
                return mid
            if c < code:
                lo = mid + 1
            else:
                hi = mid - 1
        return -1

    def advance(self, code):
        """Width in px of a code point (a missing one counts as a space)."""
        i = self.find(code)
        if i < 0:
            i = self.find(32)
        return self._advances[i]

    def load(self, code):
        """Read a glyph into self.glyph; returns its advance (px), or -1 if missing."""
        i = self.find(code)
        if i < 0:
            return -1
        if i != self._loaded:
            self.file.seek(self._body + i * self._glyph_bytes)
            self.file.readinto(self._buf)
            self._loaded = i
        return self._advances[i]

    def width(self, s, start=0, end=-1, lo=0, hi=-1):
        """Width in px of s[start:end] (end -1: to the end); lo, hi: decode()'s."""
        n = decode(s, lo, hi)
        if end < 0 or end > n:
            end = n
        points = _points
        w = 0
        for i in range(start, end):
            w += self.advance(points[i])
        return w

    def draw(self, fb, s, x, y, palette, key, start=0, end=-1, lo=0, hi=-1):
        """Draw s[start:end] on fb with its cells' top at y; returns the x after it.

        palette: a 2x1 FrameBuffer of fb's format (background, ink); pixels
        equal to `key` after the palette are left untouched (-1: none).
        lo, hi: the bytes of s that hold the text (decode()).
        """
        n = decode(s, lo, hi)
        if end < 0 or end > n:
            end = n
        points = _points
        for i in range(start, end):
            code = points[i]
            adv = self.load(code)
            if adv < 0:
                adv = self.advance(32)
            elif code != 32:
                fb.blit(self.glyph, x, y, key, palette)
            x += adv
        return x


def _plain(code):
    # the plain vowel of a toned one
    toned = _toned
    for i in range(0, len(toned), 2):
        if toned[i] == code:
            return toned[i + 1]
    return code


_toned = array("H", _points[: decode(_TONED)])  # _TONED's code points, decoded once


def break_lines(font, s, width, starts, most=8):
    """Break s into lines at most `width` px wide; fills `starts` with each line's start.

    Returns the number of lines; line k is s[starts[k]:line_end(s, starts, k)]
    (starts[count] = len(s)).  Chinese has no spaces: a line may break
    between two ideographs, and at a space (preferred: 跳猴 本轮作废? breaks
    after 跳猴), never inside a Latin word (a word wider than a line is cut).  Lines are balanced: 7 characters in
    two lines break 4 + 3, so 五子登科带一秀 reads 五子登科 / 带一秀, not
    five and two.  With more than `most` lines needed, the first `most`
    lines are filled as full as they go (the caller shows those).  `starts`
    is a caller's list or bytearray (a start is at most 192), long enough
    (len(s) + 1).
    """
    total = font.width(s)  # decodes s into _points, which _fill reads
    chars = decode(s)
    n = 1
    while True:
        count = _fill(font, chars, width, starts, (total + n - 1) // n, n)
        if count <= n or n >= chars or n >= most:
            return count
        n += 1


def line_end(s, starts, k):
    """Where line k of break_lines ends, its trailing spaces left out."""
    end = starts[k + 1]
    decode(s)
    while end > starts[k] and _points[end - 1] == 32:
        end -= 1
    return end


def _fill(font, n, width, starts, target, wanted):
    # greedy lines of the n code points in _points, each closed at the first
    # break past `target` px (the last of the `wanted` lines takes all it
    # can), or before `width`
    s = _points
    count = 0
    starts[0] = 0
    i = 0
    while i < n:
        while i < n and s[i] == 32:  # a line never starts with a space
            i += 1
        if i >= n:
            break
        starts[count] = i
        count += 1
        w = 0
        last_break = -1
        last_space = -1
        j = i
        while j < n:
            adv = font.advance(s[j])
            if w + adv > width:
                if s[j] == 32:
                    last_space = j
                break
            if j > i and (s[j] == 32 or s[j] >= _WIDE or s[j - 1] >= _WIDE):
                last_break = j
                if s[j] == 32:
                    last_space = j
            w += adv
            j += 1
            if (
                w >= target
                and count < wanted
                and j < n
                and (s[j] == 32 or s[j] >= _WIDE or s[j - 1] >= _WIDE)
            ):
                last_break = j
                if s[j] == 32:
                    last_space = j
                break
        if j >= n:
            i = n
        elif last_space > i:  # a space is where the sentence itself pauses
            i = last_space
        elif last_break > i:
            i = last_break
        else:
            i = j if j > i else i + 1
    starts[count] = n
    return count
