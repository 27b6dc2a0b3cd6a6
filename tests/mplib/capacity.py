"""How many throws the flash log takes before StoreFull, on a LittleFS image.

    micropython capacity.py IMAGE BLOCKS [DEPLOY_DIR] [--no-fill]

Makes IMAGE a flash of BLOCKS 4096-byte blocks (sim.flash.FileFlash: in a
file, not the heap), formats it LittleFS as the ESP32 port does, copies
DEPLOY_DIR onto it (what `bobing deploy` writes beside the store: .mpy files
and fonts), then appends throws to the store at /data as a bowl does (an
11-byte payload, the engine's 10.6 B mean; seal when due; a snapshot every
32 records) until it refuses one.  Prints one line:
    free=F records=R warned=W
F the free blocks os.statvfs reports before the store's first write, R the
records the store took, W the record at which free_space_warning() first
spoke (0: never).  --no-fill stops after F.  docs/storage.md, "Capacity".
"""

import os
import sys

import vfs
from sim.flash import FileFlash

from bobing.store.log import StoreFull
from bobing.store.store import Store

_DIR = 0x4000
_BUF = bytearray(4096)


def copy(src, dst):
    for entry in os.ilistdir(src):
        name, kind = entry[0], entry[1]
        if kind == _DIR:
            os.mkdir(dst + "/" + name)
            copy(src + "/" + name, dst + "/" + name)
            continue
        with open(src + "/" + name, "rb") as f, open(dst + "/" + name, "wb") as g:
            n = f.readinto(_BUF)
            while n:
                g.write(memoryview(_BUF)[:n])
                n = f.readinto(_BUF)


def fill(store):
    seq = warned = 0
    while True:
        try:
            seq = store.append(bytes((seq & 255,)) * 11)
        except StoreFull:
            return seq, warned
        store.maintain()
        if seq % 32 == 0:
            store.save_snapshot(b"t" * 120)  # a 10-player tally's size
        if not warned and store.free_space_warning():
            warned = seq


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    flash = FileFlash(args[0], blocks=int(args[1]))
    vfs.VfsLfs2.mkfs(flash)
    vfs.mount(vfs.VfsLfs2(flash), "/flash")
    if len(args) > 2:
        copy(args[2], "/flash")
    free = os.statvfs("/flash")[3]
    records = warned = 0
    if "--no-fill" not in argv:
        store = Store("/flash/data")
        store.replay(store.recover(), lambda seq, payload, game: None)
        records, warned = fill(store)
    print("free=%d records=%d warned=%d" % (free, records, warned))


main(sys.argv)
