"""ESP32-2432S028R ("Cheap Yellow Display"): 2.8" ILI9341 240x320 on HSPI.

The panel, backlight, RGB LED and speaker amplifier are wired on the board;
the switches go to its CN1 connector (THROW and REFEREE of pins.CYD) with
the pull-ups and RC of hardware/README.md section 4.2.  No speech module:
the connectors bring out no free pin for its UART (board/pins.py).
board.cyd2usb is the same board with an ST7789: it builds through here.
"""

from display.color import ColorScreen
from display.ili9341 import ILI9341
from machine import SPI, Pin

from board import esp32
from board.pins import CYD, get


def _ili9341(spi, dc, cs):
    return ILI9341(spi, dc=dc, cs=cs, rst=None)


def build(scratch=None, name="cyd", panel_on=_ili9341):
    """The cyd Board; scratch: the buffer its screen draws in (display.color.ColorScreen).
    name and panel_on(spi, dc, cs): the profile and its panel driver (board.cyd2usb)."""
    spi = SPI(
        get(CYD, "SPI_ID"),
        baudrate=get(CYD, "SPI_HZ"),
        polarity=0,
        phase=0,
        sck=Pin(get(CYD, "SCK")),
        mosi=Pin(get(CYD, "MOSI")),
        miso=Pin(get(CYD, "MISO")),
    )
    panel = esp32.panel(panel_on(spi, Pin(get(CYD, "DC"), Pin.OUT), Pin(get(CYD, "CS"), Pin.OUT, value=1)))
    light = esp32.screen_light(panel, get(CYD, "BL"))  # BL low at reset: dark until this, before drawing
    Pin(get(CYD, "LED_RED"), Pin.OUT, value=1)  # active low: off
    Pin(get(CYD, "LED_BLUE"), Pin.OUT, value=1)
    lamp = esp32.output(get(CYD, "LED_GREEN"), on_level=0)
    return esp32.build(
        name,
        ColorScreen(panel, scratch),
        get(CYD, "THROW"),
        get(CYD, "REFEREE"),
        get(CYD, "BUZZER"),
        lamp,
        light,
    )
