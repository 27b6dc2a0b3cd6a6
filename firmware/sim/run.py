"""The virtual board's main: `micropython -m sim.run [options]` with firmware/ on the path.

host_tools/sim_cmd.py (`bobing sim`) is the way in; it passes:
  --headless            stdin commands, virtual clock (else: keyboard, real time)
  --board PROFILE       devkit (default), cyd, oled
  --flash IMAGE         the LittleFS image (created if missing)
  --players N --rules P what a fresh bowl starts with (its settings)
  --seed S              dice from bobing.dice.SeededBytes(S): a reproducible run
  --trace FILE          screen, sound and lamp lines (- : stdout)
  --serial-out PATH     the live event lines also go here (the pty relay)
and for tests: --flash-blocks N (size of a new image), --rng-fail-after N
(the random source repeats one byte after N good ones), --hold throw|referee
(that switch is closed at power-up until the first command).

Headless stdin: one command a line, `throw`, `referee`, `referee-long`,
taken when the bowl waits for input and both switches are re-armed; end
of input ends the run (exit 0).  A reset (watchdog, crash) boots the bowl
again on the same flash, as the ESP32 would.
"""

import asyncio
import os
import sys

from bobing.events import ENTROPY_PSEUDO, ENTROPY_SEEDED

MOUNT = "/flash"
ROOT = MOUNT + "/data"
POLL_MS = 5
KEY_MS = 20  # the interactive keyboard's poll


class EndOfInput(BaseException):
    """stdin is exhausted (headless) or q was typed: stop cleanly."""


def usage(message):
    sys.stderr.write("sim: error: %s\n" % message)
    sys.exit(2)


def parse(argv):
    opts = {
        "headless": False,
        "board": "devkit",
        "flash": "sim-flash.img",
        "players": 0,
        "rules": "",
        "seed": -1,
        "trace": "",
        "serial-out": "",
        "flash-blocks": 512,
        "rng-fail-after": -1,
        "hold": "",
    }
    i = 0
    while i < len(argv):
        name = argv[i]
        if not name.startswith("--") or name[2:] not in opts:
            usage("unknown option %s" % name)
        key = name[2:]
        if key == "headless":
            opts[key] = True
            i += 1
            continue
        if i + 1 >= len(argv):
            usage("%s needs a value" % name)
        value = argv[i + 1]
        if isinstance(opts[key], int):
            try:
                value = int(value)
            except ValueError:
                usage("%s %s: expected a whole number" % (name, value))
        opts[key] = value
        i += 2
    return opts


def first_settings(opts):
    """A fresh bowl (no settings file yet) takes --players and --rules as its settings."""
    from app import settings as S

    from bobing.rules import PRESETS

    settings = S.Settings(ROOT + "/settings")
    try:
        os.stat(settings.path)
        return
    except OSError:
        pass
    if opts["players"]:
        settings[S.PLAYERS] = opts["players"]
    if opts["rules"]:
        if opts["rules"] not in PRESETS:
            usage("--rules %s: choose from %s" % (opts["rules"], ", ".join(PRESETS)))
        settings[S.PRESET] = PRESETS.index(opts["rules"])
    settings.save()


def random_source(opts):
    from bobing.dice import SeededBytes

    source = SeededBytes(opts["seed"]) if opts["seed"] >= 0 else os.urandom
    entropy = ENTROPY_SEEDED if opts["seed"] >= 0 else ENTROPY_PSEUDO
    good = [opts["rng-fail-after"]]
    if good[0] < 0:
        return source, entropy

    def failing(n):  # a source that goes stuck: the health tests must catch it
        data = bytearray(source(n))
        for i in range(n):
            if good[0] > 0:
                good[0] -= 1
            else:
                data[i] = 0xA5
        return bytes(data)

    return failing, entropy


def mount(path, point, blocks=512):
    """Mount the LittleFS image in host file `path` on `point` (made and
    formatted first if missing: `blocks` of 4 KB, 2 MB by default, the
    ESP32's usual filesystem partition).  Returns the FileFlash."""
    import vfs

    from sim.flash import FileFlash

    try:
        os.stat(path)
        flash = FileFlash(path)
    except OSError:
        flash = FileFlash(path, blocks=blocks)
        vfs.VfsLfs2.mkfs(flash)  # type: ignore[arg-type]  # a block device by protocol
    vfs.mount(vfs.VfsLfs2(flash), point)  # type: ignore[abstract, arg-type]
    return flash


async def headless(board):
    """Feed stdin commands as presses whenever the bowl waits for one."""
    ins = board.inputs
    closed = board.keys.closed
    clock = board.clock
    while True:
        await clock.sleep_ms(POLL_MS)
        if not ins.waiting or not (ins.idle() or closed[0] or closed[1]):
            continue
        line = sys.stdin.readline()
        if not line:
            raise EndOfInput()
        command = line.strip()
        if not command or command.startswith("#"):
            continue
        closed[0] = closed[1] = False  # --hold: released before the first command
        if command == "throw":
            key, hold = 0, ins.accept_ms + 20
        elif command == "referee":
            key, hold = 1, ins.accept_ms + 20
        elif command == "referee-long":
            key, hold = 1, ins.long_ms + 20
        else:
            usage("unknown command %r (throw, referee, referee-long)" % command)
        await clock.sleep_ms(ins.rearm_ms + POLL_MS)
        closed[key] = True
        await clock.sleep_ms(hold)
        closed[key] = False


async def keyboard(board, hold_ms):
    """Keys in real time: space or Enter THROW, r REFEREE, l a long REFEREE, q quit."""
    import select

    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    closed = board.keys.closed
    clock = board.clock
    release = [0, 0]
    while True:
        now = clock.ticks_ms()
        board.watchdog.check(now)
        for k in (0, 1):
            if closed[k] and clock.ticks_diff(now, release[k]) >= 0:
                closed[k] = False
        if poll.poll(0):
            ch = sys.stdin.read(1)
            if ch in ("q", "\x03", ""):
                raise EndOfInput()
            if ch in (" ", "\r", "\n", "t"):
                closed[0], release[0] = True, now + hold_ms
            elif ch == "r":
                closed[1], release[1] = True, now + hold_ms
            elif ch == "l":
                closed[1], release[1] = True, now + board.inputs.long_ms + hold_ms
        await clock.sleep_ms(KEY_MS)


class _Lines:
    """A stream that ends lines with CR LF (the terminal is in raw mode)."""

    def __init__(self, out):
        self.out = out

    def write(self, text):
        self.out.write(text.replace("\n", "\r\n"))

    def flush(self):
        pass


def main(argv):
    import main as firmware
    from board import sim as simboard

    from sim.vclock import Reset, VirtualClock

    opts = parse(argv)
    if opts["board"] not in simboard.PROFILES:
        usage("--board %s: choose from %s" % (opts["board"], ", ".join(simboard.PROFILES)))
    flash = mount(opts["flash"], MOUNT, opts["flash-blocks"])
    try:
        os.mkdir(ROOT)
    except OSError:
        pass  # there already
    first_settings(opts)
    trace = None
    if opts["trace"] == "-":
        trace = sys.stdout
    elif opts["trace"]:
        trace = open(opts["trace"], "a")
    outs = []
    if opts["headless"]:
        outs.append(sys.stdout)
    if opts["serial-out"]:
        outs.append(open(opts["serial-out"], "a"))
    term = None
    if not opts["headless"]:
        import termios  # type: ignore[import-not-found]  # the unix port's

        term = termios.tcgetattr(0)
        termios.setraw(0)
        trace = _Lines(trace or sys.stdout)
    random_bytes, entropy = random_source(opts)
    hold = opts["hold"]
    try:
        while True:
            asyncio.new_event_loop()
            if opts["headless"]:
                virtual = VirtualClock()
                virtual.install()
                clock = virtual
            else:
                from board.base import Clock

                clock = Clock()  # type: ignore[assignment]  # the same three methods, real time
            keys = simboard.Keys(hold == "throw", hold == "referee")
            hold = ""  # only at the first power-up
            board = simboard.build(
                opts["board"], clock, ROOT, simboard.Serial(outs), random_bytes, entropy, keys, trace
            )
            if opts["headless"]:
                virtual.watchdog = board.watchdog
                asyncio.create_task(headless(board))
            else:
                asyncio.create_task(keyboard(board, 60))
            try:
                firmware.run(board, fresh_start=True)
            except Reset as e:
                sys.stderr.write("sim: reset (%s): booting again\n" % e.args[0])
                if e.args[0] == "reset":  # a crash: show what the crash file kept
                    from app.bootlog import read_crash

                    sys.stderr.write((read_crash(ROOT) or b"").decode())
    except EndOfInput:
        pass
    finally:
        if term is not None:
            import termios

            termios.tcsetattr(0, termios.TCSANOW, term)
        for out in outs[1:] if opts["headless"] else outs:
            out.close()
        if trace is not None and opts["trace"] not in ("", "-"):
            trace.close()
        flash.file.close()


if __name__ == "__main__":
    main(sys.argv[1:])
