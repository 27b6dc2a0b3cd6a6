"""ILI9341 240x320 TFT (the ESP32-2432S028R "cheap yellow display"), portrait.

    ILI9341(spi, dc, cs, rst)   spi: write(buf); dc, cs, rst: pins (cs, rst may be None)

Same MIPI DCS command set as the ST7789; the glass differs: its sub-pixels
are blue-green-red and its source lines run right to left, so portrait is
MADCTL MX | BGR, and it needs its power and VCOM settings before sleep-out.
"""

from display.mipi import MADCTL_BGR, MADCTL_MX, MipiPanel

# (command, argument count, arguments...): power control 1 and 2, VCOM 1 and 2,
# frame rate 70 Hz, display function, gamma curve 1 (the datasheet's defaults
# for a 3.3 V module, as the vendors' init code sends them).
_INIT = bytes(
    (
        0xC0, 1, 0x23,
        0xC1, 1, 0x10,
        0xC5, 2, 0x3E, 0x28,
        0xC7, 1, 0x86,
        0xB1, 2, 0x00, 0x1B,
        0xB6, 3, 0x08, 0x82, 0x27,
        0x26, 1, 0x01,
    )
)  # fmt: skip


class ILI9341(MipiPanel):
    def __init__(self, spi, dc, cs, rst, sleep_ms=None):
        super().__init__(spi, dc, cs, rst, 240, 320, MADCTL_MX | MADCTL_BGR, False, _INIT, sleep_ms)
