# The whole firmware's heap and press path: the app, board layer and store on
# the virtual board (tests/mplib/appflow.py: a 10-player table, 2,000 throws
# with a power cut half way and the resume), each run in a child MicroPython
# of this same port at a chosen -X heapsize, from the .mpy build.
#
# Printed: the smallest heap the run needs (bisected to 1 KB), and at 128 KB
# the heap kept after boot, the peak kept after a throw, the largest free
# block after the 2,000 throws, the longest gc.collect() pause, and the time
# from an accepted press to the result on the screen (commit to flash +
# drawing; the roll animation excluded).  Issue 8 asks for 64 KB (goal 48 KB)
# as frozen firmware; loaded from .mpy files the bytecode itself sits in the
# heap (about 94 KB of the kept bytes after boot), so the targets below are
# what the .mpy build achieves now: a regression fails `make bench-check`.
import os
import sys

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
FLOW = HERE + "/../tests/mplib/appflow.py"
IMAGE = "/tmp/bobing-bench-app.img"
OUT = IMAGE + ".out"
PLAYERS = 10


def run(heap, throws):
    """The figures of one run, or None if it failed (a MemoryError)."""
    status = os.system(
        "%s -X heapsize=%d %s %s %d %d > %s 2>&1" % (sys.executable, heap, FLOW, IMAGE, throws, PLAYERS, OUT)
    )
    with open(OUT) as f:
        text = f.read()
    os.remove(OUT)
    if status:
        return None
    figures = {}
    for line in text.split("\n"):
        if line:
            name, value, _ = line.split()
            figures[name] = int(value)
    return figures


low, high = 32 * 1024, 256 * 1024
if run(high, 600) is None:
    raise SystemExit("appflow fails even at %d bytes of heap" % high)
while high - low > 1024:
    mid = (low + high) // 2
    if run(mid, 600) is None:
        low = mid
    else:
        high = mid
figures = run(128 * 1024, 2000)
if figures is None:
    raise SystemExit("appflow fails at 128 KB")
os.remove(IMAGE)
print("app.smallest_heap_bytes %d B 131072" % high)
print("app.boot_kept_bytes %d B 100000" % figures["app.boot_kept_bytes"])
print("app.peak_kept_bytes %d B 102400" % figures["app.peak_kept_bytes"])
print("app.largest_free_block_bytes_at_128K %d B >=4096" % figures["app.largest_free_block_bytes"])
print("app.longest_gc_pause_at_128K %d us -" % figures["app.longest_gc_pause_us"])
print("app.press_to_result_max %d us -" % figures["app.press_to_result_us_max"])
print("app.press_to_result_mean %d us -" % figures["app.press_to_result_us_mean"])
