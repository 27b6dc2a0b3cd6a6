# The whole firmware on an ESP32's heap, driven from CPython by bench/run.py
# through tests/mp.py: tests/mplib/appflow.py boots the shipped App on the
# virtual board (devkit: the real colour screens on the emulated ST7789, the
# fonts) on a flash holding a 2,000-throw history, starts a 10-player table,
# plays 2,000 throws with a power cut half way and the resume.
#
# Primary setting "esp32rom": micropython32 with the firmware executing in
# place from a ROMFS image (build/romfs-test.img), as an ESP32 runs it from
# its ROMFS partition or frozen; the heap figures are the working heap beside
# the code (docs/memory.md).  Printed: the smallest working heap for the
# 2,000 throws (bisected to 1 KB), and at FIGURES_HEAP the heap kept after
# boot, the peak kept after a throw, the largest free block after the 2,000
# throws, the longest gc.collect() pause (it includes scanning the image,
# about 0.2 ms here, which on an ESP32 is flash and never scanned) and the
# time from an accepted press to the result on the panel (commit to flash +
# drawing; the roll animation excluded).
# Secondary, "esp32word": the same flow (600 throws) with the modules
# loaded from .mpy files into the heap, which no ESP32 build does.
#
# Issue 8 asks for 64 KB (goal 48 KB).  Not met: the targets are what is
# achieved now, so a regression fails `make bench-check`.
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from mp import run_micropython, smallest_heap  # noqa: E402

MPLIB = os.path.join(ROOT, "tests", "mplib")
FLOW = os.path.join(MPLIB, "appflow.py")
FIGURES_HEAP = 128 * 1024


def figures(out):
    return {line.split()[0]: int(line.split()[1]) for line in out.splitlines()}


with tempfile.TemporaryDirectory() as folder:
    image = os.path.join(folder, "flash.img")
    run_micropython(FLOW, 4_000_000, (MPLIB,), script_args=["build", image, "2000"], port="esp32rom")
    run = ["run", image, "2000", "10"]
    rom = smallest_heap(
        FLOW, low=48 * 1024, high=FIGURES_HEAP, path=(MPLIB,), script_args=run, port="esp32rom"
    )
    at = figures(run_micropython(FLOW, FIGURES_HEAP, (MPLIB,), script_args=run, port="esp32rom"))
    short = ["run", image, "600", "10"]
    ram = smallest_heap(
        FLOW, low=96 * 1024, high=192 * 1024, path=(MPLIB,), script_args=short, port="esp32word"
    )
print("app.rom.smallest_heap_bytes %d B %d" % (rom, 112 * 1024))
print("app.rom.boot_kept_bytes %d B %d" % (at["app.boot_kept_bytes"], 68 * 1024))
print("app.rom.peak_kept_bytes %d B %d" % (at["app.peak_kept_bytes"], 70 * 1024))
print("app.rom.largest_free_block_bytes_at_128K %d B >=8192" % at["app.largest_free_block_bytes"])
print("app.rom.longest_gc_pause_at_128K %d us -" % at["app.longest_gc_pause_us"])
print("app.rom.press_to_result_max %d us -" % at["app.press_to_result_us_max"])
print("app.rom.press_to_result_mean %d us -" % at["app.press_to_result_us_mean"])
print("app.mpy_in_ram.smallest_heap_bytes %d B %d" % (ram, 176 * 1024))
