"""ESP32-DevKitC + SSD1306 128x64 on I2C: the cheapest build."""

from display.mono import MonoScreen
from display.ssd1306 import SSD1306
from machine import I2C, Pin

from board import esp32, pins


def build():
    i2c = I2C(pins.OLED_I2C_ID, scl=Pin(pins.OLED_SCL), sda=Pin(pins.OLED_SDA), freq=pins.OLED_I2C_HZ)
    panel = SSD1306(i2c, pins.OLED_ADDR)
    lamp = esp32.output(pins.OLED_LAMP)
    speaker = esp32.dfplayer(pins.OLED_DF_TX, pins.OLED_DF_RX, pins.OLED_DF_BUSY)
    return esp32.build(
        "oled",
        MonoScreen(panel),
        pins.OLED_THROW,
        pins.OLED_REFEREE,
        pins.OLED_BUZZER,
        lamp,
        esp32.screen_light(panel),
        speaker,
        pins.OLED_MOTOR,
    )
