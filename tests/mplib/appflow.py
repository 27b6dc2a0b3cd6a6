"""The whole firmware (app, board layer, screens, fonts, store) playing on one heap.

    micropython appflow.py build IMAGE HISTORY            # a history to boot on
    micropython -X heapsize=64K appflow.py run IMAGE THROWS PLAYERS
    micropython -X heapsize=64K appflow.py resume IMAGE THROWS HELD SHOWN

build makes a 1 MB LittleFS image in a host file (outside the heap) whose
log holds HISTORY throws of 10-player games, played through the shipped
Session.

run copies it (IMAGE.run: the history stays as built, for the next run),
mounts the copy as the ESP32 has its flash (LittleFS at /, the store at
/data), builds the bowl's own board layer, board.devkit (display.color's
ColorScreen on the ST7789 driver, the fonts, the piezo, the DFPlayer, the
USB serial's live events on stdout), on tests/mplib/fakemachine.py's pins
and buses, boots the shipped App, starts a PLAYERS-player game, plays
THROWS throws through the app's own steps (the press path of App.throw
minus the animation's sleeps: commit, show_result, live event,
housekeeping; new games as games end) and cuts the power in the middle of
the next throw's flash write.  Its last "app." line is "app.cut HELD
SHOWN": the batches the game held and the record on the screen (hex)
before the cut.  The dice are seeded (bobing.dice.SeededBytes, not the
radio's os.urandom), so every run plays the same throws and the smallest
heap is bisected over one flow.

resume is the power coming back: a new process, as a bowl's RAM is gone
after a cut, boots a new App on IMAGE.run, which must resume that game
with the last throw shown again and the "resumed" notice, and plays
THROWS more throws.

Both print "app.<figure> value unit": the heap kept after boot, the largest
heap kept after a throw, the longest gc.collect() pause, the press-to-result
time (max, total), the largest free block at the end, the throws played.
Any exception, a MemoryError included, fails the run.

    micropython appflow.py harness run IMAGE THROWS PLAYERS
    micropython appflow.py harness resume IMAGE THROWS HELD SHOWN

run or resume up to the firmware's first object and stop there, having
printed what the harness keeps (harness_kept()): tests/test_app_heap.py
gives the flow's heap that much more, as it does the image.
"""

import gc
import sys
import time

import fakemachine
import micropython
import vfs
from mp_heap import largest_free_block
from sim.flash import FileFlash, PowerCut

MOUNT = "/a"
ROOT = MOUNT + "/data"  # the store's folder, where /data is once the image is mounted at /
MAIN = None  # main.py's code: a bowl holds it while it runs


def build(path, history):
    from bobing.dice import Dice, SeededBytes
    from bobing.rules import Rules
    from bobing.session import Session
    from bobing.store.store import Store

    flash = FileFlash(path, blocks=256)
    vfs.VfsLfs2.mkfs(flash)
    vfs.mount(vfs.VfsLfs2(flash), MOUNT)
    session = Session(Store(ROOT), Dice(SeededBytes(5)))
    session.boot()
    rules = Rules("xiamen")
    for _ in range(history):
        if session.game is None or session.game.ended:
            session.new_game(rules, 10)
        else:
            session.throw()
        session.maintain()
    print("built %d" % session.store.seq)


def copy(source, target):
    buf = bytearray(512)
    with open(source, "rb") as f, open(target, "wb") as out:
        while f.readinto(buf):
            out.write(buf)


def boot(flash):
    """The bowl's power-up as main.py's bowl.start() makes it (bowl.power_up), on
    the devkit profile, with seeded dice.  main.py itself is compiled from
    its source and run, its code kept, as MicroPython does on a bowl (the
    source from the image: tests/mp.py harness())."""
    global MAIN
    with open("/rom/harness/main.py") as f:
        source = f.read()
    vfs.umount("/")  # the host's files: everything the harness needs is open or imported
    vfs.mount(vfs.VfsLfs2(flash), "/")
    fakemachine.install()
    MAIN = compile(source, "main.py", "exec")
    source = None
    names = {"__name__": "main"}  # not "__main__", and not the ESP32: it does not start the bowl
    exec(MAIN, names)
    board, session = names["bowl"].power_up("devkit")
    from app.app import App

    from bobing.dice import SeededBytes
    from bobing.events import ENTROPY_SEEDED

    board.random_bytes = SeededBytes(6)
    board.entropy = ENTROPY_SEEDED
    app = App(board, fresh_start=True, session=session)
    app.boot()
    return app


def step(app, figures):
    """One press as App.throw makes it, without the sleeps; the press-to-result time."""
    game = app.session.game
    if game is None or game.ended:
        app.new_game()
        return
    start = time.ticks_us()
    out = app.commit()
    app.show_result(out)
    took = time.ticks_diff(time.ticks_us(), start)
    figures["press_us"] = max(figures["press_us"], took)
    figures["press_total_us"] += took
    figures["presses"] += 1
    app.live.turn(game, out)
    app.session.maintain()
    app.check_space()
    if game.ended:
        app.show_end()
        app.live.end(game, app.session.store.audit_code())


def sample(figures):
    start = time.ticks_us()
    gc.collect()
    figures["gc_us"] = max(figures["gc_us"], time.ticks_diff(time.ticks_us(), start))
    figures["peak"] = max(figures["peak"], gc.mem_alloc())


def play(app, throws, figures):
    for _ in range(throws):
        step(app, figures)
        sample(figures)


def report(figures, base):
    print("app.peak_kept_bytes %d B" % (figures["peak"] - base))
    print("app.longest_gc_pause_us %d us" % figures["gc_us"])
    print("app.press_to_result_us_max %d us" % figures["press_us"])
    print("app.press_to_result_us_total %d us" % figures["press_total_us"])
    print("app.largest_free_block_bytes %d B" % largest_free_block())
    print("app.throws %d throws" % figures["presses"])


def power_off(flash, lost):
    """From now on nothing reaches the flash: what LittleFS still writes as
    its open file is collected goes to the host file `lost`, lost as with
    the power gone (raising PowerCut from a finalizer would only print a
    MemoryError)."""
    flash.file = lost
    flash.cut_at = -1


def harness_kept():
    """gc.mem_alloc() with the harness's own objects made (the runner and the
    image, this module, fakemachine, sim.flash, mp_heap) and none of the
    firmware's: printed, with the qstr pools then made, for
    tests/test_app_heap.py harness_heap(); a "harness" run stops here."""
    gc.collect()
    base = gc.mem_alloc()
    print("app.harness_kept %d B, %d B free" % (base, gc.mem_free()))
    micropython.qstr_info()
    if CALIBRATE:
        sys.exit(0)
    return base


def run(path, throws, players):
    copy(path, path + ".run")
    lost = open(path + ".lost", "w+b")  # opened while the host's / is mounted
    base = harness_kept()
    flash = FileFlash(path + ".run")
    figures = {"press_us": 0, "press_total_us": 0, "presses": 0, "gc_us": 0, "peak": 0}
    app = boot(flash)
    from app import settings as S

    app.settings[S.PLAYERS] = players
    app.session.game = None  # the fresh game used the default table: start the measured one
    app.new_game()
    gc.collect()
    print("app.boot_kept_bytes %d B" % (gc.mem_alloc() - base))
    micropython.qstr_info()  # the names made by now: the harness's and the bowl's
    play(app, throws, figures)
    held = app.session.game.batches
    shown = app.session.shown
    # the power goes off in the middle of the next throw's flash write
    flash.cut_at = flash.ops
    try:
        step(app, figures)
        raise AssertionError("the power cut did not happen")
    except (PowerCut, OSError):
        pass
    power_off(flash, lost)
    report(figures, base)
    print("app.cut %d %s" % (held, "".join("%02x" % b for b in shown)))


def resume(path, throws, held, shown):
    base = harness_kept()
    flash = FileFlash(path + ".run")
    figures = {"press_us": 0, "press_total_us": 0, "presses": 0, "gc_us": 0, "peak": 0}
    app = boot(flash)
    gc.collect()
    print("app.boot_kept_bytes %d B" % (gc.mem_alloc() - base))
    micropython.qstr_info()
    again = app.session.game
    assert again is not None and again.batches in (held, held + 1), (held, again and again.batches)
    assert app.session.shown == shown or again.batches == held + 1
    assert app.noticed == 21  # T_RESUMED: "resumed after a power cut" on the screen
    play(app, throws, figures)
    report(figures, base)


CALIBRATE = sys.argv[1] == "harness"
if CALIBRATE:
    sys.argv.pop(1)
if sys.argv[1] == "build":
    build(sys.argv[2], int(sys.argv[3]))
elif sys.argv[1] == "run":
    run(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
else:
    resume(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), bytes.fromhex(sys.argv[5]))
