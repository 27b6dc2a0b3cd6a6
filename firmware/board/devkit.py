"""ESP32-DevKitC + 2.0" ST7789 240x320 on SPI2: the WROOM build of hardware/README.md.

board.s3 is the same parts on the ESP32-S3's pin plan: it builds through here.
"""

from display.color import ColorScreen
from display.st7789 import ST7789
from machine import SPI, Pin

from board import esp32
from board.pins import DEVKIT, get


def build(scratch=None, name="devkit", table=DEVKIT):
    """The devkit Board; scratch: the buffer its screen draws in (display.color.ColorScreen).
    name and table: the profile and its pins.py table (board.s3)."""
    spi = SPI(
        get(table, "SPI_ID"),
        baudrate=get(table, "SPI_HZ"),
        polarity=0,
        phase=0,
        sck=Pin(get(table, "SCK")),
        mosi=Pin(get(table, "MOSI")),
    )
    panel = esp32.panel(
        ST7789(
            spi,
            cs=Pin(get(table, "CS"), Pin.OUT, value=1),
            dc=Pin(get(table, "DC"), Pin.OUT),
            rst=Pin(get(table, "RST"), Pin.OUT),
        )
    )
    lamp = esp32.output(get(table, "LAMP"))
    speaker = esp32.dfplayer(get(table, "DF_TX"), get(table, "DF_RX"), get(table, "DF_BUSY"))
    return esp32.build(
        name,
        ColorScreen(panel, scratch),
        get(table, "THROW"),
        get(table, "REFEREE"),
        get(table, "BUZZER"),
        lamp,
        esp32.screen_light(panel, get(table, "BL")),
        speaker,
        get(table, "MOTOR"),
    )
