"""The bowl's whole storage flow behind one object.

    store = Store("/data")              # a directory on the LittleFS flash
    boot = store.recover(on_record)     # once at power-up: on_record(seq, payload, game_start)
    seq = store.append(payload)         # durable on return: only then show the throw
    store.maintain()                    # after the result is shown: seal a segment when due
    store.save_snapshot(state)          # every SNAPSHOT_EVERY records and at game end
    store.acknowledge(ack_bytes)        # the host's ack after a verified sync
    store.free_space_warning()          # None, or one line for the screen
    store.bowl_id                       # 16 hex digits naming this bowl to the host

bobing.session drives it exactly so; docs/storage.md explains the formats
and why this order survives power cuts.
"""

import os
import sys

from bobing.store import record as rec
from bobing.store.counters import Counters
from bobing.store.log import (
    RESERVE_BLOCKS,
    SLOTS,
    SLOTS_PER_DIR,
    Log,
    StoreFull,
    exists,
    free_blocks,
    read_file,
    remove,
    write_file,
)
from bobing.store.snapshot import Snapshots

SNAPSHOT_EVERY = 32  # records between snapshots: bounds what boot reads and replays
_HEX = b"0123456789abcdef"


def _forget(name):
    """Drop the imported module `name`: its code objects are freed once
    nothing holds them (the chain verifier's: 624 B of a bowl's heap in
    play, docs/memory.md), and the next import makes them again."""
    package, _, leaf = name.rpartition(".")
    del sys.modules[name]
    delattr(sys.modules[package], leaf)


class Recovery:
    """What recover() found.

    state: the newest intact snapshot's bytes, or None (none, or none intact)
    state_seq: the record that snapshot includes (0: none)
    replay_from: the first record on_record was given (state_seq when there
      is a snapshot, so the last throw can be shown again even when it covers it)
    tip: the last durable record: the throw the bowl shows again after a power cut
    issues: one line per damaged or suspicious thing found (empty: all clean)
    power_cut: True if the bowl went down with work not covered by a snapshot
    counters: {"games", "throws", "recoveries"} over the bowl's whole life
    """

    def __init__(self):
        self.state = None
        self.state_seq = 0
        self.replay_from = 1
        self.tip = 0
        self.issues = []
        self.power_cut = False
        self.counters = {}


class Store:
    def __init__(self, root):
        self.root = root
        self.log = Log(root)
        self.snapshots = Snapshots(root)
        self.counters = Counters(root)
        self.free = (0, 0, 0)  # free_blocks() as of the last housekeeping
        self.full = False  # the last seal found no room
        self._remade = []  # slot folders recover() had to make again
        self._stale = False  # recover() found a temp file a power cut left
        self.bowl_id = ""  # set by recover(): names this bowl's records in the host's database

    @property
    def seq(self):
        """Sequence number of the last durable record (0: empty log)."""
        return self.log.tip

    def recover(self):
        """Boot, first step: make the folders, drop stale temp files, load the
        snapshots and counters.  Returns the Recovery to rebuild the game
        from (its state) and to hand to replay()."""
        boot = Recovery()
        log = self.log
        counters = self.counters
        self._remade = log.create_dirs()
        self._stale = log.remove_temp()
        self._stale = self.snapshots.remove_temp() or self._stale
        self.snapshots.load(boot.issues, memoryview(log.buf))
        counters.load(boot.issues)
        self._load_bowl_id(boot.issues, counters.generation == 0)
        log.hint = (counters.prev_segment, counters.newest_segment)
        self._start(boot)
        if boot.state is None and counters.game and self.snapshots.damaged:
            boot.issues.append("no intact snapshot: the game is replayed from record %d" % counters.game)
        return boot

    def _load_bowl_id(self, issues, fresh):
        """Read the file `id` (16 lowercase hex digits), or make it from
        os.urandom when missing or damaged: written once, at first boot, so a
        host tells many bowls' records apart in one database."""
        path = self.root + "/id"
        data = read_file(path)
        if data and len(data) == 16 and all(c in _HEX for c in data):
            self.bowl_id = data.decode()
            return
        self.bowl_id = "".join("%02x" % b for b in os.urandom(8))
        if data or not fresh:
            issues.append("bowl id %s: new id %s" % ("damaged" if data else "missing", self.bowl_id))
        try:
            write_file(path, self.bowl_id.encode(), path + ".tmp")
        except StoreFull:
            issues.append("bowl id not saved: flash full")

    def _start(self, boot):
        """Where replay starts: the newest intact snapshot, else the current
        game's header record, else the first record."""
        newest = self.snapshots.newest
        if newest is not None:
            boot.state_seq, _, boot.state = newest
            boot.replay_from = boot.state_seq
        elif self.counters.game:
            boot.replay_from = self.counters.game

    def replay(self, boot, on_record):
        """Boot, second step: feed on_record(seq, payload bytes, game_start)
        every intact record from boot.replay_from on, settle the tip (never
        below a number already used), count games and recoveries, apply a
        dropped-in `ack` file.  Reads the newest one or two segments and the
        slots through one kept buffer, whatever the history length."""
        issues = boot.issues
        log = self.log
        counters = self.counters
        self._scan(boot, on_record, counters.counted + 1)
        newest = self.snapshots.newest
        if newest is not None and newest[0] > log.tip:
            issues.append("log ends at record %d, before the snapshot of record %d" % (log.tip, newest[0]))
            log.tip, log.chain = newest[0], newest[1]
        if counters.counted > log.tip:
            issues.append("records %d-%d missing" % (log.tip + 1, counters.counted))
            log.tip, log.chain = counters.counted, rec.reanchor(counters.counted)
        if self._remade:
            names = " ".join("s%d" % d for d in self._remade)
            issues.append("folders missing, made again: %s" % names)
        for folder in self._remade:
            at = (log.tip + 1) % SLOTS
            if at // SLOTS_PER_DIR == folder:
                # the next records were due in it: they may have been written
                # and lost with it, so their numbers are never used again
                last = log.tip + SLOTS_PER_DIR - at % SLOTS_PER_DIR
                issues.append("records %d-%d may be lost" % (log.tip + 1, last))
                log.tip, log.chain = last, rec.reanchor(last)
        boot.power_cut = self._stale or log.tip > boot.state_seq or bool(issues)
        if boot.power_cut:
            counters.recoveries += 1
        if boot.power_cut or counters.counted != log.tip:
            counters.counted = log.tip
            counters.save()
        self._apply_ack_file(issues)
        self.free = free_blocks(self.root)
        boot.tip = log.tip
        boot.counters = self.lifetime()

    def reload(self):
        """A Recovery from the newest snapshot kept in RAM, for rescan()."""
        boot = Recovery()
        self._start(boot)
        boot.tip = self.log.tip
        return boot

    def rescan(self, boot, on_record):
        """Feed the records from boot.replay_from on again, as replay() does,
        writing nothing: undoes a change to the game whose record was refused."""
        self._scan(boot, on_record, None)

    def _scan(self, boot, on_record, count_from):
        """Read the log from min(replay_from, count_from); count the game
        starts from count_from on (None: count nothing)."""
        counters = self.counters
        games = [0]

        def record(seq, data, start, end, game_start):
            if game_start and count_from is not None and seq >= count_from:
                games[0] += 1
                counters.game = max(counters.game, seq)
            if seq >= boot.replay_from:
                on_record(seq, bytes(data[start:end]), game_start)

        from bobing.store import verify  # boot and a rare rescan: not kept imported in play

        verifier = verify.Verifier()
        self.log.scan(verifier, min(boot.replay_from, count_from or boot.replay_from), record)
        boot.issues.extend(verifier.issues)
        counters.games += games[0]
        _forget("bobing.store.verify")

    def _apply_ack_file(self, issues):
        path = self.root + "/ack"
        if not exists(path):
            return
        data = read_file(path)
        try:
            self.acknowledge(data or b"")
        except ValueError as e:
            issues.append(str(e))
        remove(path)
        if exists(path):
            issues.append("ack: cannot be removed (a folder?)")

    def append(self, payload, game_start=False):
        """Log one record (an event batch; game_start for a game's header) and
        return its sequence number once it is on flash.  StoreFull if there
        is no room: nothing is written, so the throw must not be shown."""
        log = self.log
        if log.needs_seal() and self.full:
            raise StoreFull()
        sealed_before = log.last_end
        seq = log.append(payload, game_start)
        if log.last_end != sealed_before:
            self._sealed()
        if game_start:
            self.counters.games += 1
            self.counters.game = seq
            self.counters.counted = seq
            self.counters.save()
        return seq

    def room(self):
        """False when the next append would be refused (StoreFull): check
        before changing the game, so a refused throw changes nothing."""
        return not (self.log.needs_seal() and self.full)

    def maintain(self):
        """Housekeeping, after the result is shown: seal the pending records
        into a segment when due.  True if it did something."""
        self.log.hash_pending()
        try:
            if not self.log.needs_seal() or not self.log.seal():
                return False
        except StoreFull:
            self.full = True
            return False
        self._sealed()
        return True

    def _sealed(self):
        """After a seal: where boot finds the newest segments without listing seg/."""
        newest = self.log.segments[-2:]
        c = self.counters
        c.prev_segment = newest[0] if len(newest) == 2 else 0
        c.newest_segment = newest[-1]
        c.counted = self.log.last_end
        c.save()
        self.free = free_blocks(self.root)

    def save_snapshot(self, state):
        """Save the game state as of the last appended record (temp + rename)."""
        self.snapshots.save(self.log.tip, self.log.chain, state)

    def acknowledge(self, data):
        """Apply the host's ack (record.ack bytes): delete the segments it covers.
        Returns how many were deleted; ValueError if it is damaged or does not
        match this log's chain (then nothing is deleted).  The acknowledged
        point is saved before anything is deleted, so a power cut in between
        leaves deletions the counters explain."""
        parsed = rec.parse_ack(data)
        if parsed is None:
            raise ValueError("acknowledgement damaged: ignored")
        last, chain = parsed
        c = self.counters
        if last > c.acked:
            if self.log.acked_segment(last, chain) < 0:
                raise ValueError("acknowledgement of record %d does not match this log: ignored" % last)
            c.acked = last
            c.save()
        keep_after = min(self.snapshots.keep_after(), c.game - 1 if c.game else c.acked)
        deleted = self.log.release(min(last, keep_after))
        if deleted:
            self.free = free_blocks(self.root)
            self.full = False
        return deleted

    def lifetime(self):
        """{"games", "throws", "recoveries"} since the flash was erased."""
        c = self.counters
        return {"games": c.games, "throws": self.log.tip - c.games, "recoveries": c.recoveries}

    def audit_code(self):
        """8 hex digits of the chain value at the last record, for the screen: a
        witness who notes it can later prove the log was not rewritten."""
        return "".join("%02x" % b for b in self.log.chain[:4])

    def free_space_warning(self):
        """None, or one line for the screen when unsynced logs fill the flash.
        Costs nothing: the free space is measured after housekeeping."""
        free, total, size = self.free
        if free >= max(4 * RESERVE_BLOCKS, total // 8) and not self.full:
            return None
        unsynced = self.log.tip - self.counters.acked
        if self.full or free < RESERVE_BLOCKS + 1:
            return "Flash full (%d records unsynced): sync with the host to play on" % unsynced
        return "Flash nearly full: %d KB free, %d records unsynced: sync soon" % (
            free * size // 1024,
            unsynced,
        )
