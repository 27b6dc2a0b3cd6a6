"""The bowl's time for asyncio, and the simulated watchdog.

install() makes the unix port's asyncio run on a millisecond counter of
the bowl's own, moved by the loop's wait for the next timer:

- headless (VirtualClock()): the wait jumps the counter instead of
  sleeping.  Animations and pauses take no wall time, and a scripted run is
  the same run every time.
- interactive (VirtualClock(real=True)): the wait sleeps for a person, and
  the counter moves by the time slept (never more than asked) plus the CPU
  time the process spent since the last wait.  Animations run at their
  speed on an idle host; on a loaded one they slow down, but the bowl's
  time is never inflated by the time the host gave to other processes.

The watchdog counts the same way in both: the waits, plus the CPU time the
bowl's code ran between them (`ran`).  A loaded host cannot trip it; a task
that never yields still does, through the Biter thread (docs/device.md,
"The virtual board").  It reaches into asyncio.core (its ticks() and I/O
wait), which is why it lives here, in the virtual board, and never on the
ESP32.

asyncio's task queue stays the C TaskQueue: Task.cancel(), in C, takes
core._task_queue for one without checking, and any Python object put in
its place is memory it corrupts (the segfaults of docs/micropython-crashes.md).
That queue stamps a task pushed without a time (create_task, a task woken,
a cancelled one brought forward) with the host's real ticks, so the loop's
clock runs _AHEAD_MS in front of them: such a task is always due, as on
the board, never a jump of the bowl's time.
"""

import _thread
import asyncio
import asyncio.core as core  # type: ignore[import-not-found]  # the unix port's, not in the ESP32 stubs
import os
import time

from micropython import const

# The loop's clock leads the real one by this (a quarter of the 32-bit
# ports' ticks period): the bowl's time may run ahead of or fall behind the
# host's by up to three days before a real stamp could look due later.
_AHEAD_MS = const(1 << 28)
_BITE_CHECK_MS = const(100)  # how often the Biter looks at a bowl that runs without waiting
_RESEND_MS = const(5000)  # a bitten bowl still running after this: the signal is sent again


class Reset(BaseException):
    """The virtual board resets (watchdog, crash): sim.run boots it again."""


def cpu_ms():
    """CPU time this process ran, in ms (time.clock(): the unix port's
    clock(), all threads); not inflated by other processes on the host."""
    return int(time.clock() * 1000)  # type: ignore[attr-defined]  # the unix port's


class VirtualClock:
    """ticks_ms(), ticks_diff(), sleep_ms() of the board, on the bowl's time."""

    ticks_diff = staticmethod(time.ticks_diff)
    sleep_ms = staticmethod(asyncio.sleep_ms)

    def __init__(self, real=False):
        self.real = real
        self.now = 0  # the board's ms
        self.ran = 0  # the watchdog's ms: every wait, plus the CPU time between them
        self.mark = cpu_ms()  # CPU ms when the last wait ended
        self.watchdog = None  # checked after each wait

    def ticks_ms(self):
        return self.now

    def install(self):
        """Take over the current event loop (again after new_event_loop())."""
        base = time.ticks_add(time.ticks_ms(), _AHEAD_MS)
        core.ticks = lambda: time.ticks_add(base, self.now)
        io = core._io_queue
        poll = io.wait_io_event

        def wait(dt):
            # CPU time matters to a person (real) or a watchdog; reading it
            # makes a float, which a harness measuring the bowl's allocations
            # (no watchdog) must not see
            timed = self.real or self.watchdog is not None
            spent = cpu_ms() - self.mark if timed else 0
            if dt > 0 and self.real:
                start = time.ticks_ms()
                poll(dt)
                dt = min(dt, time.ticks_diff(time.ticks_ms(), start))  # never the host's delay
            else:
                poll(0)
                dt = max(dt, 0)
            if timed:
                self.mark = cpu_ms()  # before `ran`: the Biter never counts `spent` twice
            self.ran += dt + spent
            if self.real:  # a person's time: the code ran, then the loop slept
                dt += spent
            self.now = time.ticks_add(self.now, dt)  # type: ignore[type-var]
            if self.watchdog is not None:
                self.watchdog.check(self.ran)

        io.wait_io_event = wait


class Watchdog:
    """machine.WDT in the sim: Reset once `timeout_ms` of the bowl's time
    (the clock's `ran`) pass without feed(), counted from the first feed.

    The clock checks it after each wait; a task that never reaches one is
    caught by the Biter, which raises KeyboardInterrupt in it: sim.run
    turns that into the same Reset when `bitten` is set.  Whichever sees the
    watchdog overdue first bites (under `lock`), so a bowl never takes a
    second, stray interrupt into its next power-up."""

    def __init__(self, clock, timeout_ms):
        self.clock = clock
        self.timeout_ms = timeout_ms
        self.fed = -1  # started by the first feed(), as board.esp32.Watchdog
        self.bitten = False
        self.lock = _thread.allocate_lock()

    def feed(self):
        self.fed = self.clock.ran

    def stop(self):
        """The bowl left its loop (the REPL's turn) or reset: nothing to watch."""
        self.fed = -1

    def bite(self, ran):
        """True if overdue at `ran` and nobody bit yet: the caller resets the bowl."""
        with self.lock:
            if self.bitten or self.fed < 0 or ran - self.fed <= self.timeout_ms:
                return False
            self.bitten = True
            return True

    def check(self, ran):
        if self.bite(ran):
            raise Reset("watchdog")
        while self.bitten:  # the Biter bit first: its interrupt is on its way
            time.sleep_ms(_BITE_CHECK_MS)


class Biter:
    """The watchdog's hardware timer: a thread that looks every
    _BITE_CHECK_MS at the bowl's time including the CPU time run since the
    last wait, and when `watchdog` is overdue interrupts the main thread
    with SIGINT (the unix port's KeyboardInterrupt, which reaches a busy
    loop too).  The signal is sent from a background shell a little later,
    because system() ignores SIGINT in its caller while it waits; it is
    sent again after _RESEND_MS should it have come in that window."""

    def __init__(self, pid):
        self.pid = pid
        self.watchdog = None  # the power-up's Watchdog, or None
        _thread.start_new_thread(self.run, ())

    def run(self):
        bit = None  # the watchdog this thread interrupted, its bowl not yet reset
        since = 0  # ms since the last signal to it
        while True:
            time.sleep_ms(_BITE_CHECK_MS)
            dog = self.watchdog
            if dog is None:
                continue
            if dog is bit:
                since += _BITE_CHECK_MS
                if since >= _RESEND_MS:
                    self.interrupt()
                    since = 0
            elif dog.bite(dog.clock.ran + cpu_ms() - dog.clock.mark):
                self.interrupt()
                bit, since = dog, 0

    def interrupt(self):
        os.system("(sleep 0.2; kill -INT %d) &" % self.pid)
