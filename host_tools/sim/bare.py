"""`bobing sim --bare`: the virtual bare board, an ESP32 just after stock
MicroPython was flashed, for proving `bobing deploy`.

    bobing sim --bare [--target BOARD] [--flash IMAGE] [--serial] [--headless]

The board runs firmware/sim/bare.py on micropython32 (the ESP32's word
size, ../shared/tools/micropython32 beside a checkout; else the pinned
64-bit port with twice the heap) with the target's heap, its filesystem
partition a LittleFS image in IMAGE (empty at first: nothing but the
boot.py stock MicroPython writes), a ROMFS partition in IMAGE.romfs on the
repository's own firmware build, and its REPL on a pseudo-terminal that
behaves as mpremote expects (raw REPL, raw paste, a soft reset that runs
main.py again).  Modules come only from that flash.

One process is one boot: this supervisor starts the next on a soft reset
(Ctrl-D, machine.soft_reset()), a reset (machine.reset(), the watchdog, a
crash of MicroPython itself) and keeps what the chip keeps across them:
the RTC memory, and a started watchdog, which a soft reset does not stop;
machine.reset_cause() then reads as the ESP32 port's does (SOFT_RESET after
a soft reset; HARD_RESET after machine.reset() or a panic; WDT_RESET).  The watchdog counts the chip's clock while the firmware's
asyncio loop runs (sim.chip), and here, in real time, while a REPL shows,
and in CPU time always, so a bowl spinning without yielding resets and a
loaded host never trips it.  A Ctrl-C from the host is the KeyboardInterrupt
a board raises while a program runs; between two of the REPL's programs
(a traceback still printing, the next line not yet read) an ESP32 passes
it to the REPL as a byte, but the unix port has no handler for it there
and dies of it, so the supervisor starts the same board again at the same
REPL, with what the host sent meanwhile: no reset, nothing run, only the
REPL's variables lost (docs/micropython-crashes.md).  Killing `bobing sim`
is a power cut: the same --flash, started again, is the same board.

With --headless, the commands of `bobing sim --headless` come on stdin and
the bowl's live JSON event lines go to stdout, once a deployed bowl runs.
With --serial the pseudo-terminal's path is printed on stderr as
`serial: PATH`.
"""

import os
import select
import signal
import subprocess
import sys
import threading
import time

from host_tools.deploy.heap import heap_holding
from host_tools.errors import UsageError
from host_tools.sim.process import FIRMWARE, ROOT, die_with_parent, fixed_addresses, load_libc
from host_tools.sim.serial import Bridge, unread

PWRON_RESET, HARD_RESET, WDT_RESET, SOFT_RESET = 1, 2, 3, 5  # machine.reset_cause() of the ESP32 port
KB = 1024

# name: (what it is, MicroPython heap after growth (B), filesystem partition (B),
#        ROMFS partition (B, 0: none), panel, pins.py table)
TARGETS = {
    "s3": (
        "ESP32-S3-DevKitC-1 N8R8, official ESP32_GENERIC_S3 SPIRAM_OCT (the recommended build)",
        8 * 1024 * KB,
        6 * 1024 * KB,
        0,
        "st7789",
        "s3",
    ),
    "esp32": (
        "ESP32-DevKitC (WROOM-32E, no PSRAM), official ESP32_GENERIC",
        112 * KB,
        2 * 1024 * KB,
        0,
        "st7789",
        "devkit",
    ),
    "bobing-esp32": (
        "ESP32-DevKitC (WROOM-32E, no PSRAM), the repository's firmware image with ROMFS",
        112 * KB,
        "vfs",  # sized by firmware/device/BOBING_ESP32/partitions.csv
        "romfs",
        "st7789",
        "devkit",
    ),
}
PARTITIONS = os.path.join(FIRMWARE, "device", "BOBING_ESP32", "partitions.csv")
FROZEN_BOOT = os.path.join(FIRMWARE, "device", "BOBING_ESP32", "_boot.py")


def partition(name):
    """Size in bytes of the partition `name` in the repository's firmware build's table."""
    with open(PARTITIONS) as f:
        for line in f:
            cells = [c.strip() for c in line.split("#")[0].split(",")]
            if cells[0] == name:
                return int(cells[4], 0)
    raise ValueError("%s: no partition %r" % (PARTITIONS, name))


DEFAULT_TARGET = "s3"
MICROPYTHON32 = os.path.join(os.path.dirname(ROOT), "shared", "tools", "micropython32")
PROMPTS = (b">>> ", b"raw REPL; CTRL-B to exit")
PROMPT_S = 60.0  # seconds a REPL the board comes back to has to prompt (serial.PROMPT_S)


def add_arguments(p):
    p.add_argument("--bare", action="store_true", help="a bare board as stock MicroPython leaves it")
    p.add_argument(
        "--target",
        metavar="BOARD",
        help="with --bare: %s (default %s)" % (", ".join(TARGETS), DEFAULT_TARGET),
    )


def interpreter(heap, rom_bytes):
    """(binary, -X heapsize bytes): micropython32 at the ESP32's word size, or
    the pinned 64-bit port; the ROMFS partition, a bytearray here and flash on
    a board, comes on top of the board's heap."""
    from host_tools.deploy.heap import rom_heap

    rom = rom_heap(rom_bytes) if rom_bytes else 0
    if os.path.exists(MICROPYTHON32):
        return MICROPYTHON32, heap + rom
    binary = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(binary):
        raise UsageError("%s is missing: run `make setup` first" % binary)
    return binary, 2 * heap + rom  # 64-bit objects are 1.6-2x larger


def run(args):
    target = args.target or DEFAULT_TARGET
    if target not in TARGETS:
        raise UsageError("--target %r: choose from %s" % (target, ", ".join(TARGETS)))
    if args.flash is None:
        flash = os.path.join(ROOT, "build", "sim", "bare-%s.img" % target)
        os.makedirs(os.path.dirname(flash), exist_ok=True)
    else:
        flash = os.path.abspath(args.flash)
        if not os.path.isdir(os.path.dirname(flash)):
            raise UsageError("--flash %r: no folder %s" % (args.flash, os.path.dirname(flash)))
    if os.path.isdir(flash):
        raise UsageError("--flash %r: a folder, not an image file" % flash)
    load_libc()
    board = BareBoard(target, flash, args.headless, args.seed)
    try:  # without --headless the serial is the one way in: a board on the desk, its USB cable in
        return board.serve(args.serial or not args.headless)
    except KeyboardInterrupt:  # Ctrl-C at our terminal: a power cut
        return 130


class EventBridge(Bridge):
    """The wire to the host, which also copies the bowl's live event lines
    to `out` (headless) and tells when a REPL prompt last showed."""

    def __init__(self, bowl, host, out):
        super().__init__(bowl, host)
        self.events = out
        self.line = b""
        self.at_repl = False

    def drain(self):
        """Wait until the bowl's bytes have gone to the host side (its last event lines)."""
        quiet = 0
        while quiet < 4:
            pending = select.select([self.bowl], [], [], 0.05)[0] or self.out
            quiet = 0 if pending else quiet + 1

    def seen(self, data):
        super().seen(data)
        if any(p in self.tail for p in PROMPTS):
            self.at_repl = True
        if self.events is None:
            return
        self.line += data
        while b"\n" in self.line:
            line, self.line = self.line.split(b"\n", 1)
            if line.startswith(b'{"event"'):
                self.events.write(line.rstrip(b"\r") + b"\n")
                self.events.flush()
        self.line = self.line[-4096:]


class BareBoard:
    def __init__(self, target, flash, headless, seed):
        import tty

        self.target = target
        _, self.heap, fs, rom, self.panel, self.wiring = TARGETS[target]
        self.fs_bytes = partition(fs) if isinstance(fs, str) else fs
        self.rom_bytes = partition(rom) if isinstance(rom, str) else rom
        self.flash = flash
        self.headless = headless
        self.seed = seed
        self.cause = PWRON_RESET
        self.rtc = ""
        self.wdt_ms = 0
        self.raw = False
        self.repl = False  # the next boot is the same board at its REPL: no boot.py, no main.py
        self.bowl, self.bowl_tty = os.openpty()
        self.host, self.host_tty = os.openpty()
        tty.setraw(self.host_tty)
        self.presses = os.dup(0) if headless else None
        out = os.fdopen(os.dup(1), "wb") if headless else None
        self.bridge = EventBridge(self.bowl, self.host, out)
        self.env = dict(os.environ, MICROPYPATH=os.pathsep.join((FIRMWARE, ".frozen")))
        self.kept = None
        self.heap_free = []  # gc.mem_free() each time the bowl waited for a command

    def command(self, channel, probe=False):
        binary, heap = interpreter(self.heap, self.rom_bytes)
        if probe:
            heap *= 4
        else:
            heap += heap_holding(self.hardware_kept())
        command = [binary, "-X", "heapsize=%d" % heap, "-i", "-m", "sim.bare"]
        if probe:
            command.append("--probe")
        opts = {
            "target": self.target,
            "flash": self.flash,
            "flash-blocks": self.fs_bytes // 4096,
            "panel": self.panel,
            "wiring": self.wiring,
            "glass": self.flash + ".glass",
            "cause": self.cause,
            "wdt": self.wdt_ms,
            "channel": channel,
        }
        if self.rtc:
            opts["rtc"] = self.rtc
        if self.rom_bytes:  # the repository's image: its ROMFS, and its own frozen _boot.py
            opts["romfs"] = self.flash + ".romfs"
            opts["romfs-size"] = self.rom_bytes
            opts["boot"] = FROZEN_BOOT
        if self.seed is not None:
            opts["seed"] = self.seed
        for key, value in opts.items():
            command += ["--" + key, str(value)]
        if self.raw:
            command.append("--raw")
        if self.repl:
            command.append("--repl")
        if self.headless and not probe:
            command += ["--headless", "--presses", str(self.presses)]
        return command

    def hardware_kept(self):
        """Heap bytes the virtual board's own modules keep (firmware/sim/bare.py
        --probe), measured once: given on top of the board's heap, so the
        firmware has what the board has."""
        if self.kept is None:
            read_end, write_end = os.pipe()
            probe = subprocess.run(
                self.command(write_end, probe=True),
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                pass_fds=[write_end],
                preexec_fn=fixed_addresses,
            )
            os.close(write_end)
            with os.fdopen(read_end) as f:
                said = f.read().split()
            if probe.returncode != 0 or said[:1] != ["kept"]:
                raise UsageError("the virtual board did not start (status %d)" % probe.returncode)
            self.kept = int(said[1])
        return self.kept

    def serve(self, serial):
        if serial:
            print("serial: %s" % os.ttyname(self.host_tty), file=sys.stderr, flush=True)
        threading.Thread(target=self.bridge.run, daemon=True).start()
        try:
            while True:
                if self.boot() == "end":
                    return 0
        finally:
            self.bridge.stopped = True
            if self.heap_free:
                print(
                    "sim: heap free %d B when the bowl first waited, %d B at least (%d waits)"
                    % (self.heap_free[0], min(self.heap_free), len(self.heap_free)),
                    file=sys.stderr,
                )

    def boot(self):
        """One boot of the board, until it resets or the sim ends: "end" or "again"."""
        import fcntl
        import termios
        import tty

        def child():
            die_with_parent()
            fixed_addresses()  # an ESP32's: its heap figures the same on every run
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        read_end, write_end = os.pipe()
        self.bridge.hold()
        raw, repl = self.raw, self.repl
        command = self.command(write_end)  # with --repl, which this boot alone takes
        self.repl = False
        pending = unread(self.bowl_tty) if repl else b""
        tty.setraw(self.bowl_tty, termios.TCSANOW)
        attrs = termios.tcgetattr(self.bowl_tty)
        attrs[3] |= termios.ISIG  # Ctrl-C from the host is the KeyboardInterrupt a board raises
        termios.tcsetattr(self.bowl_tty, termios.TCSANOW, attrs)
        keep = [write_end] + ([self.presses] if self.presses is not None else [])
        proc = subprocess.Popen(
            command,
            env=self.env,
            stdin=self.bowl_tty,
            stdout=self.bowl_tty,
            pass_fds=keep,
            start_new_session=True,
            preexec_fn=child,
        )
        os.close(write_end)
        self.bridge.at_repl = False
        if raw or repl:  # back to the REPL the board showed: the host's bytes wait for it
            end = time.monotonic() + PROMPT_S
            while not self.bridge.prompted.wait(0.05) and proc.poll() is None and time.monotonic() < end:
                pass
            if raw:  # a soft reset from the raw REPL comes back to it
                os.write(self.bowl, b"\r\x01")
            if pending:
                os.write(self.bowl, pending)
            self.bridge.release()
        # otherwise the host's bytes wait for the board's `up`: a Ctrl-C
        # before the process can take it would kill it (an ESP32 ignores it)
        outcome = self.watch(proc, read_end)
        os.close(read_end)
        return outcome

    def watch(self, proc, channel):
        lines = b""
        fed_at = time.monotonic()
        fed_cpu = _cpu_s(proc.pid)
        soft = exited = False
        watching = [channel]
        while True:
            ready = select.select(watching, [], [], 0.05)[0]
            if ready:
                data = os.read(channel, 4096)
                if not data:  # the process is gone (or going): its status next
                    watching = []
                lines += data
                while b"\n" in lines:
                    line, lines = lines.split(b"\n", 1)
                    word, _, rest = line.decode().partition(" ")
                    if word == "up":
                        self.bridge.release()
                    elif word in ("wdt", "feed"):
                        if word == "wdt":
                            self.wdt_ms = int(rest)
                        fed_at, fed_cpu = time.monotonic(), _cpu_s(proc.pid)
                        self.bridge.at_repl = False
                    elif word == "rtc":
                        self.rtc = rest
                    elif word == "heap":
                        self.heap_free.append(int(rest))
                    elif word == "reset":
                        return self.reset(proc, int(rest), "")
                    elif word == "soft":
                        soft = True
                    elif word == "exit":
                        exited = True
                    elif word == "end":
                        self.bridge.drain()
                        proc.kill()
                        proc.wait()
                        return "end"
                    elif word == "bad":
                        proc.kill()
                        proc.wait()
                        raise UsageError("unknown command %r (throw, referee, referee-long, pause MS)" % rest)
            code = proc.poll()
            if code is not None and not ready:
                # Ctrl-D at the REPL, machine.soft_reset(), or any exit the
                # process announced (sys.atexit), whatever its status: the
                # unix port's cancelling of the chip's timer threads after it
                # sometimes aborts micropython32 (docs/micropython-crashes.md),
                # and an ESP32 soft-resets at the end of its program
                if code == 0 or soft or exited:
                    self.raw = self.bridge.raw and not soft
                    self.cause = SOFT_RESET
                    self.bridge.to_host(b"MPY: soft reboot\r\n")
                    return "again"
                if code == -signal.SIGINT:  # the host's Ctrl-C between two of the REPL's programs
                    self.raw = self.bridge.raw
                    self.repl = True
                    sys.stderr.write("sim: a Ctrl-C between two programs: the same board at its REPL\n")
                    return "again"
                return self.reset(proc, HARD_RESET, "MicroPython stopped (status %d): a panic" % code)
            if self.wdt_ms:
                idle = self.bridge.at_repl and time.monotonic() - fed_at > self.wdt_ms / 1000
                if idle or _cpu_s(proc.pid) - fed_cpu > self.wdt_ms / 1000:
                    return self.reset(proc, WDT_RESET, "the watchdog")

    def reset(self, proc, cause, why):
        """A hard reset: the process ends at once; the WDT stops, the RTC memory stays."""
        proc.kill()
        proc.wait()
        if why:
            sys.stderr.write("sim: reset (%s): booting again\n" % why)
        self.cause = cause
        self.wdt_ms = 0
        self.raw = False
        self.bridge.to_host(b"\r\nets Jun  8 2016 00:22:57\r\n\r\nrst:0xc (SW_CPU_RESET),boot:0x13\r\n")
        return "again"


def _cpu_s(pid):
    """CPU seconds (user + system) the process has run: a loaded host does not inflate it."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
