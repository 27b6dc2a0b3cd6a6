"""`make screenshots`: a PNG of every screen, both display classes, into docs/screens/.

Usage: python tools/screenshots.py [OUT]   (default docs/screens)
       python tools/screenshots.py --golden  (tests/golden/{color,mono}/, 1 px a pixel)

Runs in two halves.  Under MicroPython (the unix port, run by the CPython
half on this same file), scenes() draws every screen through the shipped
layouts and drivers on the emulated panels of sim/panels.py and saves each
glass; CPython then reads the glasses back (sim.panels.load) and writes
them as PNGs, scaled up (colour x2, mono x4) in the glass's true colours.
tests/test_screens_golden.py draws the same scenes and compares the glass,
pixel for pixel, with tests/golden/ (`make golden` rewrites those).
"""

import os
import sys

# 10 players' prizes for the end screen: holdings[seat * 6 + tier]
_HOLDINGS = bytes(
    (
        3, 1, 0, 0, 0, 1,
        4, 2, 1, 0, 0, 0,
        2, 1, 0, 1, 0, 0,
        5, 0, 1, 0, 1, 0,
        3, 2, 0, 0, 0, 0,
        1, 3, 1, 1, 0, 0,
        4, 1, 1, 0, 1, 0,
        3, 2, 2, 0, 0, 0,
        5, 2, 1, 1, 0, 0,
        2, 2, 1, 1, 0, 0,
    )
)  # fmt: skip
_LEFT = (12, 6, 3, 2, 1, 1)


def scenes(screen, color=False):
    """Draw every screen in turn on `screen` (ColorScreen or MonoScreen); yields each one's name.
    color: a ColorScreen, whose high-contrast palette has scenes of its own."""
    from display import texts as t

    from bobing.classify import F_WUZI_YIXIU, classify

    def award(faces, flags=0):
        return classify(faces, flags)

    zy = b"\x04\x04\x04\x04\x02\x03"
    screen.set_language(0)
    screen.attract(4, 0)
    yield "attract"
    screen.turn(2, 4, _LEFT, -1, None)
    yield "turn_first"
    screen.turn(2, 4, _LEFT, 1, zy)
    yield "turn"
    screen.roll(b"\x03\x05\x01\x06\x02\x04")
    yield "roll"
    faces = b"\x04\x02\x03\x05\x06\x06"
    screen.result(2, faces, award(faces), 0, 1, -1, False, (11, 6, 3, 2, 1, 1), 1, zy)
    yield "result_yixiu"
    faces = b"\x04\x04\x04\x04\x01\x01"
    screen.result(3, faces, award(faces), 5, 1, -1, True, (11, 6, 3, 2, 1, 0), 3, faces)
    yield "result_new_zhuangyuan"
    faces = b"\x05\x05\x05\x05\x05\x04"
    screen.result(0, faces, award(faces, F_WUZI_YIXIU), 5, 1, -1, True, (10, 6, 3, 2, 1, 0), 0, faces)
    yield "result_combined"
    faces = b"\x01\x02\x03\x04\x05\x06"
    screen.result(1, faces, award(faces), -1, 0, 4, False, (10, 6, 3, 2, 0, 0), 0, zy)
    yield "result_tier_empty"
    faces = b"\x02\x02\x03\x05\x06\x06"
    screen.result(2, faces, award(faces), -1, 0, -1, False, (10, 6, 3, 2, 0, 0), 0, zy)
    yield "result_nothing"
    screen.notice(t.T_RESUMED)
    yield "notice_resumed"
    screen.notice(-1)
    screen.set_language(1)
    faces = b"\x06\x06\x06\x06\x02\x03"
    screen.result(4, faces, award(faces), 2, 1, -1, False, (10, 6, 2, 2, 0, 0), 0, zy)
    yield "result_english"
    screen.set_language(0)
    screen.end(1, 3, b"\x04\x04\x04\x04\x01\x01", _HOLDINGS, 10, "5e1f03a9")
    yield "end"
    screen.end(2, 1, b"\x04\x04\x04\x04\x04\x04", _HOLDINGS, 4, "0b7d22c4")
    yield "end_liubo_hong"
    items = (
        t.T_NEW_GAME,
        t.T_PLAYERS,
        t.T_RULES,
        t.T_PRIZE_SETS,
        t.T_WHO_STARTS,
        t.T_ACCEPT_TIME,
        t.T_KIOSK,
        t.T_BACK,
    )
    screen.menu(t.T_MENU, items, ("", "6", "xiamen", "1", "", "30 ms", "on", ""), 1)
    yield "menu"
    items = (t.T_VOLUME, t.T_MUTE, t.T_BRIGHTNESS, t.T_LANGUAGE, t.T_SPEECH, t.T_LARGE_TEXT, t.T_BACK)
    screen.menu(t.T_SETTINGS, items, ("3", "off", "5", "pinyin", "off", "on", ""), 3)
    yield "settings"
    screen.pin(2, 7)
    yield "pin"
    screen.lifetime(1284, 40213, 7, 311)
    yield "lifetime"
    screen.about(1, "0.4.0", "devkit")
    yield "about"
    screen.message(t.T_OUT_OF_SERVICE, t.T_RNG_FAILED)
    yield "out_of_service"
    screen.message(t.T_FLASH_FULL, t.T_SYNC_NEEDED)
    yield "flash_full"
    screen.message(t.T_VOID_ASK, t.T_PRESS_AGAIN)
    yield "void_ask"
    screen.attract(6, 1)
    screen.notice(t.T_FLASH_NEARLY_FULL)
    yield "notice_flash_nearly_full"
    screen.notice(t.T_RELEASE_SWITCH)
    yield "notice_release_switch"
    if not color:
        return  # a mono panel's contrast is its brightness: the same pixels
    screen.set_contrast(1)
    screen.attract(4, 0)
    yield "contrast_attract"
    screen.turn(2, 4, _LEFT, 1, zy)
    yield "contrast_turn"
    faces = b"\x04\x04\x04\x04\x01\x01"
    screen.result(3, faces, award(faces), 5, 1, -1, True, (11, 6, 3, 2, 1, 0), 3, faces)
    yield "contrast_result"
    screen.notice(t.T_RESUMED)
    yield "contrast_notice"
    screen.notice(-1)
    screen.end(1, 3, b"\x04\x04\x04\x04\x01\x01", _HOLDINGS, 10, "5e1f03a9")
    yield "contrast_end"
    screen.menu(
        t.T_MENU, (t.T_IDLE_TIMEOUT, t.T_HIGH_CONTRAST, t.T_VIBRATION, t.T_BACK), ("off", "on", "off", ""), 1
    )
    yield "contrast_menu"
    screen.message(t.T_VOID_ASK, t.T_PRESS_AGAIN)
    yield "contrast_void_ask"
    screen.set_contrast(0)


def dump(kind, out_dir):
    """MicroPython half: draw every scene on an emulated `kind` panel, saving each glass."""
    from sim import panels

    color = kind in ("st7789", "ili9341")
    if color:
        screen, glass = panels.color_screen(kind, out_dir + "/glass.mem")
    else:
        screen, glass = panels.mono_screen(kind)
    for name in scenes(screen, color):
        glass.save("%s/%s.gls" % (out_dir, name))
        print(name)


def run_dump(kind, out_dir, port="unix64"):
    """CPython: run dump() in MicroPython; returns the scene names, in order."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import mp

    os.makedirs(out_dir, exist_ok=True)
    code = "import screenshots; screenshots.dump(%r, %r)" % (kind, out_dir)
    env_fonts = os.path.join(ROOT, "firmware", "display", "fonts")
    os.environ.setdefault("BOBING_FONTS", env_fonts)
    return mp.run_micropython(code, heapsize=1_000_000, port=port).split()


def image(glass):
    """The glass as a Pillow RGB image, 1 px a pixel."""
    from PIL import Image

    img = Image.new("RGB", (glass.width, glass.height))
    img.putdata([glass.rgb(x, y) for y in range(glass.height) for x in range(glass.width)])
    return img


def load(path):
    """sim.panels.load in CPython."""
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    from sim import panels

    return panels.load(path)


ROOT = (
    ""
    if sys.implementation.name == "micropython"
    else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
)
CLASSES = (("color", "st7789", 2), ("mono", "ssd1306", 4))


def main(argv=None):
    """Screenshots into OUT (default docs/screens); --golden: the golden images, 1 px a pixel."""
    import tempfile

    from PIL import Image

    argv = sys.argv[1:] if argv is None else argv
    golden = "--golden" in argv
    argv = [a for a in argv if a != "--golden"]
    out = (
        argv[0]
        if argv
        else os.path.join(ROOT, "tests", "golden")
        if golden
        else os.path.join(ROOT, "docs", "screens")
    )
    for cls, kind, scale in CLASSES:
        folder = os.path.join(out, cls) if golden else out
        os.makedirs(folder, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            for name in run_dump(kind, tmp):
                img = image(load(os.path.join(tmp, name + ".gls")))
                if golden:
                    path = os.path.join(folder, name + ".png")
                else:
                    img = img.resize((img.width * scale, img.height * scale), Image.NEAREST)
                    path = os.path.join(folder, "%s_%s.png" % (cls, name))
                img.save(path, optimize=True)
                print(os.path.relpath(path, ROOT))
    return 0


if __name__ == "__main__" and sys.implementation.name != "micropython":
    sys.exit(main())
