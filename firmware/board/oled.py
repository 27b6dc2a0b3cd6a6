"""ESP32-DevKitC + SSD1306 128x64 on I2C: the cheapest build.

board.sh1106 is the same wiring with a 1.3" SH1106 module: it builds through here.
"""

from display.mono import MonoScreen
from display.ssd1306 import SSD1306
from machine import I2C, Pin

from board import esp32
from board.pins import OLED, get


def build(scratch=None, name="oled", driver=SSD1306):
    """The oled Board; scratch is not needed: the monochrome screen draws in its own frame.
    name and driver(i2c, addr): the profile and its panel driver (board.sh1106)."""
    i2c = I2C(
        get(OLED, "I2C_ID"), scl=Pin(get(OLED, "SCL")), sda=Pin(get(OLED, "SDA")), freq=get(OLED, "I2C_HZ")
    )
    panel = esp32.panel(driver(i2c, get(OLED, "ADDR")))
    lamp = esp32.output(get(OLED, "LAMP"))
    speaker = esp32.dfplayer(get(OLED, "DF_TX"), get(OLED, "DF_RX"), get(OLED, "DF_BUSY"))
    return esp32.build(
        name,
        MonoScreen(panel),
        get(OLED, "THROW"),
        get(OLED, "REFEREE"),
        get(OLED, "BUZZER"),
        lamp,
        esp32.screen_light(panel),
        speaker,
        get(OLED, "MOTOR"),
    )
