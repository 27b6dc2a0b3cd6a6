"""The virtual board: the firmware's Board in the MicroPython unix port.

Keys stand for the switches (sim.run presses them from stdin or the
keyboard), the sound is a line, the flash is a LittleFS image in a host
file mounted by sim.run, the watchdog is simulated (sim.vclock.Watchdog).

The screen (docs/device.md, "The virtual board's screen"): when the screens'
panel emulators (sim/panels) and the profile's layout (display/color for
devkit and cyd, display/mono for oled) are on the path, the screen is that
layout on `sim.panels.panel(profile)`, the emulated panel driver; else the
trace screen alone.  With a trace stream the trace screen wraps it, so the
words are written beside the pixels.
"""

import os
import sys

import micropython
from sim.tracescreen import TraceScreen
from sim.vclock import Reset, Watchdog

from board import pins
from board.base import Board
from board.inputs import Inputs
from board.sound import Sound

PROFILES = ("devkit", "cyd", "oled")


class Keys:
    """The two switches' contacts: closed[0] THROW, closed[1] REFEREE."""

    def __init__(self, throw=False, referee=False):
        self.closed = [throw, referee]

    def throw(self):
        return self.closed[0]

    def referee(self):
        return self.closed[1]


class Serial:
    """The USB serial: each event line goes to every stream in `outs`."""

    def __init__(self, outs):
        self.outs = outs

    def write_line(self, text):
        for out in self.outs:
            out.write(text)
            out.write("\n")  # unix port files are unbuffered: no flush (fsync fails on a pipe)


class _Null:
    def write(self, text):
        pass


class SimSound(Sound):
    """The piezo as one line per pattern: `sound HZ:MS ...` (HZ 0: a rest)."""

    def __init__(self, clock, trace):
        super().__init__(self._tone, clock)
        self.trace = trace

    def _tone(self, hz, volume):
        pass

    def play(self, pattern):
        if not self.muted and pattern:
            notes = " ".join(
                ["%d:%d" % (pattern[i] * 20, pattern[i + 1] * 10) for i in range(0, len(pattern), 2)]
            )
            self.trace.write("sound volume=%d %s\n" % (self.volume, notes))
        super().play(pattern)


def _on_path(module):
    """Whether `module` (a/b) exists as .py or .mpy on sys.path: decided
    before importing it, so a broken module still fails loudly."""
    for folder in sys.path:
        for ext in (".py", ".mpy"):
            try:
                os.stat("%s/%s%s" % (folder or ".", module, ext))
                return True
            except OSError:
                pass
    return False


def screen_for(profile, trace):
    """The hook: the profile's layout on its emulated panel when the screens
    are there, wrapped in the trace screen when `trace` is given."""
    inner = None
    layout = "display/mono" if profile == "oled" else "display/color"
    if _on_path("sim/panels") and _on_path(layout):
        import sim.panels

        panel = sim.panels.panel(profile)
        if profile == "oled":
            from display.mono import MonoScreen

            inner = MonoScreen(panel)
        else:
            from display.color import ColorScreen

            inner = ColorScreen(panel)
    if trace is None:
        return inner if inner is not None else TraceScreen(_Null())
    return TraceScreen(trace, inner)


class SimBoard(Board):
    """The Board, plus what the sim's drivers reach: the emulated profile
    and the switches' contacts (sim.run presses them)."""

    def __init__(self, profile, keys, *board):
        super().__init__(*board)
        self.profile = profile
        self.keys = keys


def _reset():
    raise Reset("reset")


def build(profile, clock, flash_root, serial, random_bytes, entropy, keys=None, trace=None):
    """The sim Board for an emulated `profile` (devkit, cyd, oled).

    clock: sim.vclock.VirtualClock or board.base.Clock; serial: a Serial;
    random_bytes: n -> n bytes; entropy: events.ENTROPY_*; trace: a
    stream for the screen, sound and lamp lines, or None."""
    keys = keys or Keys()
    lines = trace or _Null()
    return SimBoard(
        profile,
        keys,
        "sim",
        screen_for(profile, trace),
        Inputs(keys.throw, keys.referee, clock),
        SimSound(clock, lines),
        random_bytes,
        entropy,
        flash_root,
        serial,
        clock,
        Watchdog(clock, pins.WDT_MS),
        _reset,
        lambda on: micropython.kbd_intr(3 if on else -1),
        lambda on: lines.write("lamp %s\n" % ("on" if on else "off")),
    )
