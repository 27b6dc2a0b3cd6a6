# Screens benchmark in MicroPython (run by bench/run.py from the .mpy files).
# Prints "name value unit target" lines: render time per screen (the layouts
# and drivers on a bus that only counts), bytes sent to the panel per throw
# and per roll-animation frame, the frame rates those bytes allow at 40 MHz
# SPI and 400 kHz I2C, and the heap each font, module and screen keeps.
# Heap targets are for the ESP32's word size (micropython32).
import gc
import time

import mp_heap


class CountingSpi:
    """An SPI bus that only counts the bytes it is given."""

    def __init__(self):
        self.sent = 0

    def write(self, buf):
        self.sent += len(buf)


class CountingI2c:
    """An I2C bus that counts bytes on the wire: each transfer's address byte too."""

    def __init__(self):
        self.sent = 0

    def writeto(self, addr, buf):
        self.sent += 1 + len(buf)

    def writevto(self, addr, bufs):
        self.sent += 1
        for b in bufs:
            self.sent += len(b)


def out(name, value, unit, target="-"):
    print("%s %s %s %s" % (name, value, unit, target))


def kept_import(name):
    return mp_heap.kept(lambda: __import__(name))


# ---- heap: modules, fonts, screens ----
for module in ("display.texts", "display.font", "display.dice", "display.mipi", "display.ssd1306"):
    out("mp_screens_import_%s_B" % module.split(".")[1], kept_import(module), "B")
out("mp_screens_import_names_B", kept_import("bobing.names"), "B")  # award and tier names, the app's too
# display.color makes the first screen's band buffer (3,844 B) and item queue (512 B) at import
out("mp_screens_import_color_B", kept_import("display.color"), "B", 12800)
out("mp_screens_import_mono_B", kept_import("display.mono"), "B", 6000)

from display.font import Font  # noqa: E402

held = []
for name in ("f48", "f24", "f16", "f12"):
    # the first font opened holds the code-point table the others share
    out("mp_screens_font_%s_heap_B" % name, mp_heap.kept(lambda n=name: held.append(Font(n))), "B", 1600)
    f = held[-1]
    f.file.seek(0, 2)
    out("mp_screens_font_%s_file_B" % name, f.file.tell(), "B")  # what a bytes module would put in the heap
del held
gc.collect()

from display.color import ColorScreen  # noqa: E402
from display.mono import MonoScreen  # noqa: E402
from display.sh1106 import SH1106  # noqa: E402
from display.ssd1306 import SSD1306  # noqa: E402
from display.st7789 import ST7789  # noqa: E402
from sim.panels import Pin  # noqa: E402


def no_wait(ms):
    pass


spi = CountingSpi()
i2c = CountingI2c()
color_panel = ST7789(spi, Pin(), Pin(), Pin(), sleep_ms=no_wait)
mono_panel = SSD1306(i2c)
held = []
out("mp_screens_color_screen_heap_B", mp_heap.kept(lambda: held.append(ColorScreen(color_panel))), "B", 9000)
color = held[0]
out("mp_screens_mono_screen_heap_B", mp_heap.kept(lambda: held.append(MonoScreen(mono_panel))), "B", 4000)
mono = held[1]

# ---- render time per screen, and bytes per screen ----
import screenshots  # noqa: E402  (tools/: every screen, as the screenshots show them)

for label, screen, bus in (("color", color, spi), ("mono", mono, i2c)):
    scenes = screenshots.scenes(screen)
    t0 = time.ticks_us()
    sent = bus.sent
    while True:
        try:
            name = next(scenes)
        except StopIteration:
            break
        if name is None:  # a seeded game was played: the next screen's drawing starts here
            t0 = time.ticks_us()
            sent = bus.sent
            continue
        out(
            "mp_screens_%s_%s_ms" % (label, name),
            "%.1f" % (time.ticks_diff(time.ticks_us(), t0) / 1000),
            "ms",
        )
        out("mp_screens_%s_%s_bytes" % (label, name), bus.sent - sent, "B")
        t0 = time.ticks_us()
        sent = bus.sent

# ---- a throw and its animation: bytes, time, allocation ----
from bobing.classify import classify  # noqa: E402

A = b"\x01\x02\x03\x04\x05\x06"
B = b"\x06\x05\x04\x03\x02\x01"
LEFT = (10, 6, 3, 2, 1, 1)
ROLL_TARGETS = {"color": 6 * 2 * (11 + 62 * 31 * 2), "mono": 3 * (8 + 130)}
for label, screen, bus, rate in (("color", color, spi, 40_000_000 // 8), ("mono", mono, i2c, 400_000 // 9)):
    screen.turn(0, 4, LEFT, -1, None)
    screen.roll(A)
    sent = bus.sent
    t0 = time.ticks_us()
    screen.roll(B)
    frame_us = time.ticks_diff(time.ticks_us(), t0)
    frame = bus.sent - sent
    out("mp_screens_%s_roll_frame_bytes" % label, frame, "B", ROLL_TARGETS[label])
    out("mp_screens_%s_roll_frame_render_ms" % label, "%.2f" % (frame_us / 1000), "ms")
    out("mp_screens_%s_roll_frame_wire_ms" % label, "%.2f" % (frame * 1000 / rate), "ms")
    out("mp_screens_%s_roll_frames_per_s_on_wire" % label, "%.0f" % (rate / frame), "frames/s")
    out("mp_screens_%s_roll_frame_alloc_B" % label, mp_heap.garbage(lambda s=screen: s.roll(A)), "B", 0)
    award = classify(B, 0)
    sent = bus.sent
    t0 = time.ticks_us()
    screen.result(0, B, award, 4, 1, -1, False, LEFT, -1, None)
    throw_us = time.ticks_diff(time.ticks_us(), t0)
    throw = bus.sent - sent
    out("mp_screens_%s_throw_bytes" % label, throw, "B")
    out("mp_screens_%s_throw_render_ms" % label, "%.1f" % (throw_us / 1000), "ms")
    out("mp_screens_%s_throw_wire_ms" % label, "%.1f" % (throw * 1000 / rate), "ms")
    out(
        "mp_screens_%s_throw_alloc_B" % label,
        mp_heap.garbage(lambda s=screen, a=award: s.result(0, B, a, 4, 1, -1, False, LEFT, -1, None)),
        "B",
    )

# the SH1106 sends its pages with a shorter window than the SSD1306
sh_bus = CountingI2c()
sh = MonoScreen(SH1106(sh_bus))
sh.roll(A)
sent = sh_bus.sent
sh.roll(B)
out("mp_screens_sh1106_roll_frame_bytes", sh_bus.sent - sent, "B", 3 * (5 + 130))
