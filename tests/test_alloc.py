"""What the bowl allocates while it waits, per roll frame and per throw.

tests/mplib/allocflow.py runs the shipped bowl (the app, bowl.py's tasks,
the board profile over fakemachine's pins and buses, the USB serial's
StdinLines on a silent, open stdin) on the virtual clock at the ESP32's
word size.  What a player would notice if it broke: a bowl that allocates
while it waits, or per frame of the roll, fills its heap and stops for a
collection at a moment of its choosing, mid-animation; and over hours of
waiting the garbage cuts the heap into pieces a long game then cannot use
(docs/memory.md).  A throw allocates at most 256 B on average, less its log
record (issue 21): THROW_MEAN_B, and THROW_MAX_B for the largest (the
snapshot's throws), the bench's targets too.  And bytes on the
serial with no line end (garbage) are dropped without allocating.
"""

import os
import subprocess
import tempfile

import pytest
import slowdown
from mp import TOOLS, port_setup
from test_heap_flow import MPLIB

FLOW = os.path.join(MPLIB, "allocflow.py")
THROWS = 64  # two of the log's snapshots (store.SNAPSHOT_EVERY 32)
IDLE_S = 10
# what a throw less its log record may allocate: issue 21's 256 B, and the
# largest (a snapshot's throw, 1,680 B measured) with room (docs/memory.md)
THROW_MEAN_B = 256
THROW_MAX_B = 2048


def micropython_reading(code, received, port):
    """stdout of `code` run on `port` with `received` (bytes) waiting on its stdin."""
    binary, package_dir = port_setup(port)
    env = dict(os.environ, MICROPYPATH=os.pathsep.join((package_dir, TOOLS, ".frozen")))
    with tempfile.TemporaryFile() as stdin:
        stdin.write(received)
        stdin.seek(0)
        proc = subprocess.run([binary, "-c", code], stdin=stdin, env=env, capture_output=True, text=True)
    if proc.returncode:
        raise AssertionError("micropython (%s) failed:\n%s%s" % (port, proc.stdout, proc.stderr))
    return proc.stdout


def alloc_flow(profile, throws, idle_s, port="esp32word"):
    """allocflow.py's figures for `profile` ({"idle_bytes_per_s": n, ...}).

    Its stdin is a pipe held open with nothing sent, as a USB serial with
    no host talking (subprocess.run's own stdin would be the caller's)."""
    binary, package_dir = port_setup(port)
    env = dict(os.environ, MICROPYPATH=os.pathsep.join((package_dir, MPLIB, TOOLS, ".frozen")))
    silent, held = os.pipe()
    try:
        with tempfile.TemporaryDirectory() as folder:
            image = os.path.join(folder, "flash.img")
            cmd = [binary, "-X", "heapsize=2000000", FLOW, profile, image, str(throws), str(idle_s)]
            proc = subprocess.run(
                cmd, stdin=silent, env=env, capture_output=True, text=True, timeout=slowdown.seconds(600)
            )
    finally:
        os.close(silent)
        os.close(held)
    if proc.returncode:
        raise AssertionError("allocflow.py %s failed:\n%s%s" % (profile, proc.stdout, proc.stderr))
    figures = {}
    for line in proc.stdout.splitlines():
        name, value = line.split()
        figures[name.split(".", 1)[1]] = int(value)
    return figures


@pytest.fixture(scope="module", params=["devkit", "oled"])
def figures(request):
    return alloc_flow(request.param, THROWS, IDLE_S)


def test_a_bowl_waiting_for_a_press_allocates_nothing(figures):
    # switch polling 200 times a second, the serial read 20 times, the
    # watchdog feeder and the speaker's queue: IDLE_S virtual seconds of them
    assert figures["idle_bytes_per_s"] == 0


def test_a_frame_of_the_roll_animation_allocates_nothing(figures):
    assert figures["roll_frame_bytes"] == 0


def test_a_throw_allocates_no_more_than_the_bench_allows(figures):
    assert figures["throw_bytes_mean"] <= THROW_MEAN_B
    assert figures["throw_bytes_max"] <= THROW_MAX_B
    assert figures["record_bytes_mean"] > 0  # the log record is counted, apart


READ_LINE = """
import mp_heap
from board.base import StdinLines
serial = StdinLines()
got = [None]
def read():
    got[0] = serial.readline()
print(mp_heap.garbage(read), got[0], serial.readline())
"""


def test_garbage_on_the_serial_costs_nothing_but_the_command_after_it(mp_port):
    # a host (or a loose cable) may send anything: 1,000 bytes of it with no
    # line end, before a command, allocate no more than the command's own line
    garbage = bytes(b for b in range(256) if b not in b"\r\n") * 4
    alone = micropython_reading(READ_LINE, b"sync\n", mp_port).split()
    after_garbage = micropython_reading(READ_LINE, garbage + b"\nsync\n", mp_port).split()
    assert alone[1:] == after_garbage[1:] == ["b'sync'", "None"]
    assert after_garbage[0] == alone[0]
