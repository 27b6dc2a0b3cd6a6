"""ESP32-DevKitC + 2.0" ST7789 240x320 on SPI2: the build of hardware/README.md."""

from display.color import ColorScreen
from display.st7789 import ST7789
from machine import SPI, Pin

from board import esp32
from board.pins import DEVKIT, get


def build(scratch=None):
    """The devkit Board; scratch: the buffer its screen draws in (display.color.ColorScreen)."""
    spi = SPI(
        get(DEVKIT, "SPI_ID"),
        baudrate=get(DEVKIT, "SPI_HZ"),
        polarity=0,
        phase=0,
        sck=Pin(get(DEVKIT, "SCK")),
        mosi=Pin(get(DEVKIT, "MOSI")),
    )
    panel = ST7789(
        spi,
        cs=Pin(get(DEVKIT, "CS"), Pin.OUT, value=1),
        dc=Pin(get(DEVKIT, "DC"), Pin.OUT),
        rst=Pin(get(DEVKIT, "RST"), Pin.OUT),
    )
    lamp = esp32.output(get(DEVKIT, "LAMP"))
    speaker = esp32.dfplayer(get(DEVKIT, "DF_TX"), get(DEVKIT, "DF_RX"), get(DEVKIT, "DF_BUSY"))
    return esp32.build(
        "devkit",
        ColorScreen(panel, scratch),
        get(DEVKIT, "THROW"),
        get(DEVKIT, "REFEREE"),
        get(DEVKIT, "BUZZER"),
        lamp,
        esp32.screen_light(panel, get(DEVKIT, "BL")),
        speaker,
        get(DEVKIT, "MOTOR"),
    )
