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


def boots(flash, bowl, upto):
    """Boot at 8 history lengths, 250 throws apart, ending at `upto`; returns the
    bowl and the mean (ms, bytes read).  LittleFS's directory logs are read up
    to their last commit, so one boot's reads swing with where each folder is
    in its compaction cycle: means over several boots show the trend."""
    total_ms = total_read = 0
    for n in range(upto - 7 * 250, upto + 1, 250):
        play(flash, bowl, n - bowl.store.seq)
        ms, read = boot(flash)
        total_ms += ms
        total_read += read
        bowl = Bowl("/b/data", 1)
        bowl.power_on()
    return bowl, total_ms / 8, total_read / 8


flash = NorFlash(BLOCKS)
vfs.VfsLfs2.mkfs(flash)
vfs.mount(vfs.VfsLfs2(flash), "/b")
bowl = Bowl("/b/data", 1)
bowl.power_on()
bowl, ms_early, read_early = boots(flash, bowl, 2250)
play(flash, bowl, 1000 - bowl.store.seq % 1000)
start = bowl.store.seq
programmed, erases, ops = flash.programmed, flash.erases, flash.ops
payload, framed = play(flash, bowl, 6000)
n = bowl.store.seq - start
programmed = flash.programmed - programmed
erases = flash.erases - erases
ops = flash.ops - ops
snapshot_bytes = len(record.GENESIS) + 12 + len(bowl.game.snapshot())  # envelope + state
logical = framed / n + snapshot_bytes / 32 + record.SEGMENT_HEADER_SIZE / 128
bowl, ms_late, read_late = boots(flash, bowl, 10000)
print("store.payload_bytes_per_throw %.1f B -" % (payload / n))
print("store.log_bytes_per_throw %.1f B 64" % logical)
print("store.flash_programmed_bytes_per_throw %.1f B -" % (programmed / n))
print("store.flash_ops_per_throw %.2f ops -" % (ops / n))
print("store.flash_erases_per_throw %.4f erases -" % (erases / n))
print("store.boot_ms_8k_to_10k_history %.1f ms -" % ms_late)
print("store.boot_read_bytes_8k_to_10k_history %d B -" % read_late)
print("store.boot_read_bytes_500_to_2k_history %d B -" % read_early)
print("store.boot_read_growth_10k_vs_2k %.3f x 1.1" % (read_late / read_early))
print("store.flash_life_throws_2MB %d throws -" % (LIFE_BLOCKS * CYCLES * n // erases))
