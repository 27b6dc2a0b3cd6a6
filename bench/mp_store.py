# Flash store benchmark, run in the MicroPython unix port by bench/run.py.
# Plays whole games (10 players, xiamen, seeded dice) through the bowl's
# storage flow on LittleFS over a simulated NOR flash that counts every
# program, erase and read.  Prints "name value unit target" lines.
import sys
import time

import vfs

sys.path.append(__file__.rsplit("/", 2)[0] + "/tests/mplib")
from bowl import Bowl  # noqa: E402
from nor_flash import NorFlash  # noqa: E402

from bobing.rules import Rules  # noqa: E402
from bobing.store import record  # noqa: E402

BLOCKS = 256  # a 1 MB filesystem (the bench's heap cannot hold a 2 MB image)
LIFE_BLOCKS = 512  # the 2 MB partition the flash life is projected for
CYCLES = 100000


def play(flash, bowl, throws):
    """Play games until `throws` more records are logged; returns payload and record bytes."""
    payload = framed = 0
    start = bowl.store.seq
    while bowl.store.seq - start < throws:
        if bowl.game is None or bowl.game.ended:
            bowl.new_game(Rules("xiamen"), 10)
        bowl.throw()
        payload += len(bowl.shown)
        framed += len(bowl.shown) + record.FRAMING + (len(bowl.shown) >= 64)
    return payload, framed


def boot(flash):
    """Remount and recover: (ms, bytes read)."""
    vfs.umount("/b")
    read = flash.read_bytes
    t0 = time.ticks_us()
    vfs.mount(vfs.VfsLfs2(flash), "/b")
    Bowl("/b/data", 2).power_on()
    return time.ticks_diff(time.ticks_us(), t0) / 1000, flash.read_bytes - read


flash = NorFlash(BLOCKS)
vfs.VfsLfs2.mkfs(flash)
vfs.mount(vfs.VfsLfs2(flash), "/b")
bowl = Bowl("/b/data", 1)
bowl.power_on()
play(flash, bowl, 1000)
ms_1k, read_1k = boot(flash)
bowl = Bowl("/b/data", 1)
bowl.power_on()
programmed, erases, ops = flash.programmed, flash.erases, flash.ops
payload, framed = play(flash, bowl, 9000)
n = 9000
programmed = flash.programmed - programmed
erases = flash.erases - erases
ops = flash.ops - ops
snapshot_bytes = len(record.GENESIS) + 12 + len(bowl.game.snapshot())  # envelope + state
logical = framed / n + snapshot_bytes / 32 + record.SEGMENT_HEADER_SIZE / 128
ms_10k, read_10k = boot(flash)
print("store.payload_bytes_per_throw %.1f B -" % (payload / n))
print("store.log_bytes_per_throw %.1f B 64" % logical)
print("store.flash_programmed_bytes_per_throw %.1f B -" % (programmed / n))
print("store.flash_ops_per_throw %.2f ops -" % (ops / n))
print("store.flash_erases_per_throw %.4f erases -" % (erases / n))
print("store.boot_ms_10k_history %.1f ms -" % ms_10k)
print("store.boot_read_bytes_10k_history %d B -" % read_10k)
print("store.boot_read_growth_10k_vs_1k %.3f x 1.1" % (read_10k / read_1k))
print("store.flash_life_throws_2MB %d throws -" % (LIFE_BLOCKS * CYCLES * n // erases))
