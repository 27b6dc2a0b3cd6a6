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

# The seeded games the result, turn and end screens come from (bobing.dice.SeededBytes):
# seed 1, ten players, xiamen rules: a 四进带一秀 at its 34th throw, the pool
# empty after 455; seed 456, four players: 六勃红 at its 101st throw; seed 8,
# four players, xiamen with 追: a 对堂 taken from the seat that won it last.
_GAME_SEED = 1
_LIUBO_HONG_SEED = 456
_CHASE_SEED = 8


def _view(screen, session):
    """The app's own drawing of a game (app.app.App's show_turn, show_result,
    show_end and zhuangyuan, unchanged) on a stand-in holding only what they
    read: the session, the screen, the throw decoded as the app decodes it
    (app.outcome.Outcome), the 状元's faces and a clock (the end screen's pages
    are timed from when it is shown)."""
    import time

    from app.app import App
    from app.outcome import Outcome

    class View:
        shown_game = App.shown_game
        zhuangyuan = App.zhuangyuan
        show_turn = App.show_turn
        show_result = App.show_result
        show_end = App.show_end

    view = View()
    view.screen = screen
    view.session = session
    view.out = Outcome()
    view._zy_faces = [1] * 6
    view.clock = time
    return view


def _game(flash_dir, seed, players, options=None):
    """The Session of a new xiamen game of `players` (rule `options` changed, as
    `Rules` takes them) on its own log (bobing.session on a LittleFS flash in
    flash_dir), its dice from `seed`."""
    import os

    import vfs
    from sim.flash import FileFlash

    from bobing.dice import Dice, SeededBytes
    from bobing.events import ENTROPY_SEEDED
    from bobing.rules import Rules
    from bobing.session import Session
    from bobing.store.store import Store

    # a flash file of its own, unlinked once open: private to this process
    name = "".join("%02x" % b for b in os.urandom(6))
    path = "%s/bobing-shots-%s.img" % (flash_dir, name)
    flash = FileFlash(path, blocks=256)
    os.remove(path)
    point = "/shots-" + name
    vfs.VfsLfs2.mkfs(flash)
    vfs.mount(vfs.VfsLfs2(flash), point)
    session = Session(Store(point + "/data"), Dice(SeededBytes(seed)), ENTROPY_SEEDED)
    session.boot()
    session.new_game(Rules("xiamen", options), players)
    return session


def played(screen, color, flash_dir):
    """Play the seeded games, drawing each state the examples show when the game
    first reaches it; yields each one's name, and None before it draws (what
    came before was play, not drawing: bench/mp_screens.py times from there)."""
    from display import texts as t

    from bobing import names
    from bobing.classify import KIND_NONE, kind_of

    session = _game(flash_dir, _GAME_SEED, 10)
    view = _view(screen, session)
    yield None
    view.show_turn()
    yield "turn_first"
    wanted = [
        "result_yixiu",
        "result_new_zhuangyuan",
        "result_combined",
        "result_tier_empty",
        "result_nothing",
        "result_english",
        "turn",
    ]
    while not session.game.ended:
        out = view.out.read(session.throw())
        tier = out.best_tier
        new_zy = out.zy_changed and out.new_zy == out.seat
        if new_zy and "result_new_zhuangyuan" in wanted:
            name = "result_new_zhuangyuan"
        elif names.award_extra(out.award) and "result_combined" in wanted:
            name = "result_combined"
        elif tier == 0 and "result_yixiu" in wanted:
            name = "result_yixiu"
        elif tier < 0 and out.empty_tier() >= 0 and "result_tier_empty" in wanted:
            name = "result_tier_empty"
        elif kind_of(out.award) == KIND_NONE and tier < 0 and "result_nothing" in wanted:
            name = "result_nothing"
        elif tier == 2 and "result_english" in wanted:
            name = "result_english"
        else:
            name = None
        if name:
            wanted.remove(name)
            yield None
            screen.set_language(1 if name == "result_english" else 0)
            view.show_result(out)
            yield name
            screen.set_language(0)
            if name == "result_nothing":
                screen.notice(t.T_RESUMED)
                yield "notice_resumed"
                screen.notice(-1)
            if name == "result_new_zhuangyuan" and color:
                screen.set_contrast(1)
                view.show_result(out)
                yield "contrast_result"
                screen.notice(t.T_RESUMED)
                yield "contrast_notice"
                screen.set_contrast(0)
        if "turn" in wanted and session.game.zhuangyuan() is not None and not session.game.ended:
            wanted.remove("turn")
            yield None
            view.show_turn()
            yield "turn"
            if color:
                screen.set_contrast(1)
                view.show_turn()
                yield "contrast_turn"
                screen.set_contrast(0)
    if wanted:
        raise ValueError("seed %d no longer reaches %s" % (_GAME_SEED, ", ".join(wanted)))
    yield None
    view.show_end()
    yield "end"
    if not color:  # the mono end table's further pages, END_SEATS players each
        from display.mono import END_SEATS

        for page in range(2, (session.game.players + END_SEATS - 1) // END_SEATS + 1):
            screen.next_page()
            yield "end_page%d" % page
    if color:
        screen.set_contrast(1)
        view.show_end()
        yield "contrast_end"
        screen.set_contrast(0)
    session = _game(flash_dir, _CHASE_SEED, 4, {"chase": "previous"})
    view = _view(screen, session)
    out = view.out
    while not (any(out.taken) and not any(out.won)):  # a prize taken, none from the pool
        if session.game.ended:
            raise ValueError("seed %d no longer reaches a 追" % _CHASE_SEED)
        out.read(session.throw())
    yield None
    view.show_result(out)
    yield "result_taken"
    session = _game(flash_dir, _LIUBO_HONG_SEED, 4)
    view = _view(screen, session)
    while not session.game.ended:
        session.throw()
    yield None
    view.show_end()
    yield "end_liubo_hong"


def scenes(screen, color=False, flash_dir="/tmp"):
    """Draw every screen in turn on `screen` (ColorScreen or MonoScreen); yields each
    one's name (and None where a game was played before the next one is drawn).
    color: a ColorScreen, whose high-contrast palette has scenes of its own.  The
    turn, result and end screens are those of seeded games (played(), its logs'
    flash images in flash_dir); the menu shows the app's own items and values."""
    from app import menu
    from app.settings import Settings
    from display import texts as t

    screen.set_language(0)
    screen.attract(4, 0)
    yield "attract"
    yield from played(screen, color, flash_dir)
    screen.roll(b"\x03\x05\x01\x06\x02\x04")
    yield "roll"
    settings = Settings("/no-settings").values  # the defaults a new bowl has
    values = menu.values(settings)
    screen.menu(t.T_MENU, menu.ITEMS, values, 1)
    yield "menu"
    screen.menu(t.T_MENU, menu.ITEMS, values, len(menu.ITEMS) - 1)
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
    screen.menu(t.T_MENU, menu.ITEMS, values, menu.ITEMS.index(t.T_HIGH_CONTRAST))
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
    for name in scenes(screen, color, out_dir):
        if name is None:
            continue
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
    import argparse
    import tempfile

    from PIL import Image

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("out", nargs="?", help="the folder to write into")
    parser.add_argument("--golden", action="store_true", help="the golden images, 1 px a pixel")
    args = parser.parse_args(argv)
    golden = args.golden
    out = args.out or (
        os.path.join(ROOT, "tests", "golden") if golden else os.path.join(ROOT, "docs", "screens")
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
