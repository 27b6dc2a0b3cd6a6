"""Cut the power at every flash operation of a whole game, and check each boot.

record() plays a game through the firmware's own session (bobing.session)
on a fresh simulated flash and keeps the trace of its program/erase
operations, the batch logged under each sequence number, the game state
after it, and when each throw could be shown.  check_every_cut()
rebuilds the flash as it was at every operation index (or a seeded sample
of them), both with that operation not started and half done, boots the
bowl on it and checks it.
"""

import vfs
from nor_flash import NorFlash

from bobing.dice import Dice, SeededBytes
from bobing.rules import Rules
from bobing.session import Session
from bobing.store.store import Store

BLOCKS = 128  # a 512 KB filesystem: room for a whole game and the store's 18 folders


def bowl(root, seed, nvs=None):
    """A session as the firmware builds it, on seeded dice; nvs: the chip's
    NVS partition (sim.nvs.Partition), None: a board without one."""
    return Session(Store(root, None if nvs is None else nvs.open), Dice(SeededBytes(seed)))


def conserved(game):
    pool = [n * game.sets for n in (32, 16, 8, 4, 2, 1)]
    for t in range(6):
        held = sum(game.holdings[s * 6 + t] for s in range(game.players))
        if held + game.remaining[t] + game.shared[t] != pool[t]:
            return False
    return True


class Recording:
    def __init__(self):
        self.image = None  # the freshly formatted flash
        self.trace = []
        self.batches = {}  # seq -> logged payload
        self.states = {}  # seq -> game snapshot after that record
        self.shown_at = []  # (operations done when the throw could be shown, seq)
        self.end = None


def record(preset, seed, players, ending=None, ending_at=60):
    """Play and record a game through the shipped session, calling maintain()
    after each result as the application does; `ending` (six digits) is
    thrown at throw number `ending_at` to force that preset's special ending."""
    rec = Recording()
    flash = NorFlash(BLOCKS)
    vfs.VfsLfs2.mkfs(flash)
    rec.image = bytes(flash.mem)
    flash.trace = rec.trace
    flash.ops = 0  # operation indexes count from the formatted flash, as the trace does
    vfs.mount(vfs.VfsLfs2(flash), "/rec")
    session = bowl("/rec/data", seed)
    session.boot()
    session.new_game(Rules(preset), players)
    throws = 0
    while True:
        seq = session.store.seq
        rec.shown_at.append((flash.ops, seq))
        rec.batches[seq] = session.shown
        rec.states[seq] = session.game.snapshot()
        session.maintain()
        if session.game.ended:
            break
        throws += 1
        dice = [int(c) for c in ending] if ending and throws == ending_at else None
        session.throw(dice)
    rec.end = session.game.end_reason_name()
    vfs.umount("/rec")
    return rec


def apply_op(mem, op, block_size, torn):
    where, data = op
    if data is None:  # erase
        size = block_size // 2 if torn else block_size
        start = where * block_size
        mem[start : start + size] = b"\xff" * size
        return
    if torn:
        data = data[: len(data) // 2]
    for i in range(len(data)):
        mem[where + i] &= data[i]


def check_boot(rec, image, cut, seed):
    """Boot on this flash image; raise AssertionError naming what went wrong."""
    flash = NorFlash(BLOCKS, image=image)
    vfs.mount(vfs.VfsLfs2(flash), "/cut")
    try:
        session = bowl("/cut/data", seed)
        boot = session.boot()
        shown = 0
        for ops, seq in rec.shown_at:
            if ops <= cut:
                shown = seq
        assert not boot.issues, (cut, boot.issues)
        assert shown <= boot.tip <= shown + 1, (cut, shown, boot.tip)  # at most the throw in flight lost
        if boot.state is not None:
            assert rec.states[boot.state_seq] == boot.state, (cut, boot.state_seq)
        if boot.tip:
            assert session.game.snapshot() == rec.states[boot.tip], (cut, boot.tip)
            assert conserved(session.game), cut
            assert session.shown == rec.batches[boot.tip], (cut, boot.tip)  # shown again
            if not session.game.ended:  # the bowl plays on from here
                session.throw()
                again = bowl("/cut/data", seed)
                assert again.boot().tip == boot.tip + 1 and not again.issues, (cut, again.issues)
                assert again.shown == session.shown, cut
        return boot.power_cut
    finally:
        vfs.umount("/cut")


def cut_points(rec, one_in, seed):
    """The operation indexes to cut at: every one (one_in 1), else a seeded
    one in `one_in` of them plus the first and the last erase and program,
    so that every kind of operation is cut, torn and not."""
    if one_in <= 1:
        return range(len(rec.trace))
    import random

    random.seed(seed)
    cuts = set(i for i in range(len(rec.trace)) if random.randrange(one_in) == 0)
    for erase in (True, False):
        kind = [i for i, op in enumerate(rec.trace) if (op[1] is None) == erase]
        if kind:
            cuts.add(kind[0])
            cuts.add(kind[-1])
    return cuts


def check_every_cut(rec, seed, one_in=1):
    """Check a boot at the operation indexes of cut_points(), the operation
    not done and torn.  Returns (cut points checked, boots that counted a
    power-cut recovery, erases cut)."""
    mem = bytearray(rec.image)
    block_size = len(mem) // BLOCKS
    cuts = cut_points(rec, one_in, seed)
    checked = recovered = erases = 0
    for cut in range(len(rec.trace)):
        op = rec.trace[cut]
        if cut in cuts:
            erases += op[1] is None
            for torn in (False, True):
                image = bytearray(mem)
                if torn:
                    apply_op(image, op, block_size, True)
                recovered += check_boot(rec, image, cut, seed)
                checked += 1
        apply_op(mem, op, block_size, False)
    return checked, recovered, erases
