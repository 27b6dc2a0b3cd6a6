"""Every screen, both display classes, all four panels, pixel for pixel against tests/golden/.

The screens are drawn under MicroPython by the shipped layouts and drivers on
the panel emulators (tools/screenshots.py scenes()), and the glass is compared
with the committed images exactly.  The ILI9341 and SH1106 are compared with
the same images as the ST7789 and SSD1306: their drivers must put the same
picture on their differently wired glass.  After a deliberate change, `make
golden` rewrites the images; review them by eye before committing.
"""

import os
import sys

import pytest
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import screenshots  # noqa: E402

GOLDEN = os.path.join(ROOT, "tests", "golden")
os.environ.setdefault("BOBING_FONTS", os.path.join(ROOT, "firmware", "display", "fonts"))


def differences(got, want):
    """(pixels that differ, their bounding box) between two RGB images of one size."""
    a, b = got.tobytes(), want.tobytes()
    xs, ys = [], []
    for i in range(0, len(a), 3):
        if a[i : i + 3] != b[i : i + 3]:
            xs.append((i // 3) % got.width)
            ys.append((i // 3) // got.width)
    return len(xs), (min(xs), min(ys), max(xs), max(ys)) if xs else None


@pytest.mark.parametrize(
    "cls,kind",
    [
        ("color", "st7789"),
        pytest.param("color", "ili9341", marks=pytest.mark.slow),  # the ST7789's screens, another driver
        ("mono", "ssd1306"),
        ("mono", "sh1106"),
    ],
)
def test_every_screen_matches_its_golden_image(cls, kind, mp_port, tmp_path):
    names = screenshots.run_dump(kind, str(tmp_path), port=mp_port)
    golden = sorted(n[:-4] for n in os.listdir(os.path.join(GOLDEN, cls)))
    assert sorted(names) == golden, "scenes and golden images differ: run `make golden` and review"
    wrong = []
    for name in names:
        got = screenshots.image(screenshots.load(os.path.join(str(tmp_path), name + ".gls")))
        want = Image.open(os.path.join(GOLDEN, cls, name + ".png")).convert("RGB")
        assert got.size == want.size
        count, box = differences(got, want)
        if count:
            wrong.append("%s: %d pixels differ in %s" % (name, count, box))
    assert not wrong, "%s on %s:\n%s" % (cls, kind, "\n".join(wrong))
