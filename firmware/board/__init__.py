"""The board layer: pins, buses and the hardware of each board profile.

board.<profile>.build() gives the application its Board (docs/device.md):
devkit, cyd and oled on the ESP32, sim in the unix port.  Only this package
imports `machine` or names a pin.
"""
