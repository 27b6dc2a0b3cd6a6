"""The ESP32's `machine` and `network` on the unix port, for board.esp32 and its profiles.

    import fakemachine
    fakemachine.install()        # before the first `import board.devkit`
    board = devkit.build()       # the shipped profile, on these

Only what cannot exist here is faked: GPIO pins, the SPI and I2C buses, PWM,
the UART, the hardware watchdog and timers, RTC memory, reset, the radio.  Inputs read
high (an active-low switch left open, the DFPlayer's BUSY idle), outputs are
dropped; a bus counts the bytes written to it (`written`), which is what the
panel's wire would carry, and every bus made is in BUSES.  Nothing is
recorded per write, so a long flow allocates nothing here.
"""

import sys


class Part:
    """A pin, the PWM, the watchdog, a timer, the radio: takes every call,
    keeps nothing, reads 1.  One class with no attributes, as the harness's
    objects count against the heap measured (docs/memory.md)."""

    IN = 1
    OUT = 3
    PULL_UP = 1
    PERIODIC = 1

    def __init__(self, *args, **settings):
        pass

    def value(self, level=None):  # no *level: that tuple would be garbage machine.Pin never makes
        return 1

    __call__ = freq = duty_u16 = feed = init = deinit = active = value


Pin = PWM = WDT = Timer = Part


class RTC:
    """RTC memory, which board.watchdog reads and writes when the watchdog
    starts (kept over a soft reset on the chip; here for the process)."""

    _memory = b""

    def memory(self, data=None):
        if data is None:
            return RTC._memory
        RTC._memory = bytes(data)


BUSES = []


class _Bus:
    def __init__(self, ident, **settings):
        self.written = 0
        BUSES.append(self)

    def write(self, buf):
        self.written += len(buf)

    def writeto(self, addr, buf):
        self.written += len(buf)

    def writevto(self, addr, bufs):
        for buf in bufs:
            self.written += len(buf)


SPI = _Bus
I2C = _Bus
UART = _Bus


def reset():
    raise SystemExit("machine.reset()")


class network:  # noqa: N801 (stands for the module)
    STA_IF = 0
    WLAN = Part


def install():
    """Make `import machine` and `import network` give these."""
    sys.modules["machine"] = sys.modules[__name__]
    sys.modules["network"] = network
