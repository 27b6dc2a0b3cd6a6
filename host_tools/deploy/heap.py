"""What a byte string costs in the MicroPython heap at the ESP32's word size
(micropython32): how much -X heapsize a harness adds for what it keeps
beside the firmware, so the firmware still gets the heap measured.

The ROMFS partition of the virtual bare board (host_tools/sim/bare.py) and
tools/romfs_run.py's image are such bytes: flash on a board, a bytearray
here."""


def rom_kept(size):
    """gc.mem_alloc() bytes an image of `size` bytes takes read into a
    bytearray: the data in whole 16-byte GC blocks (micropython32, as the
    ESP32) plus one block for the bytearray object."""
    return (size + 15) // 16 * 16 + 16


def heap_holding(n):
    """-X heapsize bytes that hold n more bytes of objects.  The heap holds
    the collector's tables too (py/gc.c gc_setup_area), a byte of
    allocation table per 4 blocks of 16 bytes and a byte of finaliser table
    per 8, so it grows its objects' room in steps of 64 bytes (one table
    byte), each taking 65.5 bytes of heap."""
    return ((n + 63) // 64 * 131 + 1) // 2


def rom_heap(size):
    """Heap bytes an image of `size` bytes takes: its rom_kept() and that
    share of the tables.  Without the tables' share a 240 KB image took
    5.6 KB of them out of the working heap."""
    return heap_holding(rom_kept(size))
