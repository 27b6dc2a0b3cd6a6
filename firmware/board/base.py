"""The Board every profile builds (docs/device.md), the clock of a real board,
and the line buffer behind the serial's command input."""

import asyncio
import select
import sys
import time

from micropython import const

_LINE_MAX = const(72)  # the longest serial command line kept (`auth` + 64 hex digits); longer: garbage


class Clock:
    """Milliseconds of the board: ticks_ms() wraps (compare with ticks_diff),
    sleep_ms(ms) is awaited.  The virtual board replaces it with sim.vclock."""

    ticks_ms = staticmethod(time.ticks_ms)
    ticks_diff = staticmethod(time.ticks_diff)
    sleep_ms = staticmethod(asyncio.sleep_ms)


class LineBuffer:
    """Bytes from a serial line in, whole command lines out.

    A line ends at CR or LF (CR LF is one end); empty lines give nothing.
    A line longer than `size` bytes is dropped whole, never cut into a
    command, so garbage on the line costs `size` bytes of buffer and no
    more.  Built once; feed() allocates only the line it returns.
    """

    def __init__(self, size=_LINE_MAX):
        self._buf = bytearray(size)
        self._count = 0
        self._overflow = False

    def feed(self, byte):
        """One received byte (an int 0..255); the line it ends (bytes, without
        the line end), or None."""
        if byte == 10 or byte == 13:
            n = self._count
            self._count = 0
            if self._overflow or not n:
                self._overflow = False
                return None
            return bytes(self._buf[:n])
        if self._count < len(self._buf):
            self._buf[self._count] = byte
            self._count += 1
        else:
            self._overflow = True
        return None


class StdinLines:
    """The serial that is sys.stdin and sys.stdout (the ESP32's USB serial,
    the sim's pseudo-terminal): write(buf) out, and command lines in:
    readline() polls, never waits.

    The app reads it 20 times a second for as long as the bowl is on, so a
    read with nothing received allocates nothing: one poll object registered
    once and asked with ipoll (poll() makes a list a call), and each byte
    read into one bytearray (read(1) makes a bytes a byte)."""

    def __init__(self):
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._source = sys.stdin.buffer
        self._byte = bytearray(1)
        self._line = LineBuffer()
        self.write = sys.stdout.write

    def _received(self):
        # True if stdin has a byte (or has ended: readinto then gives 0);
        # ipoll's iterator and the pair it yields are the poll object's own
        for _ in self._poll.ipoll(0):
            return True
        return False

    def readline(self):
        """A whole command line received (bytes, no line end), or None."""
        byte = self._byte
        while self._received():
            if not self._source.readinto(byte):
                return None
            line = self._line.feed(byte[0])
            if line is not None:
                return line
        return None


class Board:
    """What the application is given; see docs/device.md for each attribute.

    name, screen, inputs, sound, random_bytes(n), entropy, flash_root,
    serial (write(buf): live event bytes, in pieces, each line ended by
    a newline; readline(): a command line received, or None, never
    blocking: optional, a serial without it takes no commands), clock, watchdog (feed(); release(): the app leaves
    to the REPL, keep a started watchdog from resetting it); and for
    main.py: reset() (never returns), kbd_intr(on) (Ctrl-C from the USB
    serial on or off), lamp(on) (the ready lamp); speaker: the speech
    module (board.dfplayer.DFPlayer), None when none is fitted or wired;
    backlight(on): the screen lit or dark (the idle timeout; what it shows
    is kept, so lighting it again shows the same picture).
    """

    def __init__(
        self,
        name,
        screen,
        inputs,
        sound,
        random_bytes,
        entropy,
        flash_root,
        serial,
        clock,
        watchdog,
        reset,
        kbd_intr,
        lamp,
        backlight,
        speaker=None,
    ):
        self.name = name
        self.screen = screen
        self.inputs = inputs
        self.sound = sound
        self.random_bytes = random_bytes
        self.entropy = entropy
        self.flash_root = flash_root
        self.serial = serial
        self.clock = clock
        self.watchdog = watchdog
        self.reset = reset
        self.kbd_intr = kbd_intr
        self.lamp = lamp
        self.backlight = backlight
        self.speaker = speaker
