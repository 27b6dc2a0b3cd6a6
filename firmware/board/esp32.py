"""What every ESP32 profile shares: the radio for true randomness, the WDT,
the USB serial, switches and the piezo on their pins, reset.

hardware/README.md section 5: the radio is switched on (station mode, no
network joined) so os.urandom draws from the true hardware RNG.
"""

import os
import sys

import machine
import micropython
import network
from micropython import const

from board import pins
from board.base import Board, Clock
from board.inputs import Inputs
from board.sound import Sound
from bobing.events import ENTROPY_PSEUDO, ENTROPY_TRUE

FLASH_ROOT = "/data"
_PWM_HZ_IDLE = const(1000)


def radio_on():
    """ENTROPY_TRUE once the RF subsystem is on, ENTROPY_PSEUDO if it cannot be."""
    try:
        network.WLAN(network.STA_IF).active(True)
        return ENTROPY_TRUE
    except OSError:
        return ENTROPY_PSEUDO


class Watchdog:
    """machine.WDT, started by the first feed(): the boot (flash recovery)
    is not timed, the game loop is (pins.WDT_MS)."""

    def __init__(self):
        self._wdt = None

    def feed(self):
        if self._wdt is None:
            self._wdt = machine.WDT(timeout=pins.WDT_MS)
        self._wdt.feed()


class Serial:
    """The USB serial (UART0, the REPL's): the live event lines."""

    def write_line(self, text):
        sys.stdout.write(text)
        sys.stdout.write("\n")


def switch(gpio):
    """A `read` for Inputs: True while the active-low switch on gpio is closed."""
    pin = machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)
    return lambda: pin.value() == pins.PRESSED


def piezo(gpio):
    """A `tone(hz, volume)` for Sound on LEDC PWM."""
    pwm = machine.PWM(machine.Pin(gpio), freq=_PWM_HZ_IDLE, duty_u16=0)

    def tone(hz, volume):
        if hz:
            pwm.freq(hz)
            pwm.duty_u16(pins.TONE_DUTY * volume // 10)
        else:
            pwm.duty_u16(0)

    return tone


def output(gpio, on_level=1):
    """A `set(on)` for a plain output pin (the ready lamp)."""
    pin = machine.Pin(gpio, machine.Pin.OUT, value=1 - on_level)
    return lambda on: pin.value(on_level if on else 1 - on_level)


def build(name, screen, throw_gpio, referee_gpio, buzzer_gpio, lamp):
    """The Board of an ESP32 profile around its screen."""
    clock = Clock()
    entropy = radio_on()
    return Board(
        name,
        screen,
        Inputs(switch(throw_gpio), switch(referee_gpio), clock),
        Sound(piezo(buzzer_gpio), clock),
        os.urandom,
        entropy,
        FLASH_ROOT,
        Serial(),
        clock,
        Watchdog(),
        machine.reset,
        lambda on: micropython.kbd_intr(3 if on else -1),
        lamp,
    )
