# What the bowl allocates, driven from CPython by bench/run.py through
# tests/test_alloc.py: tests/mplib/allocflow.py runs the shipped bowl (the
# app, bowl.py's tasks, the board profile over fakemachine's pins and buses,
# the USB serial on a silent open stdin) on the virtual clock on
# micropython32, the ESP32's word size.  Per profile (devkit: colour
# screens on the ST7789; oled: mono on the SSD1306):
# - idle_bytes_per_s: the app waiting for a press, nothing pressed or
#   received (switch polling, serial reads, watchdog feeder, speaker queue);
# - roll_frame_bytes: one frame of the roll animation (Screen.roll);
# - throw_bytes_mean/max: App.throw(), the whole press path with the bowl's
#   tasks running, less the log record (Session.throw() and the record's
#   chain hash folded in after the display, Log.hash_pending, counted
#   around those calls and printed as record_bytes_mean), over 64 throws.
# Bytes are gc.mem_alloc() growth with the collector off: every object made.
#
# Issue 21 asks for 0 B a second idle and at most 256 B a throw: idle, roll
# frames and the mean throw meet it (docs/memory.md says what is left: the
# throw's coroutines, housekeeping, the live line's last piece; the largest
# throws are those that write a snapshot).
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
# the tests' helpers, as conftest gives them under pytest (last: its pytest.py is MicroPython's)
sys.path.append(os.path.join(ROOT, "tests", "mplib"))
from test_alloc import IDLE_S, THROW_MAX_B, THROW_MEAN_B, THROWS, alloc_flow  # noqa: E402

for profile in ("devkit", "oled"):
    f = alloc_flow(profile, THROWS, IDLE_S)
    print("alloc.%s.idle_bytes_per_s %d B 0" % (profile, f["idle_bytes_per_s"]))
    print("alloc.%s.roll_frame_bytes %d B 0" % (profile, f["roll_frame_bytes"]))
    print("alloc.%s.throw_bytes_mean %d B %d" % (profile, f["throw_bytes_mean"], THROW_MEAN_B))
    print("alloc.%s.throw_bytes_max %d B %d" % (profile, f["throw_bytes_max"], THROW_MAX_B))
    print("alloc.%s.record_bytes_mean %d B -" % (profile, f["record_bytes_mean"]))
