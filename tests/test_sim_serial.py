"""The virtual bowl's USB serial behaves as a board's: its UART drains
whether or not a host reads it, so a host that connects after any number of
unread throws is answered at once; and a reset from the host (`mpremote
reset`, a soft reset, `bobing deploy`) restarts the bowl as it restarts a
board: main.py runs and the game resumes."""

import os
import subprocess
import sys

from test_bare_board import read_until, serial_until
from test_sim import BOBING

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mplib"))
import pytest
import simsync  # noqa: E402
import slowdown

pytestmark = pytest.mark.slow  # virtual bowls on pseudo-terminals, hundreds of presses: `make test` only


def sync(port, database):
    return subprocess.run(
        [BOBING, "sync", "--port", port, "--db", database, "--wait", slowdown.arg(5)],
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(300),
    )


def test_a_host_that_connects_after_300_unread_throws_is_answered(sim_bowl, tmp_path):
    b = sim_bowl()
    b.press(*["throw"] * 300)
    # nobody opened the serial all along (a press after a game's end starts the next game)
    b.wait_throws(300 - sum(1 for e in b.wait_throws(217, 900) if e["event"] == "end"), 900)
    synced = sync(b.port, str(tmp_path / "festival.db"))
    assert synced.returncode == 0, synced.stderr
    assert "new records" in synced.stdout


def test_mpremote_reset_boots_the_bowl_again_and_the_game_resumes(sim_bowl):
    b = sim_bowl()
    b.press("throw", "throw")
    b.wait_throws(2, 120)
    reset = simsync.mpremote(b.port, "reset")
    assert reset.returncode == 0, reset.stderr
    # a board's hard reset runs main.py: the bowl powers up and resumes from flash
    again = b.wait_events(lambda events: [e["event"] for e in events].count("game") == 2, 120)[-1]
    assert again["resumed"] and again["throws"] == 2
    b.press("throw")
    code, events = b.finish()
    assert code == 0
    assert [e["event"] for e in events] == ["game", "throw", "throw", "game", "throw"]
    assert events[-1]["n"] == 3


def test_bobing_deploy_resets_the_bowl_into_its_game(sim_bowl, tmp_path):
    b = sim_bowl()
    b.press("throw", "throw")
    b.wait_throws(2, 120)
    deployed = subprocess.run(
        [BOBING, "deploy", "--port", b.port, "--db", str(tmp_path / "bobing.db")],  # the key beside it
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(600),
    )
    assert deployed.returncode == 0 and "; reset" in deployed.stdout, deployed.stderr
    again = b.wait_events(lambda events: [e["event"] for e in events].count("game") == 2, 120)[-1]
    assert again["resumed"] and again["throws"] == 2
    b.press("throw")
    code, events = b.finish()
    assert code == 0 and [e["event"] for e in events][-2:] == ["game", "throw"]


def test_mpremote_soft_reset_is_a_fresh_interpreter_at_the_repl_as_on_a_board(sim_bowl):
    b = sim_bowl()
    b.press("throw")
    b.wait_throws(1, 120)
    assert simsync.mpremote(b.port, "exec", "left = 1").returncode == 0
    assert simsync.mpremote(b.port, "resume", "exec", "print('left' in globals())").stdout.strip() == "True"
    assert simsync.mpremote(b.port, "soft-reset").returncode == 0
    # from the raw REPL a soft reset runs no main.py: the REPL answers, its variables gone
    kept = simsync.mpremote(b.port, "resume", "exec", "print('left' in globals())")
    assert kept.returncode == 0 and kept.stdout.strip() == "False", kept.stderr
    assert [e["event"] for e in b.events()] == ["game", "throw"]  # the app never came back


def test_a_ctrl_c_between_two_raw_repl_programs_leaves_the_bowl_in_its_raw_repl(sim_bowl):
    """The unix port dies of a Ctrl-C that comes while no program runs (here
    a long traceback printing), where an ESP32 takes it as a byte; the bowl
    comes back at the same REPL.  Back at the friendly REPL instead, the next
    raw program (a sync's next step) would never be answered: `bobing sync`
    would fail with "no answer in the raw REPL"."""
    b = sim_bowl()
    b.press("throw")
    b.wait_throws(1, 120)
    fd = serial_until(b.port, b">>> ", timeout=60, send=b"\r\nsync\r\n")[1]  # the app leaves
    try:
        os.write(fd, b"\r\x01")
        read_until(fd, b"raw REPL; CTRL-B to exit\r\n>", timeout=60)
        os.write(fd, b"raise ValueError('a' * 100000)\x04")
        read_until(fd, b"aaaaaaaa", timeout=60)
        os.write(fd, b"\x03")
        os.write(fd, b"print('still', 'raw')\x04")
        read_until(fd, b"still raw", timeout=60)  # its answer: the raw REPL ran it
    finally:
        os.close(fd)
    assert "the same bowl at its REPL" in b.stderr()  # the Ctrl-C did land between two programs
