"""ESP32-DevKitC + 2.0" ST7789 240x320 on SPI2: the build of hardware/README.md."""

from display.color import ColorScreen
from display.st7789 import ST7789
from machine import SPI, Pin

from board import esp32, pins


def build():
    spi = SPI(
        pins.DEVKIT_SPI_ID,
        baudrate=pins.DEVKIT_SPI_HZ,
        polarity=0,
        phase=0,
        sck=Pin(pins.DEVKIT_SCK),
        mosi=Pin(pins.DEVKIT_MOSI),
    )
    panel = ST7789(
        spi,
        cs=Pin(pins.DEVKIT_CS, Pin.OUT, value=1),
        dc=Pin(pins.DEVKIT_DC, Pin.OUT),
        rst=Pin(pins.DEVKIT_RST, Pin.OUT),
    )
    lamp = esp32.output(pins.DEVKIT_LAMP)
    speaker = esp32.dfplayer(pins.DEVKIT_DF_TX, pins.DEVKIT_DF_RX, pins.DEVKIT_DF_BUSY)
    return esp32.build(
        "devkit",
        ColorScreen(panel),
        pins.DEVKIT_THROW,
        pins.DEVKIT_REFEREE,
        pins.DEVKIT_BUZZER,
        lamp,
        esp32.screen_light(panel, pins.DEVKIT_BL),
        speaker,
        pins.DEVKIT_MOTOR,
    )
