"""ST7789 240x320 IPS panel (the DevKit build's 2.0" module), portrait.

    ST7789(spi, dc, cs, rst)   spi: write(buf); dc, cs, rst: pins (cs, rst may be None)

The glass is IPS: it shows colours inverted unless INVON is sent, and its
sub-pixels are red-green-blue.  Portrait, connector at the bottom: MADCTL 0.
"""

from display.mipi import MipiPanel


class ST7789(MipiPanel):
    def __init__(self, spi, dc, cs, rst, sleep_ms=None):
        super().__init__(spi, dc, cs, rst, 240, 320, 0, True, b"", sleep_ms)
