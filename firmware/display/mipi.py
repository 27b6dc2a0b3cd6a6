"""MIPI DCS colour panels on SPI (ST7789, ILI9341): windows of RGB565 pixels.

The bus is any object with write(buf) (machine.SPI, or sim.panels' fake);
dc, cs and rst are pins, callable with a level (machine.Pin) or with a
.value(level) method; cs and rst may be None (tied low / no reset line).
Pixels go out as big-endian RGB565, the panel's byte order: the screens
build them with framebuf.RGB565 from colours whose bytes are pre-swapped
(display.color.rgb), so no pixel is converted on the way out.

Nothing is allocated after construction: commands and their arguments go
through buffers built once.

Power-up follows the controllers' datasheets (Sitronix ST7789V v1.6 and
ILITEK ILI9341 v1.11, which agree on every figure used here):
- after a reset, hardware (RESX) or software (SWRESET), the controller
  needs 5 ms before it takes a command and 120 ms before SLPOUT when the
  reset came in sleep-out mode (ST7789V 9.1.2 SWRESET, ILI9341 8.2.2
  SWRESET, and both sheets' reset timing table, tRT).  A soft reboot of
  the ESP32 finds the panel awake, so the driver always waits the 120 ms;
- after SLPOUT, 5 ms before the next command (supply and clock settle),
  and 120 ms before a SLPIN could follow (ST7789V 9.1.12, ILI9341 8.2.12);
- the frame memory holds whatever it held, noise at power-on (it is not
  cleared by either reset: ST7789V 9.1.2), so the driver writes it black
  before DISPON and the glass never shows that noise.
"""

import time

from micropython import const

_SWRESET = const(0x01)
_SLPOUT = const(0x11)
_NORON = const(0x13)
_INVOFF = const(0x20)
_INVON = const(0x21)
_DISPOFF = const(0x28)
_DISPON = const(0x29)
_CASET = const(0x2A)
_RASET = const(0x2B)
_RAMWR = const(0x2C)
_MADCTL = const(0x36)
_COLMOD = const(0x3A)

MADCTL_MY = const(0x80)  # rows bottom to top
MADCTL_MX = const(0x40)  # columns right to left
MADCTL_MV = const(0x20)  # rows and columns exchanged: landscape
MADCTL_BGR = const(0x08)  # the glass's sub-pixels are blue-green-red

_FILL_PIXELS = const(240)  # fill() repeats one line of this many pixels
RESET_MS = const(120)  # reset (RESX or SWRESET) to SLPOUT: datasheets above
SLEEP_OUT_MS = const(5)  # SLPOUT to the next command
_RESET_PULSE_MS = const(1)  # RESX low: the datasheets ask 10 us


def _setter(pin):
    if pin is None:
        return None
    return pin if callable(pin) else pin.value


class MipiPanel:
    """A 16-bit colour panel: `width` x `height` px as the screens see it (after MADCTL).

    madctl: the MADCTL byte (orientation, BGR) for this glass; invert: send
    INVON (IPS glass shows true colours inverted); extra_init: bytes of
    further (command, argument count, arguments...) the controller needs
    before sleep-out.
    """

    def __init__(self, spi, dc, cs, rst, width, height, madctl, invert, extra_init=b"", sleep_ms=None):
        self.spi = spi
        self.width = width
        self.height = height
        self._dc = _setter(dc)
        self._cs = _setter(cs)
        self._rst = _setter(rst)
        self._sleep = sleep_ms or time.sleep_ms
        self._cmd = bytearray(1)
        self._args = bytearray(4)
        self._line = bytearray(2 * _FILL_PIXELS)
        self._line_mv = memoryview(self._line)
        import framebuf

        self._line_fb = framebuf.FrameBuffer(self._line, _FILL_PIXELS, 1, framebuf.RGB565)
        self.init(madctl, invert, extra_init)

    def init(self, madctl, invert, extra_init):
        """Reset and wake the controller: 16-bit pixels, orientation, the frame
        memory cleared to black, display on (the datasheets' order and waits)."""
        if self._cs:
            self._cs(1)
        if self._rst:  # RESX: a hardware reset, the line the module may have
            self._rst(0)
            self._sleep(_RESET_PULSE_MS)
            self._rst(1)
        else:  # RST tied to EN (cyd): a soft reboot leaves the panel as it was
            self.command(_SWRESET)
        self._sleep(RESET_MS)
        i = 0
        while i < len(extra_init):
            n = extra_init[i + 1]
            self.command(extra_init[i], extra_init[i + 2 : i + 2 + n])
            i += 2 + n
        self.command(_COLMOD, b"\x55")  # 16 bits a pixel on the interface and in the frame memory
        self._args[0] = madctl
        self.command(_MADCTL, self._args, 1)
        self.command(_INVON if invert else _INVOFF)
        self.command(_SLPOUT)
        self._sleep(SLEEP_OUT_MS)
        self.command(_NORON)
        self.fill(0, 0, self.width, self.height, 0)  # black: the power-on noise never shows
        self.command(_DISPON)

    def command(self, cmd, args=None, count=-1):
        """One command and its arguments (the first `count` bytes of args; -1: all)."""
        if self._cs:
            self._cs(0)
        self._dc(0)
        self._cmd[0] = cmd
        self.spi.write(self._cmd)
        if args is not None and count != 0:
            self._dc(1)
            if count < 0 or count == len(args):
                self.spi.write(args)
            else:
                self.spi.write(memoryview(args)[:count])
        if self._cs:
            self._cs(1)

    def _window(self, x, y, w, h):
        a = self._args
        x1 = x + w - 1
        y1 = y + h - 1
        a[0] = x >> 8
        a[1] = x & 255
        a[2] = x1 >> 8
        a[3] = x1 & 255
        self.command(_CASET, a)
        a[0] = y >> 8
        a[1] = y & 255
        a[2] = y1 >> 8
        a[3] = y1 & 255
        self.command(_RASET, a)
        if self._cs:
            self._cs(0)
        self._dc(0)
        self._cmd[0] = _RAMWR
        self.spi.write(self._cmd)
        self._dc(1)

    def blit(self, x, y, w, h, pixels):
        """Write a w x h window at (x, y) from `pixels`: exactly w * h * 2 bytes, row by row."""
        self._window(x, y, w, h)
        self.spi.write(pixels)
        if self._cs:
            self._cs(1)

    def fill(self, x, y, w, h, color):
        """Fill a w x h window at (x, y) with one colour (display.color.rgb)."""
        self._line_fb.fill(color)
        self._window(x, y, w, h)
        left = w * h
        while left >= _FILL_PIXELS:
            self.spi.write(self._line)
            left -= _FILL_PIXELS
        if left:
            self.spi.write(self._line_mv[: 2 * left])
        if self._cs:
            self._cs(1)

    def power(self, on):
        """Display on or off (the frame memory is kept)."""
        self.command(_DISPON if on else _DISPOFF)
