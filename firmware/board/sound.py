"""The piezo, and the vibration motor beside it: patterns played by asyncio
tasks, never blocking the game.

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
"""

import asyncio

from micropython import const

_HIGH_HZ = const(1000)  # notes from this pitch up are long pulses
_LONG_MS = const(200)  # a coin motor needs ~50 ms to spin up: shorter is hardly felt
_SHORT_MS = const(80)
_GAP_MS = const(150)  # long enough for the pulses to be counted by hand


class Sound:
    def __init__(self, tone, clock, motor=None):
        self._tone = tone
        self._clock = clock
        self._motor = motor
        self._task = None
        self._buzz = None
        self.volume = 6  # 1..10
        self.muted = False
        self.vibrate = False  # the motor follows the patterns (if one is fitted)

    def play(self, pattern):
        """Start `pattern` now; returns at once."""
        self.stop()
        if not pattern:
            return
        if not self.muted:
            self._task = asyncio.create_task(self._run(pattern))
        if self.vibrate and self._motor is not None:
            self._buzz = asyncio.create_task(self._pulses(pattern))

    def stop(self):
        task = self._task
        if task is not None:
            self._task = None
            task.cancel()
            self._tone(0, 0)
        task = self._buzz
        if task is not None:
            self._buzz = None
            task.cancel()
            self._motor(False)  # a buzz task only runs with a motor

    async def _run(self, pattern):
        try:
            for i in range(0, len(pattern) - 1, 2):
                self._tone(pattern[i] * 20, self.volume)
                await self._clock.sleep_ms(pattern[i + 1] * 10)
            self._tone(0, 0)
        finally:
            if self._task is asyncio.current_task():
                self._task = None

    async def _pulses(self, pattern):
        motor = self._motor
        sleep = self._clock.sleep_ms
        try:
            for i in range(0, len(pattern) - 1, 2):
                if pattern[i]:
                    motor(True)
                    await sleep(_LONG_MS if pattern[i] * 20 >= _HIGH_HZ else _SHORT_MS)
                    motor(False)
                    await sleep(_GAP_MS)
        finally:
            if self._buzz is asyncio.current_task():
                self._buzz = None
