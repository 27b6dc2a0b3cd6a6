"""ESP32-2432S028R ("Cheap Yellow Display"): 2.8" ILI9341 240x320 on HSPI.

The panel, backlight, RGB LED and speaker amplifier are wired on the board;
the switches go to its CN1 connector (pins.CYD_THROW, pins.CYD_REFEREE)
with the pull-ups and RC of hardware/README.md section 4.2.  No speech
module: the connectors bring out no free pin for its UART (board/pins.py).
"""

from display.color import ColorScreen
from display.ili9341 import ILI9341
from machine import SPI, Pin

from board import esp32, pins


def build():
    spi = SPI(
        pins.CYD_SPI_ID,
        baudrate=pins.CYD_SPI_HZ,
        polarity=0,
        phase=0,
        sck=Pin(pins.CYD_SCK),
        mosi=Pin(pins.CYD_MOSI),
        miso=Pin(pins.CYD_MISO),
    )
    panel = ILI9341(spi, cs=Pin(pins.CYD_CS, Pin.OUT, value=1), dc=Pin(pins.CYD_DC, Pin.OUT), rst=None)
    light = esp32.screen_light(panel, pins.CYD_BL)  # BL low at reset: dark until this, before drawing
    Pin(pins.CYD_LED_RED, Pin.OUT, value=1)  # active low: off
    Pin(pins.CYD_LED_BLUE, Pin.OUT, value=1)
    lamp = esp32.output(pins.CYD_LED_GREEN, on_level=0)
    return esp32.build(
        "cyd", ColorScreen(panel), pins.CYD_THROW, pins.CYD_REFEREE, pins.CYD_BUZZER, lamp, light
    )
