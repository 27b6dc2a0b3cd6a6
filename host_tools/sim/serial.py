"""The virtual bowl's USB serial: its MicroPython on one pseudo-terminal, bridged
to a second one the host tools open, as a board's UART is wired to its USB chip
(host_tools/commands/sim_cmd.py says how `bobing sim --serial` uses it).
"""

import os
import select
import signal
import subprocess
import sys
import threading
import time

from host_tools.sim.process import die_with_parent

# sim.run's exit statuses with --serial (firmware/sim/run.py)
LEFT = 3  # the app left its loop for the REPL
ENDED = 4  # end of the commands, or q: the sim is over
RESET = 5  # machine.reset() at the REPL
INTERRUPTED = 130  # MicroPython's status for an uncaught KeyboardInterrupt
APP, REPL, RAW_REPL = "app", "repl", "raw repl"  # what a child starts into
# Seconds a new REPL has to prompt before the host's held bytes go to it
# anyway.  A board prompts at once; the host's MicroPython can take seconds
# on a loaded machine, and a Ctrl-C the host sent, let through before the
# REPL is up, stops the new bowl before it can take it.
PROMPT_S = 60.0
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
                if code in (LEFT, INTERRUPTED):
                    # left for the REPL, or stopped by a Ctrl-C that came as
                    # it was leaving (the host's, right after the sync event):
                    # a board is at its REPL either way
                    kind = REPL
                elif code == -signal.SIGINT:
                    # a Ctrl-C between two of the REPL's programs, which an
                    # ESP32 takes as a byte: the same REPL, friendly or raw
                    kind = RAW_REPL if self.bridge.raw else REPL
                    self.say("sim: a Ctrl-C between two programs: the same bowl at its REPL")
                elif code == RESET:  # machine.reset() at the REPL: a hard reset runs main.py
                    kind = APP
                elif code == 0 and kind != APP:  # Ctrl-D ended the REPL: a soft reset
                    self.bridge.to_host(b"MPY: soft reboot\r\n")
                    kind = RAW_REPL if self.bridge.raw else APP  # raw: no main.py, as on a board
                elif code == ENDED:
                    return 0
                else:
                    self.say("sim: the bowl's MicroPython stopped (status %d): the sim ends" % code)
                    return code
        finally:
            self.bridge.stopped = True

    def say(self, line):
        """A line on the bowl's stderr, where the sim's own words go."""
        os.write(self.stderr if self.stderr is not None else 2, line.encode() + b"\n")

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

    def start(self, kind):
        """Run one bowl process into `kind`; its exit status."""
        import fcntl
        import termios

        def child():
            die_with_parent()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # the line's Ctrl-C reaches this bowl

        self.bridge.hold()
        pending = unread(self.bowl_tty)
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


def unread(bowl_tty):
    """What the host sent that the last bowl process never read from its
    pseudo-terminal `bowl_tty` (a new REPL would flush it on start, where a
    real board keeps it)."""
    data = b""
    while select.select([bowl_tty], [], [], 0)[0]:
        chunk = os.read(bowl_tty, 4096)
        if not chunk:
            break
        data += chunk
    return data


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
