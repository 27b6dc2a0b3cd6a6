"""ESP32-2432S028 "CYD2USB": the Cheap Yellow Display revision with two USB
ports (micro-USB and USB-C), whose 2.8" panel is an ST7789, not an ILI9341.

Everything else is the cyd's wiring (pins.CYD: the same SPI pins, DC, CS,
backlight, RGB LED, connectors), so board.cyd builds it; only the driver
differs.  Its glass shows true colours with INVOFF (the board's published
TFT_eSPI setup: ST7789, TFT_INVERSION_OFF), where the DevKit build's IPS
module needs INVON.
"""

from display.st7789 import ST7789

from board import cyd


def _st7789(spi, dc, cs):
    return ST7789(spi, dc=dc, cs=cs, rst=None, invert=False)


def build(scratch=None):
    """The cyd2usb Board; scratch: the buffer its screen draws in (display.color.ColorScreen)."""
    return cyd.build(scratch, "cyd2usb", _st7789)
