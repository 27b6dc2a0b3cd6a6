"""ESP32-S3-DevKitC-1 N8R8 + 2.0" ST7789 240x320 on SPI2: the recommended build.

The devkit build's parts on the S3's pin plan (pins.S3, hardware/README.md
section 2), on the official ESP32_GENERIC_S3 SPIRAM_OCT MicroPython: the
heap is in the 8 MB PSRAM, the flash log has a 6 MB filesystem.  Only the
pins differ from devkit, so board.devkit builds it.
"""

from board import devkit
from board.pins import S3


def build(scratch=None):
    """The s3 Board; scratch: the buffer its screen draws in (display.color.ColorScreen)."""
    return devkit.build(scratch, "s3", S3)
