# Fault campaign, run in the MicroPython unix port by bench/run.py (and, on a
# small sample, by tests/test_store_campaign.py).  Plays a bowl through the
# firmware's own session on LittleFS over a simulated NOR flash, damages the
# flash, boots the real store on it and sorts each case into one class:
#
#   ok        nothing shown is lost (damage, if any, reported)
#   reported  a shown throw is lost and the boot says so
#   silent    a shown throw is lost and the boot says nothing
#   reused    a sequence number the bowl had used is given to a new record
#   new_id    the bowl came back under another id (the host files it twice)
#   crash     the first boot raised, the next one did not
#   boot_loop every boot raised, or the bowl could not play on
#   no_mount  LittleFS does not mount the image
#
# Campaigns: raw single-bit flips anywhere in the image; file damage (every
# file and folder of the store, and the store itself: deleted, emptied,
# rolled back 1 and 5 records); a power cut at every operation of the first
# boot after each folder, `id` and store loss; and the bowl's NVS partition
# (sim.nvs, where the store keeps its tip and id outside the filesystem)
# damaged alone: erased, a key lost, the tip rolled back, another bowl's id,
# each also with a power cut at every operation of the boot that finds it.
# The filesystem's faults leave the NVS as the played bowl left it.  Prints
# "name value unit target" lines; `mp_faults.py N` runs N flips and every
# 8th file and cut case (the test's sample), `-v` names every case that is
# not ok, `--no-nvs` plays a board without NVS (the figures before it).
import gc
import os
import random
import sys

import vfs

sys.path.append(__file__.rsplit("/", 2)[0] + "/tests/mplib")
from nor_flash import NorFlash  # noqa: E402
from sim.nvs import Partition  # noqa: E402
from storefaults import ROOT, Played  # noqa: E402

from bobing.rules import Rules  # noqa: E402

THROWS = 200  # a segment sealed and 72 records in the slots
BLOCKS = 96  # a 384 KB filesystem: a few copies fit the heap bench/run.py gives
FLIPS = 600
CLASSES = ("ok", "reported", "silent", "reused", "new_id", "crash", "boot_loop", "no_mount")
BAD = ("silent", "reused", "new_id", "crash", "boot_loop")  # the goal: none of these
# What a board without NVS cannot see (--no-nvs; docs/storage.md, "The fault
# campaign, and what boot cannot see"), as measured: the newest record's slot
# or its folder rolled back, the whole store rolled back within a segment, and
# a flip that rolls the filesystem's root back to before the store existed.
WITHOUT_NVS = {"files_reused": 5, "flips_new_id": 1}
OTHER_ID = b"0123456789abcdef"


def _mount(image, bit=-1):
    """Mount a copy of image (with `bit` flipped, if >= 0) on /f."""
    gc.collect()  # one image at a time in the heap bench/run.py gives
    flash = NorFlash(len(image) // 4096, image=image)
    if bit >= 0:
        flash.mem[bit // 8] ^= 1 << bit % 8
    try:
        vfs.umount("/f")
    except OSError:
        pass
    vfs.mount(vfs.VfsLfs2(flash), "/f")
    return flash


def _boot_twice(played):
    """(session, boot) of a boot, one more after a boot that raised; None if both raised."""
    for _ in range(2):
        try:
            return played.boot()
        except Exception:  # noqa: BLE001  (what a bowl does on any exception: reset)
            pass
    return None


def judge(played, image, cut=-1, bit=-1, kept=None):
    """The class of booting `image` (with `bit` flipped, if >= 0; after a
    power cut at operation `cut` of a first boot, if cut >= 0) with the NVS
    partition `kept` (None: as the played bowl left it)."""
    played.kept = kept or (played.nvs and played.nvs.copy())
    try:
        flash = _mount(image, bit)
    except OSError:
        return "no_mount"
    try:
        if cut >= 0:
            flash.cut_at = flash.ops + cut
            try:
                played.boot()
            except Exception:  # noqa: BLE001  (the power cut)
                pass
            # the flash as the cut left it, on a new chip: the files the cut
            # left open write to the old one when the collector closes them
            flash.cut_at = -1
            flash = _mount(flash.mem)
        try:
            session, boot = played.boot()
        except Exception:  # noqa: BLE001
            return "boot_loop" if _boot_twice(played) is None else "crash"
        if session.store.bowl_id != played.store.bowl_id:
            return "new_id"
        if boot.tip < played.tip:
            return "reused"
        game = session.game
        if (
            game is None
            or game.snapshot() != played.states[played.tip]
            or session.shown != played.shown[played.tip]
        ):
            lost = "reported" if boot.issues else "silent"
        else:
            lost = "ok"
        return lost if plays_on(session, played) else "boot_loop"
    finally:
        vfs.umount("/f")


def plays_on(session, played):
    """The bowl throws once more and the next boot has that throw."""
    try:
        if session.game is None or session.game.ended:
            session.new_game(Rules("xiamen"), 10)
        else:
            session.throw()
        session.maintain()
        seq, state = session.store.seq, session.game.snapshot()
        again, boot = played.boot()
        return boot.tip >= seq and again.game.snapshot() == state
    except Exception:  # noqa: BLE001
        return False


def flips(played, count):
    """Single-bit flips in the blocks LittleFS has written (an erased block
    is rewritten before it is read)."""
    image = played.flash.mem
    erased = b"\xff" * 4096
    used = [b for b in range(len(image) // 4096) if image[b * 4096 : (b + 1) * 4096] != erased]
    random.seed(3)
    for _ in range(count):
        bit = used[random.getrandbits(16) % len(used)] * 32768 + random.getrandbits(15)
        yield "flip bit %d" % bit, image, -1, bit, None


def _walk(path):
    """Every file and folder under path, folders after their files."""
    for name in sorted(os.listdir(path)):
        full = path + "/" + name
        if os.stat(full)[0] & 0x4000:
            yield from _walk(full)
        yield full


def _remove(path):
    if os.stat(path)[0] & 0x4000:
        for name in os.listdir(path):
            _remove(path + "/" + name)
        os.rmdir(path)
    else:
        os.remove(path)


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _roll_back(path, older):
    """Put path (file or folder) as it was in the image mounted at /o."""
    old = "/o" + path[2:]
    if os.stat(path)[0] & 0x4000:
        for name in os.listdir(path):
            _roll_back(path + "/" + name, older)
        return
    data = _read(old)
    if data is None:
        os.remove(path)
    else:
        with open(path, "wb") as f:
            f.write(data)


def _damaged(played, path, how, older):
    """The image with `path` damaged `how`, or None if that changes nothing."""
    flash = _mount(played.flash.mem)
    if how == "delete":
        _remove(path)
    elif how == "empty":
        with open(path, "wb"):
            pass
    else:
        vfs.mount(vfs.VfsLfs2(NorFlash(len(older) // 4096, image=older)), "/o")
        try:
            before = [_read(p) for p in _walk(path)] if os.stat(path)[0] & 0x4000 else [_read(path)]
            _roll_back(path, older)
            after = [_read(p) for p in _walk(path)] if os.stat(path)[0] & 0x4000 else [_read(path)]
        finally:
            vfs.umount("/o")
        if before == after:
            vfs.umount("/f")
            return None
    vfs.umount("/f")
    return flash.mem


def file_cases(played, every=1):
    _mount(played.flash.mem)
    paths = [ROOT] + list(_walk(ROOT))
    folders = [p for p in paths if os.stat(p)[0] & 0x4000]
    vfs.umount("/f")
    n = 0
    for path in paths:
        hows = ["delete", "back 1", "back 5"] + ([] if path in folders else ["empty"])
        for how in hows:
            n += 1
            if n % every:
                continue
            older = (
                played.images[played.throws - (0 if how == "back 1" else 4)]
                if how.startswith("back")
                else None
            )
            image = _damaged(played, path, how, older)
            if image is not None:
                yield "%s %s" % (how, path[len(ROOT) :] or "/data"), image, -1, -1, None


def _ops(played, image, kept):
    """Flash operations of a boot of image with NVS `kept` (a copy of it)."""
    played.kept = kept and kept.copy()
    flash = _mount(image)
    try:
        played.boot()
    finally:
        vfs.umount("/f")
    return flash.ops


def cut_cases(played, every=1):
    """A power cut at every operation of the first boot after a store-level loss."""
    lost = [ROOT, ROOT + "/id", ROOT + "/seg"] + [ROOT + "/s%d" % d for d in range(16)]
    n = 0
    for path in lost:
        image = _damaged(played, path, "delete", None)
        for cut in range(_ops(played, image, played.nvs)):
            n += 1
            if n % every == 0:
                yield "delete %s, cut at %d" % (path[len(ROOT) :] or "/data", cut), image, cut, -1, None


def _nvs_damaged(played, how):
    """A copy of the played bowl's NVS partition, damaged `how`."""
    kept = played.nvs.copy()
    values = kept.spaces["bobing"]
    if how == "erased":
        kept.spaces.clear()
    elif how.endswith("lost"):
        del values[how.split()[0]]
    elif how.startswith("tip back"):
        values["tip"] -= int(how.split()[-1])
    else:  # another bowl's id
        values["id"] = OTHER_ID
    return kept


def nvs_cases(played, every=1):
    """The NVS partition damaged alone, the filesystem intact: booted, and
    with a power cut at every operation of that boot."""
    image = played.flash.mem
    n = 0
    for how in ("erased", "tip lost", "id lost", "tip back 1", "tip back 5", "another bowl's id"):
        kept = _nvs_damaged(played, how)
        yield "nvs %s" % how, image, -1, -1, kept.copy()
        for cut in range(_ops(played, image, kept)):
            n += 1
            if n % every == 0:
                yield "nvs %s, cut at %d" % (how, cut), image, cut, -1, kept.copy()


def campaign(name, played, cases, verbose):
    counts = {c: 0 for c in CLASSES}
    for case, image, cut, bit, kept in cases:
        what = judge(played, image, cut, bit, kept)
        counts[what] += 1
        if verbose and what != "ok":
            print("#", name, case, what)
    total = sum(counts.values())
    print("faults_%s_cases %d cases -" % (name, total))
    for c in CLASSES:
        known = WITHOUT_NVS if played.nvs is None else {}
        target = known.get("%s_%s" % (name, c), 0) if c in BAD else "-"
        print("faults_%s_%s %d cases %s" % (name, c, counts[c], target))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    verbose = "-v" in sys.argv
    nvs = None if "--no-nvs" in sys.argv else Partition()
    count = int(args[0]) if args else FLIPS
    every = 1 if count >= FLIPS else 8
    played = Played(THROWS, blocks=BLOCKS, keep=(THROWS - 4, THROWS), nvs=nvs)
    played.throws = THROWS
    campaign("flips", played, flips(played, count), verbose)
    campaign("files", played, file_cases(played, every), verbose)
    played.images.clear()  # room in the heap for the cut chip and the one after it
    campaign("cuts", played, cut_cases(played, every), verbose)
    if nvs is not None:
        campaign("nvs", played, nvs_cases(played, every), verbose)


main()
