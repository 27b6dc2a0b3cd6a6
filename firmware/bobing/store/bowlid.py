"""The bowl's id, kept twice: `id` in the store and `<store>.keep/id` beside it.

The host files every record under the bowl's id, so a bowl that came back
under a new id would have its records counted twice.  The copy beside the
store lives in its own folder's LittleFS metadata, not the store's: one
flipped bit, a rolled-back folder or a deleted `/data` loses one copy, never
both, and the bowl keeps its id.  The copy beside also holds, as of the
last seal (rewritten at each seal: one small commit per segment, about 128
throws), the last sequence number sealed, the lifetime games and the
current game's header record: a store lost or rolled back as a whole is
told apart from a first power-up and its numbers are never used again, and
a boot that lost both counter copies starts from there, not from the first
record of the bowl's life.

Its own folder, not a file in the parent: LittleFS reads a folder's
metadata log to find every path through it, so a file rewritten at each
seal in the filesystem's root would make every slot's path cost more.

`id`: 16 lowercase hex digits.  `<store>.keep/id`: the same 16 digits, then,
each after a space in 8 hex digits, the sealed sequence number, the games
and the game's header record (43 bytes).
"""

import os

from bobing.store.log import StoreFull, is_dir, read_file, remove, write_file

_HEX = b"0123456789abcdef"


def is_hex(data):
    return all(c in _HEX for c in data)


def beside_path(root):
    return root + ".keep/id"


def read_id(root):
    """The id in the store's `id` file, or None (missing: None, damaged: b"")."""
    data = read_file(root + "/id")
    if data is None:
        return None
    return data.decode() if len(data) == 16 and is_hex(data) else ""


def read_beside(root):
    """(id, sealed sequence number, games, game header record) from beside
    the store, or None."""
    data = read_file(beside_path(root))
    if not data or len(data) != 43 or not is_hex(data[:16]):
        return None
    for at in (16, 25, 34):
        if data[at : at + 1] != b" " or not is_hex(data[at + 1 : at + 9]):
            return None
    return data[:16].decode(), int(data[17:25], 16), int(data[26:34], 16), int(data[35:], 16)


def save_id(root, bowl_id, issues):
    try:
        write_file(root + "/id", bowl_id.encode(), root + "/id.tmp")
    except StoreFull:
        issues.append("bowl id not saved: flash full")


def save_beside(root, bowl_id, sealed, games, game):
    """Best effort: the store itself is whole without it."""
    data = ("%s %08x %08x %08x" % (bowl_id, sealed, games, game)).encode()
    try:
        if not is_dir(root + ".keep"):
            remove(root + ".keep")  # a file in the folder's place
            os.mkdir(root + ".keep")
        write_file(beside_path(root), data)
    except (StoreFull, OSError):
        pass
