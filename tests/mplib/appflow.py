"""The whole firmware (app, board layer, screens, fonts, store) playing on one heap.

    micropython appflow.py build IMAGE HISTORY            # a history to boot on
    micropython -X heapsize=64K appflow.py run IMAGE THROWS PLAYERS

build makes a 1 MB LittleFS image in a host file (outside the heap) whose
log holds HISTORY throws of 10-player games, played through the shipped
Session.  run copies it (IMAGE.run: the history stays as built, for the
next run), boots the shipped App on the virtual board over the copy (the
devkit profile: display.color's ColorScreen on sim.panels' emulated ST7789,
its glass in a file, fonts read from display/fonts), starts a PLAYERS-player
game and plays THROWS throws through the app's own steps (the press path of
App.throw minus the animation's sleeps: commit, show_result, live event,
housekeeping; new games as games end), cuts the power in the middle of a throw's flash write half way,
boots a new App on the same image (it must resume the same game with the
last throw shown again), and plays on.  Prints "app.<figure> value unit":
heap kept after boot, the largest heap kept after a throw, the longest
gc.collect() pause, the press-to-result time, the largest free block at
the end.  Any exception, a MemoryError included, fails the run.
"""

import gc
import sys
import time

import vfs
from sim.flash import FileFlash, PowerCut

MOUNT = "/a"
ROOT = MOUNT + "/data"  # the store's folder, as the sim board gives it


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
    from app.app import App
    from board import sim as simboard
    from sim.vclock import VirtualClock

    from bobing.dice import SeededBytes
    from bobing.events import ENTROPY_SEEDED

    vfs.mount(vfs.VfsLfs2(flash), MOUNT)
    board = simboard.build(
        "devkit", VirtualClock(), ROOT, simboard.Serial([Null()]), SeededBytes(6), ENTROPY_SEEDED
    )
    # the shipped colour screen, not the trace screen the sim falls back to without panels
    assert type(board.screen).__name__ == "ColorScreen", board.screen
    app = App(board, fresh_start=True)
    app.boot()
    return app


class Null:
    def write(self, text):
        pass


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


def run(path, throws, players):
    from mp_heap import largest_free_block

    copy(path, path + ".run")
    gc.collect()
    base = gc.mem_alloc()
    flash = FileFlash(path + ".run")
    figures = {"press_us": 0, "press_total_us": 0, "presses": 0, "gc_us": 0, "peak": 0}
    app = boot(flash)
    from app import settings as S

    app.settings[S.PLAYERS] = players
    app.session.game = None  # the fresh game used the default table: start the measured one
    app.new_game()
    gc.collect()
    print("app.boot_kept_bytes %d B" % (gc.mem_alloc() - base))
    for _ in range(throws // 2):
        step(app, figures)
        sample(figures)
    # the power goes off in the middle of the next throw's flash write
    game = app.session.game
    shown = app.session.shown
    held = game.batches
    flash.cut_at = flash.ops
    try:
        step(app, figures)
        raise AssertionError("the power cut did not happen")
    except (PowerCut, OSError):
        pass
    flash.cut_at = -1
    try:
        vfs.umount(MOUNT)
    except OSError:
        pass
    app = game = None
    gc.collect()
    app = boot(flash)
    again = app.session.game
    assert again is not None and again.batches in (held, held + 1), (held, again and again.batches)
    assert app.session.shown == shown or again.batches == held + 1
    assert app.noticed == 21  # T_RESUMED: "resumed after a power cut" on the screen
    for _ in range(throws - throws // 2):
        step(app, figures)
        sample(figures)
    print("app.peak_kept_bytes %d B" % (figures["peak"] - base))
    print("app.longest_gc_pause_us %d us" % figures["gc_us"])
    print("app.press_to_result_us_max %d us" % figures["press_us"])
    print("app.press_to_result_us_mean %d us" % (figures["press_total_us"] // figures["presses"]))
    print("app.largest_free_block_bytes %d B" % largest_free_block())
    print("app.throws %d throws" % figures["presses"])


if sys.argv[1] == "build":
    build(sys.argv[2], int(sys.argv[3]))
else:
    run(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
