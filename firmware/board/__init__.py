"""The board layer: pins, buses and the hardware of each board profile.

board.<profile>.build() gives the application its Board (docs/device.md):
s3, devkit, cyd, cyd2usb, oled and sh1106 on the ESP32; the virtual board
of the unix port is sim.board, built of this package's parts and sim/'s
emulated hardware.  Only this package imports `machine` or names a pin.
"""
