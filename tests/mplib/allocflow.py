"""What the bowl allocates while it waits and per throw, on the whole app.

    micropython allocflow.py PROFILE IMAGE THROWS IDLE_S

Builds the shipped board profile PROFILE (devkit: the colour screens on the
ST7789 driver; oled: the mono ones on the SSD1306) over fakemachine's pins
and buses, on a fresh LittleFS flash in the host file IMAGE, with the USB
serial's real StdinLines on this process's stdin (the driver holds it open
and sends nothing), and runs the bowl as bowl.py does, on the virtual clock
(sim.vclock): the app, switch polling, the watchdog feeder, the speaker's
queue.  Seeded dice; the live event lines are dropped.  Prints:

    alloc.idle_bytes_per_s N     the app waiting for a press, IDLE_S virtual
                                 seconds, nothing pressed or received
    alloc.roll_frame_bytes N     one frame of the roll animation: the
                                 profile's Screen.roll() on its panel driver
    alloc.throw_bytes_max N      App.throw() (the press path: commit, the
    alloc.throw_bytes_mean N     roll's frames, the result, sound, live
                                 event, announcement lock-out, housekeeping)
                                 with the bowl's tasks running, less its log
                                 record; largest and mean over THROWS throws
    alloc.record_bytes_mean N    the log record's own: Session.throw() (the
                                 engine's batch and the store's append) and
                                 the record's chain hash (Log.hash_pending,
                                 after the display), counted around those
                                 calls during the throw

Bytes are gc.mem_alloc() growth with the collector off, so every object made
counts, kept or not; frames the VM frees on return do not.
"""

import asyncio
import gc
import sys

import bowl
import fakemachine
import vfs
from sim.flash import FileFlash
from sim.nvs import Partition
from sim.vclock import VirtualClock

MOUNT = "/a"


class Null:
    def write(self, text):
        pass


def build(profile, image):
    flash = FileFlash(image, blocks=256)
    vfs.VfsLfs2.mkfs(flash)
    vfs.mount(vfs.VfsLfs2(flash), MOUNT)
    fakemachine.install()
    from app.app import App

    from bobing.dice import SeededBytes
    from bobing.events import ENTROPY_SEEDED

    root = MOUNT + "/data"
    session = bowl.boot_log(root, Partition().open)  # the tip kept in NVS at every throw, as on the chip
    board = __import__("board." + profile, None, None, ["build"]).build(session.store.log.buf)
    board.flash_root = root
    board.random_bytes = SeededBytes(6)
    board.entropy = ENTROPY_SEEDED
    board.serial.write = Null().write
    clock = VirtualClock()
    clock.install()
    board.clock = board.inputs.clock = board.sound._clock = clock
    return board, App(board, fresh_start=True, session=session)


def counted(session, record):
    """Session.throw, counting what it allocates into record[0]; and the
    record's chain hash, which the log folds in after the display
    (Log.hash_pending, from Session.maintain): the record's too."""
    throw = session.throw
    log = session.store.log
    hash_pending = log.hash_pending
    inside = [False]  # in Session.throw: its append's own hashing is counted there

    def counting():
        before = gc.mem_alloc()
        inside[0] = True
        batch = throw()
        inside[0] = False
        record[0] += gc.mem_alloc() - before
        return batch

    def hashing():
        if inside[0]:
            return hash_pending()
        before = gc.mem_alloc()
        chain = hash_pending()
        record[0] += gc.mem_alloc() - before
        return chain

    session.throw = counting
    log.hash_pending = hashing


async def idle(board, app, seconds):
    main = asyncio.create_task(bowl._main(board, app))
    while not (board.inputs.waiting and board.inputs.idle()):
        await board.clock.sleep_ms(5)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    await board.clock.sleep_ms(seconds * 1000)
    grown = gc.mem_alloc() - before
    gc.enable()
    print("alloc.idle_bytes_per_s %d" % (grown // seconds))
    main.cancel()  # the app's wait ends; the bowl's other tasks go on, as during a throw
    await board.clock.sleep_ms(0)


def roll_frame(screen, faces):
    screen.roll(faces)
    for i in range(6):  # the next frame shows other faces, so every die is drawn again
        faces[i] = faces[i] % 6 + 1
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    screen.roll(faces)
    grown = gc.mem_alloc() - before
    gc.enable()
    print("alloc.roll_frame_bytes %d" % grown)


async def throws(app, n):
    record = [0]
    counted(app.session, record)
    largest = total = records = 0
    for _ in range(n):
        if app.session.game.ended:
            app.new_game()
        record[0] = 0
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        await app.throw()
        grown = gc.mem_alloc() - before - record[0]
        gc.enable()
        largest = max(largest, grown)
        total += grown
        records += record[0]
    print("alloc.throw_bytes_max %d" % largest)
    print("alloc.throw_bytes_mean %d" % (total // n))
    print("alloc.record_bytes_mean %d" % (records // n))


async def main(profile, image, n, seconds):
    board, app = build(profile, image)
    roll_frame(board.screen, [1, 2, 3, 4, 5, 6])
    await idle(board, app, seconds)
    await throws(app, n)


asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
