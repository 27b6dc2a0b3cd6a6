"""The fonts in a bowl's ROMFS image are read in place, and draw exactly what the font files draw.

A bowl runs its firmware from a ROMFS image (docs/memory.md, "esp32rom"):
a font there has its index (code points and advances, 3 bytes a glyph)
read from the flash, not copied into the heap, where it cost a colour bowl
about 1.6 KB of its ~64 KB.  A user would notice a bowl that runs out of
heap mid-game, or a wrong character or a line broken in the wrong place if
the in-place reading went wrong.
"""

import os

from mp import run_micropython

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONTS = os.path.join(ROOT, "firmware", "display", "fonts")

COMPARE = """
import framebuf
import mp_heap
from display import font

fb = framebuf.FrameBuffer(bytearray(240 * 52 // 8), 240, 52, framebuf.MONO_HLSB)
pal = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
pal.pixel(1, 0, 1)
starts = [0] * 40


def seen(folder):
    # per font: heap kept by opening it, then what it draws and how it breaks lines
    font.FONT_DIR = folder
    font._shared_codes = None  # each run starts as a fresh bowl: no table to share yet
    out = []
    for name in ("f48", "f24", "f16", "f12"):
        held = []
        kept = mp_heap.kept(lambda: held.append(font.Font(name)))
        f = held[0]
        drawn = []
        for s in ("五子登科带一秀", "Zhuàngyuán 状元 x10", "?"):
            fb.fill(0)
            x = f.draw(fb, s, 2, 0, pal, 0)
            drawn.append((x, f.width(s), bytes(fb)))
        drawn.append(tuple(starts[:font.break_lines(f, "跳猴 本轮作废? Six blacks: grab the cakes", 90, starts)]))
        out.append((kept, f.advance(0x4E00), f.find(0xFFFF), drawn))
    return out


rom = seen("/rom/display/fonts")
files = seen(%(files)r)
for name, r, f in zip(("f48", "f24", "f16", "f12"), rom, files):
    print(name, r[0], f[0], r[1:] == f[1:])
"""


def test_fonts_in_romfs_keep_their_index_in_flash_and_draw_as_the_files_do(tmp_path):
    # a script file: tools/romfs_run.py takes -c code as an argument, and micropython32
    # cannot start with an argument longer than a qstr (255 bytes)
    script = tmp_path / "compare.py"
    script.write_text(COMPARE % {"files": FONTS})
    out = run_micropython(str(script), 200 * 1024, script_args=[], port="esp32rom")
    kept = {}
    for line in out.splitlines():
        name, rom, files, same = line.split()
        assert same == "True", "%s from the ROMFS draws or breaks lines unlike the file" % name
        kept[name] = int(rom), int(files)
    with open(os.path.join(FONTS, "f48.bin"), "rb") as f:
        head = f.read(8)
    count = head[6] | head[7] << 8
    # the first font read from a file holds the code points (2 bytes a glyph) and its
    # advances (1 byte a glyph), the others their advances (they share the code points);
    # from the ROMFS each holds two 16-byte views of the flash instead
    assert kept["f48"][0] + 3 * count - 32 <= kept["f48"][1]
    for name in ("f24", "f16", "f12"):
        assert kept[name][0] + count - 32 <= kept[name][1], name


def test_a_notice_taken_away_gives_the_header_back_pixel_for_pixel():
    # the header is redrawn from what it showed (ColorScreen keeps no copy of its pixels)
    out = run_micropython(
        """
from sim import panels
from bobing.classify import classify
from display import texts
screen, glass = panels.color_screen("st7789")
faces = b"\\x04\\x04\\x04\\x04\\x01\\x01"
screen.result(2, faces, classify(faces, 0), 5, 1, -1, True, (9, 6, 3, 2, 1, 1), 2, faces)
before = [bytes(glass.row(y)) for y in range(30)]
screen.notice(texts.T_RESUMED)
changed = [bytes(glass.row(y)) for y in range(30)] != before
screen.notice(-1)
print(changed, [bytes(glass.row(y)) for y in range(30)] == before)
""",
        heapsize=1_000_000,
    )
    assert out.split() == ["True", "True"]
