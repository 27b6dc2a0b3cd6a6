"""Virtual time for asyncio, and the simulated watchdog.

install() makes the unix port's asyncio run on a millisecond counter that
moves only when every task is asleep: the loop's wait for the next timer
jumps the counter instead of sleeping.  Animations and pauses then take no
wall time, and a scripted run is the same run every time.  It reaches into
asyncio.core (its ticks(), task queue and I/O wait), which is why it lives
here, in the virtual board, and never on the ESP32.
"""

import asyncio
import asyncio.core as core  # type: ignore[import-not-found]  # the unix port's, not in the ESP32 stubs
import time


class Reset(BaseException):
    """The virtual board resets (watchdog, crash): sim.run boots it again."""


class _Queue:
    """asyncio's task queue, with "now" on the virtual clock for tasks
    pushed without a time (the C queue would stamp them with real time)."""

    def __init__(self, queue, clock):
        self.queue = queue
        self.clock = clock
        self.peek = queue.peek
        self.pop = queue.pop
        self.remove = queue.remove

    def push(self, task, key=None):
        self.queue.push(task, self.clock.now if key is None else key)


class VirtualClock:
    """ticks_ms(), ticks_diff(), sleep_ms() of the board, on virtual time."""

    ticks_diff = staticmethod(time.ticks_diff)
    sleep_ms = staticmethod(asyncio.sleep_ms)

    def __init__(self):
        self.now = 0
        self.watchdog = None  # checked each time the clock moves

    def ticks_ms(self):
        return self.now

    def install(self):
        """Take over the current event loop (again after new_event_loop())."""
        core.ticks = self.ticks_ms
        core._task_queue = _Queue(core._task_queue, self)
        io = core._io_queue
        poll = io.wait_io_event

        def wait(dt):
            if dt > 0:
                self.now = time.ticks_add(self.now, dt)  # type: ignore[type-var]
                if self.watchdog is not None:
                    self.watchdog.check(self.now)
            poll(0)

        io.wait_io_event = wait


class Watchdog:
    """machine.WDT in the sim: Reset once `timeout_ms` pass without feed()
    (counted from the first feed).

    On the virtual clock it is checked whenever time moves; on real time
    run.py checks it from a task (a task that blocks the whole loop is not
    caught there: the ESP32's hardware timer would catch it)."""

    def __init__(self, clock, timeout_ms):
        self.clock = clock
        self.timeout_ms = timeout_ms
        self.fed = -1  # started by the first feed(), as board.esp32.Watchdog

    def feed(self):
        self.fed = self.clock.ticks_ms()

    def check(self, now):
        if self.fed >= 0 and time.ticks_diff(now, self.fed) > self.timeout_ms:
            raise Reset("watchdog")
