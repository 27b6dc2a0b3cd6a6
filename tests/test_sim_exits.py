"""How `bobing sim` ends: a bad flash image or argument is one line and exit
2 with the terminal untouched, and however the virtual bowl stops (q, a
kill) the terminal is given back as it was: line mode, echo, cursor shown."""

import os
import signal
import subprocess
import termios

import mp
import pytest
import slowdown
from test_sim import BOBING
from test_sim_watchdog import Terminal, exit_status, on_pty


def bobing_sim(*args, bound=False):
    """(exit status, stderr) of `bobing sim --headless ARGS`; bound: file
    permissions bind it even when the tests run as root (which writes a
    read-only file otherwise): it runs without CAP_DAC_OVERRIDE."""
    proc = subprocess.run(
        [BOBING, "sim", "--headless", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(120),
        preexec_fn=_without_override if bound and os.geteuid() == 0 else None,
    )
    return proc.returncode, proc.stderr


def _without_override():
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, out of the bounding set
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl")


def one_line(err, *words):
    return err.count("\n") == 1 and "Traceback" not in err and all(w in err for w in words)


def test_a_file_that_is_no_littlefs_image_is_one_line_and_left_alone(tmp_path):
    for name, data in (("junk.img", os.urandom(20000)), ("empty.img", b"")):
        path = tmp_path / name
        path.write_bytes(data)
        code, err = bobing_sim("--flash", str(path))
        assert code == 2 and one_line(err, str(path), "not a LittleFS image"), err
        assert path.read_bytes() == data


def test_a_flash_the_sim_cannot_write_is_one_line(tmp_path):
    made = str(tmp_path / "bowl.img")
    assert bobing_sim("--flash", made)[0] == 0  # a good image
    os.chmod(made, 0o444)
    code, err = bobing_sim("--flash", made, bound=True)
    assert code == 2 and one_line(err, made, "cannot write it"), err
    locked = tmp_path / "locked"
    locked.mkdir(0o555)
    missing = str(locked / "bowl.img")
    code, err = bobing_sim("--flash", missing, bound=True)
    locked.chmod(0o755)
    assert code == 2 and one_line(err, missing, "cannot write it"), err
    assert not os.path.exists(missing)


def test_an_nvs_file_the_sim_cannot_write_is_one_line(tmp_path):
    # the chip's NVS partition beside the image (the store's tip and id)
    made = str(tmp_path / "bowl.img")
    os.mkdir(made + ".nvs")
    code, err = bobing_sim("--flash", made, bound=True)
    assert code == 2 and one_line(err, made + ".nvs", "cannot write"), err


def test_an_unknown_board_is_one_line(tmp_path):
    code, err = bobing_sim("--board", "tv", "--flash", str(tmp_path / "bowl.img"))
    assert code == 2 and one_line(err, "tv", "devkit"), err


def cooked(fd):
    """The terminal is in line mode with echo (what raw mode turns off)."""
    lflag = termios.tcgetattr(fd)[3]
    return bool(lflag & termios.ICANON) and bool(lflag & termios.ECHO)


def cursor_shown(seen):
    return seen.rfind(b"\x1b[?25h") > seen.rfind(b"\x1b[?25l")


@pytest.mark.parametrize(
    "extra, stop",
    [([], b"q"), ([], signal.SIGTERM), ([], signal.SIGHUP), (["--serial"], signal.SIGTERM)],
    ids=["q", "sigterm", "sighup", "serial-sigterm"],
)
def test_the_terminal_is_given_back_however_the_sim_ends(tmp_path, extra, stop):
    argv = [BOBING, "sim", "--board", "oled", "--players", "2", "--flash", str(tmp_path / "bowl.img"), *extra]
    pid, fd = on_pty(argv)
    term = Terminal(fd)
    assert term.expect(b"ready lamp on", 120)
    assert not cooked(fd) and not cursor_shown(term.seen)  # raw, the cursor hidden: the sim runs
    if stop == b"q":
        os.write(fd, stop)
    else:
        os.kill(pid, stop)  # `bobing sim` only: it must take its bowl down with it
    code = exit_status(pid, term)
    term.wait(lambda: cursor_shown(term.seen), 10)
    assert cooked(fd) and cursor_shown(term.seen)
    os.close(fd)
    assert code == (0 if stop == b"q" else 128 + stop)


def test_a_bad_image_leaves_the_interactive_terminal_as_it_was(tmp_path):
    junk = tmp_path / "junk.img"
    junk.write_bytes(os.urandom(20000))
    pid, fd = on_pty([BOBING, "sim", "--flash", str(junk)])
    term = Terminal(fd)
    _, status = os.waitpid(pid, 0)
    term.wait(lambda: b"\n" in term.seen, 5)
    assert os.waitstatus_to_exitcode(status) == 2 and cooked(fd)
    assert term.seen.count(b"\n") == 1 and b"not a LittleFS image" in term.seen
    os.close(fd)


SHUT = """
from sim.run import Sim

class Interrupted:  # a Sim whose close() two Ctrl-Cs from the host cut short
    calls = 0

    def close(self):
        self.calls += 1
        if self.calls < 3:
            raise KeyboardInterrupt

sim = Interrupted()
Sim.shut(sim)
print("closed", sim.calls)
"""


def test_a_ctrl_c_as_the_bowl_leaves_for_the_repl_never_takes_the_serial_line_down():
    # the host's Ctrl-C right after the sync event, while the bowl closes its files:
    # a board's REPL takes it; the sim once died of it (exit 1), and the virtual
    # serial port went with it ("no MicroPython bowl answers (Input/output error)")
    assert mp.run_micropython(SHUT).split() == ["closed", "3"]
