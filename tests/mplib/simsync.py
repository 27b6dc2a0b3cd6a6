"""The virtual board (`bobing sim --headless --serial`) behind sync_bowl's
cutting bridge, for the sync tests (tests/test_sim_sync*.py).

SimBowl runs the real firmware on a flash image with presses on its stdin
and its live event lines into a file (a pipe would fill and stall the bowl
during a long game).  SimLink is sync_bowl.VirtualBowl's bridge with the
sim's serial pty as the bowl's end instead of a MicroPython it starts.
"""

import json
import os
import subprocess
import sys
import threading
import time
import tty

import slowdown
import sync_bowl

BOBING = os.path.join(os.path.dirname(sys.executable), "bobing")
MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")


def mpremote(port, *args):
    """`mpremote connect PORT ARGS...`, its output captured."""
    return subprocess.run(
        [MPREMOTE, "connect", port, *args], capture_output=True, text=True, timeout=slowdown.seconds(120)
    )


def bowls(folder):
    """The body of a fixture (tests/conftest.py sim_bowl): yields a maker of
    SimBowls in `folder` (seed 5, 3 players, more options as its arguments),
    then kills every one it made."""
    made = []

    def make(*extra):
        made.append(SimBowl(folder, 5, "--players", "3", *extra))
        return made[-1]

    yield make
    for bowl in made:
        bowl.kill()


class SimBowl:
    """`bobing sim --headless --serial --flash IMAGE --seed S`; presses in, events to a file."""

    def __init__(self, folder, seed, *extra):
        self.events_path = os.path.join(folder, "events.jsonl")
        self.stderr_path = os.path.join(folder, "sim.err")
        self.out = open(self.events_path, "wb")
        with open(self.stderr_path, "wb") as err:  # a file: never a pipe the sim could fill and stall on
            self.proc = subprocess.Popen(
                [BOBING, "sim", "--headless", "--serial", "--flash", os.path.join(folder, "bowl.img")]
                + ["--seed", str(seed), *extra],
                stdin=subprocess.PIPE,
                stdout=self.out,
                stderr=err,
            )
        end = time.monotonic() + slowdown.seconds(60)
        while not self.stderr().endswith("\n") and self.proc.poll() is None and time.monotonic() < end:
            time.sleep(0.05)
        line = self.stderr().split("\n")[0]
        assert line.startswith("serial: /dev/"), self.stderr()
        self.port = line.split()[1]

    def stderr(self):
        """What the sim said on its standard error so far (its first line names the port)."""
        with open(self.stderr_path, "rb") as f:
            return f.read().decode(errors="replace")

    def press(self, *commands):
        self.proc.stdin.write("".join(c + "\n" for c in commands).encode())
        self.proc.stdin.flush()

    def events(self):
        """The event lines so far (a last, half-written line is left out)."""
        with open(self.events_path, "rb") as f:
            lines = f.read().split(b"\n")[:-1]
        return [json.loads(line) for line in lines]

    def throws(self):
        return [e for e in self.events() if e["event"] == "throw"]

    def wait_events(self, done, timeout):
        """Until done(events) holds; the events."""
        end = time.monotonic() + slowdown.seconds(timeout)
        while time.monotonic() < end:
            events = self.events()
            if done(events):
                return events
            time.sleep(0.2)
        raise AssertionError("the bowl's events never got there in %d s: %s" % (timeout, self.events()[-3:]))

    def wait_throws(self, count, timeout):
        """Until `count` throw events came (the presses are played); the events."""
        end = time.monotonic() + slowdown.seconds(timeout)
        while time.monotonic() < end:
            events = self.events()
            if sum(1 for e in events if e["event"] == "throw") >= count:
                return events
            time.sleep(0.2)
        raise AssertionError("the bowl made %d of %d throws in %d s" % (len(self.throws()), count, timeout))

    def finish(self):
        """End of input: the exit status and every event."""
        self.proc.stdin.close()
        code = self.proc.wait(timeout=slowdown.seconds(60))
        return code, self.events()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.out.close()


class SimLink(sync_bowl.VirtualBowl):
    """sync_bowl's bridge (pacing, cut after n bytes, connect() a new host
    pty) between the sim's serial pty and one the host opens."""

    def __init__(self, sim_port):  # not super().__init__: it would start its own MicroPython
        self.folder = None
        self.baud = None
        self.proc = None
        self.bowl_fd = os.open(sim_port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.bowl_fd)
        os.set_blocking(self.bowl_fd, False)
        self.host_fd = None
        self.path = None
        self.cut_after = None
        self.moved = 0
        self.lock = threading.Lock()
        self.stopped = False
        self.thread = threading.Thread(target=self._pump, daemon=True)
        self.thread.start()
        self.connect()

    def close(self):
        self.stopped = True
        self.thread.join()
        with self.lock:
            self._cut()
        os.close(self.bowl_fd)
