"""The bowl's wiring: pick the profile, boot the log, build the Board, run the app.

main.py calls start() at power-up, and again when the host types `import
main` after a sync (docs/sync.md).  The profile is the word in the file
/profile (devkit, cyd or oled; devkit if there is none).  The virtual
board calls run() with its own Board.  This is a module of its own, not
main.py, because MicroPython runs main.py only from the filesystem's
source, compiled at every power-up and kept in the heap while it runs
(what that costs: docs/memory.md); from here it runs in place, from the
ROMFS partition or frozen, like the rest of the firmware.

run() returns only when the app leaves for the host's `sync` line, or
raises KeyboardInterrupt (Ctrl-C, kiosk mode off): the bowl's tasks
(switch polling, the watchdog feeder, the speaker's queue) are cancelled
(on sync) and the started watchdog is handed to board.watchdog.release()
(on the ESP32 a hardware timer feeds it, since a started machine.WDT cannot
be stopped), so the REPL the host then uses is never reset under it
(docs/device.md, "Maintenance and the watchdog").

Robustness: the watchdog is fed once a second only while the app is
healthy (waiting for a press, or busy for less than app/app.py _BUSY_LIMIT_MS, 10 s),
so a hung task resets the bowl, which then resumes from flash; an uncaught
exception in any task is written to the crash file and the bowl resets
rather than sitting dead.  Until the app's boot completes, start() times
it and counts it as failed: a failure shows out of service with a code,
and the third in a row stays in safe mode (app/safemode.py).
"""

import asyncio
import gc
import io
import sys

from micropython import const

PROFILES = ("s3", "devkit", "cyd", "cyd2usb", "oled", "sh1106")
_FEED_MS = const(1000)
_BOOT_GC_BYTES = const(2048)  # power-up collects after every 2 KB allocated
_BOOT_LIMIT_MS = const(60000)  # a boot (the log's recovery included) longer than this has hung

_failed = 0  # boots in a row that failed, this one included until it completes; 0: completed


class _SafeMode(BaseException):
    """Safe mode entered from a task: ends the event loop for the REPL."""


def crash(board, exc):
    """An uncaught exception: kept in the crash file, then reset (never
    returns); during a boot, through app/safemode.py: the out-of-service
    screen and the failed boots' count, then reset or safe mode (raises
    _SafeMode).  Play's crash imports nothing more: it may be a MemoryError."""
    if _failed:
        from app import safemode

        if safemode.fail(exc, _failed, board.flash_root, board):
            _release(board)
            raise _SafeMode()
    else:
        from app.bootlog import write_crash

        text = io.StringIO()
        sys.print_exception(exc, text)
        write_crash(board.flash_root, text.getvalue())
    board.reset()


def booted(board):
    """The app's boot completed: the failed boots' count starts again
    (on the flash only if it kept one: a boot writes nothing more)."""
    global _failed
    if _failed:
        from app import bootlog
        from board import watchdog

        _failed = 0
        watchdog.set_failed_boots(0)
        if bootlog.failed_boots(board.flash_root):
            bootlog.set_failed_boots(board.flash_root, 0)


async def feed(board, app):
    # first run at the app's first wait: App.run() boots before it awaits
    booted(board)
    while True:
        if app.healthy():
            board.watchdog.feed()
        await board.clock.sleep_ms(_FEED_MS)


async def _main(board, app):
    tasks = [
        asyncio.create_task(board.inputs.run()),
        asyncio.create_task(feed(board, app)),
        asyncio.create_task(board.sound.run()),
    ]
    if board.speaker is not None:
        tasks.append(asyncio.create_task(board.speaker.run(board.clock)))
    await app.run()
    # the host's sync: stop every task of the bowl before the REPL takes over
    for task in tasks:
        task.cancel()
    await asyncio.sleep_ms(0)
    _release(board)


def _release(board):
    release = getattr(board.watchdog, "release", None)
    if release is not None:  # the virtual board's watchdog stops with its clock: it has none
        release()


def run(board, fresh_start=False, session=None):
    """Run the bowl on `board` until it resets, or returns for the host's sync;
    session: the log's Session, already booted (start())."""
    asyncio.get_event_loop().set_exception_handler(lambda loop, context: crash(board, context["exception"]))
    try:
        from app.app import App

        asyncio.run(_main(board, App(board, fresh_start, session)))
    except KeyboardInterrupt:  # Ctrl-C (kiosk mode off): the REPL's, never reset under it
        _release(board)
        raise
    except _SafeMode:
        pass
    except Exception as e:  # the app task itself: same as any other task
        try:
            crash(board, e)
        except _SafeMode:
            pass


def boot_log(root, nvs=None):
    """The log's Session on the store folder `root`, booted: the game rebuilt
    from the snapshot and the log; nvs: the board's esp32.NVS (the store keeps
    its tip there too), None: none."""
    from bobing.session import Session
    from bobing.store.store import Store

    session = Session(Store(root, nvs), None)
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
    made after it fill its holes instead of landing above them (the heap
    this saves: docs/memory.md)."""
    gc.threshold(_BOOT_GC_BYTES)
    profile = __import__("board." + name, None, None, ["build"])
    from board.esp32 import FLASH_ROOT, nvs

    session = boot_log(FLASH_ROOT, nvs)
    return profile.build(session.store.log.buf), session


def start():
    """Power up the profile named in /profile (devkit if none) and run.

    The boot is timed (_BOOT_LIMIT_MS) and counted as failed until the
    app's boot completes (booted()): a boot that raises shows out of service
    and resets, a boot that hangs is reset by the watchdog, and the
    safemode.SAFE_AFTER-th failure in a row stays in safe mode, at the REPL.
    Only the RTC memory's count is written here: the flash's (kept over a
    power cut) is read and written when a boot fails, or completes after one."""
    global _failed
    from board import watchdog

    hung = watchdog.hung()
    watchdog.time_boot(_BOOT_LIMIT_MS)
    _failed = watchdog.failed_boots() + 1
    watchdog.set_failed_boots(_failed)
    try:
        if hung:  # the WDT reset the chip: after SAFE_AFTER boots in a row that hung, the next would too
            from app.safemode import SAFE_AFTER

            if _failed > SAFE_AFTER:
                raise RuntimeError("%d boots in a row hung" % (_failed - 1))
        board, session = power_up(_profile())
    except KeyboardInterrupt:
        watchdog.release()
        raise
    except Exception as e:
        gc.collect()  # the failed power-up's objects: room to report it (a MemoryError too)
        from app import safemode

        root = panel = None
        try:
            from board import esp32

            root, panel = esp32.FLASH_ROOT, esp32.PANEL
        except Exception:  # what failed: no flash count, no screen
            pass
        if not safemode.fail(e, _failed, root, None, panel):
            watchdog.reset()
        watchdog.release()
        return
    run(board, session=session)


def _profile():
    try:
        with open("/profile") as f:
            name = f.read().strip()
    except OSError:
        name = "devkit"
    if name not in PROFILES:
        print("main: /profile names %r, not one of %s: using devkit" % (name, ", ".join(PROFILES)))
        name = "devkit"
    return name
