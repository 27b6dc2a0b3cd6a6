"""The bowl on the virtual bare boards: `bobing deploy` from this package onto a
board as stock MicroPython (or the repository's ROMFS build) leaves it, then play.

For each kind of board (host_tools/sim/bare.py TARGETS: `s3`, the
recommended build, .mpy files on LittleFS; `bobing-esp32`, the small
boards' ROMFS build), on micropython32 at that board's heap:
- the heap free when the bowl first waits for a press after its boot, and
  the least free at any later wait over THROWS throws (sim/chip.py samples
  gc.mem_free() as each press is taken, right after a collection: the
  virtual board's own garbage is not the bowl's);
- the bytes a first install and a one-file update move over the serial, and
  the time that takes at 115,200 baud (10 bits a byte on the wire) plus the
  time the virtual board itself took.  On the ROMFS build any change
  rewrites the whole image.
"""

import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "mplib"))
import simsync  # noqa: E402

THROWS = 200
STALL_S = 20  # no new throw for this long: the bowl is waiting for presses it forgot
PROFILE = {"s3": "s3", "bobing-esp32": "devkit"}  # the board each target is wired as
BAUD_BYTES_S = 115200 / 10
MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")
# what the S3 must keep free in play (its PSRAM heap is megabytes); the
# small board's: what it keeps free now with issues 21-26's features
# (44,416 B after boot, 42,768 B at least) less about 1.5 KB, so a
# regression of the bowl's heap fails (docs/memory.md, "On the virtual bare
# board")
BOOT_FREE = {"s3": "-", "bobing-esp32": ">=%d" % (42 * 1024)}  # docs/memory.md: issue 24
LEAST_FREE = {"s3": ">=1000000", "bobing-esp32": ">=%d" % (40 * 1024 + 512)}
# an update that moves more than this was not an update of one file
UPDATE_BYTES = {"s3": 20_000, "bobing-esp32": 400_000}


def deploy(link, *extra):
    link.connect()
    started = time.monotonic()
    done = subprocess.run(
        [simsync.BOBING, "deploy", "--port", link.path, *extra], capture_output=True, text=True, timeout=600
    )
    took = time.monotonic() - started
    if done.returncode != 0 or not done.stdout.endswith("bowl running\n"):
        raise SystemExit("deploy failed: %s" % (done.stderr or done.stdout).strip())
    return link.moved, took


def play(board, throws):
    """`throws` throws, whatever the presses the bowl let pass (a press it
    takes while locked out is one it forgets, as a real bowl does): pressed
    again when the count stands still.  A reset is caught at the end."""
    board.press("throw")  # a new bowl: the first press starts the game
    board.press(*["throw"] * throws)
    count, still = 0, time.monotonic()
    while count < throws:
        time.sleep(0.5)
        now = len(board.throws())
        if now > count:
            count, still = now, time.monotonic()
        elif time.monotonic() - still > STALL_S:
            board.press(*["throw"] * (throws - count))
            still = time.monotonic()
        if board.proc.poll() is not None:
            raise SystemExit("the bare board stopped: %s" % board.stderr()[-300:])


def one_file_changed(link, target):
    """Make the board's firmware differ from the package's by one module."""
    link.connect()
    if target == "s3":
        code = "import os\nos.remove('/bobing/dice.mpy')"
    else:  # a 4 KB block inside the image (a font's end) erased: the image's sum differs
        from host_tools.deploy import firmware_tree

        size = len(firmware_tree.romfs_image(firmware_tree.bowl_files()))
        code = "import vfs\nvfs.rom_ioctl(3,0,%d,4096)\nvfs.rom_ioctl(5,0)" % ((size - 4096) // 4096 * 4096)
    subprocess.run(
        [MPREMOTE, "connect", link.path, "exec", code], capture_output=True, timeout=120, check=True
    )


def board_run(target):
    with tempfile.TemporaryDirectory() as folder:
        board = simsync.SimBowl(folder, 1, "--bare", "--target", target)
        link = simsync.SimLink(board.port)
        try:
            keys = os.path.join(folder, "bobing.db")  # deploy keys the bowl: its keys beside this
            first = deploy(link, "--board", PROFILE[target], "--db", keys)
            play(board, THROWS)
            one_file_changed(link, target)
            update = deploy(link, "--db", keys)
            play(board, THROWS + 1)
        finally:
            link.close()
        board.proc.stdin.close()
        board.proc.wait(timeout=120)
        said = board.stderr()
        board.kill()
    resets = [line for line in said.splitlines() if line.startswith("sim: reset")]
    if resets:
        raise SystemExit("%s: the bowl reset in play: %s" % (target, resets[0]))
    heap = [line for line in said.splitlines() if line.startswith("sim: heap free ")]
    if not heap:
        raise SystemExit("%s: the bare board said nothing of its heap: %s" % (target, said[-300:]))
    words = heap[-1].split()
    return int(words[3]), int(words[10]), first, update


def main():
    for target in ("s3", "bobing-esp32"):
        booted, least, first, update = board_run(target)
        name = "bare.%s" % target
        print("%s.heap_free_after_boot %d B %s" % (name, booted, BOOT_FREE[target]))
        print("%s.heap_least_free_in_play %d B %s" % (name, least, LEAST_FREE[target]))
        for what, (moved, took) in (("first_install", first), ("one_file_update", update)):
            limit = UPDATE_BYTES[target] if what == "one_file_update" else "-"
            print("%s.deploy_%s_wire %d B %s" % (name, what, moved, limit))
            print("%s.deploy_%s_at_115200 %.1f s -" % (name, what, moved / BAUD_BYTES_S + took))


if __name__ == "__main__":
    main()
