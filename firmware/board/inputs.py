"""THROW and REFEREE with the timing rules of hardware/README.md section 9.

Both switches are polled every _POLL_MS on the board clock (real or virtual),
so every rule below is a pure function of the levels seen and the clock:

- a closure counts once it has been continuous for `accept_ms` (30 ms);
- one press is one event, when it is accepted: holding does nothing more,
  there is no auto-repeat;
- the next press counts only after the switch read open for `rearm_ms`
  (100 ms) since the last one;
- while `locked` (the roll and the announcement), a press is ignored, not
  queued: a closure that began or was accepted while locked is dropped and
  must be released before anything counts;
- a switch closed at power-up counts for nothing until it has been released;
- a closure held `stuck_ms` (10 s) gives STUCK once (the "release the
  switch" hint), and its release RELEASED;
- REFEREE: released before `long_ms` (2 s) is REFEREE (short, on release);
  held to `long_ms` is REFEREE_LONG (at once, while still held).
"""

from micropython import const

_THROW = const(1)
_REFEREE = const(2)
_REFEREE_LONG = const(3)
_STUCK = const(4)
_RELEASED = const(5)

_POLL_MS = const(5)

_ARMED = const(0)  # open, re-armed: the next closure may count
_CLOSING = const(1)  # closed, not yet for accept_ms
_HELD = const(2)  # accepted (or dropped): waiting for the release
_OPENING = const(3)  # open again, not yet for rearm_ms
_DEAD = const(4)  # held at power-up or dropped while locked: wait for a release


class Switch:
    """One debounced switch; step() gives at most one event per poll."""

    def __init__(self, read, now, long_event=0):
        self.read = read  # () -> True while the contact is closed
        self.long_event = long_event  # REFEREE_LONG for the referee, 0: none
        self.state = _DEAD if read() else _ARMED  # held at power-up: ignored
        self.since = now  # when the current level began
        self.stuck = False
        self.long_sent = False

    def step(self, now, inputs):
        """Advance to time `now` (ms); an event code or 0."""
        closed = self.read()
        state = self.state
        held = inputs.clock.ticks_diff(now, self.since)
        if closed:
            if state == _ARMED:
                self.state = _DEAD if inputs.locked else _CLOSING
                self.since = now
                self.long_sent = False
                return 0
            if state == _OPENING:  # bounce before re-arming: start over, not a press
                self.state = _DEAD
                self.since = now
                return 0
            if held >= inputs.stuck_ms and not self.stuck:
                self.stuck = True
                return _STUCK
            if state == _CLOSING and held >= inputs.accept_ms:
                self.state = _HELD
                if inputs.locked:
                    return 0
                if not self.long_event:
                    return _THROW
            if state == _HELD and self.long_event and not self.long_sent and held >= inputs.long_ms:
                self.long_sent = True
                return 0 if inputs.locked else self.long_event
            return 0
        # open
        if state == _CLOSING:  # bounce or a brush shorter than accept_ms: nothing happened
            self.state = _ARMED
            return 0
        if state == _HELD or state == _DEAD:
            short = state == _HELD and self.long_event and not self.long_sent and not inputs.locked
            self.state = _OPENING
            self.since = now
            if self.stuck:
                self.stuck = False
                return _RELEASED
            return _REFEREE if short else 0
        if state == _OPENING and held >= inputs.rearm_ms:
            self.state = _ARMED
        return 0

    def idle(self):
        """Open and re-armed: nothing in progress."""
        return self.state == _ARMED


class Inputs:
    """The two switches, polled by run(); the app takes their events with take().

    Timings in ms, adjustable at any time (the operator menu): accept_ms
    (30, up to 2,000), rearm_ms (100, up to 1,000), long_ms (2,000),
    stuck_ms (10,000).  `waiting`: the app sets it while it waits for a
    press: the bowl is ready for input (the virtual board feeds presses then).
    The event codes and POLL_MS are also attributes, for the app (which
    imports no board).

    Polling allocates nothing (docs/memory.md): run() polls 200 times a
    second for as long as the bowl is on.
    """

    THROW = _THROW
    REFEREE = _REFEREE
    REFEREE_LONG = _REFEREE_LONG
    STUCK = _STUCK
    RELEASED = _RELEASED
    POLL_MS = _POLL_MS

    def __init__(
        self, read_throw, read_referee, clock, accept_ms=30, rearm_ms=100, long_ms=2000, stuck_ms=10000
    ):
        self.clock = clock
        self.accept_ms = accept_ms
        self.rearm_ms = rearm_ms
        self.long_ms = long_ms
        self.stuck_ms = stuck_ms
        self.locked = False
        self.waiting = False
        now = clock.ticks_ms()
        self.throw = Switch(read_throw, now)
        self.referee = Switch(read_referee, now, _REFEREE_LONG)
        self._events = bytearray(4)  # a press is never queued behind another: a few slots
        self._count = 0

    def poll(self):
        # each switch by name: `for switch in (self.throw, self.referee)` made a tuple a poll
        now = self.clock.ticks_ms()
        self._queue(self.throw.step(now, self))
        self._queue(self.referee.step(now, self))

    def _queue(self, event):
        if event and self._count < len(self._events):
            self._events[self._count] = event
            self._count += 1

    def lock(self):
        """Ignore presses (the roll, the announcement) and forget any not taken."""
        self.locked = True
        self._count = 0

    def unlock(self):
        self.locked = False

    def idle(self):
        return self.throw.idle() and self.referee.idle()

    async def run(self):
        while True:
            self.poll()
            await self.clock.sleep_ms(_POLL_MS)

    def take(self):
        """The oldest event not taken yet (THROW, REFEREE, REFEREE_LONG, STUCK,
        RELEASED), or 0; never waits."""
        n = self._count
        if not n:
            return 0
        events = self._events
        event = events[0]
        for i in range(1, n):  # not a slice assignment: that makes two copies
            events[i - 1] = events[i]
        self._count = n - 1
        return event
