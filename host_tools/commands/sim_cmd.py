"""`bobing sim`: the real firmware on the virtual board, in the MicroPython unix port.

    bobing sim [--board PROFILE] [--flash IMAGE] [--serial]    # play: keys and the panel in a terminal
    bobing sim --headless [--board PROFILE] [--flash IMAGE] [--players N] [--rules PRESET] [--serial]

It runs firmware/sim/run.py (`micropython -m sim.run`) on the pinned unix
port beside this Python (.venv/bin/micropython) with firmware/ on its path:
main.py, the app and the board layer as they ship.  Headless without
--serial the process becomes MicroPython itself; otherwise the bowl dies
with it: killing it is a power cut either way, and the next run on the same
image resumes.  Interactive, this process draws the terminal
(host_tools/sim/view.py) from the bowl's lines and its panel's glass file,
out of the bowl's heap.  docs/events.md has the event lines.

--serial: the bowl's USB serial is a pseudo-terminal, as a real board's is
to its host: MicroPython's own stdio (the app's event lines and serial
commands, Ctrl-C, the REPL, the raw REPL mpremote speaks).  SerialBowl
below runs the bowl on one pty and bridges it to a second one whose path
it prints (`serial: PATH`), which the host tools open; the press commands
(headless) or the keyboard and panel (interactive) reach the bowl on
another descriptor, and the headless event lines still come to stdout.
When the app leaves for the REPL (exit sim.run.LEFT) the REPL is
`micropython -i -m sim.run --repl` on the same line; a soft reset there
(Ctrl-D, which ends the unix port's REPL) starts the bowl afresh, as a
board's soft reboot does; machine.reset() there (exit sim.run.RESET) is a
hard reset: the bowl powers up again.  Killing `bobing sim` is still a
power cut, and gives the terminal back as it was (run()).
"""

import os
import select
import signal
import subprocess
import sys
import threading
import time

from bobing.game import MAX_PLAYERS, MIN_PLAYERS
from bobing.rules import PRESETS
from host_tools.errors import UsageError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
PROFILES = ("s3", "devkit", "cyd", "cyd2usb", "oled", "sh1106")
HEAP = "512K"  # the sim's own heap; the ESP32-sized figures come from the bench


def register(sub):
    p = sub.add_parser("sim", help="run the bowl's firmware on the virtual board")
    p.add_argument(
        "--headless", action="store_true", help="commands on stdin, JSON events on stdout, virtual clock"
    )
    p.add_argument("--board", default="devkit", metavar="PROFILE", help="devkit (default), cyd or oled")
    p.add_argument(
        "--flash", metavar="IMAGE", help="the flash image, created if missing (default: a fresh one)"
    )
    p.add_argument(
        "--players", metavar="N", help="players of a fresh bowl's game (%d-%d)" % (MIN_PLAYERS, MAX_PLAYERS)
    )
    p.add_argument("--rules", metavar="PRESET", help="rule preset of a fresh bowl: %s" % ", ".join(PRESETS))
    p.add_argument("--serial", action="store_true", help="the bowl's USB serial on a pseudo-terminal")
    p.add_argument("--seed", metavar="S", help="reproducible dice (default: the host's os.urandom)")
    p.add_argument(
        "--trace", metavar="FILE", help="what the screen shows and the buzzer plays, one line each"
    )
    p.add_argument(
        "--lang",
        choices=("zh", "en"),
        help="the words beside the panel: zh or en (default: zh where the locale is Chinese)",
    )
    from host_tools.sim import bare as bare_cmd

    bare_cmd.add_arguments(p)
    p.set_defaults(run=run)


def whole(name, text, low, high):
    if text is None:
        return None
    if not text.isdigit() or not low <= int(text) <= high:
        raise UsageError("%s %r: expected a whole number %d-%d" % (name, text, low, high))
    return int(text)


def arguments(args):
    """sim.run's arguments; UsageError before anything runs."""
    if args.board not in PROFILES:
        raise UsageError("--board %r: choose from %s" % (args.board, ", ".join(PROFILES)))
    if args.rules is not None and args.rules not in PRESETS:
        raise UsageError("--rules %r: choose from %s" % (args.rules, ", ".join(PRESETS)))
    players = whole("--players", args.players, MIN_PLAYERS, MAX_PLAYERS)
    seed = whole("--seed", args.seed, 0, 2**32 - 1)
    out = ["--board", args.board]
    if args.headless:
        out.append("--headless")
    if players is not None:
        out += ["--players", str(players)]
    if args.rules is not None:
        out += ["--rules", args.rules]
    if seed is not None:
        out += ["--seed", str(seed)]
    if args.trace:
        out += ["--trace", args.trace]
    flash = args.flash
    if flash is None and args.headless:
        flash = fresh_image()
    elif flash is None:
        flash = os.path.join(ROOT, "build", "sim", "%s.img" % args.board)
    folder = os.path.dirname(os.path.abspath(flash))
    if not os.path.isdir(folder):
        if args.flash is not None:
            raise UsageError("--flash %r: no folder %s" % (args.flash, folder))
        os.makedirs(folder)
    if os.path.isdir(flash):
        raise UsageError("--flash %r: a folder, not an image file" % flash)
    out += ["--flash", os.path.abspath(flash)]
    if not args.headless:
        if not args.serial:
            out += ["--events", os.path.abspath(flash) + ".events"]
    return out


def fresh_image():
    """A new image for this run only (a fresh bowl), removed at exit by sim.run's parent."""
    import tempfile

    handle, path = tempfile.mkstemp(prefix="bobing-sim-", suffix=".img")
    os.close(handle)
    os.remove(path)  # sim.run makes and formats it
    return path


def micropython():
    binary = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(binary):
        raise UsageError("%s is missing: run `make setup` first" % binary)
    return binary


def run(args):
    if args.bare or args.target is not None:
        from host_tools.sim import bare as bare_cmd

        if not args.bare:
            raise UsageError("--target is for the bare board: add --bare")
        return bare_cmd.run(args)
    argv = arguments(args)
    binary = micropython()
    env = dict(os.environ, MICROPYPATH=os.pathsep.join((FIRMWARE, ".frozen")))
    command = [binary, "-X", "heapsize=%s" % HEAP, "-m", "sim.run", *argv]
    temporary = argv[argv.index("--flash") + 1] if args.flash is None and args.headless else None
    if args.headless and not args.serial and temporary is None:
        sys.stdout.flush()
        os.execve(binary, command, env)  # killing us is killing the bowl: a power cut
    _load_libc()
    terminal = Terminal(not args.headless)
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _stop)
    bowl = SerialBowl(command, env, True) if args.serial and args.headless else None
    proc = None
    try:
        if not args.headless:
            return interactive(args, command, env)
        if bowl is not None:
            return bowl.serve()
        proc = subprocess.Popen(command, env=env, preexec_fn=_die_with_parent)
        return proc.wait()
    except KeyboardInterrupt:  # Ctrl-C at our terminal: the bowl dies with us, a power cut
        return 130
    finally:  # the bowl dies first (a power cut), then the terminal is ours again
        power_off(bowl.proc if bowl is not None else proc)
        terminal.restore()
        for made in (temporary, temporary + ".nvs") if temporary is not None else ():
            if os.path.exists(made):
                os.remove(made)


def interactive(args, command, env):
    """The bowl under the terminal view (host_tools/sim/view.py), which reads
    the keys and draws: the bowl's --term is the view's pseudo-terminal."""
    from host_tools.sim.story import sim_lang
    from host_tools.sim.view import View

    glass = command[command.index("--flash") + 1] + ".glass"
    view = View(args.board, glass, args.lang or sim_lang())

    def bowl():
        if args.serial:
            serial = SerialBowl(command, env, False, view.term, view.slave)
            view.note("serial: %s" % os.ttyname(serial.host_tty))
            return serial.serve()
        term = ["--term", view.term]
        return subprocess.Popen(
            command + term, env=env, stderr=view.slave, preexec_fn=_die_with_parent
        ).wait()

    return view.run(bowl)


def power_off(proc):
    """The bowl's MicroPython (a Popen, or None) dies at once, if it still runs."""
    if proc is not None and proc.poll() is None:
        proc.kill()
        proc.wait()


def _stop(signum, frame):
    """SIGTERM, SIGHUP: leave through run()'s finally (the bowl killed, the terminal restored)."""
    raise SystemExit(128 + signum)


class Terminal:
    """Our terminal's mode when we started, put back however we leave: the
    interactive sim makes it raw and hides the cursor."""

    def __init__(self, interactive):
        import termios

        self.mode = termios.tcgetattr(0) if interactive and os.isatty(0) else None

    def restore(self):
        if self.mode is None:
            return
        import termios

        termios.tcsetattr(0, termios.TCSANOW, self.mode)
        if os.isatty(1):
            os.write(1, b"\x1b[0m\x1b[?25h")  # colours reset, the cursor shown


_LIBC = None


def _die_with_parent():
    """In the child before exec: killed when we die (PR_SET_PDEATHSIG)."""
    _LIBC.prctl(1, signal.SIGKILL)


def _load_libc():
    global _LIBC
    if _LIBC is None:
        import ctypes

        _LIBC = ctypes.CDLL(None, use_errno=True)


# sim.run's exit statuses with --serial (firmware/sim/run.py)
LEFT = 3  # the app left its loop for the REPL
ENDED = 4  # end of the commands, or q: the sim is over
RESET = 5  # machine.reset() at the REPL
INTERRUPTED = 130  # MicroPython's status for an uncaught KeyboardInterrupt
APP, REPL, RAW_REPL = "app", "repl", "raw repl"  # what a child starts into
PROMPT_S = 10.0  # seconds for a new REPL's prompt
STUCK_S = 1.0  # a side that takes no bytes for this long is not listening: its bytes are dropped


class SerialBowl:
    """The bowl's MicroPython on pty A, bridged to pty B for the host."""

    def __init__(self, command, env, headless, term=None, stderr=None):
        import tty

        self.command = command
        self.env = env
        self.bowl, self.bowl_tty = os.openpty()  # A: the bowl's stdio
        self.host, self.host_tty = os.openpty()  # B: what the host opens (kept open here too)
        tty.setraw(self.host_tty)
        self.keep = []  # our descriptors the bowl gets beside its stdio
        self.stderr = stderr  # the bowl's (None: ours)
        if headless:
            presses, events = os.dup(0), os.dup(1)
            self.keep = [presses, events]
            self.extra = ["--serial", "--presses", "/dev/fd/%d" % presses, "--events", "/dev/fd/%d" % events]
        else:  # the terminal view's pseudo-terminal (host_tools/sim/view.py): keys in, its lines out
            self.extra = ["--serial", "--term", term]
        self.bridge = Bridge(self.bowl, self.host)
        self.proc = None  # the bowl's MicroPython now

    def serve(self):
        print("serial: %s" % os.ttyname(self.host_tty), file=sys.stderr, flush=True)
        threading.Thread(target=self.bridge.run, daemon=True).start()
        kind = APP
        try:
            while True:
                code = self.start(kind)
                if code in (LEFT, INTERRUPTED, -signal.SIGINT):
                    # left for the REPL, or stopped by a Ctrl-C that came as
                    # it was leaving (the host's, right after the sync event):
                    # a board is at its REPL either way
                    kind = REPL
                elif code == RESET:  # machine.reset() at the REPL: a hard reset runs main.py
                    kind = APP
                elif code == 0 and kind != APP:  # Ctrl-D ended the REPL: a soft reset
                    self.bridge.to_host(b"MPY: soft reboot\r\n")
                    kind = RAW_REPL if self.bridge.raw else APP  # raw: no main.py, as on a board
                elif code == ENDED:
                    return 0
                else:
                    return code
        finally:
            self.bridge.stopped = True

    def line_mode(self):
        """The bowl's side as a board's USB serial: 8-bit clean, no echo, and
        Ctrl-C a signal (the KeyboardInterrupt a board raises; the sim turns
        it off in kiosk mode)."""
        import termios
        import tty

        tty.setraw(self.bowl_tty, termios.TCSANOW)  # TCSAFLUSH would drop what the host sent
        attrs = termios.tcgetattr(self.bowl_tty)
        attrs[3] |= termios.ISIG
        termios.tcsetattr(self.bowl_tty, termios.TCSANOW, attrs)

    def unread(self):
        """What the host sent that the last bowl never read (a new REPL
        would flush it on start, where a real board keeps it)."""
        data = b""
        while select.select([self.bowl_tty], [], [], 0)[0]:
            chunk = os.read(self.bowl_tty, 4096)
            if not chunk:
                break
            data += chunk
        return data

    def start(self, kind):
        """Run one bowl process into `kind`; its exit status."""
        import fcntl
        import termios

        def child():
            _die_with_parent()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # the line's Ctrl-C reaches this bowl

        self.bridge.hold()
        pending = self.unread()
        self.line_mode()
        command = list(self.command)
        if kind != APP:
            command[command.index("-m") : command.index("-m")] = ["-i"]
            command.append("--repl")
        proc = self.proc = subprocess.Popen(
            command + self.extra,
            env=self.env,
            stdin=self.bowl_tty,
            stdout=self.bowl_tty,
            stderr=self.stderr,
            pass_fds=self.keep,
            start_new_session=True,
            preexec_fn=child,
        )
        if kind != APP:
            self.bridge.prompted.wait(PROMPT_S)
            if kind == RAW_REPL:
                os.write(self.bowl, b"\r\x01")
        if pending:
            os.write(self.bowl, pending)
        self.bridge.release()
        return proc.wait()


class Bridge:
    """Copies bytes between the bowl's pty and the host's, like the wire
    between a board's UART and the USB chip: never blocking the bowl (bytes
    nobody reads for STUCK_S are dropped, as a UART drops them), and noting
    which REPL the bowl shows (friendly or raw) and when it prompts."""

    def __init__(self, bowl, host):
        self.bowl = bowl
        self.host = host
        os.set_blocking(bowl, False)
        os.set_blocking(host, False)
        self.out = b""  # bowl -> host, not yet taken
        self.into = b""  # host -> bowl, not yet taken
        self.since = {bowl: None, host: None}  # since when a side takes nothing (monotonic s)
        self.absent = {bowl: False, host: False}
        self.held = False  # host -> bowl paused (a REPL is starting)
        self.prompted = threading.Event()
        self.raw = False
        self.tail = b""
        self.lock = threading.Lock()
        self.stopped = False

    def hold(self):
        """Keep the host's bytes until release(): the bowl is starting."""
        with self.lock:
            self.held = True
            self.tail = b""
            self.prompted.clear()

    def release(self):
        self.held = False

    def to_host(self, data):
        with self.lock:
            self.out += data

    def seen(self, data):
        self.tail = (self.tail + data)[-64:]
        friendly = max(self.tail.rfind(b">>> "), self.tail.rfind(b'Type "help()"'))
        raw = self.tail.rfind(b"raw REPL; CTRL-B to exit")
        if raw >= 0 or friendly >= 0:
            self.raw = raw > friendly
        if self.tail.endswith(b">>> "):
            self.prompted.set()

    def run(self):
        while not self.stopped:
            with self.lock:
                reading = [] if self.out else [self.bowl]
                if not self.into and not self.held:
                    reading.append(self.host)
                writing = ([self.host] if self.out else []) + (
                    [self.bowl] if self.into and not self.held else []
                )
            try:
                ready_r, _, _ = select.select(reading, writing, [], 0.05)
            except (OSError, ValueError):
                return
            with self.lock:
                for fd in ready_r:
                    try:
                        data = os.read(fd, 4096)
                    except OSError:
                        continue
                    if fd == self.bowl:
                        self.seen(data)
                        self.out += data
                    else:
                        self.into += data
                self.out = self.send(self.host, self.out)
                if not self.held:
                    self.into = self.send(self.bowl, self.into)

    def send(self, fd, data):
        """What is left of data after writing what fd takes now.  A side that
        took nothing for STUCK_S is not listening: its bytes are dropped, as
        a UART drops what nobody reads, from then on at once; each later
        write is still tried, so it is answered the moment it reads again."""
        if not data:
            return data
        try:
            n = os.write(fd, data)  # non-blocking: what the side's buffer takes
        except BlockingIOError:
            n = 0
        except OSError:
            return b""
        if n:
            self.since[fd] = None
            self.absent[fd] = False
            return data[n:]
        if self.absent[fd]:
            return b""
        now = time.monotonic()
        if self.since[fd] is None:
            self.since[fd] = now
        elif now - self.since[fd] >= STUCK_S:
            self.since[fd] = None
            self.absent[fd] = True
            return b""
        return data
