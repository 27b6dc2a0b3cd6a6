"""A bowl that cannot boot says why and never loops; maintenance is never reset under the host.

Each test runs the shipped firmware/boot.py and firmware/main.py (source,
as a bowl runs them; main.py's bowl.start() on the devkit profile) under
MicroPython, again and again on one LittleFS flash image, as an ESP32 runs
them at each reset.  Only the chip is faked (tests/mplib/fakemachine.py, fakechip.py):
its watchdog, timers, RTC memory and reset cause behave across resets as
on the ESP32; machine.reset() ends a boot, and the harness starts the next
with the firmware's modules imported afresh, as the chip would.
"""

import json
import os

from mp import FIRMWARE, run_micropython
from test_heap_flow import MPLIB

HARNESS = """
import asyncio, sys
from sim import run as simrun
simrun.mount_root(%(image)r, 256)
import fakechip, fakemachine
fakechip.install()
from fakechip import WDT, Timer
HOST = simrun.HOST
FONTS = HOST + %(fonts)r
with open(HOST + %(boot)r) as f:
    BOOT = compile(f.read(), "boot.py", "exec")
with open(HOST + %(main)r) as f:
    MAIN = compile(f.read(), "main.py", "exec")
FIRMWARE = ("app", "board", "bobing", "display", "bowl", "main")


def fresh(fonts=FONTS):
    # a reset: the firmware's modules and the event loop start again
    for name in list(sys.modules):
        if name.split(".")[0] in FIRMWARE:
            del sys.modules[name]
    asyncio.new_event_loop()
    from display import font
    font.FONT_DIR = fonts


def main():
    # main.py as MicroPython runs it after boot.py when the friendly REPL follows
    try:
        exec(MAIN, {"__name__": "__main__"})
        return "repl"  # start() returned: safe mode, or the host's sync
    except SystemExit:
        return "reset"
    except fakechip.Stop:
        return "playing"  # the game loop fed the watchdog: the app runs
    except KeyboardInterrupt:
        return "ctrl-c"


def boot(fonts=FONTS):
    fresh(fonts)
    exec(BOOT, {"__name__": "boot"})
    return main()


def failed():
    from app.bootlog import failed_boots
    return failed_boots("/data")


def crash():
    from app.bootlog import read_crash
    return (read_crash("/data") or b"").decode().split("\\n")[0]


def state(what):
    print("STATE", what, WDT.running, len(Timer.live), WDT.fed, WDT.kept)


WDT.stop_at_feed = fakechip.Stop
%(script)s
"""


def bowl(tmp_path, script):
    """Run `script` after HARNESS; (each state(): [WDT running, timers running, game
    loop's feeds, keeper's feeds] as words, the live event objects, every line)."""
    code = HARNESS % {
        "image": str(tmp_path / "flash.img"),
        "fonts": os.path.join(FIRMWARE, "display", "fonts"),
        "boot": os.path.join(FIRMWARE, "boot.py"),
        "main": os.path.join(FIRMWARE, "main.py"),
        "script": script,
    }
    out = run_micropython(code, 600_000, (MPLIB,))
    lines = out.splitlines()
    states = [line.split()[2:] for line in lines if line.startswith("STATE")]
    events = [json.loads(line) for line in lines if line.startswith("{")]
    return states, events, lines


def test_missing_fonts_show_out_of_service_reset_and_the_third_failure_stays_in_safe_mode(tmp_path):
    script = """
for n in range(4):
    result = boot("/no/fonts")
    print("BOOT", result, failed(), crash())
    if result != "reset":
        break
    fakechip.hard_reset()
state("safe")
fakechip.tick()
state("ticked")
"""
    states, events, lines = bowl(tmp_path, script)
    boots = [line.split() for line in lines if line.startswith("BOOT")]
    # out of service twice with a reset each time; the third failure in a row stays
    assert [b[1:4] for b in boots] == [
        ["reset", "1", "E-FONT"],
        ["reset", "2", "E-FONT"],
        ["repl", "3", "E-FONT"],
    ], lines
    out = [e for e in events if e["event"] == "out_of_service"]
    assert len(out) == 3 and all(e["detail"].startswith("E-FONT OSError") for e in out), events
    assert [e["event"] for e in events][-1] == "safe_mode", events
    # in safe mode the watchdog runs (the boot was timed) and a timer keeps feeding it
    assert states[0][:2] == ["True", "1"], states
    assert int(states[1][3]) > int(states[0][3]), states


def test_the_out_of_service_code_reaches_the_panel_when_the_fonts_cannot(tmp_path):
    # the colour panel's bus carries the plain-text message after the layout failed
    script = """
fresh("/no/fonts")
import bowl
try:
    bowl.start()
except SystemExit:
    pass
print("WIRE", fakemachine.BUSES[0].written)
"""
    _, _, lines = bowl(tmp_path, script)
    wire = int(next(line for line in lines if line.startswith("WIRE")).split()[1])
    # the panel's init is about 30 bytes; three lines of 16 px text, 2 bytes a pixel, are thousands
    assert wire > 10_000, wire


def test_a_radio_raising_any_exception_is_a_failed_boot_not_a_crash(tmp_path):
    script = """
fakechip.WLAN.error = RuntimeError
for n in range(3):
    print("BOOT", boot(), failed(), crash())
    fakechip.hard_reset()
"""
    _, events, lines = bowl(tmp_path, script)
    boots = [line.split()[1:] for line in lines if line.startswith("BOOT")]
    assert boots == [["reset", "1", "E-RADIO"], ["reset", "2", "E-RADIO"], ["repl", "3", "E-RADIO"]], lines
    assert events[0] == {"event": "out_of_service", "detail": "E-RADIO RuntimeError: radio failed"}


def test_a_good_boot_clears_the_count_of_failed_boots(tmp_path):
    script = """
for fonts in ("/no/fonts", "/no/fonts", FONTS, "/no/fonts"):
    print("BOOT", boot(fonts), failed())
    fakechip.hard_reset()
"""
    _, _, lines = bowl(tmp_path, script)
    boots = [line.split()[1:] for line in lines if line.startswith("BOOT")]
    # two failures, a boot that plays (count cleared), then a failure that is the first again
    assert boots == [["reset", "1"], ["reset", "2"], ["playing", "0"], ["reset", "1"]], lines


def test_the_count_survives_a_power_cut(tmp_path):
    script = """
for n in range(3):
    print("BOOT", boot("/no/fonts"), failed())
    fakechip.power_cut() if n == 0 else fakechip.hard_reset()
"""
    _, _, lines = bowl(tmp_path, script)
    boots = [line.split()[1:] for line in lines if line.startswith("BOOT")]
    assert boots == [["reset", "1"], ["reset", "2"], ["repl", "3"]], lines


def test_after_a_soft_reset_boot_py_keeps_the_watchdog_fed_until_the_app_takes_over(tmp_path):
    script = """
print("BOOT", boot())
state("playing")
fakechip.soft_reset()  # Ctrl-D, or mpremote's: the WDT runs on, its feeder is gone
fresh()
exec(BOOT, {"__name__": "boot"})
state("boot.py")
fakechip.tick()
state("ticked")
print("BOOT", main())
state("app")
"""
    states, _, lines = bowl(tmp_path, script)
    playing, booted, ticked, app = states
    assert playing[:2] == ["True", "0"], states  # the game loop feeds it, no timer
    assert booted[:2] == ["True", "1"], states  # boot.py's timer feeds it: a raw REPL is safe
    assert int(ticked[3]) > int(booted[3]), states
    assert app[1] == "0" and int(app[2]) > int(ticked[2]), states  # the app's feed took over


def test_a_hard_reset_leaves_boot_py_nothing_to_feed(tmp_path):
    script = """
print("BOOT", boot())
fakechip.hard_reset()
fresh()
exec(BOOT, {"__name__": "boot"})
state("boot.py")
"""
    states, _, _ = bowl(tmp_path, script)
    assert states[0][:2] == ["False", "0"], states


def test_the_hosts_sync_leaves_the_watchdog_fed_from_the_timer(tmp_path):
    script = """
WDT.stop_at_feed = None
print("BOOT", boot())
state("sync")
fakechip.tick()
state("ticked")
"""
    sync_path = tmp_path / "stdin"
    sync_path.write_text("sync\n")
    states, events, lines = bowl_with_stdin(tmp_path, script, sync_path)
    assert "BOOT repl" in lines, lines
    assert events[-1] == {"event": "sync"}, events
    assert states[0][:2] == ["True", "1"], states
    assert int(states[1][3]) > int(states[0][3]), states


def test_ctrl_c_in_play_leaves_the_watchdog_fed_at_the_repl(tmp_path):
    # kiosk mode off: Ctrl-C (here at the game loop's feed) stops the app for the REPL
    script = """
WDT.stop_at_feed = KeyboardInterrupt
print("BOOT", boot())
state("repl")
fakechip.tick()
state("ticked")
"""
    states, _, lines = bowl(tmp_path, script)
    assert "BOOT ctrl-c" in lines, lines
    assert states[0][:2] == ["True", "1"], states
    assert int(states[1][3]) > int(states[0][3]), states


def bowl_with_stdin(tmp_path, script, stdin_path):
    """bowl(), the process's stdin (the USB serial) read from `stdin_path`."""
    fd = os.open(stdin_path, os.O_RDONLY)
    saved = os.dup(0)
    try:
        os.dup2(fd, 0)
        return bowl(tmp_path, script)
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        os.close(fd)


def test_each_failure_gets_its_code_from_where_it_was_raised():
    # the shipped code raising as it would at boot: the flash log's file layer, a font, memory, anything else
    code = """
import io, sys
from app.safemode import code
from bobing.store.log import write_file
from display.font import Font

def which(f):
    try:
        f()
    except Exception as e:
        text = io.StringIO()
        sys.print_exception(e, text)
        return code(e, text.getvalue())

print(which(lambda: write_file("/no/such/folder/failed", b"1")))
print(which(lambda: Font("no-such-font")))
print(which(lambda: bytearray(1 << 30)))
print(which(lambda: int("x")))
"""
    assert run_micropython(code).split() == ["E-FS", "E-FONT", "E-MEM", "E-BOOT"]
