"""The colour panels' glass for sim.panels: an ST7789 or ILI9341 and its memory.

What it models (MIPI DCS): the window, RAMWR wrapping in it, MADCTL, COLMOD
(16-bit only), INVON/INVOFF, SLPOUT/SLPIN, DISPON/DISPOFF, SWRESET and RST,
and the glass: the 2.0" ST7789's IPS glass shows colours inverted without
INVON, the CYD2USB's ST7789 ("st7789-cyd2usb") true with INVOFF, the
ILI9341 module's is BGR, columns right to left.  Any other command raises
unless it is one of the chip's setup commands.  Power-up runs on the
panel's clock (wait(ms), the driver's sleep_ms): a command hurried against
the datasheets (display/mipi.py cites them) raises, and the memory holds
noise at power-on (noise()), so a glass lit before it was written shows it.
"""

KIND_ST7789 = "st7789"
KIND_ST7789_CYD2USB = "st7789-cyd2usb"
KIND_ILI9341 = "ili9341"
_ST7789_SETUP = b"\x13\x26\xb2\xb7\xbb\xc0\xc2\xc3\xc4\xc6\xd0\xe0\xe1"

# Every colour kind, with its setup commands that have no visible effect here (power, gamma, frame rate...).
KINDS = {
    KIND_ST7789: _ST7789_SETUP,
    KIND_ST7789_CYD2USB: _ST7789_SETUP,
    KIND_ILI9341: b"\x13\x26\xb1\xb6\xc0\xc1\xc5\xc7\xcb\xcf\xe0\xe1\xe8\xea\xed\xf2\xf7",
}
_RESET_TO_COMMAND_MS = 5  # ST7789V 9.1.2, ILI9341 8.2.2
_RESET_TO_SLPOUT_MS = 120
_SLPOUT_TO_COMMAND_MS = 5  # ST7789V 9.1.12, ILI9341 8.2.12
_SLPOUT_TO_SLPIN_MS = 120

NEVER = -1_000_000  # no wait pending at power-on


def noise(size):
    """`size` bytes of power-on noise (the same every time)."""
    out = bytearray(size)
    x = 0x2545
    for i in range(size):
        x = (x * 75 + 74) % 65537
        out[i] = x & 255
    return out


class RamMemory:
    """Glass memory in a bytearray, noise at power-on."""

    def __init__(self, size):
        self.data = bytearray(size)
        block = noise(1024)
        for at in range(0, size, 1024):
            n = min(1024, size - at)
            self.data[at : at + n] = block[:n]

    def write(self, offset, data):
        self.data[offset : offset + len(data)] = data

    def readinto(self, offset, buf):
        buf[:] = self.data[offset : offset + len(buf)]


class FileMemory:
    """Glass memory in a file (created at `size` bytes of power-on noise): out of the heap."""

    def __init__(self, path, size):
        self.file = open(path, "w+b")
        row = noise(1024)
        left = size
        while left > 0:
            self.file.write(row if left >= 1024 else row[:left])
            left -= 1024
        self.file.flush()

    def write(self, offset, data):
        self.file.seek(offset)
        self.file.write(data)

    def readinto(self, offset, buf):
        self.file.flush()
        self.file.seek(offset)
        self.file.readinto(buf)


def _rgb565(hi, lo):
    v = hi << 8 | lo
    r = v >> 11
    g = (v >> 5) & 63
    b = v & 31
    return (r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2)


class MipiGlass:
    """An ST7789 or ILI9341 with its 240x320 glass; fed by SpiBus."""

    def __init__(self, kind, memory=None):
        if kind not in KINDS:
            raise ValueError("no colour panel %r (choose st7789 or ili9341)" % kind)
        self.kind = kind
        self.width = 240
        self.height = 320
        self.memory = memory or RamMemory(240 * 320 * 2)
        self.glass_bgr = kind == KIND_ILI9341
        self.glass_mirror_x = kind == KIND_ILI9341
        self.glass_inverted = kind == KIND_ST7789
        self.sent = 0
        self.now = 0  # the panel's clock, ms: advanced by wait()
        self._reset_at = self._slpout_at = NEVER
        self._row = bytearray(2 * 240)
        self._reset()

    def wait(self, ms):
        """The driver's sleep_ms: time passes on the panel's clock alone."""
        self.now += ms

    def _too_soon(self, what, event, since, ms):
        if self.now - since < ms:
            raise ValueError(
                "%s: %s %d ms after %s; the datasheet asks %d ms"
                % (self.kind, what, self.now - since, event, ms)
            )

    def hardware_reset(self, level):
        """The RST line: low resets the controller, the wait counts from its release."""
        if level:
            self._reset_at = self.now
        else:
            self._reset()

    def _reset(self):
        self.madctl = 0
        self.colmod = 0x66  # 18 bits a pixel after reset
        self.inverted = False
        self.sleeping = True
        self.on = False
        self._cmd = -1
        self._args = bytearray()
        self._x0, self._x1, self._y0, self._y1 = 0, 239, 0, 319
        self._writing = False

    # the bus side
    def end(self):
        """Chip select went high: a RAMWR ends, as does a command's argument list."""
        self._finish()
        self._cmd = -1
        self._writing = False

    def write(self, data, dc):
        self.sent += len(data)
        if not dc:
            for c in data:
                self._finish()
                self._command(c)
        elif self._writing:
            self._pixels(data)
        elif self._cmd >= 0:
            self._args.extend(data)
        else:
            raise ValueError("%s: data with no command" % self.kind)

    def _finish(self):
        # a command's arguments are complete when the next command (or CS high) comes
        c, a = self._cmd, self._args
        if c == 0x2A and len(a) >= 4:
            self._x0, self._x1 = a[0] << 8 | a[1], a[2] << 8 | a[3]
        elif c == 0x2B and len(a) >= 4:
            self._y0, self._y1 = a[0] << 8 | a[1], a[2] << 8 | a[3]
        elif c == 0x36 and a:
            self.madctl = a[0]
        elif c == 0x3A and a:
            self.colmod = a[0]
        self._args = bytearray()
        self._cmd = -1

    def _command(self, c):
        self._writing = False
        self._too_soon("command 0x%02x" % c, "a reset", self._reset_at, _RESET_TO_COMMAND_MS)
        self._too_soon("command 0x%02x" % c, "SLPOUT", self._slpout_at, _SLPOUT_TO_COMMAND_MS)
        if c == 0x01:
            self._reset()
            self._reset_at = self.now
        elif c == 0x11:
            self._too_soon("SLPOUT", "a reset", self._reset_at, _RESET_TO_SLPOUT_MS)
            self.sleeping = False
            self._slpout_at = self.now
        elif c == 0x10:
            self._too_soon("SLPIN", "SLPOUT", self._slpout_at, _SLPOUT_TO_SLPIN_MS)
            self.sleeping = True
        elif c == 0x20 or c == 0x21:
            self.inverted = c == 0x21
        elif c == 0x28 or c == 0x29:
            self.on = c == 0x29
        elif c == 0x2C:
            if self.colmod & 0x0F != 5:
                raise ValueError("%s: RAMWR with COLMOD 0x%02x, not 16-bit" % (self.kind, self.colmod))
            self._writing = True
            self._cx, self._cy = self._x0, self._y0
            self._odd = -1
        elif c in (0x2A, 0x2B, 0x36, 0x3A) or c in KINDS[self.kind]:
            self._cmd = c
        else:
            raise ValueError("%s: unknown command 0x%02x" % (self.kind, c))

    def _pixels(self, data):
        i = 0
        n = len(data)
        if self._odd >= 0:  # a pixel split across two writes
            self._put(bytes((self._odd, data[0])))
            self._odd = -1
            i = 1
        mv = memoryview(data)
        while n - i >= 2:
            run = min((self._x1 - self._cx + 1) * 2, (n - i) & ~1)
            if run <= 0:
                raise ValueError("%s: window with x1 < x0" % self.kind)
            self._put(mv[i : i + run])
            i += run
        if i < n:
            self._odd = data[i]

    def _put(self, run):
        # run: whole pixels, all on the current window row from the pointer on
        count = len(run) // 2
        fx = bool(self.madctl & 0x40) != self.glass_mirror_x
        fy = bool(self.madctl & 0x80)
        swap = self.madctl & 0x20
        w = self.width
        if not swap and not fx:
            y = self.height - 1 - self._cy if fy else self._cy
            if 0 <= y < self.height and 0 <= self._cx and self._cx + count <= w:
                self.memory.write((y * w + self._cx) * 2, run)
            else:
                self._each(run, count, fx, fy, swap)
        else:
            self._each(run, count, fx, fy, swap)
        self._cx += count
        if self._cx > self._x1:
            self._cx = self._x0
            self._cy += 1
            if self._cy > self._y1:
                self._cy = self._y0

    def _each(self, run, count, fx, fy, swap):
        w, h = self.width, self.height
        for k in range(count):
            col, row = self._cx + k, self._cy
            if swap:
                col, row = row, col
            if fx:
                col = w - 1 - col
            if fy:
                row = h - 1 - row
            if 0 <= col < w and 0 <= row < h:
                self.memory.write((row * w + col) * 2, run[2 * k : 2 * k + 2])

    # the viewer side
    def row(self, y):
        """Raw row y as received (big-endian RGB565), in a buffer reused by the next call."""
        self.memory.readinto(y * self.width * 2, self._row)
        return self._row

    def visible(self):
        return self.on and not self.sleeping

    def shown(self, hi, lo):
        """(r, g, b) the glass shows for a received pixel: inversion and sub-pixel order applied."""
        if not self.visible():
            return (0, 0, 0)
        if self.inverted != self.glass_inverted:  # IPS glass needs INVON; TN glass needs INVOFF
            hi, lo = hi ^ 255, lo ^ 255
        r, g, b = _rgb565(hi, lo)
        if bool(self.madctl & 0x08) != self.glass_bgr:
            r, b = b, r
        return (r, g, b)

    def rgb(self, x, y):
        row = self.row(y)
        return self.shown(row[2 * x], row[2 * x + 1])

    def save(self, path):
        """The glass (its state and raw memory) in a file: load() reads it back, in CPython too."""
        with open(path, "wb") as f:
            f.write(b"GLS1%s\n" % self.kind.encode())
            f.write(bytes((self.madctl, self.inverted, self.sleeping, self.on)))
            for y in range(self.height):
                f.write(self.row(y))

    def _restore(self, state, f):
        self.madctl, self.inverted, self.sleeping, self.on = (
            state[0],
            bool(state[1]),
            bool(state[2]),
            bool(state[3]),
        )
        for y in range(self.height):
            self.memory.write(y * self.width * 2, f.read(self.width * 2))
