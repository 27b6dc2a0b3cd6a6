"""The generated fonts hold every character the bowl can show; Chinese lines break where they should.

A user would notice a blank box in an award name, a menu item or a pinyin
line (a text added without `make fonts`), or an award name broken after its
fifth character instead of after 五子登科.
"""

import importlib.util
import os
import struct

import pytest
from mp import run_micropython

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONTS = os.path.join(ROOT, "firmware", "display", "fonts")
os.environ.setdefault("BOBING_FONTS", FONTS)


def make_fonts():
    spec = importlib.util.spec_from_file_location("make_fonts", os.path.join(ROOT, "tools", "make_fonts.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def font_file(name):
    """(cell height, bytes a row, code points, advances, file size) of a committed font."""
    with open(os.path.join(FONTS, name + ".bin"), "rb") as f:
        data = f.read()
    assert data[:4] == b"BBF1"
    height, stride, count = struct.unpack_from("<BBH", data, 4)
    codes = struct.unpack_from("<%dH" % count, data, 8)
    advances = data[8 + 2 * count : 8 + 3 * count]
    return height, stride, codes, advances, len(data)


@pytest.mark.parametrize("name", sorted(make_fonts().FONTS))
def test_every_showable_string_has_every_glyph(name):
    _, _, codes, advances, _ = font_file(name)
    have = set(codes)
    missing = {}
    for s in make_fonts().showable_strings():
        for ch in s:
            if ord(ch) not in have:
                missing.setdefault(ch, s)
    assert not missing, "%s lacks %s: run `make fonts`" % (
        name,
        ", ".join("%r (in %r)" % (c, s) for c, s in sorted(missing.items())),
    )
    assert all(ord(c) in have for c in "0123456789abcdef ")
    assert all(advances[codes.index(ord(c))] > 0 for c in "0123456789玩")


@pytest.mark.parametrize("name", sorted(make_fonts().FONTS))
def test_font_files_are_whole_and_sorted(name):
    height, stride, codes, _, size = font_file(name)
    cell, em = make_fonts().FONTS[name][:2]
    assert height == cell and stride * 8 >= em
    assert list(codes) == sorted(set(codes))
    assert size == 8 + 3 * len(codes) + len(codes) * height * stride


def test_every_character_of_the_tables_is_counted_as_showable():
    # the glyph test is only as good as the list it checks: every award, tier and text
    import sys

    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    from display import texts

    from bobing import names

    shown = "".join(make_fonts().showable_strings())
    for n in range(len(texts.TEXTS)):
        for s in texts.TEXTS[n]:
            assert s in shown
    for s in names.KIND_NAMES[5] + names.TIER_NAMES[0] + ("带一秀",):
        assert s in shown


def test_chinese_lines_break_between_ideographs_balanced_and_never_inside_a_word():
    out = run_micropython(
        """
from display.font import Font, break_lines, line_end
big = Font("f48")
small = Font("f16")
starts = [0] * 40
def lines(font, s, width):
    n = break_lines(font, s, width, starts)
    print("|".join(s[starts[k]:line_end(s, starts, k)] for k in range(n)))
lines(big, "五子登科带一秀", 240)
lines(big, "状元插金花", 240)
lines(big, "跳猴 本轮作废?", 240)
lines(small, "Six blacks: grab the cakes", 100)
lines(small, "Supercalifragilistic", 60)
lines(small, "", 60)
"""
    )
    assert out.split("\n")[:5] == [
        "五子登科|带一秀",  # balanced: 4 + 3, not 5 + 2
        "状元插金花",  # five 48 px characters fill 240 px exactly
        "跳猴|本轮作废?",  # at the space, which is not carried over
        "Six blacks:|grab the|cakes",
        "Superca|lifragi|listic",  # a word wider than a line is cut (in balanced parts)
    ]
