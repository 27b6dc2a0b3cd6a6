"""The piezo: tone patterns played by an asyncio task, never blocking the game.

A pattern is bytes of (pitch, length) pairs: pitch in units of 20 Hz (0: a
rest), length in units of 10 ms.  `tone(hz, volume)` is the board's output
(LEDC PWM on the ESP32, a printed line on the virtual board); hz 0 is
silence, volume 1..10.  A new pattern replaces the one playing.
"""

import asyncio

from micropython import const

MAX_VOLUME = const(10)


class Sound:
    def __init__(self, tone, clock):
        self._tone = tone
        self._clock = clock
        self._task = None
        self.volume = 6  # 1..MAX_VOLUME
        self.muted = False

    def play(self, pattern):
        """Start `pattern` now; returns at once."""
        self.stop()
        if self.muted or not pattern:
            return
        self._task = asyncio.create_task(self._run(pattern))

    def stop(self):
        task = self._task
        if task is not None:
            self._task = None
            task.cancel()
            self._tone(0, 0)

    async def _run(self, pattern):
        try:
            for i in range(0, len(pattern) - 1, 2):
                self._tone(pattern[i] * 20, self.volume)
                await self._clock.sleep_ms(pattern[i + 1] * 10)
            self._tone(0, 0)
        finally:
            if self._task is asyncio.current_task():
                self._task = None
