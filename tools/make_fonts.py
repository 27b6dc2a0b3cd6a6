"""`make fonts`: the screens' bitmap fonts, from a real CJK font, subset to what the bowl can show.

Usage: python tools/make_fonts.py [OUT]   (default firmware/display/fonts)

Each font is one binary file (display/font.py reads it on demand, one glyph
at a time, through one reused buffer), holding exactly the characters of
showable_strings(): every text of display.texts, every award, tier and
rule-preset name of bobing (Chinese, pinyin with its tone marks, English),
the non-ASCII characters the layouts draw themselves, and printable ASCII
(digits, values, the audit code).  The files are committed, so a build needs
no font; this tool needs Pillow and WenQuanYi (Debian: fonts-wqy-microhei,
fonts-wqy-zenhei).

File layout (little-endian):
    b"BBF1", u8 cell height H (px), u8 bytes per glyph row S, u16 glyph count N
    N x u16 code point, ascending (the Basic Multilingual Plane is enough)
    N x u8 advance width (px)
    N x H*S bytes: the glyph, row by row, MSB leftmost (framebuf.MONO_HLSB)
"""

import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
OUT = os.path.join(FIRMWARE, "display", "fonts")
MICROHEI = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
ZENHEI = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"

# name: (cell height px, em px, font file, face index in the collection, where it is used).
# The em is the CJK character's box: a Chinese character is em px tall and wide.
FONTS = {
    "f48": (52, 48, MICROHEI, 0, "colour: award names, big numbers, whole-screen messages"),
    "f24": (28, 24, MICROHEI, 0, "colour: Chinese lines, menu items"),
    "f16": (19, 16, ZENHEI, 1, "colour: pinyin/English lines, tables; mono: Chinese lines"),
    "f12": (14, 12, ZENHEI, 1, "mono: pinyin/English lines, small labels"),
}
LAYOUTS = ("color.py", "mono.py")


def _firmware_modules():
    if FIRMWARE not in sys.path:
        sys.path.insert(0, FIRMWARE)
    from display import texts

    from bobing import names, rules

    return texts, names, rules


def showable_strings():
    """Every string a screen can draw, but the layouts' ASCII literals and numbers."""
    texts, names, rules = _firmware_modules()
    out = []
    for entry in tuple(texts.TEXTS) + names.KIND_NAMES + names.TIER_NAMES:
        out.extend(entry)
    for extra in (names._WITH_YIXIU, names._WITH_ERJU):
        out.extend(extra)
    out.extend(rules.PRESETS)
    for layout in LAYOUTS:
        with open(os.path.join(FIRMWARE, "display", layout), encoding="utf-8") as f:
            out.append("".join(ch for ch in f.read() if ord(ch) > 126))
    return out


def charset():
    """The sorted code points every font holds."""
    chars = {chr(c) for c in range(32, 127)}
    for s in showable_strings():
        chars.update(s)
    return sorted(ord(c) for c in chars if c >= " ")


def render(ch, font, cell, em, bold=0):
    """(advance px, H rows of pixel bits) of one character, its baseline placed so CJK fills the cell."""
    from PIL import Image, ImageDraw

    advance = int(round(font.getlength(ch)))
    ascent, descent = font.getmetrics()
    baseline = cell - descent if ascent + descent > cell else ascent + (cell - ascent - descent) // 2
    img = Image.new("1", (max(advance, em) + 8, cell), 0)
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"  # hinted, not anti-aliased: 1-bit glyphs read crisper than thresholded grey
    # bold: strokes widened by that many px, so a 48 px name reads from across a table
    draw.text((0, baseline), ch, font=font, fill=1, anchor="ls", stroke_width=bold, stroke_fill=1)
    return advance, img


def build(name, out_dir=OUT):
    """Write one font file; returns (path, glyph count, bytes)."""
    from PIL import ImageFont

    cell, em, path, index, _ = FONTS[name]
    font = ImageFont.truetype(path, em, index=index)
    codes = charset()
    bold = 1 if em >= 48 else 0
    glyphs = [render(chr(c), font, cell, em, bold) for c in codes]
    width = max(max(adv, img.getbbox()[2] if img.getbbox() else 0) for adv, img in glyphs)
    stride = (width + 7) // 8
    body = bytearray()
    for _, img in glyphs:
        for y in range(cell):
            row = 0
            for x in range(stride * 8):
                row = row << 1 | (1 if x < img.width and img.getpixel((x, y)) else 0)
            body += row.to_bytes(stride, "big")
    data = (
        b"BBF1"
        + struct.pack("<BBH", cell, stride, len(codes))
        + struct.pack("<%dH" % len(codes), *codes)
        + bytes(min(adv, 255) for adv, _ in glyphs)
        + body
    )
    os.makedirs(out_dir, exist_ok=True)
    target = os.path.join(out_dir, name + ".bin")
    with open(target, "wb") as f:
        f.write(data)
    return target, len(codes), len(data)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    out_dir = argv[0] if argv else OUT
    for path in {p for _, _, p, _, _ in FONTS.values()}:
        if not os.path.exists(path):
            print(
                "make_fonts: %s is missing (apt-get install fonts-wqy-microhei fonts-wqy-zenhei)" % path,
                file=sys.stderr,
            )
            return 1
    for name in FONTS:
        target, count, size = build(name, out_dir)
        print("%s: %d glyphs, %d bytes" % (os.path.relpath(target, ROOT), count, size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
