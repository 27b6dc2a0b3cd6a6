"""SSD1306 128x64 monochrome OLED on I2C, and its SH1106 cousin (display.sh1106).

    SSD1306(i2c, addr=0x3C)   i2c: writeto(addr, buf) and writevto(addr, bufs)

The panel owns the whole picture: `buffer` (1,024 bytes, one bit a pixel,
a byte is 8 rows of one column: framebuf.MONO_VLSB) and `fb`, the
FrameBuffer the mono screen draws on.  show(first, last) sends pages (bands
of 8 rows) first..last only, so a roll frame sends the dice's pages and not
the whole panel.  Mounted the usual way round: segment remap and COM scan
reversed (A1, C8), so (0, 0) is the top left as the wires run to the top.

Power-up follows the datasheets' power-on sequence (SSD1306 Rev 1.1, 8.9
"Power ON and OFF sequence", and its charge pump note: 8Dh 14h before AFh;
the SH1106 datasheet's power-on sequence with the built-in DC-DC: ADh 8Bh
before AFh): the display stays off (AEh) while the controller is set up, the
panel's supply (charge pump or DC-DC) is switched on, the display RAM,
noise at power-on, is written blank, and display on (AFh) comes only once
the supply has had its 100 ms to settle.  The module's RC resets the chip
at power-up; there is no reset line to drive.
"""

import time

import framebuf
from micropython import const

WIDTH = const(128)
HEIGHT = const(64)
PAGES = const(8)
CONTRAST_NORMAL = const(0xCF)  # the level _INIT sets (command 0x81)
CONTRAST_HIGH = const(0xFF)  # the brightest: the high-contrast setting
SUPPLY_MS = const(100)  # charge pump / DC-DC on to display on (AFh): datasheets above

# (each byte a command or an argument) display off, clock, multiplex 63,
# offset 0, start line 0, segment remap, COM scan reversed, COM pins
# alternative, contrast, pre-charge, VCOMH, resume from RAM, normal (not
# inverted); then the power and addressing of each controller (_specific).
_INIT = b"\xae\xd5\x80\xa8\x3f\xd3\x00\x40\xa1\xc8\xda\x12\x81\xcf\xd9\xf1\xdb\x40\xa4\xa6"


class SSD1306:
    _WINDOW_BYTES = 7  # control byte, 21 c0 c1, 22 p0 p1

    def __init__(self, i2c, addr=0x3C, sleep_ms=None):
        self.i2c = i2c
        self.addr = addr
        self.width = WIDTH
        self.height = HEIGHT
        self.buffer = bytearray(WIDTH * PAGES)
        self.fb = framebuf.FrameBuffer(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        mv = memoryview(self.buffer)
        self._pages = [mv[p * WIDTH : (p + 1) * WIDTH] for p in range(PAGES)]
        self._vec = [b"\x40", self._pages[0]]  # control byte: data follow
        self._cmd = bytearray(8)
        self._cmd_mv = memoryview(self._cmd)
        self._window = self._cmd_mv[: self._WINDOW_BYTES]  # made once: a slice per page would allocate
        self.init(sleep_ms or time.sleep_ms)

    def init(self, sleep_ms):
        """Configure the controller with the display off, its supply on, its
        memory cleared, and display on once the supply has settled."""
        self.command(_INIT + self._specific())
        self.fb.fill(0)
        self.show(0, PAGES - 1)
        sleep_ms(SUPPLY_MS)
        self.command(b"\xaf")

    def _specific(self):
        # charge pump on; horizontal addressing: a page's columns, then the next page
        return b"\x8d\x14\x20\x00"

    def command(self, cmds):
        """Send command bytes (commands and their arguments) in one transaction."""
        self.i2c.writevto(self.addr, (b"\x00", cmds))

    def _page_window(self, page):
        c = self._cmd
        c[0] = 0x00
        c[1] = 0x21  # columns 0..127
        c[2] = 0
        c[3] = WIDTH - 1
        c[4] = 0x22  # pages page..page
        c[5] = page
        c[6] = page
        self.i2c.writeto(self.addr, self._window)

    def show(self, first=0, last=PAGES - 1):
        """Send pages first..last (0..7) of the buffer to the panel."""
        vec = self._vec
        for page in range(first, last + 1):
            self._page_window(page)
            vec[1] = self._pages[page]
            self.i2c.writevto(self.addr, vec)

    def power(self, on):
        """Display on or off (the panel's memory is kept)."""
        self.command(b"\xaf" if on else b"\xae")

    def contrast(self, level):
        """Brightness 0..255."""
        c = self._cmd
        c[0] = 0x81
        c[1] = level
        self.command(self._cmd_mv[:2])
