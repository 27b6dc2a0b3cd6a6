"""The bowl's wiring: pick the profile, boot the log, build the Board, run the app.

main.py calls start() at power-up, and again when the host types `import
main` after a sync (docs/sync.md).  The profile is the word in the file
/profile (devkit, cyd or oled; devkit if there is none).  The virtual
board calls run() with its own Board.  This is a module of its own, not
main.py, because MicroPython runs main.py only from the filesystem's
source, compiled at every power-up and kept in the heap while it runs
(2.6 KB for this module's code); from here it runs in place, from the
ROMFS partition or frozen, like the rest of the firmware.

run() returns only when the app leaves for the host's `sync` line: the
bowl's tasks (switch polling, the watchdog feeder, the speaker's queue)
are cancelled and the started watchdog is handed to board.watchdog.release()
(on the ESP32 a hardware timer feeds it, since a started machine.WDT cannot
be stopped), so the REPL the host then uses is never reset under it.

Robustness: the watchdog is fed once a second only while the app is
healthy (waiting for a press, or busy for less than app/app.py _BUSY_LIMIT_MS, 10 s),
so a hung task resets the bowl, which then resumes from flash; an uncaught
exception in any task is written to the crash file and the bowl resets
rather than sitting dead.
"""

import asyncio
import gc
import io
import sys

from micropython import const

PROFILES = ("devkit", "cyd", "oled")
_FEED_MS = const(1000)
_BOOT_GC_BYTES = const(2048)  # power-up collects after every 2 KB allocated


def crash(board, exc):
    """Keep the traceback in the crash file, then reset (never returns)."""
    from app.bootlog import write_crash

    text = io.StringIO()
    sys.print_exception(exc, text)
    write_crash(board.flash_root, text.getvalue())
    board.reset()


async def feed(board, app):
    while True:
        if app.healthy():
            board.watchdog.feed()
        await board.clock.sleep_ms(_FEED_MS)


async def _main(board, app):
    tasks = [asyncio.create_task(board.inputs.run()), asyncio.create_task(feed(board, app))]
    if board.speaker is not None:
        tasks.append(asyncio.create_task(board.speaker.run(board.clock)))
    await app.run()
    # the host's sync: stop every task of the bowl before the REPL takes over
    for task in tasks:
        task.cancel()
    await asyncio.sleep_ms(0)
    release = getattr(board.watchdog, "release", None)
    if release is not None:  # the virtual board's watchdog stops with its clock: it has none
        release()


def run(board, fresh_start=False, session=None):
    """Run the bowl on `board` until it resets, or returns for the host's sync;
    session: the log's Session, already booted (start())."""
    from app.app import App

    app = App(board, fresh_start, session)
    asyncio.get_event_loop().set_exception_handler(lambda loop, context: crash(board, context["exception"]))
    try:
        asyncio.run(_main(board, app))
    except Exception as e:  # the app task itself: same as any other task
        crash(board, e)


def boot_log(root):
    """The log's Session on the store folder `root`, booted: the game rebuilt
    from the snapshot and the log."""
    from bobing.session import Session
    from bobing.store.store import Store

    session = Session(Store(root), None)
    session.boot()
    return session


def power_up(name):
    """(Board, booted Session) of the profile `name`, made in the heap's order:
    the profile's screen modules make their buffers at import, and the log
    its 4 KB one, while the heap is whole; the session then rebuilds the
    game from the snapshot and the log (boot's largest transient) with only
    the engine, the store and the screens imported, so its long-lived state
    lands packed low, not among the holes the app's imports leave
    (docs/memory.md); the board is built last, its colour screen drawing in
    the log's buffer, which holds nothing between the log's calls (one
    4 KB buffer, not two).  run() imports the app.

    Until the app's boot ends (App.boot) the heap is collected after every
    _BOOT_GC_BYTES allocated, not only when it is full: the imports' and the
    log's boot garbage is freed while it lies low, so the long-lived objects
    made after it fill its holes instead of landing above them (about 5 KB
    less heap needed, docs/memory.md)."""
    gc.threshold(_BOOT_GC_BYTES)
    profile = __import__("board." + name, None, None, ["build"])
    from board.esp32 import FLASH_ROOT

    session = boot_log(FLASH_ROOT)
    return profile.build(session.store.log.buf), session


def start():
    """Power up the profile named in /profile (devkit if none) and run."""
    try:
        with open("/profile") as f:
            name = f.read().strip()
    except OSError:
        name = "devkit"
    if name not in PROFILES:
        print("main: /profile names %r, not one of %s: using devkit" % (name, ", ".join(PROFILES)))
        name = "devkit"
    board, session = power_up(name)
    run(board, session=session)
