"""The virtual bowl's watchdog counts the bowl's time, not the host's.

A player on a busy machine must never see the bowl reset under them; a bowl
whose code really hangs (a task that never yields) must always reset, and
say so where the player looks.  Both are played on a real pseudo-terminal,
as `make sim` is.
"""

import json
import os
import select
import subprocess
import sys
import time

import mp
import pytest
import slowdown
from test_sim import BOBING

pytestmark = pytest.mark.slow  # whole games on pseudo-terminals, one beside busy loops: `make test` only

MPLIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mplib")


def quiet_bowl(image, players):
    """A fresh bowl on `image` with its announcements off (the shipped
    Settings written into the flash), so a whole game is presses and rolls."""
    made = subprocess.run(
        [BOBING, "sim", "--headless", "--players", str(players), "--flash", image],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=slowdown.seconds(120),
    )
    assert made.returncode == 0, made.stderr
    binary, firmware = mp.port_setup("unix64")
    code = (
        "from sim.run import mount\nmount(%r, '/f')\nfrom app import settings as S\n"
        "s = S.Settings('/f/data/settings')\ns[S.SPEECH] = 0\ns.save()\n" % image
    )
    subprocess.run(
        [binary, "-c", code], env=dict(os.environ, MICROPYPATH=firmware + os.pathsep + ".frozen"), check=True
    )


def on_pty(argv, env=None, size=(120, 40)):
    """(pid, terminal fd) of argv on a new pseudo-terminal of `size`."""
    import fcntl
    import pty
    import struct
    import termios

    pid, fd = pty.fork()
    if pid == 0:
        os.execve(argv[0], argv, env or os.environ)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    return pid, fd


def events(image):
    """The bowl's event lines so far (one it is still writing is left out)."""
    path = image + ".events"
    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        return [json.loads(line) for line in f.read().split(b"\n")[:-1]]


class Terminal:
    """The pty's side a person looks at: everything shown so far."""

    def __init__(self, fd):
        self.fd = fd
        self.seen = b""

    def wait(self, done, seconds):
        """Read until done() holds (checked as bytes come, and every 0.2 s);
        fails when that takes longer than `seconds` (tests/mplib/slowdown.py):
        nothing is typed at a bowl before it said it is ready."""
        end = time.monotonic() + slowdown.seconds(seconds)
        while not done():
            assert time.monotonic() < end, "not there in %d s: %r" % (seconds, self.seen[-1000:])
            if select.select([self.fd], [], [], 0.2)[0]:
                try:
                    self.seen += os.read(self.fd, 65536)
                except OSError:
                    return

    def expect(self, needle, seconds):
        """Read until `needle` shows in what comes from now on."""
        mark = len(self.seen)
        self.wait(lambda: needle in self.seen[mark:], seconds)
        return needle in self.seen[mark:]  # False only when the terminal closed

    def text(self):
        return self.seen.decode(errors="replace")


def quit_(pid, term):
    """q, then the exit status."""
    os.write(term.fd, b"q")
    code = exit_status(pid, term)
    os.close(term.fd)
    return code


def exit_status(pid, term):
    """The sim's exit status once it ends, reading what it still draws meanwhile:
    a terminal nobody reads fills up, and the sim would block on it forever."""
    status = []

    def gone():
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status.append(code)
        return bool(status)

    term.wait(gone, 60)
    if not status:  # the terminal closed: the sim is on its way out
        status.append(os.waitpid(pid, 0)[1])
    return os.waitstatus_to_exitcode(status[0])


SHORT_GAME = (
    288  # seed: the two players' game ends at its 38th throw (six 5s, a 六勃黑), where most take ~200
)


def test_a_whole_game_on_a_loaded_machine_never_resets(tmp_path):
    image = str(tmp_path / "bowl.img")
    quiet_bowl(image, 2)
    # two processes that never sleep, beside the bowl for the whole game
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        trace = image + ".trace"  # the bowl's own lamp lines (the view draws only where it changed)
        pid, fd = on_pty(
            [BOBING, "sim", "--board", "oled", "--seed", str(SHORT_GAME), "--flash", image, "--trace", trace]
        )
        term = Terminal(fd)
        term.wait(lambda: lamp(trace)[1], 120)
        made = 0
        while not ended(image) and made < 400:
            lit = lamp(trace)[0]
            os.write(fd, b" ")
            made += 1
            # the throw is recorded, then the lamp lights again or the game is over
            term.wait(lambda n=made: len(events(image)) > n, 120)
            term.wait(lambda was=lit: ended(image) or lamp(trace)[0] > was and lamp(trace)[1], 120)
        code = quit_(pid, term)
    finally:
        for p in load:
            p.kill()
            p.wait()
    assert "sim: reset" not in term.text() and code == 0
    kinds = [e["event"] for e in events(image)]
    assert kinds[0] == "game" and kinds.count("game") == 1  # one boot: never reset, never resumed
    assert kinds[-1] == "end" and kinds.count("throw") + kinds.count("void") == len(kinds) - 2 == made
    assert made <= 40, "seed %d no longer ends the game early: pick another" % SHORT_GAME


def lamp(trace):
    """(times the ready lamp was lit, whether it is lit now) from the bowl's trace."""
    if not os.path.exists(trace):
        return 0, False
    with open(trace, "rb") as f:
        lamps = [line for line in f.read().split(b"\n")[:-1] if line.startswith(b"lamp ")]
    return lamps.count(b"lamp on"), bool(lamps) and lamps[-1] == b"lamp on"


def ended(image):
    return any(e["event"] == "end" for e in events(image))


def test_a_task_that_never_yields_resets_the_bowl_and_the_console_says_why(tmp_path):
    image = str(tmp_path / "bowl.img")
    binary, firmware = mp.port_setup("unix64")
    env = dict(os.environ, MICROPYPATH=os.pathsep.join((firmware, MPLIB, ".frozen")))
    # the second announcement loops forever without yielding (tests/mplib/simfault.py)
    argv = [binary, "-X", "heapsize=512K", os.path.join(MPLIB, "simfault.py"), "spin", "2"]
    argv += ["--board", "oled", "--players", "2", "--flash", image]
    pid, fd = on_pty(argv + ["--events", image + ".events"], env)
    term = Terminal(fd)
    for _ in range(2):
        term.expect(b"lamp on", 120)
        os.write(fd, b" ")
    # the console says why, as one of its lines (the view keeps it in its log, never under the panel)
    reset = b"sim: reset (watchdog): booting again"
    term.wait(lambda: reset in term.seen, 300)
    booted = term.seen.index(reset)  # the lamp lit again after it, maybe in the same read
    term.wait(lambda: b"lamp on" in term.seen[booted:], 120)
    os.write(fd, b" ")
    term.wait(lambda: events(image)[-1]["event"] == "throw", 120)
    assert quit_(pid, term) == 0
    kinds = [e["event"] for e in events(image)]
    assert kinds == ["game", "throw", "game", "throw"]
    again = events(image)[2]
    # the throw it hung announcing was durable: the resumed game shows it again and plays on
    assert again["resumed"] and again["throws"] == 2 and again["last"] is not None
    assert events(image)[3]["n"] == 3
