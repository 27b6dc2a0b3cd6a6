"""What every ESP32 profile shares: the radio for true randomness, the WDT
(board/watchdog.py), the USB serial (event lines out, command lines in),
switches, the piezo, the optional vibration motor and DFPlayer on their
pins, the screen's light, reset, and the panel kept for a failed boot.

hardware/README.md section 5: the radio is switched on (station mode, no
network joined) so os.urandom draws from the true hardware RNG.
"""

import os
import time

import machine
import micropython
import network
from micropython import const

from board import pins, watchdog
from board.base import Board, Clock, StdinLines
from board.dfplayer import DFPlayer
from board.inputs import Inputs
from board.sound import Sound
from bobing.events import ENTROPY_TRUE

FLASH_ROOT = "/data"
PANEL = None  # the last panel a profile built (panel())
_PWM_HZ_IDLE = const(1000)


def panel(driver):
    """The profile's panel driver, kept for the out-of-service screen of a
    boot whose layout cannot be built (app/safemode.py: fonts missing)."""
    global PANEL
    PANEL = driver
    return driver


def nvs(namespace):
    """esp32.NVS(namespace): where the store keeps its tip and id outside the
    filesystem (bobing/store/tipkeep.py); imported here, at the store's boot."""
    import esp32

    return esp32.NVS(namespace)


def radio_on():
    """The RF subsystem on (station mode, no network joined): os.urandom
    draws from the true hardware RNG.  Any failure, whatever its type, stops
    the boot (E-RADIO, app/safemode.py): a bowl never plays on pseudo-random dice."""
    network.WLAN(network.STA_IF).active(True)


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


def screen_light(panel, bl_gpio=-1):
    """A `backlight(on)` for the Board: the panel's display on or off (its
    picture kept) and, with bl_gpio, the backlight pin (only switched where
    the module has its own BL transistor: hardware/README.md 4.1)."""
    pin = None if bl_gpio < 0 else machine.Pin(bl_gpio, machine.Pin.OUT, value=1)

    def light(on):
        panel.power(on)
        if pin is not None:
            pin.value(1 if on else 0)

    return light


def dfplayer(tx_gpio, rx_gpio, busy_gpio):
    """The DFPlayer Mini on UART2 (hardware/README.md 4.5); BUSY has an
    external pull-up, so a bowl without the module reads idle and stays silent."""
    uart = machine.UART(pins.DF_UART_ID, baudrate=pins.DF_BAUD, tx=tx_gpio, rx=rx_gpio)
    return DFPlayer(uart, machine.Pin(busy_gpio, machine.Pin.IN), time.ticks_ms())


def build(name, screen, throw_gpio, referee_gpio, buzzer_gpio, lamp, backlight, speaker=None, motor_gpio=-1):
    """The Board of an ESP32 profile around its screen; backlight: screen_light();
    speaker: dfplayer() or None; motor_gpio: the vibration motor's MOSFET gate, -1: none."""
    clock = Clock()
    radio_on()
    return Board(
        name,
        screen,
        Inputs(switch(throw_gpio), switch(referee_gpio), clock),
        Sound(piezo(buzzer_gpio), clock, output(motor_gpio) if motor_gpio >= 0 else None),
        os.urandom,
        ENTROPY_TRUE,
        FLASH_ROOT,
        StdinLines(),  # the USB serial (UART0, the REPL's): live event lines out, commands in
        clock,
        watchdog,
        machine.reset,
        lambda on: micropython.kbd_intr(3 if on else -1),
        lamp,
        backlight,
        speaker,
    )
