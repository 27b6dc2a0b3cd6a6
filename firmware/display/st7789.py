"""ST7789 240x320 panel (the DevKit build's 2.0" module, the CYD2USB's 2.8"), portrait.

    ST7789(spi, dc, cs, rst, invert=True)   spi: write(buf); dc, cs, rst: pins (cs, rst may be None)

The 2.0" module's glass is IPS: it shows colours inverted unless INVON is
sent (invert=True).  The CYD2USB's glass shows them true with INVOFF
(invert=False: the board's published TFT_eSPI setup, TFT_INVERSION_OFF).
Sub-pixels red-green-blue on both.  Portrait, connector at the bottom: MADCTL 0.
"""

from display.mipi import MipiPanel


class ST7789(MipiPanel):
    def __init__(self, spi, dc, cs, rst, sleep_ms=None, invert=True):
        super().__init__(spi, dc, cs, rst, 240, 320, 0, invert, b"", sleep_ms)
