"""Every line fits its screen, in every case a bowl can show.

tests/mplib/screenfit.py draws every screen through the shipped layouts on
the emulated panels, for every award name (combined ones too), every prize
tier won or empty, both visitor languages, seats and players up to 20, every
sentence as a notice and a message, the menu at its default and widest
values, and (colour) the high-contrast palette.  It judges each glyph's
ink, not golden pixels: a player would notice a line cut at the glass's
edge or at its band's, two lines drawn over each other, and on the OLED
pinyin tone marks 1 px wide.  The ILI9341 and SH1106 show the same layouts
as the ST7789 and SSD1306 (tests/test_screens_golden.py).
"""

import os
import tempfile

import pytest
from mp import run_micropython
from test_heap_flow import MPLIB

FIT = os.path.join(MPLIB, "screenfit.py")


# the colour screens: `make test` (test_screens_golden draws them in `make test-quick`)
@pytest.mark.parametrize(
    "kind,least", [pytest.param("st7789", 1100, marks=pytest.mark.slow), ("ssd1306", 800)]
)
def test_no_glyph_is_cut_or_drawn_over_on_any_screen(kind, least, mp_port):
    with tempfile.TemporaryDirectory() as folder:
        out = run_micropython(
            FIT, heapsize=4_000_000, script_args=[kind, os.path.join(folder, "glass.mem")], port=mp_port
        )
    lines = out.splitlines()
    assert lines[-1].startswith("screens ") and int(lines[-1].split()[1]) >= least, out[-500:]
    wrong = [line for line in lines if line.startswith("fit ")]
    assert not wrong, "%d glyphs do not fit:\n%s" % (len(wrong), "\n".join(wrong[:40]))
