"""The virtual bowl never dies of a segmentation fault: not when its flash
fills, not when it leaves its loop for the host's sync after a long day.

Both crashes of issue 22 were one fault of the virtual clock (sim/vclock.py):
it put a Python object where asyncio keeps its C task queue, and the C
Task.cancel() wrote through it as if it were one whenever the task it
cancelled was asleep until after the host's real ticks
(docs/micropython-crashes.md).  The full flash's alarm cancels the throw's
sound still playing; leaving for the REPL cancels the bowl's tasks.  The
first test cancels a task asleep past the host's ticks directly; each
scenario then runs four times in a row on both ports: the pinned 64-bit one
that `bobing sim` runs, and micropython32 at the ESP32's word size, where
the old fault struck about every other cancel whatever the run's length (so
four rounds miss it about once in 16, and the scenarios together far less).
"""

import json
import os
import sqlite3
import subprocess
import sys
import time
import tty

import mp
import pytest
from test_sim import BOBING, bobing_sim, sim, sim_command

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mplib"))
import slowdown
from simsync import SimBowl  # noqa: E402

pytestmark = pytest.mark.slow  # full-flash boots, a long day of syncs: `make test` only

FULL_BLOCKS = (
    90  # the smallest image that still takes a game with the store's copy beside it: full after some throws
)
ROUNDS = 4
# the crashes were memory the C task queue corrupted: where they show depends
# on the port's object layout, so both ports are tried
BOTH_PORTS = pytest.mark.mp_ports(*mp.PORTS)
LONG_DAY = 1000  # presses before the first sync
BETWEEN = 100  # presses between the later ones
LEFT = 3  # sim.run's exit status (--serial) when the app left its loop for the REPL


def presses_played(events):
    """Presses the bowl took: each is a throw, or starts the next game after an end
    (the first game and a resumed one come without a press)."""
    started = sum(1 for e in events if e["event"] == "game" and not e["resumed"])
    return sum(1 for e in events if e["event"] == "throw") + max(0, started - 1)


def read_events(path):
    """The whole event lines in the file so far."""
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")[:-1]
    return [json.loads(line) for line in lines if line.startswith(b"{")]


def wait_for(done, what, proc, timeout=600):
    """Until done() holds; the bowl process dying first fails at once."""
    end = time.monotonic() + slowdown.seconds(timeout)
    while not done():
        assert proc.poll() is None, "the bowl died (exit %s) waiting for %s" % (proc.returncode, what)
        assert time.monotonic() < end, "no %s in %d s" % (what, timeout)
        time.sleep(0.2)


CANCEL = """
import asyncio
import time
from sim.vclock import VirtualClock

clock = VirtualClock()
clock.install()
LONG = (time.ticks_add(0, -1) + 1) // 8  # an eighth of the ticks period: days on either port

async def sleeper():
    try:
        await clock.sleep_ms(LONG)
    except asyncio.CancelledError:
        print("cancelled", clock.ticks_ms())

async def main():
    task = asyncio.create_task(sleeper())
    await clock.sleep_ms(10)
    task.cancel()
    await clock.sleep_ms(10)
    print("on", clock.ticks_ms())

asyncio.run(main())
"""


@BOTH_PORTS
def test_a_sleeping_task_cancelled_on_the_virtual_clock_stops_at_once(mp_port):
    # a sound cut short by the next one, the bowl's tasks stopped for the REPL:
    # the cancelled task wakes now, not days of virtual time later, and nothing crashes
    assert mp.run_micropython(CANCEL).split() == ["cancelled", "10", "on", "20"]


def full_flash_run(port, image, seed, commands):
    """(exit status, events, stderr) of the headless sim: `bobing sim` on the
    pinned port, sim.run itself on micropython32 (on an image sim.run made)."""
    args = ["--flash", image, "--seed", str(seed)]
    if port == "unix64":
        return bobing_sim(args, commands)
    return sim(port, args, commands)


@BOTH_PORTS
def test_a_full_flash_stops_play_four_times_in_a_row_and_never_crashes(tmp_path, mp_port):
    for seed in range(ROUNDS):
        image = str(tmp_path / ("bowl%d.img" % seed))
        # a fresh small bowl of 20 players, made by sim.run (bobing sim has no --flash-blocks)
        made = sim(mp_port, ["--flash", image, "--players", "20", "--flash-blocks", str(FULL_BLOCKS)], [])
        assert made[0] == 0, made[2]
        code, events, err = full_flash_run(mp_port, image, seed, ["throw"] * 400)
        assert code == 0, "seed %d: exit %d %s" % (seed, code, err[-500:])
        kinds = [e["event"] for e in events]
        assert "flash_full" in kinds, "seed %d: %s" % (seed, kinds[-5:])
        full = kinds.index("flash_full")
        assert "throw" in kinds[:full] and "throw" not in kinds[full:]
        games = [i for i, k in enumerate(kinds[:full]) if k == "game"]
        thrown = [e for e in events[games[-1] : full] if e["event"] == "throw"]
        # power on again: the game is all there, and play stays stopped
        code, again, err = full_flash_run(mp_port, image, seed, ["throw"])
        assert code == 0, "seed %d: exit %d %s" % (seed, code, err[-500:])
        assert again[0]["event"] == "game" and again[0]["resumed"]
        assert again[0]["throws"] == len(thrown) and again[0]["last"]["dice"] == thrown[-1]["dice"]
        assert [e["event"] for e in again[1:]] == ["flash_full"]


class Host:
    """A host terminal on the sim's serial: takes every byte the bowl sends,
    as a connected host does (a UART nobody reads drops them)."""

    def __init__(self, port):
        self.fd = os.open(port, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)

    def drain(self):
        while True:
            try:
                data = os.read(self.fd, 4096)
            except BlockingIOError:
                return
            if not data:
                return

    def close(self):
        os.close(self.fd)


def resumed_whole(events):
    """Every power-up resumes the game with each throw made before it."""
    starts = [i for i, e in enumerate(events) if e["event"] == "game"]
    for at in starts:
        if events[at]["resumed"]:
            began = max(i for i in starts if i < at and not events[i]["resumed"])
            thrown = [e for e in events[began:at] if e["event"] == "throw"]
            assert events[at]["throws"] == len(thrown) and events[at]["last"]["dice"] == thrown[-1]["dice"]


def test_leaving_for_the_repl_after_a_long_day_four_times_in_a_row_never_crashes(tmp_path):
    # the pinned port, as a user runs it: `bobing sim --headless --serial` and `bobing sync`
    bowl = SimBowl(str(tmp_path), 3, "--players", "3")
    database = str(tmp_path / "festival.db")
    try:
        pressed = 0
        for round_ in range(ROUNDS):
            host = Host(bowl.port)
            presses = LONG_DAY if round_ == 0 else BETWEEN
            bowl.press(*["throw"] * presses)
            pressed += presses

            def played(host=host, pressed=pressed):
                host.drain()
                return presses_played(bowl.events()) >= pressed

            wait_for(played, "%d presses" % pressed, bowl.proc)
            host.close()
            # the sync line, the store read through the raw REPL, then `import main`
            synced = subprocess.run(
                [BOBING, "sync", "--port", bowl.port, "--db", database, "--wait", slowdown.arg(30)],
                capture_output=True,
                text=True,
                timeout=slowdown.seconds(300),
            )
            assert synced.returncode == 0, "sync %d: %s; the sim said: %s" % (
                round_ + 1,
                synced.stderr,
                bowl.stderr()[-500:],
            )
            wait_for(
                lambda done=round_ + 1: (
                    sum(1 for e in bowl.events() if e["event"] == "game" and e["resumed"]) >= done
                ),
                "the game resumed after sync %d" % (round_ + 1),
                bowl.proc,
            )
        code, events = bowl.finish()
        assert code == 0, bowl.stderr()[-500:]
    finally:
        bowl.kill()
    # each sync left the app for the REPL, and its `import main` brought it back (the
    # sync event itself may miss the events file: the sync's Ctrl-C can cut its copy there)
    assert sum(1 for e in events if e["event"] == "game" and e["resumed"]) == ROUNDS
    resumed_whole(events)
    thrown = [e for e in events if e["event"] == "throw"]
    conn = sqlite3.connect(database)
    rows = conn.execute("SELECT seat, n1, n2, n3, n4, n5, n6 FROM throws ORDER BY seq").fetchall()
    conn.close()
    assert rows == [(e["seat"], *[e["dice"].count(f) for f in range(1, 7)]) for e in thrown]


def leave_for_the_repl(port, image, presses, events_path):
    """sim.run --headless --serial on a pseudo-terminal of our own: `presses`
    throws, then the sync line on the serial; (exit status, stderr)."""
    command, env = sim_command(port, ["--flash", image, "--players", "3", "--seed", "5"])
    bowl_end, serial = os.openpty()
    tty.setraw(serial)
    presses_in, presses_out = os.pipe()
    with open(events_path, "ab") as out:
        proc = subprocess.Popen(
            [*command, "--serial", "--presses", "/dev/fd/%d" % presses_in],
            stdin=serial,
            stdout=out,
            stderr=subprocess.PIPE,
            env=env,
            pass_fds=[presses_in],
        )
    os.close(presses_in)
    os.close(serial)
    try:
        before = presses_played(read_events(events_path))
        os.write(presses_out, b"throw\n" * presses)
        wait_for(lambda: presses_played(read_events(events_path)) >= before + presses, "the presses", proc)
        os.write(bowl_end, b"\r\nsync\r\n")
        _, err = proc.communicate(timeout=slowdown.seconds(120))
        return proc.returncode, err.decode()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(presses_out)
        os.close(bowl_end)


def test_leaving_for_the_repl_after_a_long_day_on_the_esp32_word_size_four_times_never_crashes(tmp_path):
    image = str(tmp_path / "bowl.img")
    events_path = str(tmp_path / "events")
    for round_ in range(ROUNDS):
        code, err = leave_for_the_repl("esp32word", image, LONG_DAY if round_ == 0 else BETWEEN, events_path)
        assert code == LEFT, "sync %d: exit %d %s" % (round_ + 1, code, err[-500:])
    events = read_events(events_path)
    assert sum(1 for e in events if e["event"] == "sync") == ROUNDS
    resumed_whole(events)
