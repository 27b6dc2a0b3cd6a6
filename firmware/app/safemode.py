"""A boot that fails: out of service with a short code, then a reset, or safe mode.

bowl.start counts each boot as failed until the app's boot completes
(app/bootlog.py's `failed` and RTC memory, board/watchdog.py).  An
exception before then comes here: its traceback goes to the crash file
(the code on its first line), the code to the serial as an
`out_of_service` line and to whatever screen works: the layout's
out-of-service message, or, when the layout itself failed (fonts), plain
8 px ASCII on the panel.  The caller then resets, unless this was the
SAFE_AFTER-th failed boot in a row: then safe mode (a `safe_mode` line,
SAFE MODE on the screen), and the caller leaves to the REPL with the
watchdog kept fed and Ctrl-C on, for a deploy or a sync.

Codes, from the exception and the frames of its traceback: E-MEM a
MemoryError; E-RADIO through board.esp32.radio_on (the radio, so no true
randomness); E-FONT through display/font.py (fonts missing or damaged);
E-FS an OSError through the flash log (bobing/store/: the filesystem),
or a filesystem that does not mount (storage_damaged()); E-BOOT anything else.

storage_damaged() is the bowl's own frozen _boot.py's (BOBING_ESP32 image)
when the filesystem partition holds something that does not mount: the
port's _boot.py would format it or loop for ever; the bowl's runs this
from ROMFS instead, and the flash is formatted only when an operator
confirms it in the menu it offers (long REFEREE press).
"""

import io
import sys

import framebuf
import micropython
from display import texts as T
from micropython import const

from app import bootlog

SAFE_AFTER = const(3)
DAMAGED = "E-FS"  # the code of a filesystem that does not mount: the filesystem's
_SCALE = const(2)  # plain text on a colour panel: the 8 px font at twice its size


def code(exc, text):
    """The short code of `exc`, whose traceback is `text`: by the frames it
    passed through (a C function adds none, so a driver's or a fake's own
    frames below the firmware's do not change it)."""
    if isinstance(exc, MemoryError):
        return "E-MEM"
    if "in radio_on" in text:
        return "E-RADIO"
    if "display/font" in text:
        return "E-FONT"
    if isinstance(exc, OSError) and "bobing/store/" in text:
        return "E-FS"
    return "E-BOOT"


def fail(exc, failed, root, board=None, panel=None):
    """Handle `exc` from a boot that is the `failed`-th in a row to fail as
    RTC memory counts, or later than the flash's count says (root: the store
    folder, None: none); board: the Board if it was built, else panel: the
    profile's panel if it was.  True: safe mode (the caller leaves to the
    REPL), False: reset."""
    try:
        buf = io.StringIO()
        sys.print_exception(exc, buf)
        text = buf.getvalue()
    except MemoryError:
        text = ""
    what = code(exc, text)
    if root is not None:
        bootlog.write_crash(root, what + "\n" + text)
        failed = max(failed, bootlog.failed_boots(root) + 1)
        bootlog.set_failed_boots(root, failed)
    safe = failed >= SAFE_AFTER
    last = text.rstrip().rsplit("\n", 1)[-1].replace('"', "'")
    print('{"event": "out_of_service", "detail": "%s %s"}' % (what, last))
    if safe:
        print('{"event": "safe_mode", "detail": "%s after %d failed boots"}' % (what, failed))
    try:
        show(board, panel, what, safe)
    except Exception:  # a screen that fails too: the serial lines said it
        pass
    if safe:
        if board is not None:
            board.kbd_intr(True)
        else:
            micropython.kbd_intr(3)
    return safe


def show(board, panel, what, safe):
    """The out-of-service screen with the code: the layout's message if it draws, else plain text."""
    lines = [what]
    if safe:
        lines.append("SAFE MODE")
    if board is not None:
        panel = board.screen.panel
        try:
            board.screen.message(T.T_OUT_OF_SERVICE, -1)
        except Exception:
            lines.insert(0, "OUT OF SERVICE")
    else:
        lines.insert(0, "OUT OF SERVICE")
    if panel is not None:
        plain(panel, lines)


def plain(panel, lines):
    """Lines of ASCII in framebuf's 8 px font, white on black, at the panel's
    bottom: a mono panel's own frame (display.ssd1306), or a colour panel's
    windows (display.mipi) at _SCALE."""
    fb = getattr(panel, "fb", None)
    if fb is not None:
        y = panel.height - 10 * len(lines)
        fb.fill_rect(0, y, panel.width, panel.height - y, 0)
        for line in lines:
            fb.text(line, (panel.width - 8 * len(line)) // 2, y, 1)
            y += 10
        panel.show()
        return
    step = 10 * _SCALE
    y = panel.height - step * len(lines)
    panel.fill(0, y, panel.width, panel.height - y, 0)
    for line in lines:
        w = 8 * len(line)
        mono = framebuf.FrameBuffer(bytearray(w), w, 8, framebuf.MONO_HLSB)
        mono.text(line, 0, 0, 1)
        row = bytearray(2 * _SCALE * w)  # one row of pixels, RGB565: white 0xFFFF or black
        left = (panel.width - _SCALE * w) // 2
        for r in range(8):
            for x in range(w):
                ink = 0xFF if mono.pixel(x, r) else 0
                for i in range(2 * _SCALE * x, 2 * _SCALE * (x + 1)):
                    row[i] = ink
            for dy in range(_SCALE):
                panel.blit(left, y + _SCALE * r + dy, _SCALE * w, 1, row)
        y += step


def storage_damaged(bdev):
    """The filesystem partition `bdev` holds something that does not mount
    (_boot.py's, before boot.py and main.py, which it holds).  Safe mode:
    the lines and the screen say so, a running WDT is kept fed, Ctrl-C is
    on; nothing is written to the partition unless an operator takes
    "format storage" in the menu and confirms it, then it is formatted as a
    first power-up's, given main.py and boot.py from ROMFS, and the bowl
    resets as new.  Returns for the REPL: at once after a soft reset (the
    host's: mpremote soft-resets from the raw REPL, which a wait here would
    hold up), else at Ctrl-C."""
    import machine
    from board import watchdog

    print('{"event": "out_of_service", "detail": "%s the filesystem does not mount"}' % DAMAGED)
    watchdog.after_reset()  # boot.py's job, and boot.py is on the partition that does not mount
    micropython.kbd_intr(3)
    try:
        from board import devkit  # /profile is on the partition too: the default profile's pins

        board = devkit.build()
        _damaged_screen(board)
    except Exception:  # no screen, no switches: the serial lines say it, the REPL is free
        board = None
    # once the screen shows it: the line tells a host what the bowl shows
    print('{"event": "safe_mode", "detail": "%s storage damaged: sync or import"}' % DAMAGED)
    if board is None or machine.reset_cause() == machine.SOFT_RESET:
        return
    import asyncio

    try:
        confirmed = asyncio.run(_format_menu(board))
    except KeyboardInterrupt:  # the host wants the REPL
        return
    if confirmed:
        _format(bdev)
        board.reset()


def _damaged_screen(board):
    board.screen.message(T.T_STORAGE_DAMAGED, T.T_SYNC_OR_IMPORT)
    plain(board.screen.panel, (DAMAGED, "SAFE MODE"))


async def _format_menu(board):
    """The operator's way to a formatted flash: a long REFEREE press opens a
    menu (REFEREE moves, THROW takes) of "format storage: every record is
    lost" and Back; THROW on it asks again, and a second THROW confirms:
    True.  Back, or REFEREE at the question, shows the damage again.  The
    serial gets a `format` line as the presses are awaited ("offered"), at
    the question ("asked"), at its answer ("cancelled", or "confirmed" just
    before the flash is formatted)."""
    import asyncio

    ins = board.inputs
    asyncio.create_task(ins.run())  # polls the switches until the reset
    _format_line("offered")
    items = (T.T_FORMAT_STORAGE, T.T_BACK)
    step = 0  # 0: the damage shown, 1: the menu, 2: the question
    selected = 0
    while True:
        await board.clock.sleep_ms(ins.POLL_MS)
        event = ins.take()
        if step == 0 and event == ins.REFEREE_LONG:
            step, selected = 1, 0
        elif step == 1 and event == ins.REFEREE:
            selected = 1 - selected
        elif step == 1 and event == ins.THROW and selected == 0:
            step = 2
            board.screen.message(T.T_RECORDS_LOST, T.T_PRESS_AGAIN)
            _format_line("asked")
            continue
        elif step == 2 and event == ins.THROW:
            _format_line("confirmed")
            return True
        elif step and event in (ins.THROW, ins.REFEREE, ins.REFEREE_LONG):
            if step == 2:
                _format_line("cancelled")
            step = 0
            _damaged_screen(board)
            continue
        else:
            continue
        board.screen.menu(T.T_MENU, items, (), selected)


def _format_line(detail):
    print('{"event": "format", "detail": "%s"}' % detail)


def _format(bdev):
    """LittleFS made anew on `bdev`, as the port's first power-up makes it,
    with the bowl's main.py and boot.py (the ROMFS image carries their source;
    a build with the bowl frozen has none there: then a deploy brings them)."""
    import vfs

    vfs.VfsLfs2.mkfs(bdev)
    vfs.mount(vfs.VfsLfs2(bdev), "/")  # type: ignore[abstract]  # a block device by protocol
    for name in ("boot.py", "main.py"):
        try:
            with open("/rom/" + name, "rb") as source:
                data = source.read()
        except OSError:
            continue
        with open("/" + name, "wb") as target:
            target.write(data)
