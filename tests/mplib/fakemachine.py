"""The ESP32's `machine` and `network` on the unix port, for board.esp32 and its profiles.

    import fakemachine
    fakemachine.install()        # before the first `import board.devkit`
    board = devkit.build()       # the shipped profile, on these

Only what cannot exist here is faked: GPIO pins, the SPI and I2C buses, PWM,
the UART, the hardware watchdog and timers, reset, the radio.  Inputs read
high (an active-low switch left open, the DFPlayer's BUSY idle), outputs are
dropped; a bus counts the bytes written to it (`written`), which is what the
panel's wire would carry, and every bus made is in BUSES.  Nothing is
recorded per write, so a long flow allocates nothing here.
"""

import sys


class Pin:
    IN = 1
    OUT = 3
    PULL_UP = 1

    def __init__(self, gpio, mode=IN, pull=None, value=None):
        self.gpio = gpio
        self.level = 1 if value is None else value

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = level

    __call__ = value


BUSES = []


class _Bus:
    def __init__(self, ident, **settings):
        self.ident = ident
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


class PWM:
    def __init__(self, pin, freq=1000, duty_u16=0):
        self._freq = freq
        self._duty = duty_u16

    def freq(self, hz=None):
        if hz is None:
            return self._freq
        self._freq = hz

    def duty_u16(self, duty=None):
        if duty is None:
            return self._duty
        self._duty = duty


class WDT:
    def __init__(self, timeout=5000):
        self.timeout = timeout

    def feed(self):
        pass


class Timer:
    PERIODIC = 1

    def __init__(self, ident):
        self.ident = ident

    def init(self, period=1000, mode=PERIODIC, callback=None):
        pass

    def deinit(self):
        pass


def reset():
    raise SystemExit("machine.reset()")


class network:  # noqa: N801 (stands for the module)
    STA_IF = 0

    class WLAN:
        def __init__(self, interface):
            self.on = False

        def active(self, on):
            self.on = on


def install():
    """Make `import machine` and `import network` give these."""
    sys.modules["machine"] = sys.modules[__name__]
    sys.modules["network"] = network
