"""The bowl's own boot counters and its crash file, beside the flash log.

`boots`: every boot so far; `failed`: the boots in a row that did not
complete (bowl.start: a bowl that fails to boot SAFE_AFTER times stays in
safe mode, app/safemode.py), 0 once one does.  Each a u32 little-endian +
CRC-32, rewritten through a temp file.  `crash`: the text of the last
uncaught exception, cut to _CRASH_BYTES (the newest crash replaces the
previous one), so a bowl that crashes in a loop can never fill the flash
with reports.
"""

import struct
from binascii import crc32

from micropython import const

from bobing.store.log import StoreFull, read_file, write_file

_CRASH_BYTES = const(1024)


def _read_count(path):
    data = read_file(path)
    if data and len(data) == 8 and crc32(data[:4]) == struct.unpack_from("<I", data, 4)[0]:
        return struct.unpack_from("<I", data)[0]
    return 0


def _write_count(path, n):
    body = struct.pack("<I", n)
    write_file(path, body + struct.pack("<I", crc32(body)), path + ".tmp")


def count_boot(root):
    """Add this boot to the counter; the number of boots so far, this one included."""
    path = root + "/boots"
    n = _read_count(path) + 1
    try:
        _write_count(path, n)
    except StoreFull:
        pass  # a full flash: the game log matters more than this count
    return n


def failed_boots(root):
    """Boots in a row that did not complete, as the flash keeps them (0: none, or unreadable)."""
    return _read_count(root + "/failed")


def set_failed_boots(root, n):
    """Keep n as the failed boots in a row, if the flash can (RTC memory counts them too)."""
    try:
        _write_count(root + "/failed", n)
    except (OSError, StoreFull):
        pass  # no store folder yet, or a flash that fails: the reason we count


def write_crash(root, text):
    """Keep `text` (a traceback) as the crash file, at most _CRASH_BYTES of its end."""
    data = text.encode()
    try:
        write_file(root + "/crash", data[-_CRASH_BYTES:], root + "/crash.tmp")
    except (OSError, StoreFull):
        pass  # nothing more can be done on the way to a reset


def read_crash(root):
    return read_file(root + "/crash")
