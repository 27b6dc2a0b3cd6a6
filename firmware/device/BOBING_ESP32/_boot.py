# The bowl's _boot.py, frozen into the BOBING_ESP32 image in place of the
# ESP32 port's (manifest.py).  MicroPython runs it at every reset, before
# boot.py and main.py, with /rom (the bowl's modules) already on sys.path.
# It mounts the filesystem partition at / as the port's does, and formats a
# blank one as the port's does (the first power-up).  The port's formats one
# whose first block is blank even when the rest holds records, and loops
# for ever in inisetup.fs_corrupted() on any other that does not mount: a
# dark bowl.  Here a partition that is not wholly erased is never formatted
# unasked: the bowl's safe mode says "storage damaged" and leaves the REPL
# to the host, so the records can be read first (`bobing import --salvage`);
# only an operator's confirmation in its menu formats it
# (app/safemode.py storage_damaged(), docs/storage.md).  Names it leaves in
# __main__ are the port's own (gc, vfs, bdev): a normal boot keeps no more.
import gc

import vfs
from flashbdev import bdev

try:
    if bdev:
        vfs.mount(bdev, "/")
except OSError:
    import inisetup

    # erased, every block: a first power-up (a partial check could format records)
    buf = bytearray(bdev.ioctl(5, 0))  # 5: the block size
    blank = True
    for block in range(bdev.ioctl(4, 0)):  # 4: the block count
        bdev.readblocks(block, buf)
        if min(buf) != 0xFF:
            blank = False
            break
    del buf
    if blank:
        inisetup.setup()
    else:
        try:
            from app.safemode import storage_damaged
        except ImportError:  # no bowl on /rom yet: the port's own message
            inisetup.fs_corrupted()
        storage_damaged(bdev)

gc.collect()
