"""SH1106 128x64 OLED on I2C: the SSD1306's cousin with 132 columns of memory.

    SH1106(i2c, addr=0x3C, sleep_ms=None)   i2c: writeto(addr, buf) and writevto(addr, bufs)

It has page addressing only (no horizontal mode, no column or page windows)
and the glass shows memory columns 2..129, so each page is addressed with
B0+page and column 2 before its 128 bytes.  Otherwise as display.ssd1306.
"""

from display.ssd1306 import SSD1306


class SH1106(SSD1306):
    _WINDOW_BYTES = 4  # control byte, B0+page, column low, column high

    def _specific(self):
        return b"\xad\x8b"  # its DC-DC converter on (it has no charge pump command)

    def _page_window(self, page):
        c = self._cmd
        c[0] = 0x00
        c[1] = 0xB0 | page
        c[2] = 0x02  # column 2: low nibble
        c[3] = 0x10  # high nibble 0
        self.i2c.writeto(self.addr, self._window)
