"""Every ESP32 profile builds its Board and plays, on faked pins and buses.

board.devkit, board.cyd and board.oled are what a bowl runs at power-up
(main.py picks one from /profile); the virtual board never imports them.
Here each one's own build() runs under MicroPython over
tests/mplib/fakemachine.py (only the GPIO, SPI/I2C/UART, PWM, WDT and the
radio are faked), on a LittleFS flash mounted at / as on the ESP32, and the
shipped App boots on it, starts a game and throws through the real screen
driver: a wrong pin name, a driver argument or a missing import in a
profile would otherwise be found only on a board, as a bowl that never
starts.
"""

import json
import os

import pytest
from mp import FIRMWARE, run_micropython
from test_heap_flow import MPLIB

CODE = """
from sim import run as simrun
simrun.mount_root(%(image)r, 256)
import fakemachine
fakemachine.install()
from display import font
font.FONT_DIR = simrun.HOST + %(fonts)r  # the .mpy tree of "esp32word" has no fonts beside font.mpy
from app.app import App
from board import %(profile)s as profile
board = profile.build()
print("BOARD", board.name, type(board.screen).__name__, board.speaker is not None)
app = App(board, fresh_start=True)
app.boot()
app.new_game()
out = app.commit()
app.show_result(out)
app.live.turn(app.session.game, out)
print("WIRE", sum(bus.written for bus in fakemachine.BUSES))
"""


@pytest.mark.parametrize(
    ("profile", "screen", "speaker"),
    [("devkit", "ColorScreen", "True"), ("cyd", "ColorScreen", "False"), ("oled", "MonoScreen", "True")],
)
def test_each_esp32_profile_builds_boots_and_throws(tmp_path, profile, screen, speaker):
    fonts = os.path.join(FIRMWARE, "display", "fonts")
    code = CODE % {"image": str(tmp_path / "flash.img"), "profile": profile, "fonts": fonts}
    out = run_micropython(code, 400_000, (MPLIB,))
    lines = out.splitlines()
    board = next(line.split() for line in lines if line.startswith("BOARD"))
    assert board[1:] == [profile, screen, speaker], board  # the CYD has no pins left for the DFPlayer
    events = [json.loads(line) for line in lines if line.startswith("{")]
    throws = [e for e in events if e["event"] == "throw"]
    assert len(throws) == 1 and len(throws[0]["dice"]) == 6, events
    assert events[0]["event"] == "game" and events[0]["resumed"] is False, events
    wire = next(int(line.split()[1]) for line in lines if line.startswith("WIRE"))
    assert wire > 1000, wire  # the result reached the panel's bus (and the DFPlayer's UART)
