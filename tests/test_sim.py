"""The virtual board, as scripts and the host tools use it: `bobing sim --headless`.

Presses go in on stdin, the live JSON events come out on stdout, the trace
(screen, sound, lamp) goes to a file; everything runs the shipped main.py,
app and board layer in the MicroPython unix port.  The helpers here are
shared by the other test_sim_* modules.
"""

import json
import os
import subprocess
import sys
import time

import mp
import pytest
import slowdown
from app.menu import ITEMS
from display import texts as T

from bobing import events as ev
from bobing.game import Game
from bobing.rules import Rules

BOBING = os.path.join(os.path.dirname(sys.executable), "bobing")


def bobing_sim(args, commands, cwd=None):
    """(exit status, events, stderr) of `bobing sim --headless ARGS` fed `commands`."""
    proc = subprocess.run(
        [BOBING, "sim", "--headless", *args],
        input="".join(c + "\n" for c in commands),
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(300),
        cwd=cwd,
    )
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr


def sim_command(port, args, heapsize="512K"):
    """The command line and environment of sim.run on a MicroPython port
    ("unix64": firmware/ source; "esp32word": the .mpy build)."""
    binary, package_dir = mp.port_setup(port)
    env = dict(os.environ, MICROPYPATH=os.pathsep.join((package_dir, mp.TOOLS, ".frozen")))
    return [binary, "-X", "heapsize=%s" % heapsize, "-m", "sim.run", "--headless", *args], env


def sim(port, args, commands, heapsize="512K"):
    """(exit status, events, stderr) of sim.run fed `commands`."""
    command, env = sim_command(port, args, heapsize)
    proc = subprocess.run(
        command,
        input="".join(c + "\n" for c in commands),
        capture_output=True,
        text=True,
        env=env,
        timeout=slowdown.seconds(300),
    )
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr


def lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def replayed(game_event, throws):
    """The Game the host gets from the same throws (events of one game)."""
    game = Game(
        Rules(game_event["rules"]), game_event["players"], game_event["sets"], game_event["first"] - 1
    )
    for event in throws:
        if event["event"] == "throw":
            assert event["seat"] == game.turn + 1
            game.throw(event["dice"])
        else:
            game.void()
    return game


# devkit: `make test-quick`'s whole game on the virtual board
WHOLE_GAME = 169  # throws of seed 11's three-player folk game


@pytest.mark.parametrize(
    "board",
    ["devkit", pytest.param("cyd", marks=pytest.mark.slow), pytest.param("oled", marks=pytest.mark.slow)],
)
def test_a_scripted_whole_game_on_each_profile(tmp_path, board):
    trace = str(tmp_path / "trace")
    # the game's throws, the press that starts the next game and its first throw
    code, events, err = bobing_sim(
        ["--board", board, "--players", "3", "--rules", "folk", "--seed", "11", "--trace", trace],
        ["throw"] * (WHOLE_GAME + 2),
    )
    assert code == 0, err
    assert [e["event"] for e in events].index("end") == WHOLE_GAME + 1, (
        "seed 11 no longer ends this game at throw %d" % WHOLE_GAME
    )
    start = events[0]
    assert start["event"] == "game" and start["players"] == 3 and start["rules"] == "folk"
    assert not start["resumed"] and start["throws"] == 0 and start["last"] is None
    end_at = next(i for i, e in enumerate(events) if e["event"] == "end")
    turns = events[1:end_at]
    assert all(e["event"] == "throw" for e in turns)
    assert [e["n"] for e in turns] == list(range(1, len(turns) + 1))
    # the outcome is the engine's on the same throws, named as `bobing replay --json` names it
    game = replayed(start, turns)
    end = events[end_at]
    assert game.ended and end["reason"] == game.end_reason_name()
    from host_tools.play.describe import summary

    assert end["holdings"] == summary(game)["holdings"]
    assert end["zhuangyuan"] == summary(game)["zhuangyuan"]
    for event, after in zip(turns, turns[1:] + [end], strict=False):
        if after["event"] == "throw":
            assert sum(event["remaining"].values()) >= sum(after["remaining"].values())
    # after the end, the next throw starts a new game with the same settings
    assert events[end_at + 1]["event"] == "game" and events[end_at + 1]["players"] == 3
    shown = lines(trace)
    results = [s for s in shown if s.startswith("screen result ")]
    assert len(results) >= len(turns)
    first = turns[0]
    assert (
        "seat=%d faces=%s kind=%s" % (first["seat"], "".join(map(str, first["dice"])), first["kind"])
        in results[0]
    )
    ends = [s for s in shown if s.startswith("screen end ")]
    assert ends and ends[0].endswith("audit=%s" % end["audit"])
    assert len(end["audit"]) == 8
    assert sum(1 for s in shown if s.startswith("sound ")) >= len(turns)
    # the roll animation: at most 1 s of frames, 100 ms apart
    first_result = shown.index(results[0])
    frames = 0
    for s in reversed(shown[:first_result]):
        if not s.startswith("screen roll "):
            break
        frames += 1
    assert 1 <= frames <= 10


def test_bad_arguments_and_commands_are_one_line_and_change_nothing(tmp_path):
    image = str(tmp_path / "bowl.img")
    for args in (["--players", "1"], ["--rules", "vegas"], ["--board", "tv"], ["--seed", "x"]):
        code, events, err = bobing_sim([*args, "--flash", image], ["throw"])
        assert code == 2 and events == [] and err.count("\n") == 1 and "Traceback" not in err
        assert not os.path.exists(image)
    code, events, err = bobing_sim(["--flash", image, "--seed", "1"], ["throw", "dance", "throw"])
    assert code == 2 and "dance" in err and "Traceback" not in err
    assert [e["event"] for e in events] == ["game", "throw"]


def test_a_void_needs_the_second_referee_press(tmp_path):
    trace = str(tmp_path / "trace")
    code, events, _ = bobing_sim(
        ["--players", "4", "--seed", "3", "--trace", trace],
        ["referee", "throw", "throw", "referee", "referee"],
    )
    assert code == 0
    kinds = [e["event"] for e in events]
    # the first referee press is cancelled by the throw (which does not throw); then a confirmed void
    assert kinds == ["game", "throw", "void"]
    shown = lines(trace)
    assert sum(1 for s in shown if "T%d:" % T.T_VOID_ASK in s) == 2
    assert any("notice T%d:" % T.T_VOIDED in s for s in shown)


def test_rules_presets_reach_the_game_header(tmp_path):
    code, events, _ = bobing_sim(["--players", "5", "--rules", "competition", "--seed", "2"], ["throw"])
    assert code == 0 and events[0]["rules"] == "competition" and events[0]["players"] == 5
    assert ev.END_REASONS[1] == "pool_empty"


def _line_ended(data, needle):
    at = data.find(needle)
    # a newline, or the erase-to-end-of-line that closes each line the console
    # draws in place (its key help and ready lamp line is never followed by one)
    return at >= 0 and (b"\n" in data[at:] or b"\x1b[K" in data[at:])


def read_until(fd, needle=None, seconds=30):
    """Bytes read from fd until the line holding `needle` has ended (the bowl
    writes a line in pieces), or with no needle until the program closed it.
    `needle` may be a test of the bytes read so far instead.
    Fails when that takes longer than `seconds` (tests/mplib/slowdown.py):
    a test never goes on with a screen or a line the bowl has not shown."""
    import select

    data = b""
    end = time.monotonic() + slowdown.seconds(seconds)
    done = needle if callable(needle) else lambda data: _line_ended(data, needle)
    while needle is None or not done(data):
        assert time.monotonic() < end, "no %r in %d s: %r" % (needle or "end", seconds, data[-1000:])
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
    return data


def test_serial_puts_the_live_events_on_a_pseudo_terminal(tmp_path):
    image = str(tmp_path / "bowl.img")
    proc = subprocess.Popen(
        [BOBING, "sim", "--headless", "--serial", "--players", "3", "--seed", "1", "--flash", image],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    first = proc.stderr.readline().decode()
    assert first.startswith("serial: /dev/")
    fd = os.open(first.split()[1], os.O_RDONLY | os.O_NOCTTY)
    try:
        proc.stdin.write(b"throw\n")
        proc.stdin.flush()
        data = read_until(fd, b'"event": "throw"')
    finally:
        proc.stdin.close()
        proc.wait(timeout=slowdown.seconds(60))
        os.close(fd)
    lines_ = [json.loads(line) for line in data.decode().splitlines() if line.strip()]
    assert [e["event"] for e in lines_][:2] == ["game", "throw"]
    assert proc.returncode == 0


def throw_shown(image, n):
    """read_until's test that the bowl's throw `n` (1 on) is shown: its words
    beside the panel (`--lang en`), known once the bowl has logged it, and
    the ready lamp lit after them, so the next press is taken.  A lamp or
    a line drawn before the press was taken is no proof of it."""

    def shown(data):
        try:
            with open(image + ".events", "rb") as f:
                whole = f.read().split(b"\n")[:-1]  # a line still being written is left out
        except OSError:
            return False
        thrown = [e for e in map(json.loads, whole) if e["event"] == "throw"]
        if len(thrown) < n:
            return False
        at = data.find(b"player %d \xc2\xb7 " % thrown[n - 1]["seat"])
        return at >= 0 and _line_ended(data[at:], b"ready lamp on")

    return shown


def interactive(argv, keys, size=(120, 40)):
    """(terminal output, exit status) of `bobing sim ARGV` on a pseudo-terminal
    of `size` (columns, rows): waits for the ready lamp, then presses each key
    and waits for its bytes to show (read_until's needle), then q."""
    import fcntl
    import pty
    import struct
    import termios

    pid, fd = pty.fork()
    if pid == 0:
        os.execv(BOBING, [BOBING, "sim", *argv])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    out = read_until(fd, b"ready lamp on")
    for key, wait_for in keys:
        os.write(fd, key)
        out += read_until(fd, wait_for)
    os.write(fd, b"q")
    out += read_until(fd)  # to its end: the sim quits
    _, status = os.waitpid(pid, 0)
    return out.decode(errors="replace"), os.waitstatus_to_exitcode(status)


def test_the_interactive_sim_plays_from_the_keyboard_and_resumes(tmp_path):
    image = str(tmp_path / "bowl.img")
    argv = ["--board", "oled", "--players", "2", "--flash", image, "--lang", "en"]
    shown, code = interactive(argv, [(b" ", throw_shown(image, 1)), (b" ", throw_shown(image, 2))])
    assert code == 0, shown
    events = [json.loads(line) for line in lines(image + ".events")]
    assert [e["event"] for e in events] == ["game", "throw", "throw"]
    shown, code = interactive(argv, [])
    assert code == 0
    events = [json.loads(line) for line in lines(image + ".events")]
    assert events[-1]["event"] == "game" and events[-1]["resumed"] and events[-1]["throws"] == 2


def test_the_menu_starts_a_new_game_with_seat_one_first_and_shows_the_rng_source(tmp_path):
    trace = str(tmp_path / "trace")
    menu = ["referee-long"] + ["referee"] * 4 + ["throw"]  # Who starts: the draw -> seat 1
    menu += ["referee"] * 10 + ["throw"]  # About (item 14)
    # leave About; on past the items after it and Back, round to New game (0)
    menu += ["throw"] + ["referee"] * (len(ITEMS) - 14) + ["throw"]
    code, events, err = bobing_sim(
        ["--players", "6", "--seed", "8", "--trace", trace], ["throw", *menu, "throw"]
    )
    assert code == 0, err
    assert [e["event"] for e in events] == ["game", "throw", "game", "throw"]
    assert events[2]["first"] == 1 and events[3]["seat"] == 1
    about = [s for s in lines(trace) if s.startswith("screen about ")]
    assert about == ["screen about entropy=%d version=0.1.0 board=sim" % ev.ENTROPY_SEEDED]
