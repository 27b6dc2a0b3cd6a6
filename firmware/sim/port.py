"""The ESP32 port's frozen start-up modules, as stock MicroPython v1.24-v1.28
has them (ports/esp32/modules: flashbdev.py, inisetup.py, _boot.py), over
the virtual bare board's flash, for sim.bare.  sim.bare puts this module in
sys.modules as `flashbdev` and as `inisetup`, so the bowl's own frozen
_boot.py (firmware/device/BOBING_ESP32/_boot.py, run by sim.bare on the
target with the repository's image) imports them as on a board.

What stock does, and so what this does:
- _boot: mount the partition at /; if that fails, inisetup.setup();
- setup: a partition whose first block is erased is formatted (LittleFS)
  and given a boot.py; any other goes to fs_corrupted(), which prints its
  message every 3 s for ever, Ctrl-C (on) ending it: main.py never runs.
  Its 3 s are real seconds even on a headless board's virtual clock, as a
  wait that moved that clock would print as fast as the host can.
"""

import time

import vfs

bdev = None  # flashbdev.bdev: sim.bare's FileFlash
_sleep = time.sleep  # the real one: sim.bare may swap `time` for the chip's clock afterwards
BOOT_PY = "# This file is executed on every boot (including wake-boot from deepsleep)\n"


def stock_boot():
    """The port's _boot.py."""
    try:
        vfs.mount(vfs.VfsLfs2(bdev), "/")  # type: ignore[abstract,arg-type]  # set by sim.bare
    except OSError:
        setup()


def check_bootsec():
    buf = bytearray(bdev.ioctl(5, 0))  # type: ignore[attr-defined]  # set by sim.bare
    bdev.readblocks(0, buf)  # type: ignore[attr-defined]
    if min(buf) == 0xFF:
        return True
    fs_corrupted()


def fs_corrupted():
    import micropython

    micropython.kbd_intr(3)  # Allow this loop to be stopped via Ctrl-C.
    while True:
        print(
            "The filesystem appears to be corrupted. If you had important data there, you\n"
            "may want to make a flash snapshot to try to recover it. Otherwise, perform\n"
            "factory reprogramming of MicroPython firmware (completely erase flash, followed\n"
            "by firmware programming).\n"
        )
        _sleep(3)


def setup():
    check_bootsec()
    print("Performing initial setup")
    vfs.VfsLfs2.mkfs(bdev)  # type: ignore[arg-type]  # set by sim.bare
    fs = vfs.VfsLfs2(bdev)  # type: ignore[abstract,arg-type]
    vfs.mount(fs, "/")
    with open("/boot.py", "w") as f:
        f.write(BOOT_PY)
    return fs
