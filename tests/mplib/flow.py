"""The bowl's whole flow on an ESP32-sized heap, over a flash image in a file.

    micropython flow.py build IMAGE THROWS   # a 1 MB filesystem with a history
    micropython -X heapsize=64K flow.py run IMAGE THROWS
run mounts a copy of the image (IMAGE.run: the image stays as built), imports the firmware, boots on the history, plays
(new games as games end, housekeeping after every result, snapshots and
seals), cuts the power in the middle of a throw, boots again, plays THROWS
throws in all, and prints "flow.<figure> value unit" lines: the heap kept by
the imports and by the booted session, the largest free block at the end.
Any exception, a MemoryError included, fails the run.
"""

import gc
import sys

import vfs

ROOT = "/b/data"


def mount(flash):
    vfs.mount(vfs.VfsLfs2(flash), "/b")


def new_session():
    from bobing.dice import Dice, SeededBytes
    from bobing.session import Session
    from bobing.store.store import Store

    return Session(Store(ROOT), Dice(SeededBytes(5)))


def play(session, rules, throws):
    for _ in range(throws):
        if session.game is None or session.game.ended:
            session.new_game(rules, 10)
        else:
            session.throw()
        session.maintain()


def build(path, throws):
    from sim.flash import FileFlash

    flash = FileFlash(path, blocks=256)
    vfs.VfsLfs2.mkfs(flash)
    mount(flash)
    from bobing.rules import Rules

    session = new_session()
    session.boot()
    play(session, Rules("xiamen"), throws)
    print("built", session.store.seq)


def copy(source, target):
    buf = bytearray(512)
    with open(source, "rb") as f, open(target, "wb") as out:
        while f.readinto(buf):
            out.write(buf)


def run(path, throws):
    from mp_heap import largest_free_block
    from sim.flash import FileFlash, PowerCut

    copy(path, path + ".run")
    gc.collect()
    start = gc.mem_alloc()
    flash = FileFlash(path + ".run")
    mount(flash)
    from bobing.rules import Rules
    from bobing.session import Session  # noqa: F401 (the import is measured)

    gc.collect()
    print("flow.import_kept_bytes %d B" % (gc.mem_alloc() - start))
    session = new_session()
    boot = session.boot()
    assert not boot.issues, boot.issues
    gc.collect()
    print("flow.booted_kept_bytes %d B" % (gc.mem_alloc() - start))
    rules = Rules("xiamen")
    history = session.store.seq
    play(session, rules, throws // 2)
    # the power goes off in the middle of the next throw's flash write
    flash.cut_at = flash.ops
    try:
        session.throw()
        raise AssertionError("the power cut did not happen")
    except (PowerCut, OSError):
        pass
    flash.cut_at = -1
    try:
        vfs.umount("/b")
    except OSError:
        pass
    session = None
    gc.collect()
    mount(flash)
    session = new_session()
    boot = session.boot()
    assert not boot.issues and boot.power_cut, boot.issues
    play(session, rules, throws - throws // 2)
    assert session.store.seq >= history + throws - 1
    session.game.snapshot()
    print("flow.largest_free_block_bytes %d B" % largest_free_block())
    print("flow.throws %d throws" % (session.store.seq - history))


if sys.argv[1] == "build":
    build(sys.argv[2], int(sys.argv[3]))
else:
    run(sys.argv[2], int(sys.argv[3]))
