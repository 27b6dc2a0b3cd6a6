"""DFPlayer Mini speech module (optional): its serial protocol and a clip queue.

Wiring: hardware/README.md 4.5 (UART2 9600 8N1, BUSY low while playing,
10 kOhm pull-up on BUSY so "no module fitted" reads as idle).

Every command is one 10-byte frame:
    7E FF 06 CMD FEEDBACK PARAM_H PARAM_L CHK_H CHK_L EF
with CHK = 0 - (sum of the six bytes FF .. PARAM_L), 16 bits, high byte first.
Clips are played with command 0x0F ("play file FFF of folder DD"): the card
holds folders 01..99, each with files 001..255 whose names start with the
number (001.mp3, 002.mp3 ...; see docs/accessibility.md).  The module's
replies are not read: BUSY says all the queue needs.

    player = DFPlayer(uart, busy)     # uart: write(); busy: Pin or callable
    player.volume(20)                 # 0..30, sent before the next clip
    player.say(clips, n, folder)      # replace the queue, start at once
    asyncio.create_task(player.run(clock))   # or call poll(now_ms) yourself

The queue never waits on the module: a clip that has not started (BUSY low)
within START_MS is taken as "no module or no such file" and the rest of that
announcement is dropped, so a bowl without the module is silent and never
slower.  Nothing is allocated after construction: the frame and the queue
are bytearrays built once.
"""

import asyncio

from micropython import const

CMD_PLAY_FOLDER = const(0x0F)  # PARAM_H: folder 1..99, PARAM_L: file 1..255
CMD_VOLUME = const(0x06)  # PARAM_L: 0..30
CMD_STOP = const(0x16)

MAX_VOLUME = const(30)
MAX_FOLDER = const(99)
MAX_FILE = const(255)
_QUEUE_CLIPS = const(255)  # one announcement: app/speech.py _CAPACITY (a 20-player game end needs ~220)

START_MS = const(600)  # play sent -> BUSY low; the module takes ~100-300 ms to open a file
MAX_CLIP_MS = const(15000)  # BUSY stuck low longer than this: taken as done
_GAP_MS = const(40)  # between two frames: the module drops a command sent too soon after another
BOOT_MS = const(1500)  # after power-up the module reads its card before it accepts commands
POLL_MS = const(20)  # run(): how often BUSY is looked at

_TICKS_MASK = const(0x3FFFFFFF)  # ticks_ms() wraps at 2**30 on MicroPython

_IDLE = const(0)
_STARTING = const(1)  # play sent, BUSY not yet low
_PLAYING = const(2)


def checksum(frame):
    """The 16-bit checksum of a 10-byte frame: 0 minus bytes 1..6."""
    total = 0
    for i in range(1, 7):
        total += frame[i]
    return -total & 0xFFFF


class DFPlayer:
    """The module on `uart` (an object with write(buf)) and `busy` (a Pin, or any
    object with value(), or a callable: 0 while a clip plays).

    speaking: True from say() until the queue has played out or was dropped.
    failures: announcements dropped because a clip never started.
    """

    def __init__(self, uart, busy, start_ms=0):
        """start_ms: ticks_ms() at power-up; no frame is sent before BOOT_MS after it."""
        self._uart = uart
        self._busy = busy.value if hasattr(busy, "value") else busy
        self._frame = bytearray(b"\x7e\xff\x06\x00\x00\x00\x00\x00\x00\xef")
        self._queue = bytearray(_QUEUE_CLIPS)
        self._head = 0
        self._count = 0
        self._folder = 1
        self._state = _IDLE
        self._since = start_ms  # when the current state began (or the last frame went out)
        self._booting = True
        self._volume = -1  # to send before the next clip; -1: nothing pending
        self._stop = False
        self.failures = 0

    @property
    def speaking(self):
        return self._count > 0 or self._state != _IDLE

    def volume(self, level):
        """Set the volume 0..30 (hardware/README.md 4.5: keep it <= 20 on a small
        speaker); sent by the queue before the next clip, or at the next poll."""
        if not 0 <= level <= MAX_VOLUME:
            raise ValueError("volume must be 0 to %d" % MAX_VOLUME)
        self._volume = level

    def say(self, clips, n, folder):
        """Replace the queue with clips[0:n] (file numbers 1..255, a bytes-like) of
        `folder` (1..99, the language) and start them at the next poll; what was
        playing is cut.  Clips beyond _QUEUE_CLIPS are dropped."""
        if not 1 <= folder <= MAX_FOLDER:
            raise ValueError("folder must be 1 to %d" % MAX_FOLDER)
        n = min(n, _QUEUE_CLIPS)
        queue = self._queue
        for i in range(n):
            queue[i] = clips[i]
        self._head = 0
        self._count = n
        self._folder = folder
        if self._state != _IDLE:
            self._state = _IDLE  # the next play frame interrupts the clip playing now

    def stop(self):
        """Drop the queue and silence the module."""
        self._count = 0
        self._state = _IDLE
        self._stop = True

    def poll(self, now):
        """One step of the queue at ticks_ms() `now`: sends at most one frame,
        never waits.  Call it every POLL_MS or so (run() does)."""
        since = (now - self._since) & _TICKS_MASK  # ms, across the ticks' wrap
        if self._booting:
            if since < BOOT_MS:
                return
            self._booting = False
            since = _GAP_MS
        state = self._state
        if state == _STARTING:
            if not self._busy():
                self._state = _PLAYING
                self._since = now
            elif since >= START_MS:
                self.failures += 1
                self._count = 0  # no module, or the card lacks the clip: stay silent
                self._state = _IDLE
            return
        if state == _PLAYING:
            if self._busy() and since >= _GAP_MS or since >= MAX_CLIP_MS:
                self._state = _IDLE
                self._since = now
            return
        if since < _GAP_MS:
            return
        if self._stop:
            self._stop = False
            self._send(CMD_STOP, 0, now)
        elif self._volume >= 0:
            self._send(CMD_VOLUME, self._volume, now)
            self._volume = -1
        elif self._count:
            clip = self._queue[self._head]
            self._head += 1
            self._count -= 1
            self._send(CMD_PLAY_FOLDER, self._folder << 8 | clip, now)
            self._state = _STARTING

    async def run(self, clock):
        """The queue as an asyncio task; clock.ticks_ms() gives the time."""
        while True:
            self.poll(clock.ticks_ms())
            await asyncio.sleep_ms(POLL_MS)

    def _send(self, command, param, now):
        frame = self._frame
        frame[3] = command
        frame[5] = param >> 8
        frame[6] = param & 255
        chk = checksum(frame)
        frame[7] = chk >> 8
        frame[8] = chk & 255
        self._uart.write(frame)
        self._since = now
