"""From a bare board to a playing bowl: `bobing deploy` from the installed
package onto the virtual bare board (`bobing sim --bare`), a board just
after stock MicroPython was flashed, then play.  What a builder would
notice if it broke: a deploy that leaves a bowl that does not boot, a
bowl that loses its tally or log to an update, a board it cannot serve
written to anyway, a cable pulled mid-deploy that bricks the bowl.

The boards run micropython32 at their own heap (tests/mplib/simsync.py
starts them; the event lines go to a file)."""

import os
import select
import shutil
import sqlite3
import subprocess
import sys
import time
import tty

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mplib"))
import simsync  # noqa: E402
import slowdown

from host_tools.deploy import firmware_tree  # noqa: E402

# every test but the bare board's own and a refusal deploys and plays: `make test` only
SLOW = pytest.mark.slow

MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")
PLAY_S = 300  # a bound on a few hundred throws on a quiet machine (slowdown scales it), not a pace


@pytest.fixture(autouse=True)
def in_a_folder_of_its_own(tmp_path, monkeypatch):
    """deploy keeps the key it gives a bowl beside `bobing.db` in the working folder: the test's."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def boards(tmp_path):
    made = []

    def make(target="s3", folder=None):
        folder = folder or str(tmp_path)
        new = not os.path.exists(os.path.join(folder, "bowl.img"))
        board = simsync.SimBowl(folder, 1, "--bare", "--target", target)
        made.append(board)
        if new:
            first_boot_done(board.port)
        return board

    yield make
    for board in made:
        board.kill()
        print("%s said on stderr:\n%s" % (board.port, board.stderr()))  # shown when the test fails


def serial_until(port, wanted, timeout=PLAY_S, send=b""):
    """The bytes the board says on its serial, after `send`, until `wanted`
    shows; and the port still open (a duplicate descriptor: read on with
    read_until, as opening the port again flushes what came meanwhile)."""
    fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
    tty.setraw(fd)  # TCSAFLUSH: what the board said before this is gone
    try:
        if send:
            os.write(fd, send)
        return read_until(fd, wanted, timeout), os.dup(fd)
    finally:
        os.close(fd)


def read_until(fd, wanted, timeout=PLAY_S):
    """The bytes read from the open serial `fd` until `wanted` shows."""
    said = b""
    end = time.monotonic() + slowdown.seconds(timeout)
    while wanted not in said:
        assert time.monotonic() < end, said[-500:]
        if select.select([fd], [], [], 0.2)[0]:
            said += os.read(fd, 4096)
    return said


def first_boot_done(port):
    """Until a freshly flashed board's first boot has made its filesystem and
    the REPL answers: a builder runs `bobing deploy` seconds after flashing;
    a Ctrl-C in that boot (mpremote's, deploy's) stops it half done, on the
    board as here.  The line end is taken by the REPL once the boot ends:
    its answer is a prompt."""
    os.close(serial_until(port, b">>> ", 60, b"\r\n")[1])


def deploy(port, *extra):
    return subprocess.run(
        [simsync.BOBING, "deploy", "--port", port, *extra],
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(PLAY_S),
    )


def mpremote(port, *args):
    try:
        return subprocess.run(
            [MPREMOTE, "connect", port, *args], capture_output=True, text=True, timeout=slowdown.seconds(120)
        )
    except subprocess.TimeoutExpired as stuck:
        raise AssertionError("mpremote %s never ended: %r %r" % (args, stuck.stdout, stuck.stderr)) from None


def log(image, database):
    """(record numbers, throws as (seat, dice...)) of the bowl's log in its
    flash image, read as `bobing import` reads a dead bowl's, with the key
    deploy gave the bowl (kept beside bobing.db in the test's folder)."""
    if os.path.exists("bobing.db.keys"):
        shutil.copy("bobing.db.keys", database + ".keys")
    done = subprocess.run([simsync.BOBING, "import", image, "--db", database], capture_output=True, text=True)
    findings = [line for line in done.stdout.splitlines() if line.startswith("  ")]
    # exit 1 for what the bowl noted: here only the key deploy gave it
    assert done.returncode == (1 if findings else 0), done
    assert all(line.endswith("the bowl noted: key 1 installed") for line in findings), done.stdout
    conn = sqlite3.connect(database)
    seqs = [s for (s,) in conn.execute("SELECT seq FROM records ORDER BY seq")]
    rows = conn.execute("SELECT seat, n1, n2, n3, n4, n5, n6 FROM throws ORDER BY seq").fetchall()
    conn.close()
    return seqs, rows


def wait_event(board, name, timeout=PLAY_S):
    end = time.monotonic() + slowdown.seconds(timeout)
    while True:
        found = [e for e in board.events() if e["event"] == name]
        if found:
            return found
        assert time.monotonic() < end, board.events()
        time.sleep(0.2)


def start_game(board):
    """A new bowl shows its attract screen: the first THROW starts a game."""
    board.press("throw")
    end = time.monotonic() + slowdown.seconds(PLAY_S)
    while not any(e["event"] == "game" for e in board.events()):
        assert time.monotonic() < end, board.events()
        time.sleep(0.2)


def play_until(board, event, most):
    """Press THROW until `event` comes (at most `most` presses); the events.
    A press is taken by a throw, a void, or the start of a new game."""
    pressed = 0
    for _ in range(0, most, 50):
        board.press(*["throw"] * 50)
        pressed += 50
        end = time.monotonic() + slowdown.seconds(PLAY_S)
        while True:
            events = board.events()
            if any(e["event"] == event for e in events):
                return events
            if board.proc.poll() is not None or time.monotonic() > end:
                raise AssertionError("no %s event: %s" % (event, events[-3:]))
            taken = [e for e in events if e["event"] in ("throw", "void") or e.get("resumed") is False]
            if len(taken) >= pressed:
                break
            time.sleep(0.2)
    raise AssertionError("no %s event in %d throws" % (event, most))


def test_a_bare_board_holds_nothing_but_what_stock_micropython_writes(boards):
    board = boards()
    assert mpremote(board.port, "ls", ":").stdout.split() == ["ls", ":", "75", "boot.py"]
    probe = "import sys\ntry:\n import bobing\n b='bobing'\nexcept ImportError:\n b='no bobing'\nprint(sys.path, b)"
    # nothing of the firmware on the path: not from the checkout, not yet from the flash
    assert mpremote(board.port, "exec", probe).stdout.strip() == "['', '.frozen', '/lib'] no bobing"


@SLOW
def test_deploy_onto_the_recommended_board_gives_a_bowl_that_plays_a_game_through_a_power_cut(
    boards, tmp_path
):
    board = boards()
    done = deploy(board.port, "--board", "s3")
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "bowl running", done
    assert "(.mpy files, MicroPython" in done.stdout
    assert ": key 1 installed; kept in bobing.db.keys" in done.stdout  # its own secret (docs/security.md)
    start_game(board)
    board.press(*["throw"] * 30)
    before = board.wait_throws(30, PLAY_S)
    board.kill()  # the power cut
    board = boards()
    events = play_until(board, "end", 1000)
    resumed = events[0]
    assert resumed["event"] == "game" and resumed["resumed"] is True, resumed
    thrown = [e["n"] for e in before if e["event"] in ("throw", "void")]
    after = [e["n"] for e in events if e["event"] in ("throw", "void")]
    assert after[0] == thrown[-1] + 1 and after == list(range(after[0], after[0] + len(after)))


# armed at the board's REPL: its process's exit, once announced, ends in SIGABRT
ABORTING_EXIT = """import os, sys
announce = sys.atexit(None)
def aborting():
    announce()
    os.system('kill -ABRT $PPID')
sys.atexit(aborting)
"""


def test_a_soft_reset_is_a_soft_reset_even_when_micropython_aborts_on_its_way_out(boards):
    """mpremote soft-resets the board at every connect, which ends the
    board's MicroPython process.  The unix port then cancels the virtual
    chip's timer threads (the watchdog's keeper runs whenever the REPL has
    a bowl), and micropython32 now and then aborts doing it: the board took
    that for a panic, booted into the game, and mpremote waited at the raw
    REPL for ever (docs/micropython-crashes.md).  Here every such exit aborts."""
    board = boards()
    done = mpremote(
        board.port,
        "exec",
        ABORTING_EXIT,
        "soft-reset",
        "exec",
        "import machine; print(machine.reset_cause())",
    )
    assert done.returncode == 0 and done.stdout.split() == ["5"], (done, board.stderr())  # SOFT_RESET
    assert "panic" not in board.stderr()


def test_a_ctrl_c_between_two_of_the_repls_programs_resets_nothing(boards):
    """An ESP32's REPL takes a Ctrl-C that comes while no program runs (a
    traceback still printing, the next line not yet read) as a byte.  The
    unix port dies of it there, and the board took that for a panic: a
    hard reset, which boots the bowl under a host that meant to stop it
    (`bobing deploy` sends its Ctrl-C right after a prompt, while the REPL
    may still be answering the `sync` line: the bench's one reset).  The
    line sent right after the Ctrl-C is answered too, as on a board, and
    the bowl's main.py does not start under the host's feet."""
    board = boards()
    main = b"f = open('main.py', 'w'); f.write(\"print('main' + ' ran')\"); f.close()"
    said, fd = serial_until(
        board.port, b"aaaaaaaa", send=b"\r\n%s\r\nraise ValueError('a' * 100000)\r\n" % main
    )
    try:
        os.write(fd, b"\x03\r\nimport machine; print('cause', machine.reset_cause())\r\n")
        said = b""
        while b"\n" not in said.partition(b"cause ")[2]:
            said += read_until(fd, b"\n", timeout=60)
    finally:
        os.close(fd)
    assert said.partition(b"cause ")[2].split()[0] == b"1", said[-300:]  # PWRON_RESET: the first boot's still
    assert b"main ran" not in said, said[-300:]
    assert "sim: reset" not in board.stderr()


@SLOW
def test_an_update_keeps_the_tally_and_the_log(boards, tmp_path):
    board = boards()
    assert deploy(board.port, "--board", "s3").returncode == 0
    start_game(board)
    board.press(*["throw"] * 20)
    board.wait_throws(20, PLAY_S)
    board.kill()
    image = os.path.join(str(tmp_path), "bowl.img")
    seqs, throws = log(image, str(tmp_path / "before.db"))
    assert len(throws) == 20
    board = boards()
    wait_event(board, "game")  # the bowl is up again (a Ctrl-C in its boot.py would not stop its main.py)
    # one module of the firmware differs: an update to it
    fresh = mpremote(board.port, "exec", "import os\nos.remove('/bobing/dice.mpy')")
    assert fresh.returncode == 0, fresh
    done = deploy(board.port)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "bowl running", done
    files = len(firmware_tree.bowl_files()) + 1  # and /profile
    assert done.stdout.startswith("1 of %d files copied" % (files - 1)), done.stdout
    board.press("throw")
    board.wait_throws(1, PLAY_S)  # the updated bowl plays on
    board.kill()
    seqs_after, throws_after = log(image, str(tmp_path / "after.db"))
    assert seqs_after[: len(seqs)] == seqs and throws_after[:20] == throws and len(throws_after) == 21


def test_a_board_too_small_for_mpy_files_is_refused_in_one_line_and_nothing_is_written(boards):
    board = boards("esp32")
    refused = deploy(board.port, "--board", "devkit")
    assert refused.returncode == 2 and refused.stdout == ""
    (line,) = refused.stderr.strip().splitlines()
    assert "KB of heap; the bowl needs" in line and line.endswith("nothing was written"), line
    assert mpremote(board.port, "ls", ":").stdout.split() == ["ls", ":", "75", "boot.py"]


@SLOW
def test_the_small_board_takes_the_firmware_as_a_romfs_image_and_plays(boards):
    board = boards("bobing-esp32")
    done = deploy(board.port, "--board", "devkit")
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "bowl running", done
    assert "(ROMFS image, MicroPython" in done.stdout
    start_game(board)
    board.press(*["throw"] * 20)
    board.wait_throws(20, PLAY_S)
    again = deploy(board.port)
    assert again.returncode == 0 and again.stdout.startswith("0 of "), again


@SLOW
@pytest.mark.parametrize("cut", [600, 6000, 60000, 150000])
def test_a_cable_pulled_mid_deploy_leaves_a_board_the_next_deploy_completes(boards, cut):
    board = boards()
    link = simsync.SimLink(board.port)
    try:
        link.cut_after = cut
        pulled = deploy(link.path, "--board", "s3")
        assert pulled.returncode != 0
        link.connect()
        done = deploy(link.path, "--board", "s3")
        assert done.returncode == 0 and done.stdout.splitlines()[-1] == "bowl running", (pulled, done)
    finally:
        link.close()
    start_game(board)


@SLOW
def test_mpremote_on_a_bowl_that_has_played_leaves_no_watchdog_to_reset_it(boards):
    board = boards()
    assert deploy(board.port, "--board", "s3").returncode == 0
    start_game(board)
    board.press(*["throw"] * 5)
    board.wait_throws(5, PLAY_S)  # the bowl's watchdog runs
    # mpremote stops the app with Ctrl-C and soft-resets it from the raw REPL:
    # boot.py runs, main.py does not, and the started watchdog goes on
    listed = mpremote(board.port, "ls", ":")
    assert listed.returncode == 0 and "main.py" in listed.stdout, listed
    time.sleep(12)  # longer than the watchdog's 8 s, in the real time the REPL has
    cause = mpremote(board.port, "exec", "import machine\nprint(machine.reset_cause())")
    assert cause.stdout.strip() == "5", cause  # SOFT_RESET: no WDT_RESET (3) since


@SLOW
def test_a_bowl_without_its_fonts_is_out_of_service_then_stays_in_safe_mode(boards):
    board = boards()
    assert deploy(board.port, "--board", "s3").returncode == 0
    # the cut-short copy of a careless hand: a font gone, then a reset
    mpremote(
        board.port,
        "exec",
        "--no-follow",
        "import os\nos.remove('/display/fonts/f48.bin')\nimport machine\nmachine.reset()",
    )
    wait_event(board, "safe_mode")
    events = [e for e in board.events() if e["event"] in ("out_of_service", "safe_mode")]
    assert events[-1]["event"] == "safe_mode" and "E-FONT" in events[-1]["detail"], events
    assert 2 <= len(events) - 1 <= 3 and all("E-FONT" in e["detail"] for e in events), events
    # no loop: the REPL is free, and the deploy that mends the bowl gets through
    mended = deploy(board.port)
    assert mended.returncode == 0 and mended.stdout.splitlines()[-1] == "bowl running", mended
    assert mended.stdout.startswith("1 of "), mended.stdout
