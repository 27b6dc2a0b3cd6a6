"""The bowl's own boot counter and its crash file, beside the flash log.

`boots`: u32 little-endian boot count + CRC-32, rewritten through a temp
file at each boot.  `crash`: the text of the last uncaught exception, cut
to _CRASH_BYTES (the newest crash replaces the previous one), so a bowl that
crashes in a loop can never fill the flash with reports.
"""

import struct
from binascii import crc32

from micropython import const

from bobing.store.log import StoreFull, read_file, write_file

_CRASH_BYTES = const(1024)


def count_boot(root):
    """Add this boot to the counter; the number of boots so far, this one included."""
    path = root + "/boots"
    data = read_file(path)
    n = 0
    if data and len(data) == 8 and crc32(data[:4]) == struct.unpack_from("<I", data, 4)[0]:
        n = struct.unpack_from("<I", data)[0]
    n += 1
    body = struct.pack("<I", n)
    try:
        write_file(path, body + struct.pack("<I", crc32(body)), path + ".tmp")
    except StoreFull:
        pass  # a full flash: the game log matters more than this count
    return n


def write_crash(root, text):
    """Keep `text` (a traceback) as the crash file, at most _CRASH_BYTES of its end."""
    data = text.encode()
    try:
        write_file(root + "/crash", data[-_CRASH_BYTES:], root + "/crash.tmp")
    except (OSError, StoreFull):
        pass  # nothing more can be done on the way to a reset


def read_crash(root):
    return read_file(root + "/crash")
