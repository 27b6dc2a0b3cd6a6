"""The virtual board: the firmware's Board in the MicroPython unix port.

Keys stand for the switches (sim.run presses them from stdin or the
keyboard), the sound is a line, the flash is a LittleFS image in a host
file mounted by sim.run, the watchdog is simulated (sim.vclock.Watchdog),
the DFPlayer is sim.dfplayer's simulated module (its clips a line each).

The screen is the real one (docs/device.md, "The virtual board's screen"):
the profile's layout on sim.panels' emulated panel, wrapped in the trace
screen when a trace stream is given, so the words are written beside the
pixels.  The USB serial is the unix port's stdio when sim.run runs with
--serial (a pseudo-terminal: the REPL's, as on the ESP32).

It lives in sim/, beside the emulated hardware it is built of, and not in
board/: board/ is the real boards' layer, which a bowl gets whole, and
imports nothing of sim/.
"""

import micropython
from board import pins
from board.base import Board, StdinLines
from board.inputs import Inputs
from board.sound import Sound

from sim.tracescreen import TraceScreen
from sim.vclock import Reset, Watchdog

PROFILES = ("s3", "devkit", "cyd", "cyd2usb", "oled", "sh1106")
_ISIG = 0o1  # termios c_lflag: the terminal turns Ctrl-C into SIGINT (Linux)


class Keys:
    """The two switches' contacts: closed[0] THROW, closed[1] REFEREE."""

    def __init__(self, throw=False, referee=False):
        self.closed = [throw, referee]

    def throw(self):
        return self.closed[0]

    def referee(self):
        return self.closed[1]


class Serial:
    """The USB serial: each event line goes to every stream in `outs`.

    tty: the unix port's stdin is the serial's pseudo-terminal (sim.run
    --serial), whose line discipline turns Ctrl-C into the KeyboardInterrupt
    a real board raises; kbd_intr() then switches that on and off."""

    def __init__(self, outs, tty=False):
        self.outs = outs
        self.tty = tty

    def write(self, text):
        for out in self.outs:
            out.write(text)  # unix port files are unbuffered: no flush (fsync fails on a pipe)

    def kbd_intr(self, on):
        """Ctrl-C from the serial on or off, as micropython.kbd_intr on the ESP32.

        Off (kiosk), the ESP32 passes the byte on as data: so the terminal
        stops making the signal at all.  The unix port's own handler stays
        (its kbd_intr(-1) would make a SIGINT kill the process): the
        watchdog's Biter (sim.vclock) interrupts a hung bowl with it."""
        micropython.kbd_intr(3)
        if self.tty:
            import termios  # type: ignore[import-not-found]  # the unix port's

            attrs = termios.tcgetattr(0)
            attrs[3] = attrs[3] | _ISIG if on else attrs[3] & ~_ISIG
            termios.tcsetattr(0, termios.TCSANOW, attrs)


class TtySerial(Serial):
    """The serial on its pseudo-terminal (sim.run --serial): command lines in
    too, read from stdin as board.base.StdinLines reads the USB serial."""

    def __init__(self, outs):
        super().__init__(outs, True)
        self.readline = StdinLines().readline


class _Null:
    def write(self, text):
        pass


class SimSound(Sound):
    """The piezo as one line per pattern: `sound HZ:MS ...` (HZ 0: a rest);
    the vibration motor (motor=True: the profile has its pin) as a line per
    change, `motor on` / `motor off`."""

    def __init__(self, clock, trace, motor=False):
        super().__init__(self._tone, clock, self._motor_line if motor else None)
        self.trace = trace

    def _tone(self, hz, volume):
        pass

    def _motor_line(self, on):
        self.trace.write("motor on\n" if on else "motor off\n")

    def play(self, pattern):
        if not self.muted and pattern:
            notes = " ".join(
                ["%d:%d" % (pattern[i] * 20, pattern[i + 1] * 10) for i in range(0, len(pattern), 2)]
            )
            self.trace.write("sound volume=%d %s\n" % (self.volume, notes))
        super().play(pattern)


def screen_for(profile, trace, glass=None, scratch=None):
    """The profile's layout on its emulated panel, as the real board builds
    it on the real one: display.color.ColorScreen on the ST7789 (devkit) or
    ILI9341 (cyd), display.mono.MonoScreen on the SSD1306 (oled).  `glass`:
    the file holding a colour panel's memory (None: a private temporary
    one); the panel driver is `screen.panel` and its glass `.glass`.  With a
    `trace` stream the trace screen wraps it, so tests read the words of
    what the pixels show.  scratch: the buffer a colour screen draws in
    (None: its own).  Returns (screen, panel)."""
    import sim.panels

    panel = sim.panels.panel(profile, glass)
    if profile in ("oled", "sh1106"):
        from display.mono import MonoScreen

        screen = MonoScreen(panel)
    else:
        from display.color import ColorScreen

        screen = ColorScreen(panel, scratch)  # type: ignore[assignment]  # the same Screen methods
    if trace is None:
        return screen, panel
    return TraceScreen(trace, screen), panel


class SimBoard(Board):
    """The Board, plus what the sim's drivers reach: the emulated profile,
    the switches' contacts (sim.run presses them) and the panel's glass;
    speaker: the DFPlayer driver or None, as on every profile."""

    def __init__(self, profile, keys, glass, speaker, *board):
        super().__init__(*board)
        self.speaker = speaker
        self.profile = profile
        self.keys = keys
        self.glass = glass


def _reset():
    raise Reset("reset")


def build(
    profile,
    clock,
    flash_root,
    serial,
    random_bytes,
    entropy,
    keys=None,
    trace=None,
    glass=None,
    speaker=None,
    lines=None,
    scratch=None,
):
    """The sim Board for an emulated `profile` (devkit, cyd, oled).

    clock: sim.vclock.VirtualClock or board.base.Clock; serial: a Serial;
    random_bytes: n -> n bytes; entropy: events.ENTROPY_*; trace: a
    stream for the screen's words, or None; glass: the file of a colour
    panel's memory (None: a private one); speaker: the DFPlayer driver
    (board.dfplayer.DFPlayer on sim.run's SpeechUART) or None, kept as
    board.speaker; lines: the stream for the sound, lamp and speech lines
    (default: trace); scratch: the buffer a colour screen draws in, as
    bowl.power_up() lends it the log's."""
    keys = keys or Keys()
    lines = lines or trace or _Null()
    screen, panel = screen_for(profile, trace, glass, scratch)

    def light(on):  # the emulated panel goes dark as the real one does
        panel.power(on)
        lines.write("backlight on\n" if on else "backlight off\n")

    return SimBoard(
        profile,
        keys,
        panel.glass,
        speaker,
        "sim",
        screen,
        Inputs(keys.throw, keys.referee, clock),
        SimSound(clock, lines, profile != "cyd"),  # cyd: no pin for a motor (board/pins.py)
        random_bytes,
        entropy,
        flash_root,
        serial,
        clock,
        Watchdog(clock, pins.WDT_MS),
        _reset,
        serial.kbd_intr,
        lambda on: lines.write("lamp %s\n" % ("on" if on else "off")),
        light,
    )
