"""Lifetime counters (bobing/store/counters.py) on CPython, through the store
and the host's reader.  What a user would notice if it broke: the bowl's
and the report's lifetime throws grow with every damage note a boot writes
(R6), or a bowl whose counters are in the format before (BBC3) shows its
games from 0 after an update, or cannot be synced.
"""

import struct
from binascii import crc32

from bobing.store.counters import NAMES
from bobing.store.store import NOTE, Store
from host_tools.sync.logread import read_log


def boot(root):
    store = Store(str(root))
    recovery = store.recover()
    store.replay(recovery, lambda seq, payload, game_start: None)
    return store, recovery


def test_notes_are_not_throws_on_the_bowl_nor_on_the_host(tmp_path):
    store = boot(tmp_path)[0]
    store.append(b"\x81 header", game_start=True)
    for n in range(5):
        store.append(b"\x01 throw %d" % n)
    store.append(bytes([NOTE]) + b"what a boot found")
    store.append(b"\x01 throw 5")
    assert store.lifetime()["throws"] == 6
    again = boot(tmp_path)[0]  # the note after the last save: counted again by the boot
    assert again.lifetime() == {"games": 1, "throws": 6, "recoveries": 1}
    assert read_log(str(tmp_path)).counters == again.lifetime()
    again.append(bytes([NOTE]) + b"the app's note")
    assert boot(tmp_path)[0].lifetime()["throws"] == 6


def test_counters_of_the_format_before_are_read(tmp_path):
    store = boot(tmp_path)[0]
    for _ in range(3):
        store.append(b"\x81 header", game_start=True)
        store.append(b"\x01 throw")
    old = b"BBC3" + struct.pack("<IIIIIIII", 9, 3, 0, store.seq, 0, store.seq - 1, 0, 0)
    for name in NAMES:
        (tmp_path / name).write_bytes(old + struct.pack("<I", crc32(old)))
    store, recovery = boot(tmp_path)
    assert recovery.issues == []
    assert (store.lifetime()["games"], store.lifetime()["throws"]) == (3, 3)
    assert store.counters.generation == 10 and (tmp_path / NAMES[0]).read_bytes()[:4] == b"BBC4"
