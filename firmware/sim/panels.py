"""Panel emulators: fake SPI and I2C buses that decode the real command streams into glass.

For the virtual board, tests and screenshots (MicroPython unix port; never
frozen).  The drivers of display/ talk to these exactly as to the chips, so
a driver bug (a wrong window, a missing MADCTL or INVON, SSD1306 commands
sent to an SH1106) shows here as it would on the glass.

Quick use:
    from sim import panels
    panel = panels.panel("devkit")                  # a board profile's driver (PROFILES below);
    glass = panel.glass                             #   colour glass in a file (see below)
    screen, glass = panels.color_screen("st7789")   # display.color.ColorScreen, ready
    screen, glass = panels.mono_screen("ssd1306")   # display.mono.MonoScreen ("sh1106" too)
    panel, glass = panels.color_panel("ili9341")    # the driver alone
    panel, glass = panels.mono_panel("sh1106")
    spi, dc, cs, rst, glass = panels.color_bus("st7789")  # a board builds display.st7789.ST7789(spi, dc, cs, rst)
    i2c, glass = panels.mono_bus("ssd1306")               # ... display.ssd1306.SSD1306(i2c)

    glass.rgb(x, y)       -> (r, g, b) 0..255 as the glass shows it (dark when off)
    glass.save(path)      state and memory in a file; panels.load(path) gives the glass back
                          (CPython too: screenshots and golden tests read pictures so)
    glass.sent            bytes on the bus so far (I2C: with the address byte of each transfer)
    sim.term.draw(glass)  the picture in a true-colour terminal

Glass memory.  A colour panel's memory is 240 x 320 x 2 = 153,600 bytes, more
than the firmware's whole heap budget, so color_panel(..., path=FILE) keeps
it in a file the emulator writes with seek/write (FileMemory): the heap
then holds one row buffer, and the terminal renderer and the tests read the
file back.  Without a path it is a bytearray (CPython, or a big heap).  The
mono panel's 1 KB lives in a bytearray.

The colour glass is sim.colorglass.MipiGlass (what it models is said
there), the mono one MonoGlass below.  Power-up runs on each panel's clock
(the driver's sleep_ms is glass.wait): a power-up hurried against the
datasheets raises, and memory holds noise at power-on, so a glass lit
before it was written shows noise.
"""

from sim.colorglass import (
    KIND_ILI9341,
    KIND_ST7789,
    KIND_ST7789_CYD2USB,
    KINDS,
    NEVER,
    FileMemory,
    MipiGlass,
    noise,
)

_SUPPLY_TO_ON_MS = 100  # SSD1306 8.9, SH1106 power-on sequence


class Pin:
    """An output pin: pin(level) or pin.value(level); pin() / pin.value() read it."""

    def __init__(self, level=1, on_change=None):
        self.level = level
        self._on_change = on_change

    def value(self, level=None):
        if level is None:
            return self.level
        level = 1 if level else 0
        if level != self.level:
            self.level = level
            if self._on_change:
                self._on_change(level)
        return None

    def __call__(self, level=None):
        return self.value(level)


class SpiBus:
    """A fake machine.SPI wired to one MipiGlass, with its DC and CS pins."""

    def __init__(self, glass):
        self.glass = glass
        self.dc = Pin(1)
        self.cs = Pin(1, self._select)
        self.rst = Pin(1, glass.hardware_reset)

    def _select(self, level):
        if level:
            self.glass.end()

    def write(self, buf):
        if self.cs.level:
            return  # not selected: the panel ignores the bus
        self.glass.write(buf, self.dc.level)


# SSD1306 commands and their argument counts; SH1106 has its own table.
_SSD1306_ARGS = {
    0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
}  # fmt: skip
_SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
_SINGLE = b"\xa0\xa1\xa4\xa5\xa6\xa7\xae\xaf\xc0\xc8\xe3"


class MonoGlass:
    """An SSD1306 (128 columns of memory) or SH1106 (132, glass on columns 2..129), 64 rows.

    Also the I2C bus (writeto, writevto) that reaches it, at `addr`.
    """

    def __init__(self, kind, addr=0x3C):
        if kind not in ("ssd1306", "sh1106"):
            raise ValueError("no mono panel %r (choose ssd1306 or sh1106)" % kind)
        self.kind = kind
        self.addr = addr
        self.width = 128
        self.height = 64
        self.columns = 132 if kind == "sh1106" else 128
        self.memory = noise(self.columns * 8)
        self.sent = 0
        self.now = 0  # the panel's clock, ms: advanced by wait()
        self._args_of = _SH1106_ARGS if kind == "sh1106" else _SSD1306_ARGS
        self.mode = 2  # page addressing after reset
        self.on = False
        self.inverted = False
        self.seg_remap = False
        self.com_reversed = False
        self.powered = kind == "sh1106"  # its DC-DC converter is on after reset
        self._supply_at = 0 if self.powered else NEVER  # when the panel's supply came on
        self.contrast = 0x7F  # command 0x81's level (brightness), 0x7F after reset; not drawn
        self.col, self.page = 0, 0
        self.c0, self.c1, self.p0, self.p1 = 0, self.columns - 1, 0, 7
        self._pending = []  # type: list
        self._need = 0

    def wait(self, ms):
        """The driver's sleep_ms: time passes on the panel's clock alone."""
        self.now += ms

    def _supply(self, on):
        if on and not self.powered:
            self._supply_at = self.now
        self.powered = on

    # the I2C side
    def writeto(self, addr, buf):
        self.writevto(addr, (buf,))

    def writevto(self, addr, bufs):
        if addr != self.addr:
            raise OSError(19)  # ENODEV: nobody acknowledges
        self.sent += 1  # the address byte
        control = -1
        for buf in bufs:
            self.sent += len(buf)
            for b in buf:
                if control < 0:
                    control = b
                    continue
                if control & 0x40:
                    self._data(b)
                else:
                    self._command(b)
                if control & 0x80:  # Co: one byte, then a new control byte
                    control = -1

    def _command(self, b):
        if self._need:
            self._pending.append(b)
            self._need -= 1
            if not self._need:
                self._apply(self._pending)
            return
        if b in self._args_of:
            self._pending = [b]
            self._need = self._args_of[b]
            return
        if (
            self.kind == "ssd1306"
            and self.mode == 2
            and 0xB0 <= b <= 0xB7
            or self.kind == "sh1106"
            and 0xB0 <= b <= 0xB7
        ):
            self.page = b & 7
        elif b <= 0x0F and (self.kind == "sh1106" or self.mode == 2):
            self.col = (self.col & 0xF0) | b
        elif 0x10 <= b <= 0x1F and (self.kind == "sh1106" or self.mode == 2):
            self.col = (self.col & 0x0F) | (b & 0x0F) << 4
        elif 0x40 <= b <= 0x7F:
            pass  # display start line: the drivers keep 0
        elif b in _SINGLE:
            if b in (0xA0, 0xA1):
                self.seg_remap = b == 0xA1
            elif b in (0xC0, 0xC8):
                self.com_reversed = b == 0xC8
            elif b in (0xA6, 0xA7):
                self.inverted = b == 0xA7
            elif b in (0xAE, 0xAF):
                if b == 0xAF and self.powered and self.now - self._supply_at < _SUPPLY_TO_ON_MS:
                    raise ValueError(
                        "%s: display on %d ms after its supply came on; the datasheet asks %d ms"
                        % (self.kind, self.now - self._supply_at, _SUPPLY_TO_ON_MS)
                    )
                self.on = b == 0xAF
        else:
            raise ValueError("%s: unknown command 0x%02x" % (self.kind, b))

    def _apply(self, cmd):
        c = cmd[0]
        if c == 0x20:
            if cmd[1] > 2:
                raise ValueError("ssd1306: addressing mode %d" % cmd[1])
            self.mode = cmd[1]
        elif c == 0x21:
            self.c0, self.c1 = cmd[1] & 127, cmd[2] & 127
            self.col = self.c0
        elif c == 0x22:
            self.p0, self.p1 = cmd[1] & 7, cmd[2] & 7
            self.page = self.p0
        elif c == 0x81:
            self.contrast = cmd[1]
        elif c == 0x8D:
            self._supply(cmd[1] & 0x04 != 0)
        elif c == 0xAD:
            self._supply(cmd[1] & 0x01 != 0)

    def _data(self, b):
        if self.col < self.columns:
            self.memory[self.page * self.columns + self.col] = b
        if self.kind == "sh1106" or self.mode == 2:
            if self.col < self.columns - 1:
                self.col += 1
            return
        if self.mode == 0:  # horizontal: along the window's columns, then the next page
            self.col += 1
            if self.col > self.c1:
                self.col = self.c0
                self.page = self.p0 if self.page >= self.p1 else self.page + 1
        else:  # vertical
            self.page += 1
            if self.page > self.p1:
                self.page = self.p0
                self.col = self.c0 if self.col >= self.c1 else self.col + 1

    # the viewer side
    def lit(self, x, y):
        """Whether the glass pixel (x, y) is lit."""
        if not (self.on and self.powered):
            return False
        offset = 2 if self.kind == "sh1106" else 0
        col = x + offset if self.seg_remap else self.columns - 1 - offset - x
        row = y if self.com_reversed else 63 - y
        bit = self.memory[(row >> 3) * self.columns + col] >> (row & 7) & 1
        return bool(bit) != self.inverted

    def rgb(self, x, y):
        """(r, g, b): a lit pixel in the usual white-blue of these OLEDs, else black."""
        return (225, 240, 255) if self.lit(x, y) else (0, 0, 0)

    def save(self, path):
        """The glass (its state and memory) in a file: load() reads it back, in CPython too."""
        with open(path, "wb") as f:
            f.write(b"GLS1%s\n" % self.kind.encode())
            f.write(bytes((self.on, self.powered, self.inverted, self.seg_remap, self.com_reversed)))
            f.write(self.memory)

    def _restore(self, state, f):
        self.on, self.powered, self.inverted, self.seg_remap, self.com_reversed = (bool(b) for b in state)
        self.memory[:] = f.read(len(self.memory))


def load(path):
    """A glass as save() left it (memory in a bytearray): for screenshots and golden tests."""
    with open(path, "rb") as f:
        head = f.readline()
        if head[:4] != b"GLS1":
            raise ValueError("%s is not a saved glass" % path)
        kind = head[4:].strip().decode()
        if kind in KINDS:
            color = MipiGlass(kind)
            color._restore(f.read(4), f)
            return color
        mono = MonoGlass(kind)
        mono._restore(f.read(5), f)
        return mono


def _memory(path):
    return FileMemory(path, 240 * 320 * 2) if path else None


def color_bus(kind="st7789", path=None):
    """(spi, dc, cs, rst, glass): an emulated colour panel's bus and pins; glass memory in `path` if given."""
    glass = MipiGlass(kind, _memory(path))
    spi = SpiBus(glass)
    return spi, spi.dc, spi.cs, spi.rst, glass


def color_panel(kind="st7789", path=None):
    """(driver, glass): display.st7789.ST7789 (kind "st7789" or "st7789-cyd2usb")
    or display.ili9341.ILI9341 on an emulated panel, waiting on the panel's clock."""
    spi, dc, cs, rst, glass = color_bus(kind, path)
    if kind == KIND_ILI9341:
        from display.ili9341 import ILI9341

        return ILI9341(spi, dc, cs, rst, sleep_ms=glass.wait), glass
    from display.st7789 import ST7789

    return ST7789(spi, dc, cs, rst, sleep_ms=glass.wait, invert=kind == KIND_ST7789), glass


def mono_bus(kind="ssd1306", addr=0x3C):
    """(i2c, glass): an emulated mono panel; the glass is also the I2C bus."""
    glass = MonoGlass(kind, addr)
    return glass, glass


def mono_panel(kind="ssd1306"):
    """(driver, glass): display.ssd1306.SSD1306 or display.sh1106.SH1106 on an emulated panel."""
    i2c, glass = mono_bus(kind)
    if kind == "ssd1306":
        from display.ssd1306 import SSD1306

        return SSD1306(i2c, sleep_ms=glass.wait), glass
    from display.sh1106 import SH1106

    return SH1106(i2c, sleep_ms=glass.wait), glass


def color_screen(kind="st7789", path=None):
    """(display.color.ColorScreen, glass) on an emulated panel."""
    from display.color import ColorScreen

    panel, glass = color_panel(kind, path)
    return ColorScreen(panel), glass


def mono_screen(kind="ssd1306"):
    """(display.mono.MonoScreen, glass) on an emulated panel."""
    from display.mono import MonoScreen

    panel, glass = mono_panel(kind)
    return MonoScreen(panel), glass


# The panel each board profile drives (board/<profile>.py).
PROFILES = {
    "devkit": KIND_ST7789,
    "s3": KIND_ST7789,
    "cyd": KIND_ILI9341,
    "cyd2usb": KIND_ST7789_CYD2USB,
    "oled": "ssd1306",
    "sh1106": "sh1106",
}


def panel(profile, path=None):
    """The emulated driver of a board profile (a key of PROFILES), its glass as .glass.

    A colour glass lives in the file `path` (out of the heap: the sim runs at the
    ESP32's heap size); by default in a file of /tmp that is unlinked at once,
    so it is private and vanishes with the process.  The mono one is a bytearray.
    """
    if profile not in PROFILES:
        raise ValueError("no board profile %r (choose %s)" % (profile, ", ".join(PROFILES)))
    kind = PROFILES[profile]
    if kind not in KINDS:
        driver, glass = mono_panel(kind)
    else:
        import os

        private = path is None
        if private:
            path = "/tmp/bobing-glass-%s-%s" % (profile, "".join("%02x" % b for b in os.urandom(6)))
        driver, glass = color_panel(kind, path)
        if private:
            os.remove(path)
    driver.glass = glass
    return driver
