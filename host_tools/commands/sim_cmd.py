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
(host_tools/sim/serial.py) runs the bowl on one pty and bridges it to a second one whose path
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
import signal
import subprocess
import sys

from bobing.game import MAX_PLAYERS, MIN_PLAYERS
from bobing.rules import PRESETS
from host_tools.errors import UsageError
from host_tools.sim import bare
from host_tools.sim.process import FIRMWARE, ROOT, die_with_parent, load_libc
from host_tools.sim.serial import SerialBowl

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
    bare.add_arguments(p)
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
        if not args.bare:
            raise UsageError("--target is for the bare board: add --bare")
        return bare.run(args)
    argv = arguments(args)
    binary = micropython()
    env = dict(os.environ, MICROPYPATH=os.pathsep.join((FIRMWARE, ".frozen")))
    command = [binary, "-X", "heapsize=%s" % HEAP, "-m", "sim.run", *argv]
    temporary = argv[argv.index("--flash") + 1] if args.flash is None and args.headless else None
    if args.headless and not args.serial and temporary is None:
        sys.stdout.flush()
        os.execve(binary, command, env)  # killing us is killing the bowl: a power cut
    load_libc()
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
        proc = subprocess.Popen(command, env=env, preexec_fn=die_with_parent)
        return proc.wait()
    except KeyboardInterrupt:  # Ctrl-C at our terminal: the bowl dies with us, a power cut
        said_off("Ctrl-C")
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
        return subprocess.Popen(command + term, env=env, stderr=view.slave, preexec_fn=die_with_parent).wait()

    return view.run(bowl)


def power_off(proc):
    """The bowl's MicroPython (a Popen, or None) dies at once, if it still runs."""
    if proc is not None and proc.poll() is None:
        proc.kill()
        proc.wait()


def _stop(signum, frame):
    """SIGTERM, SIGHUP: leave through run()'s finally (the bowl killed, the terminal restored)."""
    said_off("signal %d" % signum)
    raise SystemExit(128 + signum)


def said_off(why):
    """Why the bowl went, on a standard error that is no terminal: the log
    of the program that runs the sim (a test, a kiosk's supervisor)."""
    if not os.isatty(2):
        os.write(2, b"sim: %s: the bowl is switched off\n" % why.encode())


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
