# The whole flow's heap on micropython32 (the ESP32's word size, .mpy files),
# driven from CPython by bench/run.py: boot on a 10,000-throw history in a
# 1 MB LittleFS image (kept in a host file, outside the heap), 2,000 throws
# with housekeeping, a power cut, a reboot (tests/mplib/flow.py).
# Prints "name value unit target" lines.
#
# Issue 7 asks for 40 KB (goal 32 KB) and imports kept <= 24 KB: flow.rom
# passes at every 512 B step from its smallest heap up (tests/test_heap_flow.py runs it
# a few KB above).  The firmware's .mpy bytecode loaded into RAM is 38 KB of it
# (flow.import_kept_bytes);
# from a ROMFS image or frozen (docs/memory.md) it runs from flash instead:
# flow.rom.* is the same flow on the "esp32rom" setting, as an ESP32 runs it
# (the harness compiled into the image too, tests/mp.py HARNESS).  The
# targets are the where met, else what is achieved with a little
# room, so a regression fails `make bench-check`.
# The log's 4 KB buffer is made at import (before the heap is cut up), so it
# counts in import_kept, not only in booted_kept.  The largest free block
# moves by 1-3 KB with allocation order (even the module path's length): its
# bar sits below the 8-10 KB seen, so only a real regression trips it.
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from mp import run_micropython, smallest_heap, smallest_heap_from_above  # noqa: E402

MPLIB = os.path.join(ROOT, "tests", "mplib")
FLOW = os.path.join(MPLIB, "flow.py")
HEAP = 96 * 1024  # an ESP32 without PSRAM leaves about 100 KB to the application


def flow(image, heapsize, port):
    out = run_micropython(FLOW, heapsize, (MPLIB,), script_args=["run", image, "2000"], port=port)
    return {line.split()[0]: int(line.split()[1]) for line in out.splitlines()}


def measure(port):
    """(smallest heap, figures at HEAP) of the flow on `port`: bisected on
    esp32word; on esp32rom walked down from 44 KB in 512 B steps, the
    smallest heap from which every step up passes (tests/mp.py
    smallest_heap_from_above: near the limit the flow passes or fails by
    where its objects land)."""
    with tempfile.TemporaryDirectory() as folder:
        image = os.path.join(folder, "flash.img")
        run_micropython(FLOW, 4_000_000, (MPLIB,), script_args=["build", image, "10000"], port=port)
        if port == "esp32rom":
            smallest = smallest_heap_from_above(lambda heap: flow(image, heap, port), 44 * 1024, 512)
        else:
            smallest = smallest_heap(
                FLOW,
                low=24 * 1024,
                high=HEAP,
                step=1024,
                port=port,
                path=(MPLIB,),
                script_args=["run", image, "2000"],
            )
        return smallest, flow(image, HEAP, port)


smallest, figures = measure("esp32word")
print("flow.smallest_heap_bytes %d B %d" % (smallest, 67 * 1024))  # docs/memory.md: issue 24
print("flow.import_kept_bytes %d B 48128" % figures["flow.import_kept_bytes"])
print("flow.booted_kept_bytes %d B 52224" % figures["flow.booted_kept_bytes"])
print("flow.largest_free_block_bytes_at_96K %d B >=6144" % figures["flow.largest_free_block_bytes"])
smallest, figures = measure("esp32rom")
print("flow.rom.smallest_heap_bytes %d B %d" % (smallest, 40 * 1024))
print("flow.rom.import_kept_bytes %d B %d" % (figures["flow.import_kept_bytes"], 24 * 1024))
print("flow.rom.booted_kept_bytes %d B %d" % (figures["flow.booted_kept_bytes"], 26 * 1024))
print("flow.rom.largest_free_block_bytes_at_96K %d B >=12288" % figures["flow.largest_free_block_bytes"])
