"""The virtual board's main: `micropython -m sim.run [options]` with firmware/ on the path.

host_tools/commands/sim_cmd.py (`bobing sim`) is the way in; it passes:
  --headless            commands, virtual clock (else: keyboard and panel, the
                        bowl's time for a person: sim.vclock)
  --board PROFILE       devkit (default), cyd, oled
  --flash IMAGE         the LittleFS image (created if missing), mounted at / as
                        on the ESP32: the store is /data; the host's files are
                        under /host (the firmware's own modules are read there)
  --players N --rules P what a fresh bowl starts with (its settings)
  --seed S              dice from bobing.dice.SeededBytes(S): a reproducible run
  --trace FILE          the screen's words, the sound, lamp and speech lines (- : stdout)
  --events PATH         the live event lines also go here
  --serial              the unix port's stdio is the bowl's USB serial (the
                        pseudo-terminal `bobing sim` bridges): event lines out,
                        the app's serial lines and Ctrl-C in, the REPL after
  --presses PATH        where the headless commands come from (default: stdin)
  --term PATH           where the interactive sim's keys come from and its view's
                        lines go (sim.console; default: stdin and stdout, put
                        in raw mode here; with a PATH the caller does that)
  --repl                no power-up: mount the flash and return to `micropython
                        -i`'s REPL, where `import main` powers the app up
and for tests: --flash-blocks N (size of a new image), --rng-fail-after N
(the random source repeats one byte after N good ones), --hold throw|referee
(that switch is closed at power-up until the first command).

Headless commands: one a line, `throw`, `referee`, `referee-long`, taken
when the bowl waits for input and both switches are re-armed, and `pause MS`:
nothing pressed for MS ms of the clock (the idle timeout); end of input
ends the run (exit 0; with --serial, exit ENDED for sim_cmd).  A reset
(watchdog, crash) boots the bowl again on the same flash, as the ESP32
would.  With --serial, when the app leaves its loop for the REPL (the
`sync` line, or Ctrl-C on a bowl not in kiosk mode) the run exits with
LEFT: sim_cmd then starts `micropython -i -m sim.run --repl` on the same
serial, the REPL a real board shows; machine.reset() typed there exits
with RESET, and sim_cmd powers the bowl up again.
"""

import asyncio
import os
import select
import sys

from board.dfplayer import CMD_PLAY_FOLDER

from bobing.events import ENTROPY_PSEUDO, ENTROPY_SEEDED

ROOT = "/data"  # the store, as on the ESP32 (board/esp32.py FLASH_ROOT)
HOST = "/host"  # the host's filesystem, beside the flash mounted at /
POLL_MS = 5
KEY_MS = 20  # the interactive keyboard's poll
HOLD_MS = 60  # a key press holds its switch this long (the bowl's ms)
HOLD_TICKS = 4  # ... and for at least this many keyboard polls
LEFT = 3  # exit status (--serial): the app left its loop for the REPL
ENDED = 4  # exit status (--serial): end of input, or q: the sim is over
RESET = 5  # exit status (--repl): machine.reset() at the REPL, a hard reset


class EndOfInput(BaseException):
    """stdin is exhausted (headless) or q was typed: stop cleanly."""


def usage(message):
    sys.stderr.write("sim: error: %s\n" % message)
    sys.exit(2)


def parse(argv):
    opts = {
        "headless": False,
        "serial": False,
        "repl": False,
        "board": "devkit",
        "flash": "sim-flash.img",
        "players": 0,
        "rules": "",
        "seed": -1,
        "trace": "",
        "events": "",
        "presses": "",
        "term": "",
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
        if opts[key] is False:
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


def image(path, blocks=512):
    """The FileFlash of the LittleFS image in host file `path`, made and
    formatted first if missing: `blocks` of 4 KB, 2 MB by default, the
    ESP32's usual filesystem partition."""
    import vfs

    from sim.flash import FileFlash

    try:
        os.stat(path)
    except OSError:
        flash = FileFlash(path, blocks=blocks)
        vfs.VfsLfs2.mkfs(flash)  # type: ignore[arg-type]  # a block device by protocol
        return flash
    return FileFlash(path)  # never made again: an image that fails to open is the user's


def filesystem(path, blocks=512):
    """(FileFlash, its VfsLfs2) of the image in host file `path`, made if
    missing; a file the sim cannot write or that holds no LittleFS ends the
    run with one line (exit 2), before anything is mounted."""
    import errno

    import vfs

    try:
        flash = image(path, blocks)
    except OSError as e:
        usage("--flash %s: the sim cannot write it (%s)" % (path, errno.errorcode.get(e.errno, e.errno)))
    try:
        return flash, vfs.VfsLfs2(flash)  # type: ignore[abstract]
    except OSError:
        flash.file.close()
        usage("--flash %s: not a LittleFS image (a bowl's flash that `bobing sim` made)" % path)


def nvs_partition(path, erased):
    """The chip's NVS partition in the host file beside the image `path`
    (sim.nvs), opened before the flash becomes /; erased: a new image's.
    A file the sim cannot open ends the run with one line (exit 2)."""
    import errno

    from sim.nvs import Partition

    try:
        return Partition.beside(path, erased)
    except OSError as e:
        usage(
            "--flash %s: the sim cannot write %s.nvs (%s)"
            % (path, path, errno.errorcode.get(e.errno, e.errno))
        )


def mount(path, point, blocks=512):
    """Mount the image in host file `path` on `point`; returns its FileFlash."""
    import vfs

    flash, fs = filesystem(path, blocks)
    vfs.mount(fs, point)
    return flash


def on_host(path, cwd):
    """Where a host path (absolute, or relative to the host's `cwd`) is once the flash is /."""
    return HOST + (path if path.startswith("/") else cwd + "/" + path)


def mount_root(path, blocks, made=None):
    """The image as the ESP32 has its filesystem: mounted at /, the working
    folder /, the store /data.  The host's root moves to /host, and the
    module path with it, so the firmware's modules still import from the
    host.  Files opened before stay open.  made: filesystem(path, blocks)
    if already called.  Returns (FileFlash, host cwd)."""
    import vfs

    cwd = os.getcwd()
    flash, fs = made or filesystem(path, blocks)
    host = vfs.VfsPosix("/")  # type: ignore[attr-defined]  # the unix port's
    vfs.umount("/")
    vfs.mount(fs, "/")
    vfs.mount(host, HOST)
    os.chdir("/")
    sys.path[:] = [p if p in ("", ".frozen") else on_host(p, cwd) for p in sys.path]
    for module in sys.modules.values():  # packages imported so far (sim, bobing) find their modules there
        folder = getattr(module, "__path__", None)
        if folder and not folder.startswith(".frozen"):
            module.__path__ = on_host(folder, cwd)
    try:
        os.mkdir(ROOT)
    except OSError:
        pass  # there already
    return flash, cwd


def serial_waiting(presses, serial_in):
    """Block in real time (the virtual clock stands still) until a command
    line can be read from `presses` (True) or the serial has bytes the app
    should read first (False)."""
    if serial_in is None:
        return True
    poll = select.poll()
    poll.register(presses, select.POLLIN)
    poll.register(serial_in, select.POLLIN)
    return any(obj is presses for obj, _ in poll.poll(-1))


async def headless(board, presses, serial_in):
    """Feed command lines as presses whenever the bowl waits for one."""
    import time

    ins = board.inputs
    closed = board.keys.closed
    clock = board.clock
    while True:
        await clock.sleep_ms(POLL_MS)
        if not ins.waiting or not (ins.idle() or closed[0] or closed[1]):
            continue
        if not serial_waiting(presses, serial_in):
            time.sleep_ms(10)  # bytes nobody reads must not spin a core
            continue
        line = presses.readline()
        if not line:
            raise EndOfInput()
        command = line.strip()
        if not command or command.startswith("#"):
            continue
        closed[0] = closed[1] = False  # --hold: released before the first command
        if command.startswith("pause "):
            if not command[6:].isdigit():
                usage("pause needs a number of ms, not %r" % command[6:])
            await clock.sleep_ms(int(command[6:]))
            continue
        if command == "throw":
            key, hold = 0, ins.accept_ms + 20
        elif command == "referee":
            key, hold = 1, ins.accept_ms + 20
        elif command == "referee-long":
            key, hold = 1, ins.long_ms + 20
        else:
            usage("unknown command %r (throw, referee, referee-long, pause MS)" % command)
        await clock.sleep_ms(ins.rearm_ms + POLL_MS)
        closed[key] = True
        await clock.sleep_ms(hold)
        closed[key] = False


async def keyboard(board, keys_in, console):
    """Keys as a person types them: space or Enter THROW, r REFEREE, l a long REFEREE,
    q switches the bowl off; the panel is drawn again whenever it changed.

    A key closes its switch for HOLD_MS and at least HOLD_TICKS of this
    task's turns, so the switch poller sees it closed for its acceptance
    time even when a slow machine stretches the loop; the panel is not
    drawn while a key is down, for the same reason."""
    poll = select.poll()
    poll.register(keys_in, select.POLLIN)
    closed = board.keys.closed
    clock = board.clock
    release = [0, 0]
    ticks = [0, 0]
    while True:
        now = clock.ticks_ms()
        for k in (0, 1):
            ticks[k] += 1
            if closed[k] and ticks[k] > HOLD_TICKS and clock.ticks_diff(now, release[k]) >= 0:
                closed[k] = False
        if poll.poll(0):
            ch = keys_in.read(1)
            if ch in ("q", "\x03", ""):
                raise EndOfInput()
            key, hold = -1, HOLD_MS
            if ch in (" ", "\r", "\n", "t"):
                key = 0
            elif ch == "r":
                key = 1
            elif ch == "l":
                key, hold = 1, board.inputs.long_ms + HOLD_MS
            if key >= 0:
                closed[key], release[key], ticks[key] = True, now + hold, 0
        if not (closed[0] or closed[1]):
            console.show(board.glass)
        await clock.sleep_ms(KEY_MS)


class Sim:
    """What every power-up of the virtual board shares: the options, the
    flash, the streams of the host (opened before the flash became /)."""

    def __init__(self, argv):
        from sim import board as simboard

        opts = parse(argv)
        if opts["board"] not in simboard.PROFILES:
            usage("--board %s: choose from %s" % (opts["board"], ", ".join(simboard.PROFILES)))
        self.opts = opts
        self.trace = None
        if opts["trace"] == "-":
            self.trace = sys.stdout
        elif opts["trace"]:
            self.trace = open(opts["trace"], "a")
        self.events = open(opts["events"], "a") if opts["events"] else None
        self.presses = open(opts["presses"]) if opts["presses"] else sys.stdin
        self.console = None
        self.raw = None  # the terminal's mode to restore, when we set it
        with open("/proc/self/stat") as f:  # before the flash becomes /
            pid = int(f.read().split(" ", 1)[0])
        try:
            erased = False
            os.stat(opts["flash"])
        except OSError:
            erased = True  # a new image: a new chip's NVS too
        made = filesystem(
            opts["flash"], opts["flash-blocks"]
        )  # a bad image: one line, the terminal as it was
        self.nvs = nvs_partition(opts["flash"], erased)
        if not opts["headless"]:
            if opts["events"]:
                sys.stderr.write("sim: live events go to %s\n" % opts["events"])
            self.console = self.open_console()
        self.flash, cwd = mount_root(opts["flash"], opts["flash-blocks"], made)
        self.glass = on_host(opts["flash"], cwd) + ".glass"
        first_settings(opts)
        self.random_bytes, self.entropy = random_source(opts)
        self.hold = opts["hold"]
        self.reset_line = ""  # why the bowl last reset, for the console to show
        from sim.vclock import Biter

        self.biter = Biter(pid)

    def open_console(self):
        from sim.console import Console

        opts = self.opts
        if opts["term"]:
            keys_in = open(opts["term"])
            out = open(opts["term"], "w")
        else:
            import termios  # type: ignore[import-not-found]  # the unix port's

            self.raw = termios.tcgetattr(0)
            termios.setraw(0)
            keys_in, out = sys.stdin, sys.stdout
        return Console(keys_in, out)

    def power_up(self, firmware):
        """Boot the bowl again and again (resets) until the app leaves its loop."""
        from board.dfplayer import DFPlayer

        from sim import board as simboard
        from sim.dfplayer import SimDFPlayer
        from sim.vclock import Reset, VirtualClock

        opts = self.opts
        console = self.console
        outs = [sys.stdout] if opts["headless"] or opts["serial"] else []
        if self.events is not None:
            outs.append(self.events)
        lines = self.trace
        if console is not None:
            outs.append(console)
            lines = console.tee(self.trace)
        while True:
            asyncio.new_event_loop()
            clock = VirtualClock(real=not opts["headless"])
            clock.install()
            keys = simboard.Keys(self.hold == "throw", self.hold == "referee")
            self.hold = ""  # only at the first power-up
            module = SimDFPlayer(clock.ticks_ms, keep=False)  # each clip is a trace line
            speaker = DFPlayer(SpeechUART(module, lines or _Null()), module.busy)
            session = firmware.boot_log(
                ROOT, self.nvs.open
            )  # as bowl.power_up(): the log first, its buffer lent
            board = simboard.build(
                opts["board"],
                clock,
                ROOT,
                simboard.TtySerial(outs) if opts["serial"] else simboard.Serial(outs),
                self.random_bytes,
                self.entropy,
                keys,
                lines,  # the screen's words: the interactive view reads them too
                self.glass,
                speaker,
                lines,
                session.store.log.buf,
            )
            clock.watchdog = board.watchdog
            self.biter.watchdog = board.watchdog
            if opts["headless"]:
                asyncio.create_task(headless(board, self.presses, sys.stdin if opts["serial"] else None))
            else:
                assert console is not None
                console.start()
                if self.reset_line:  # after start(), which clears the terminal
                    console.write(self.reset_line)
                    self.reset_line = ""
                asyncio.create_task(keyboard(board, console.keys_in, console))
            try:
                firmware.run(board, True, session)
                return  # the app left its loop: the REPL's turn
            except KeyboardInterrupt:
                if not board.watchdog.bitten:
                    raise  # Ctrl-C on the serial
                self.reset("watchdog")
            except Reset as e:
                self.reset(e.args[0])
            finally:
                board.watchdog.stop()
                self.biter.watchdog = None

    def reset(self, cause):
        """Say that the bowl resets, and why, where the user sees it: on the
        console's log (stderr is under the panel) or on stderr."""
        line = "sim: reset (%s): booting again\n" % cause
        if cause == "reset":  # a crash: show what the crash file kept
            from app.bootlog import read_crash

            line += (read_crash(ROOT) or b"").decode()
        if self.console is None:
            sys.stderr.write(line)
        else:
            self.reset_line = line

    def close(self):
        if self.console is not None:
            self.console.close()
        if self.raw is not None:
            import termios

            termios.tcsetattr(0, termios.TCSANOW, self.raw)
        for stream in (self.events, self.trace if self.opts["trace"] not in ("", "-") else None):
            if stream is not None:
                stream.close()
        self.flash.file.close()
        if self.nvs.file is not None:
            self.nvs.file.close()

    def shut(self):
        """close(), which a Ctrl-C coming meanwhile does not cut short: the
        host's, sent right after the sync event, is the REPL's on a board,
        and a process it stopped half closed (exit 1, not LEFT) would take
        the virtual board's serial line down with it."""
        while True:
            try:
                self.close()
                return
            except KeyboardInterrupt:
                pass

    def end(self):
        """Leave the process: the sim is over (exit 0; ENDED to sim_cmd)."""
        self.shut()
        sys.exit(ENDED if self.opts["serial"] else 0)


class SpeechUART:
    """The DFPlayer's UART in the sim: frames go to the simulated module
    (sim.dfplayer.SimDFPlayer, which checks them as the module would), and
    each clip it starts is a line `speech FOLDER/FILE`."""

    def __init__(self, module, lines):
        self.module = module
        self.lines = lines

    def write(self, buf):
        n = self.module.uart.write(buf)
        for start in range(0, len(buf), 10):
            if buf[start + 3] == CMD_PLAY_FOLDER:
                self.lines.write("speech %02d/%03d\n" % (buf[start + 5], buf[start + 6]))
        return n


class _Null:
    def write(self, text):
        pass


class _Machine:
    """`machine` at the virtual board's REPL: the unix port's, and reset()
    a board's hard reset (`mpremote reset`, `bobing deploy`): the process
    ends with RESET and sim_cmd powers the bowl up again, main.py and all."""

    def __init__(self, sim, real):
        self.sim = sim
        self.real = real

    def __getattr__(self, name):
        return getattr(self.real, name)

    def reset(self):
        self.sim.close()
        sys.exit(RESET)


def repl(sim, firmware):
    """The REPL after the app left: `import main` there powers the app up
    again on this board, as typing it on the ESP32 runs main.py from flash
    (the firmware's modules stay the host's, like frozen ones)."""
    import builtins

    load = builtins.__import__

    def importer(name, *rest):
        if name != "main":
            return load(name, *rest)
        try:
            sim.power_up(firmware)
        except EndOfInput:
            sim.end()
        return firmware

    builtins.__import__ = importer
    sys.modules["machine"] = _Machine(sim, load("machine"))  # type: ignore[assignment]  # a module by its attributes
    if sim.console is not None:
        sim.console.write("the bowl is at its REPL on the serial: `import main` there plays on\n")


def main(argv):
    sim = Sim(argv)
    import bowl as firmware

    if sim.opts["repl"]:
        repl(sim, firmware)
        return
    try:
        sim.power_up(firmware)
    except EndOfInput:
        sim.end()
    except KeyboardInterrupt as e:  # Ctrl-C on the serial, Ctrl-C on: as a real board, to the REPL
        sys.print_exception(e)
    sim.shut()
    sys.exit(LEFT if sim.opts["serial"] else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
