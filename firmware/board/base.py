"""The Board every profile builds (docs/device.md), and the clock of a real board."""

import asyncio
import time


class Clock:
    """Milliseconds of the board: ticks_ms() wraps (compare with ticks_diff),
    sleep_ms(ms) is awaited.  The virtual board replaces it with sim.vclock."""

    ticks_ms = staticmethod(time.ticks_ms)
    ticks_diff = staticmethod(time.ticks_diff)
    sleep_ms = staticmethod(asyncio.sleep_ms)


class Board:
    """What the application is given; see docs/device.md for each attribute.

    name, screen, inputs, sound, random_bytes(n), entropy, flash_root,
    serial (write_line(str): the live event lines), clock, watchdog
    (feed()); and for main.py: reset() (never returns), kbd_intr(on)
    (Ctrl-C from the USB serial on or off), lamp(on) (the ready lamp).
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
