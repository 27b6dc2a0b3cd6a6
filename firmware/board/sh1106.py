"""ESP32-DevKitC + 1.3" SH1106 128x64 OLED on I2C: the oled build's wiring
(pins.OLED) with the bigger module sold beside the 0.96" SSD1306 one.

The SH1106 has 132 columns of memory and no SSD1306 addressing commands,
so it needs its own driver (display.sh1106); board.oled builds the rest.
"""

from display.sh1106 import SH1106

from board import oled


def build(scratch=None):
    """The sh1106 Board; scratch is not needed: the monochrome screen draws in its own frame."""
    return oled.build(scratch, "sh1106", SH1106)
