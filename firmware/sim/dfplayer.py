"""A simulated DFPlayer Mini for the virtual board: its UART and its BUSY pin.

    module = SimDFPlayer(clock.ticks_ms)       # clip_ms: how long a clip plays
    player = DFPlayer(module.uart, module.busy)
    ...
    module.played        # [(folder, file), ...] every clip the module started

The fake UART decodes every frame board/dfplayer.py writes and checks it as
the module would (start, version, length, checksum, end byte, parameter
ranges); a frame the real module would reject raises ValueError, so a
driver bug fails the test or the sim at once.  BUSY reads 0 (playing) from
START_MS after a play command for clip_ms; a new play command cuts the
clip, as on the module; with fitted=False BUSY stays high (the pull-up) and
nothing plays, which is the bowl without a module.
"""

from board.dfplayer import CMD_PLAY_FOLDER, CMD_STOP, CMD_VOLUME, MAX_FILE, MAX_FOLDER, MAX_VOLUME, checksum
from micropython import const

START_MS = const(100)  # play command -> BUSY low on the module
CLIP_MS = const(500)  # a short spoken word

_TICKS_MASK = const(0x3FFFFFFF)


class SimUART:
    """The module's serial side: write() takes whole 10-byte frames."""

    def __init__(self, module):
        self._module = module

    def write(self, buf):
        if len(buf) % 10:
            raise ValueError("DFPlayer frame of %d bytes: frames are 10 bytes" % len(buf))
        for start in range(0, len(buf), 10):
            self._module.frame(buf[start : start + 10])
        return len(buf)

    def any(self):
        return 0  # the driver reads no replies

    def read(self, n=-1):
        return None


class SimBusy:
    """BUSY as a Pin: value() 0 while a clip plays."""

    def __init__(self, module):
        self._module = module

    def value(self):
        return 0 if self._module.playing() else 1


class SimDFPlayer:
    """What the module was told: played, volume, stops, frames."""

    def __init__(self, ticks_ms, clip_ms=CLIP_MS, fitted=True, keep=True):
        """keep: record every clip in `played` (tests); False for the
        virtual board, whose game may run for days: `played` stays empty."""
        self._ticks_ms = ticks_ms
        self._keep = keep
        self.clip_ms = clip_ms
        self.fitted = fitted
        self.uart = SimUART(self)
        self.busy = SimBusy(self)
        self.played = []  # (folder, file) per clip started
        self.volume = -1  # -1: never set
        self.stops = 0
        self.frames = 0
        self._started = -1  # ticks of the latest play command, -1: none

    def frame(self, f):
        """Check one frame as the module does and act on it; ValueError if bad."""
        if f[0] != 0x7E or f[1] != 0xFF or f[2] != 0x06 or f[9] != 0xEF:
            raise ValueError("DFPlayer frame not 7E FF 06 .. EF: %s" % bytes(f).hex())
        if (f[7] << 8 | f[8]) != checksum(f):
            raise ValueError("DFPlayer frame checksum wrong: %s" % bytes(f).hex())
        if f[4] not in (0, 1):
            raise ValueError("DFPlayer feedback byte must be 0 or 1: %s" % bytes(f).hex())
        self.frames += 1
        if not self.fitted:
            return
        command, high, low = f[3], f[5], f[6]
        if command == CMD_PLAY_FOLDER:
            if not (1 <= high <= MAX_FOLDER and 1 <= low <= MAX_FILE):
                raise ValueError("DFPlayer play folder %d file %d out of range" % (high, low))
            if self._keep:
                self.played.append((high, low))
            self._started = self._ticks_ms()
        elif command == CMD_VOLUME:
            if high or low > MAX_VOLUME:
                raise ValueError("DFPlayer volume %d out of range" % (high << 8 | low))
            self.volume = low
        elif command == CMD_STOP:
            self.stops += 1
            self._started = -1
        else:
            raise ValueError("DFPlayer command 0x%02x is not one the bowl sends" % command)

    def playing(self):
        if self._started < 0:
            return False
        elapsed = (self._ticks_ms() - self._started) & _TICKS_MASK
        return START_MS <= elapsed < START_MS + self.clip_ms
