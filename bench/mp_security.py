# The keyed log's cost per record (docs/security.md), run in the MicroPython
# unix port by bench/run.py: the heap a record's chain step allocates (the
# housekeeping after the result is shown, Log.hash_pending), plain SHA-256
# against HMAC-SHA256 under a bowl's key, for a 22-byte record (a throw's
# mean: 10.6 B payload + 11 B framing); and the time of each on this machine.
# The heap figures mean the ESP32 only on micropython32 (4-byte words).
# Prints "name value unit target" lines.
import gc
import time

from bobing.store import record

RUNS = 200
CHAIN = bytes(32)
FRAME = bytearray(22)
KEY = bytes(range(32))


def plain():
    record.chain_next(CHAIN, FRAME, 0, 22)


def keyed():
    record.chain_next(CHAIN, FRAME, 0, 22, KEY)


def nothing():
    pass


def heap(step):
    step()  # the first call imports what it needs
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(RUNS):
        step()
    after = gc.mem_alloc()
    gc.enable()
    return (after - before) / RUNS


def us(step):
    start = time.ticks_us()
    for _ in range(RUNS):
        step()
    return time.ticks_diff(time.ticks_us(), start) / RUNS


loop = heap(nothing)
print("security.chain_heap_bytes_plain %.0f B -" % (heap(plain) - loop))
print("security.chain_heap_bytes_keyed %.0f B -" % (heap(keyed) - loop))
print("security.chain_us_plain %.1f us -" % us(plain))
print("security.chain_us_keyed %.1f us -" % us(keyed))
