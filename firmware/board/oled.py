"""ESP32-DevKitC + SSD1306 128x64 on I2C: the cheapest build."""

from display.mono import MonoScreen
from display.ssd1306 import SSD1306
from machine import I2C, Pin

from board import esp32
from board.pins import OLED, get


def build(scratch=None):
    """The oled Board; scratch is not needed: the monochrome screen draws in its own frame."""
    i2c = I2C(
        get(OLED, "I2C_ID"), scl=Pin(get(OLED, "SCL")), sda=Pin(get(OLED, "SDA")), freq=get(OLED, "I2C_HZ")
    )
    panel = SSD1306(i2c, get(OLED, "ADDR"))
    lamp = esp32.output(get(OLED, "LAMP"))
    speaker = esp32.dfplayer(get(OLED, "DF_TX"), get(OLED, "DF_RX"), get(OLED, "DF_BUSY"))
    return esp32.build(
        "oled",
        MonoScreen(panel),
        get(OLED, "THROW"),
        get(OLED, "REFEREE"),
        get(OLED, "BUZZER"),
        lamp,
        esp32.screen_light(panel),
        speaker,
        get(OLED, "MOTOR"),
    )
