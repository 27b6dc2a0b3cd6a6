"""The piezo, and the vibration motor beside it: patterns played by one
asyncio task, never blocking the game.

A pattern is bytes of (pitch, length) pairs: pitch in units of 20 Hz (0: a
rest), length in units of 10 ms.  `tone(hz, volume)` is the board's output
(LEDC PWM on the ESP32, a printed line on the virtual board); hz 0 is
silence, volume 1..10.  A new pattern replaces the one playing.

The motor (`motor(on)`, a GPIO driving a MOSFET; None: not fitted) feels
the same pattern while `vibrate` is on, whether the piezo is muted or not:
one pulse a note, _LONG_MS for a note of _HIGH_HZ or more, _SHORT_MS for a
lower one, _GAP_MS apart.  So a throw that won nothing (one low note) is a
short pulse, a prize of tier n (一秀 1 ... 对堂 5) is n long pulses, a 状元
6, the void two short ones, an alarm three long ones (app/sounds.py).

play() starts the first note and pulse itself; run(), one task for as long
as the bowl runs (bowl.py), moves both on when their time comes.  So a
sound allocates nothing: a task and a coroutine for each pattern would be
garbage every throw (docs/memory.md).
"""

import time

from micropython import const

_HIGH_HZ = const(1000)  # notes from this pitch up are long pulses
_LONG_MS = const(200)  # a coin motor needs ~50 ms to spin up: shorter is hardly felt
_SHORT_MS = const(80)
_GAP_MS = const(150)  # long enough for the pulses to be counted by hand
# run() looks at least this often: the shortest note (app/sounds.py CLICK), so
# a pattern play() starts while run() sleeps ends on time
_TICK_MS = const(20)


class Sound:
    def __init__(self, tone, clock, motor=None):
        self._tone = tone
        self._clock = clock
        self._motor = motor
        self._notes = b""  # the pattern the piezo plays; empty: silent
        self._note = 0  # the index of the pair sounding
        self._note_end = 0  # ticks_ms it ends
        self._pulses = b""  # the pattern the motor feels; empty: still
        self._pulse = 0  # the index of the pair felt
        self._pulse_on = False  # the motor runs (else: the gap after the pulse)
        self._pulse_end = 0  # ticks_ms the pulse or its gap ends
        self.volume = 6  # 1..10
        self.muted = False
        self.vibrate = False  # the motor follows the patterns (if one is fitted)

    def play(self, pattern):
        """Start `pattern` now; returns at once."""
        self.stop()
        if not pattern:
            return
        now = self._clock.ticks_ms()
        if not self.muted:
            self._notes = pattern
            self._sound(0, now)
        if self.vibrate and self._motor is not None:
            self._pulses = pattern
            self._feel(0, now)

    def stop(self):
        if self._notes:
            self._notes = b""
            self._tone(0, 0)
        if self._pulses:
            self._pulses = b""
            self._motor(False)  # a pattern is felt only with a motor

    async def run(self):
        """Move the patterns on, for as long as the bowl runs."""
        clock = self._clock
        while True:
            await clock.sleep_ms(self._step(clock.ticks_ms()))

    def _step(self, now):
        # what is due at `now`; the ms until the next change, at most _TICK_MS
        ticks_diff = self._clock.ticks_diff
        wait = _TICK_MS
        while self._notes:
            left = ticks_diff(self._note_end, now)
            if left > 0:
                wait = min(wait, left)
                break
            self._sound(self._note + 2, self._note_end)
        while self._pulses:
            left = ticks_diff(self._pulse_end, now)
            if left > 0:
                wait = min(wait, left)
                break
            if self._pulse_on:
                self._pulse_on = False
                self._motor(False)
                self._pulse_end = time.ticks_add(self._pulse_end, _GAP_MS)  # type: ignore[type-var]  # the ticks value kept in an int attribute
            else:
                self._feel(self._pulse + 2, self._pulse_end)
        return wait

    def _sound(self, i, at):
        # the note of pair i from `at`; past the last pair, silence
        notes = self._notes
        if i + 1 >= len(notes):
            self._notes = b""
            self._tone(0, 0)
            return
        self._note = i
        self._tone(notes[i] * 20, self.volume)
        self._note_end = time.ticks_add(at, notes[i + 1] * 10)

    def _feel(self, i, at):
        # the pulse of the first note from pair i on, from `at` (rests are not felt)
        pulses = self._pulses
        while i + 1 < len(pulses) and not pulses[i]:
            i += 2
        if i + 1 >= len(pulses):
            self._pulses = b""
            return
        self._pulse = i
        self._pulse_on = True
        self._motor(True)
        self._pulse_end = time.ticks_add(at, _LONG_MS if pulses[i] * 20 >= _HIGH_HZ else _SHORT_MS)
