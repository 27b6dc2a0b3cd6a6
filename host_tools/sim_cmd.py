"""`bobing sim`: the real firmware on the virtual board, in the MicroPython unix port.

    bobing sim [--board PROFILE] [--flash IMAGE]               # play: keys in a terminal
    bobing sim --headless [--board PROFILE] [--flash IMAGE] [--players N] [--rules PRESET] [--serial]

It runs firmware/sim/run.py (`micropython -m sim.run`) on the pinned unix
port beside this Python (.venv/bin/micropython) with firmware/ on its path:
main.py, the app and the board layer as they ship.  Without --serial the
process becomes MicroPython itself, so killing it is a power cut and the
next run on the same image resumes.  docs/events.md has the event lines.
"""

import os
import signal
import sys
import threading

from bobing.game import MAX_PLAYERS, MIN_PLAYERS
from bobing.rules import PRESETS
from host_tools.cli import UsageError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
PROFILES = ("devkit", "cyd", "oled")
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
    if not args.headless and not args.serial:
        events = os.path.abspath(flash) + ".events"
        print("sim: live events go to %s" % events, file=sys.stderr)
        out += ["--serial-out", events]
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
    argv = arguments(args)
    binary = micropython()
    env = dict(os.environ, MICROPYPATH=os.pathsep.join((FIRMWARE, ".frozen")))
    command = [binary, "-X", "heapsize=%s" % HEAP, "-m", "sim.run", *argv]
    temporary = args.flash is None and args.headless
    if not args.serial and not temporary:
        sys.stdout.flush()
        os.execve(binary, command, env)  # killing us is killing the bowl: a power cut
    return supervise(command, env, args.serial, argv[argv.index("--flash") + 1] if temporary else None)


def supervise(command, env, serial, temporary):
    """Run the bowl as a child: with its serial relayed to a pty, or its image
    removed afterwards.  The child dies with us (a power cut)."""
    import ctypes
    import subprocess

    libc = ctypes.CDLL(None, use_errno=True)

    def die_with_parent():
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG

    pass_fds = ()
    relay = None
    if serial:
        master, slave = pty_pair()
        read_end, write_end = os.pipe()
        command = [*command, "--serial-out", "/dev/fd/%d" % write_end]
        pass_fds = (write_end,)
        print("serial: %s" % os.ttyname(slave), file=sys.stderr, flush=True)
        relay = threading.Thread(target=copy, args=(read_end, master), daemon=True)
        relay.start()
    try:
        proc = subprocess.Popen(command, env=env, pass_fds=pass_fds, preexec_fn=die_with_parent)
        if serial:
            os.close(write_end)
        code = proc.wait()
        if relay is not None:
            relay.join(timeout=2)
        return code
    finally:
        if temporary and os.path.exists(temporary):
            os.remove(temporary)


def pty_pair():
    """(master, slave) of a new pseudo-terminal in raw mode."""
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    return master, slave


def copy(source, target):
    """Serial lines from the bowl to the pty, until the bowl closes its end."""
    while True:
        data = os.read(source, 4096)
        if not data:
            return
        os.write(target, data.replace(b"\n", b"\r\n"))
