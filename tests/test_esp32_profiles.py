"""Every ESP32 profile builds its Board and plays, on faked pins and buses.

board.s3, devkit, cyd, cyd2usb, oled and sh1106 are what a bowl runs at
power-up (main.py picks one from /profile); the virtual board never imports
them.  Every profile bowl.PROFILES names is tested here.
Here each one's own build() runs under MicroPython over
tests/mplib/fakemachine.py (only the GPIO, SPI/I2C/UART, PWM, WDT and the
radio are faked), on a LittleFS flash mounted at / as on the ESP32, and the
shipped App boots on it, starts a game and throws through the real screen
driver, whose bus and DC, CS and RST pins reach an emulated panel
(sim/panels.py): the panel must take the power-up and show the result as
the golden images' panel does.  A wrong pin, a driver argument or a missing
import in a profile would otherwise be found only on a board, as a bowl that
never starts or a dark or garbled screen.
"""

import json
import os

import pytest
from mp import FIRMWARE, run_micropython
from sim import panels
from test_heap_flow import MPLIB

CODE = """
import time
from sim import run as simrun
simrun.mount_root(%(image)r, 256)
import fakemachine
fakemachine.install()
from display import font
font.FONT_DIR = simrun.HOST + %(fonts)r  # the .mpy tree of "esp32word" has no fonts beside font.mpy
from sim import panels
from board import pins
import machine

# The profile's panel bus and its DC, CS and RST pins reach an emulated
# panel (sim/panels.py), which decodes the driver's commands as the chip
# would; every other pin and bus stays fakemachine's.  The profile's driver
# sleeps in real time, so the panel's clock is the real one.
kind = panels.PROFILES[%(profile)r]
table = getattr(pins, %(table)r)
start = time.ticks_ms()
if kind in ("ssd1306", "sh1106"):
    glass = panels.MonoGlass(kind)
    roles = {}

    class I2C:
        def __init__(self, *args, **settings):
            pass

        def writeto(self, addr, buf):
            glass.now = time.ticks_diff(time.ticks_ms(), start)
            glass.writeto(addr, buf)

        def writevto(self, addr, bufs):
            glass.now = time.ticks_diff(time.ticks_ms(), start)
            glass.writevto(addr, bufs)

    machine.I2C = I2C
else:
    bus, dc, cs, rst, glass = panels.color_bus(kind, simrun.HOST + %(glass)r)
    roles = {pins.get(table, "DC"): dc, pins.get(table, "CS"): cs, pins.get(table, "RST"): rst}

    class SPI:
        def __init__(self, *args, **settings):
            pass

        def write(self, buf):
            glass.now = time.ticks_diff(time.ticks_ms(), start)
            bus.write(buf)

    machine.SPI = SPI


class Pin(fakemachine.Part):
    def __init__(self, gpio=-1, mode=0, pull=0, value=None):
        self.wire = roles.get(gpio)
        if value is not None:
            self.value(value)

    def value(self, level=None):
        if self.wire is None:
            return 1
        glass.now = time.ticks_diff(time.ticks_ms(), start)
        return self.wire.value(level)

    __call__ = value


machine.Pin = Pin
from app.app import App
from board import %(profile)s as profile
board = profile.build()
print("BOARD", board.name, type(board.screen).__name__, type(board.screen.panel).__name__, board.speaker is not None)
app = App(board, fresh_start=True)
app.boot()
app.new_game()
out = app.commit()
app.show_result(out)
app.live.turn(app.session.game, out)
glass.save(simrun.HOST + %(glass)r + ".gls")
# the same result drawn by the app on the emulator's own panel of that kind, as the golden images are
reference = panels.panel(%(profile)r, simrun.HOST + %(reference)r)
app.screen = type(board.screen)(reference)
app.apply_settings()
app.show_result(out)
reference.glass.save(simrun.HOST + %(reference)r + ".gls")
"""


# (profile, its screen and panel driver, a speaker built): the CYDs have no pins left for the DFPlayer
PROFILES = [
    ("s3", "ColorScreen ST7789", "True"),
    ("devkit", "ColorScreen ST7789", "True"),
    ("cyd", "ColorScreen ILI9341", "False"),
    ("cyd2usb", "ColorScreen ST7789", "False"),
    ("oled", "MonoScreen SSD1306", "True"),
    ("sh1106", "MonoScreen SH1106", "True"),
]
TABLES = {"s3": "S3", "devkit": "DEVKIT", "cyd": "CYD", "cyd2usb": "CYD", "oled": "OLED", "sh1106": "OLED"}


@pytest.mark.parametrize(("profile", "screen", "speaker"), PROFILES)
def test_each_esp32_profile_builds_boots_and_throws(tmp_path, profile, screen, speaker):
    fonts = os.path.join(FIRMWARE, "display", "fonts")
    code = CODE % {
        "image": str(tmp_path / "flash.img"),
        "profile": profile,
        "table": TABLES[profile],
        "fonts": fonts,
        "glass": str(tmp_path / "glass.mem"),
        "reference": str(tmp_path / "reference.mem"),
    }
    out = run_micropython(code, 600_000, (MPLIB,))
    lines = out.splitlines()
    board = next(line.split() for line in lines if line.startswith("BOARD"))
    assert board[1:] == [profile, *screen.split(), speaker], board
    events = [json.loads(line) for line in lines if line.startswith("{")]
    throws = [e for e in events if e["event"] == "throw"]
    assert len(throws) == 1 and len(throws[0]["dice"]) == 6, events
    assert events[0]["event"] == "game" and events[0]["resumed"] is False, events
    # the panel took the driver's power-up (the emulator raises at a command
    # hurried, unknown or out of order), and its glass, state and memory, is
    # the result exactly as the emulated panel of the golden images shows it
    with open(tmp_path / "glass.mem.gls", "rb") as shown, open(tmp_path / "reference.mem.gls", "rb") as drawn:
        assert shown.read() == drawn.read()
    glass = panels.load(str(tmp_path / "glass.mem.gls"))
    background = glass.rgb(0, 0)  # black while the panel is off or asleep
    grid = [glass.rgb(x, y) for y in range(0, glass.height, 4) for x in range(0, glass.width, 4)]
    lit = sum(rgb != background for rgb in grid)
    assert lit * 10 > len(grid), lit  # on, awake and drawn: not a dark or blank glass


def test_every_profile_a_bowl_can_be_told_is_tested_and_frozen():
    # a word in /profile the bowl knows but no test builds, or the firmware image leaves out,
    # is a bowl that falls back to devkit's pins or stops at an ImportError
    tested = [profile for profile, _, _ in PROFILES]
    with open(os.path.join(FIRMWARE, "bowl.py"), encoding="utf-8") as f:
        bowl = f.read()
    words = bowl.split("\nPROFILES = (")[1].split(")")[0].replace('"', "").split(", ")
    assert sorted(words) == sorted(tested)
    with open(os.path.join(FIRMWARE, "device", "manifest.py"), encoding="utf-8") as f:
        manifest = f.read()
    assert [w for w in words if '"%s.py"' % w not in manifest] == []
